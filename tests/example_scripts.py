"""The scripts under ``examples/`` as tests see them: loaded as modules, compiled without torch, torch when present.

``tests/test_gym_example.py`` (``examples/train_ppo.py``) and ``tests/test_gym_cleanrl.py``
(``examples/cleanrl_ppo.py``) share this setup. The examples import torch only inside the
functions that train, so both load and compile in the main venv; the tests that train call
:func:`require_torch`, which skips without torch (``.ci/sb3.sh`` runs them with it).
"""

from __future__ import annotations

import importlib.util
import py_compile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def path(name: str) -> Path:
    """``examples/<name>.py``; a clear error when there is no such script."""
    script = EXAMPLES / f"{name}.py"
    if not script.is_file():
        raise FileNotFoundError(f"name={name!r}: no examples/{name}.py (have: "
                                f"{', '.join(sorted(p.stem for p in EXAMPLES.glob('*.py')))})")
    return script


def load(name: str) -> ModuleType:
    """``examples/<name>.py`` imported as the module ``name`` (its ``if __name__ == "__main__"`` part not run)."""
    spec = importlib.util.spec_from_file_location(name, path(name))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiles(name: str, tmp_path: Path) -> None:
    """``examples/<name>.py`` byte-compiles (the bytecode goes to ``tmp_path``, not next to the script)."""
    py_compile.compile(str(path(name)), cfile=str(tmp_path / f"{name}.pyc"), doraise=True)


def require_torch() -> Any:
    """torch, set to one thread and seed 0 as the examples run it; the test is skipped without torch."""
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)
    torch.manual_seed(0)
    return torch
