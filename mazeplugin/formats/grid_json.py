"""Deprecated: :mod:`mazeplugin.formats.jsonio` writes and reads every grid's JSON (``level.to_json()``,
``level.save(path)``, ``mp.from_json(text)``, ``mp.load(path)``). The names here warn
(``DeprecationWarning``) and give jsonio's, for one release.

>>> import warnings
>>> import mazeplugin as mp
>>> level = mp.generate("wilson", 6, 4, grid="hex", seed=3)
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     from_json = __getattr__("from_json")
>>> from_json(level.to_json()).to_json() == level.to_json(), caught[0].category.__name__
(True, 'DeprecationWarning')
"""

from __future__ import annotations

from typing import Any, Dict, Tuple

from .. import seam

_NAMES: Dict[str, Tuple[str, str, str]] = {  # old name: (module, its name there, what to use instead)
    "to_json": ("jsonio", "to_json", "level.to_json()"), "from_json": ("jsonio", "from_json", "mp.from_json(text)"),
    "from_data": ("jsonio", "from_data", "mazeplugin.formats.jsonio.from_data"),
    "load_json": ("jsonio", "load_json", "mp.load(path)"), "save_json": ("jsonio", "save_json", "level.save(path)"),
    "FORMAT": ("jsonio", "GRID_FORMAT", "mazeplugin.formats.jsonio.GRID_FORMAT"),
    "MAX_JSON_CHARS": ("jsonio", "MAX_GRID_JSON_CHARS", "mazeplugin.formats.jsonio.MAX_GRID_JSON_CHARS"),
    "check_grid_options": ("recorded", "check_grid_options", "mazeplugin.formats.recorded.check_grid_options"),
}


def __getattr__(name: str) -> Any:
    if name not in _NAMES:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, there, instead = _NAMES[name]
    seam.deprecated(f"mazeplugin.formats.grid_json.{name}", instead)
    return getattr(seam.formats(module), there)


__all__ = list(_NAMES)
