"""The README runs as written: every example alone, as a reader copies it.

How blocks are found (keep these rules simple; new README sections follow them):

- A block is a fenced code block: a line of three backticks and a language,
  the code, a line of three backticks. ``python`` and ``sh`` blocks run;
  anything else (``toml``, plain text) is only shown.
- Every ```python block runs **alone**, in its own fresh Python process whose
  working folder is an empty temporary folder: it must import what it uses
  and make what it reads. The one exception is a file of the checkout's
  ``docs/`` folder: a block that names ``docs/NAME`` gets that file copied
  into its folder, and the README says such a path is relative to a
  checkout. A block that imports a third-party module which is not installed
  here (an optional extra such as gymnasium) is skipped, saying which; so is
  a block whose comments say "needs pygame" (a PNG, a picture mask) where
  pygame is not installed.
  After the block, every file it saves by a literal name
  (``save_png("level.png")`` ...) must exist. pygame runs under SDL's dummy
  video and audio drivers.
- A block that reads ``pygame.key.get_pressed()`` is a game loop and is
  played, not skipped: the harness stands in for a player's hands.
  ``pygame.key.get_pressed()`` reports the arrow keys that lead the block's
  ``player`` rect along the shortest way to its ``level``'s exit, and
  ``pygame.time.Clock.tick`` returns 1/60 s without sleeping, so the loop
  runs as fast as it draws. The loop must end by itself when the player
  reaches the exit; if it has not after ``MAX_FRAMES`` frames the harness
  closes the window (a QUIT event) and the test fails.
- Every ```sh command except the two install commands (the main command
  and the test command, which CI runs as they are) runs in a copy of the
  checkout, one command at a time, with a timeout; each must succeed.
"""

from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Tuple

import pytest

from processes import child_env

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MAX_FRAMES = 20_000
COMMAND_TIMEOUT = 600  # a hang guard, never a speed bound

Block = Tuple[int, str, str]  # first line of the code in README.md (1-based), language, code


def blocks(text: str) -> List[Block]:
    """The fenced code blocks of a Markdown text: ``(first code line, language, code)``."""
    found = []
    for match in re.finditer(r"^```(\w*)\n(.*?)^```$", text, re.MULTILINE | re.DOTALL):
        first_line = text.count("\n", 0, match.start(2)) + 1
        found.append((first_line, match.group(1), match.group(2)))
    return found


def install_commands(text: str) -> List[str]:
    """The commands under ``<!-- main-command -->`` and ``<!-- test-command -->`` (CI runs those)."""
    return re.findall(r"<!-- (?:main|test)-command -->\n```sh\n(.*?)\n```", text, re.DOTALL)


RUNNER = r'''
import json, os, sys

first_line, code = json.load(open(sys.argv[1], encoding="utf-8"))
report = {"frames": 0, "forced_quit": False, "loops": 0}

try:
    import pygame
except ImportError:
    pygame = None

namespace = {"__name__": "__main__"}

if pygame is not None:
    real_get = pygame.event.get

    class Hands:
        """What a player would hold: arrow keys towards the next tile on the shortest way to the exit."""

        def __init__(self, held):
            self.held = held

        def __getitem__(self, key):
            return int(key in self.held)

        def __len__(self):
            return 512

    def held_keys():
        import mazeplugin.pg as mpg

        level, player, tile = namespace.get("level"), namespace.get("player"), namespace.get("TILE")
        if level is None or player is None or tile is None or level.exit is None:
            return set()
        distance = level.distances(level.exit)
        x, y = mpg.pixel_to_tile(player.center, tile)
        h, w = distance.shape
        if not (0 <= x < w and 0 <= y < h) or distance[y, x] <= 0:
            return set()
        step = next(
            (nx, ny) for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))
            if 0 <= nx < w and 0 <= ny < h and distance[ny, nx] == distance[y, x] - 1
        )
        tx, ty = mpg.tile_to_pixel(step, tile)
        cx, cy = player.center
        held = set()
        if tx > cx: held.add(pygame.K_RIGHT)
        if tx < cx: held.add(pygame.K_LEFT)
        if ty > cy: held.add(pygame.K_DOWN)
        if ty < cy: held.add(pygame.K_UP)
        return held

    def get_pressed():
        return Hands(held_keys())

    def get(*args, **kwargs):
        events = real_get(*args, **kwargs)
        report["frames"] += 1
        if report["frames"] > int(os.environ["README_MAX_FRAMES"]):
            report["forced_quit"] = True
            events = list(events) + [pygame.event.Event(pygame.QUIT)]
        return events

    class Clock:
        """A clock that does not sleep: every tick is 1/60 s."""

        def tick(self, framerate=0):
            report["loops"] += 1
            return 1000 // 60

        def get_time(self):
            return 1000 // 60

        def get_fps(self):
            return 60.0

    pygame.key.get_pressed = get_pressed
    pygame.event.get = get
    pygame.time.Clock = Clock

try:
    # Padded so that tracebacks name the README's own line numbers.
    exec(compile("\n" * (first_line - 1) + code, "README.md", "exec"), namespace)
finally:
    print("README-RUN " + json.dumps(report), flush=True)
'''


