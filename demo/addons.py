"""The registry of the demo's add-ons: the list the app reads, in the order they draw.

Each add-on is a module of its own built on :mod:`demo.addon_api` (the
:class:`~demo.addon_api.Addon` base, :class:`~demo.addon_api.Binding` and
the :class:`~demo.addon_api.Host` it sees of the app). To add one: write
the module, then one import and one entry below. Imports run one way: the
app imports this registry, the registry the add-ons, the add-ons only
``addon_api`` (and the game's lower modules), never the app.
"""

from __future__ import annotations

from typing import List, Type

from .addon_api import Addon, Binding, Host
from .content import LevelContent
from .endless import EndlessSwitch
from .levels import Levels
from .minimap import Minimap
from .weaveplay import WeaveSwitch

__all__ = ["Addon", "Binding", "Host", "addon_classes"]


def addon_classes() -> List[Type[Addon]]:
    """Every add-on class of the demo, in the order they draw (a fresh list: callers may extend it)."""
    return [Levels, LevelContent, Minimap, EndlessSwitch, WeaveSwitch]
