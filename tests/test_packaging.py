"""What a user installs: the wheel's contents and metadata, and the demo command without pygame.

The wheel is built without build isolation (setuptools is in the ``test``
extra), so this runs offline, from a copy of the checkout's sources in a
temporary folder (a build writes ``build/`` and ``*.egg-info`` beside them). ``.ci/wheel.sh`` goes further:
it installs the wheel into fresh virtual environments and runs the commands.
"""

from __future__ import annotations

import email
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import mazeplugin as mp

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    pytest.importorskip("setuptools", minversion="77")
    out = tmp_path_factory.mktemp("wheel")
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    for name in ("mazeplugin", "demo"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(source)],
        capture_output=True, text=True, timeout=300, env=dict(os.environ, TMPDIR=str(source)),
    )
    assert done.returncode == 0, done.stderr
    (path,) = out.glob("mazeplugin-*.whl")
    return zipfile.ZipFile(path)


def dist_info(wheel: zipfile.ZipFile, name: str) -> str:
    return wheel.read(f"mazeplugin-{mp.__version__}.dist-info/{name}").decode()


def test_the_wheel_installs_the_game_as_mazeplugin_demo_and_no_package_named_demo(wheel):
    tops = {name.split("/")[0] for name in wheel.namelist() if not name.split("/")[0].endswith(".dist-info")}
    assert tops == {"mazeplugin", "mazeplugin_demo"}
    game = sorted(p.name for p in (ROOT / "demo").glob("*.py"))
    assert sorted(n.split("/")[1] for n in wheel.namelist() if n.startswith("mazeplugin_demo/")) == game


def test_every_package_of_the_checkout_is_in_the_wheel(wheel):
    names = set(wheel.namelist())
    for init in (ROOT / "mazeplugin").rglob("__init__.py"):
        package = init.parent.relative_to(ROOT)
        for module in init.parent.glob("*.py"):
            assert f"{package.as_posix()}/{module.name}" in names
    assert "mazeplugin/py.typed" in names


def test_the_commands_point_at_the_installed_names(wheel):
    entry_points = dist_info(wheel, "entry_points.txt")
    assert "mazeplugin = mazeplugin.cli:main" in entry_points
    assert "mazeplugin-demo = mazeplugin_demo:main" in entry_points


def test_metadata_names_license_python_versions_os_audience_and_keywords(wheel):
    meta = email.message_from_string(dist_info(wheel, "METADATA"))
    assert meta["License-Expression"] == "MIT"
    assert f"mazeplugin-{mp.__version__}.dist-info/licenses/LICENSE" in wheel.namelist()
    classifiers = meta.get_all("Classifier")
    for minor in range(9, 14):
        assert f"Programming Language :: Python :: 3.{minor}" in classifiers
    for classifier in ("Operating System :: OS Independent", "Intended Audience :: Developers", "Typing :: Typed"):
        assert classifier in classifiers
    assert any(c.startswith("Topic :: Games") for c in classifiers)
    assert "maze" in meta["Keywords"].split(",")
    assert meta["Requires-Python"] == ">=3.9"


def test_metadata_has_what_a_registry_page_shows(wheel):
    meta = email.message_from_string(dist_info(wheel, "METADATA"))
    assert meta["Description-Content-Type"].startswith("text/markdown")
    assert meta.get_payload().strip() == (ROOT / "README.md").read_text(encoding="utf-8").strip()
    links = dict(value.split(", ", 1) for value in meta.get_all("Project-URL"))
    assert set(links) == {"Homepage", "Source", "Issues", "Changelog"}
    assert all(url.startswith("https://") for url in links.values())
    extras = set(meta.get_all("Provides-Extra"))
    assert {"pygame", "demo", "fast", "test"} <= extras
    assert any("pytest-xdist" in r and 'extra == "test"' in r for r in meta.get_all("Requires-Dist"))


def run_without_pygame(*args: str) -> subprocess.CompletedProcess:
    """``python -m demo ARGS`` in a process where ``import pygame`` fails, as it does when it is not installed."""
    code = "import sys; sys.modules['pygame'] = None; import runpy; runpy.run_module('demo', run_name='__main__')"
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=600, cwd=ROOT
    )


@pytest.mark.parametrize("args", [[], ["--frames", "5"]])
def test_the_demo_without_pygame_says_how_to_install_it_in_one_line_and_exits_1(args):
    done = run_without_pygame(*args)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and 'pip install "mazeplugin[demo]"' in done.stderr
    assert "Traceback" not in done.stderr