def python_blocks(text: str) -> List[Tuple[int, str]]:
    """The ```python blocks: ``(first code line, code)``."""
    return [(line, code) for line, language, code in blocks(text) if language == "python"]


def missing_modules(code: str) -> List[str]:
    """Top-level modules the code imports, or says it "needs", that are not installed here (never mazeplugin)."""
    names = set(re.findall(r"#.*\bneeds (pygame)\b", code))
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
            if any(alias.name.startswith("mazeplugin.pg") for alias in node.names):
                names.add("pygame")  # mazeplugin.pg is the package that needs pygame
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
            if node.module.startswith("mazeplugin.pg") or (
                    node.module == "mazeplugin" and any(alias.name == "pg" for alias in node.names)):
                names.add("pygame")
    return sorted(n for n in names if not n.startswith("mazeplugin") and importlib.util.find_spec(n) is None)


def test_readme_has_python_and_sh_examples():
    found = blocks(README.read_text(encoding="utf-8"))
    assert sum(language == "python" for _, language, _ in found) >= 5
    assert sum(language == "sh" for _, language, _ in found) >= 3
    assert len(install_commands(README.read_text(encoding="utf-8"))) == 2


def test_the_block_rules_find_what_they_should():
    text = "a\n```python\nimport os\nopen('docs/x.png')\n```\n```toml\nk = 1\n```\n```sh\nls \\\n  -l\n# note\n```\n"
    assert python_blocks(text) == [(3, "import os\nopen('docs/x.png')\n")]
    assert sh_commands(text) == [(10, "ls    -l")]
    assert missing_modules("import os, no_such_module_here") == ["no_such_module_here"]
    no_pygame = [] if importlib.util.find_spec("pygame") else ["pygame"]
    for code in ("import mazeplugin.pg as mpg", "from mazeplugin import pg", "from mazeplugin.pg import render"):
        assert missing_modules(code) == no_pygame, code
    needs = missing_modules("x = 1  # needs pygame: pip install ...")
    assert needs == ([] if importlib.util.find_spec("pygame") else ["pygame"])
    assert DOCS_PATH.findall("open('docs/x.png'); mask='docs/heart.txt'") == ["docs/x.png", "docs/heart.txt"]


DOCS_PATH = re.compile(r"\bdocs/[\w./-]*\w")
SAVED = re.compile(r"\.save_\w+\(\s*[\"']([^\"']+)[\"']")


