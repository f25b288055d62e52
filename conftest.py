"""Root pytest configuration: the core's tests run without pygame (and without numba) too.

``mazeplugin/pg/`` (the only package importing pygame) is collected for its
doctests only when pygame is installed, and so is the demo
(``demo/``, whose modules' doctests run with the suite); the pygame test
modules skip themselves with ``pytest.importorskip``. Likewise the compiled
kernels in ``mazeplugin/_compiled/`` (which import numba, the optional
``fast`` extra) are collected only when numba is installed; their package
``__init__`` imports without it and is always collected.
"""

import importlib.util
from pathlib import Path

collect_ignore = []
if importlib.util.find_spec("pygame") is None:
    collect_ignore += ["mazeplugin/pg"]
    # The demo is a pygame game. "demo" is one of the testpaths, which collect_ignore does not drop: its files.
    collect_ignore += [f"demo/{p.name}" for p in sorted((Path(__file__).parent / "demo").glob("*.py"))]
if importlib.util.find_spec("numba") is None:
    kernels = Path(__file__).parent / "mazeplugin" / "_compiled"
    collect_ignore += [f"mazeplugin/_compiled/{p.name}" for p in sorted(kernels.glob("*.py")) if p.name != "__init__.py"]
    collect_ignore += ["mazeplugin/dataset/figures_kernel.py"]  # the dataset's kernel, on the same shared parts
if importlib.util.find_spec("gymnasium") is None:  # the `gym` extra: mazeplugin.gym's doctests need it
    collect_ignore += ["mazeplugin/gym"]
if importlib.util.find_spec("stable_baselines3") is None:  # mazeplugin.gym.sb3 subclasses its VecEnv
    collect_ignore += ["mazeplugin/gym/sb3.py"]
if importlib.util.find_spec("minigrid") is None:  # mazeplugin.gym.minigrid_names' doctest builds MiniGrid's grid
    collect_ignore += ["mazeplugin/gym/minigrid_names.py"]
