"""Package layout that pyproject.toml cannot express on its own.

The repository keeps the game in ``demo/`` (so ``python -m demo`` runs from a
checkout, as the README says), but installs it as ``mazeplugin_demo``: a name
of its own, not the generic ``demo`` that would collide with other projects.
Everything else about the package is in pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=find_packages(include=["mazeplugin", "mazeplugin.*"])
    + ["mazeplugin_demo"]
    + [f"mazeplugin_demo.{name}" for name in find_packages("demo")],
    package_dir={"mazeplugin_demo": "demo"},
)