@pytest.mark.parametrize(
    "first_line, code", python_blocks(README.read_text(encoding="utf-8")), ids=lambda v: f"line{v}" if isinstance(v, int) else ""
)
def test_every_python_block_runs_alone_in_an_empty_folder(tmp_path, first_line, code):
    missing = missing_modules(code)
    if missing:
        pytest.skip(f"README.md:{first_line} needs {', '.join(missing)}, not installed here")
    work = tmp_path / "fresh"
    work.mkdir()
    for name in sorted(set(DOCS_PATH.findall(code))):
        assert (ROOT / name).is_file(), f"README.md:{first_line} reads {name}, which the checkout does not have"
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, work / name)
    (tmp_path / "block.json").write_text(json.dumps([first_line, code]), encoding="utf-8")
    (tmp_path / "runner.py").write_text(RUNNER, encoding="utf-8")
    env = child_env(  # the compiled path in its default mode, as a reader runs the block
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        MAZEPLUGIN_NO_PLUGINS="1",
        README_MAX_FRAMES=str(MAX_FRAMES),
        PYTHONPATH=str(ROOT),  # this checkout's mazeplugin, as if installed: the folder holds nothing else
    )
    done = subprocess.run(
        [sys.executable, str(tmp_path / "runner.py"), str(tmp_path / "block.json")],
        cwd=work, env=env, capture_output=True, text=True, timeout=600,
    )
    assert done.returncode == 0, f"README.md:{first_line}: the block failed alone:\n{done.stderr[-4000:]}"
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("README-RUN ")]
    report = json.loads(line.split(" ", 1)[1])
    if "pygame.key.get_pressed" in code:
        # The game loop ran and ended because its player reached the exit, not because the harness closed it.
        assert report["loops"] > 100 and not report["forced_quit"], report
    if "Level complete in " in code:
        assert "Level complete in " in done.stdout
    for name in SAVED.findall(code):
        assert (work / name).is_file(), f"README.md:{first_line} says it saves {name}"


def sh_commands(text: str) -> List[Tuple[int, str]]:
    """Every command of every ```sh block but the install commands: ``(README line, command)``."""
    skip = set(install_commands(text))
    commands = []
    for first_line, language, code in blocks(text):
        if language != "sh" or code.strip() in skip:
            continue
        pending, start = "", 0
        for offset, line in enumerate(code.splitlines()):
            if not pending:
                start = offset
            pending += line
            if pending.endswith("\\"):
                pending = pending[:-1] + " "
                continue
            if pending.strip() and not pending.lstrip().startswith("#"):
                commands.append((first_line + start, pending.strip()))
            pending = ""
    return commands


def checkout_copy(target: Path) -> None:
    """A copy of the checkout's sources; numba's cache of the compiled kernels comes along.

    The cache sits in ``mazeplugin/_compiled/__pycache__`` and is keyed by each
    source file's size and modification time, which the copy keeps: commands
    run in the copy load the kernels instead of compiling them all again.
    """
    skip = shutil.ignore_patterns(
        ".git", ".venv*", "*.egg-info", "build", "dist", ".hypothesis", ".pytest_cache", ".mypy_cache", "bench-venv*",
    )

    def ignore(folder: str, names: List[str]) -> set:
        ignored = set(skip(folder, names))
        if Path(folder).name != "_compiled":
            ignored.update(n for n in names if n == "__pycache__")
        return ignored

    shutil.copytree(ROOT, target, ignore=ignore)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("readme-sh") / "mazeplugin"
    checkout_copy(target)
    return target


def test_every_command_example_runs_in_order(checkout):
    """The commands run one after another in one checkout, as a reader types them (later ones read
    what earlier ones wrote, so they are one test: test workers never split them)."""
    pytest.importorskip("pygame")  # the examples write PNGs: the README's installs include pygame
    commands = sh_commands(README.read_text(encoding="utf-8"))
    assert len(commands) >= 10
    for line, command in commands:
        run_command(checkout, line, command)


def run_command(checkout: Path, line: int, command: str) -> None:
    bin_dir = os.path.dirname(sys.executable)
    env = child_env(  # the compiled path in its default mode, as a reader types the command
        PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""),
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYTHONDONTWRITEBYTECODE="1",
        # `python -m pytest FILE` in one process: this suite's workers already fill the cores, and
        # -n auto would start one more worker per core for one small file (xdist runs in the suite itself).
        PYTEST_ADDOPTS="-n 0",
    )
    # `python` is the test's own interpreter, as in the activated venv the README assumes.
    command_line = re.sub(r"^python(3)?\b", lambda _: f'"{sys.executable}"', command)
    done = subprocess.run(
        ["bash", "-c", command_line], cwd=checkout, env=env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT,
    )
    assert done.returncode == 0, f"README.md:{line}: {command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
