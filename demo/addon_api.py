"""What a feature of the demo (an add-on) sees: :class:`Addon`, :class:`Binding`, and the :class:`Host` it plugs into.

A feature beyond walking the maze (the minimap, level content, endless
worlds, levels from files...) is an :class:`Addon`: a class in a module of
its own under ``demo/``, listed once in :func:`demo.addons.addon_classes`.
The app asks each listed class to add its command-line options, then to
:meth:`Addon.create` itself from the parsed options (returning None when
the options leave it off), and from then on calls its hooks every frame.
Its :attr:`Addon.bindings` join the app's keys, the key help line and the
``?`` overlay.

An add-on knows the app only through :class:`Host`: the game, the camera,
the tile size, and :meth:`Host.switch_mode`. It never imports
``demo.app`` (the app imports the add-ons, through the registry), so the
imports run one way: ``app → addons (registry) → each add-on → addon_api``.

Hooks run in this order each frame: :meth:`~Addon.update` (after the player
moved, only while the game runs: not while paused or while a code is typed),
:meth:`~Addon.draw_world` (after the map, before the player),
:meth:`~Addon.draw_overlay` (over the map, under the HUD bars), and
:meth:`~Addon.hud_flags` (words shown beside the clock).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, List, Optional, Protocol, Sequence, Tuple


if TYPE_CHECKING:  # pragma: no cover - types only; this module imports no pygame at run time
    import pygame

    import mazeplugin.pg as mpg

    from .game import Game


@dataclass(frozen=True)
class Binding:
    """A key of the demo: which pygame keys, how the help names it, and what it does.

    ``label`` is the key as printed ("R", "Tab"); ``help`` the full
    description ("restart"); ``short`` a shorter one for narrow windows ("" to
    leave it out of the short key line; the ``?`` overlay always lists it).
    ``action`` runs on key down. ``--script`` presses any key by its pygame name.
    """

    keys: Tuple[int, ...]
    label: str
    help: str
    action: Callable[[], None]
    short: str = ""


class Host(Protocol):
    """What an add-on may use of the app it runs in."""

    game: "Game"
    """The rules: level, player, fog, messages (``game.say``), events."""
    camera: "mpg.Camera"
    """Where the view looks: ``offset``, ``view_rect``, ``view_size``, ``world_size``."""
    tile: int
    """Pixels per tile."""

    def switch_mode(self, name: str) -> None:
        """Leave this mode for another (``"endless"``) at the end of the frame."""
        ...  # pragma: no cover


class Addon:
    """A feature of the demo; override the hooks you need (each does nothing here).

    Set ``self.bindings`` in ``__init__`` for keys of its own (their actions
    are usually bound methods of the addon).
    """

    def __init__(self, app: Host) -> None:
        self.app = app
        self.bindings: Sequence[Binding] = ()

    @staticmethod
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        """Add this feature's command-line options."""

    @classmethod
    def create(cls, app: Host, options: argparse.Namespace) -> Optional["Addon"]:
        """The feature for this run, or None if ``options`` leave it off (the default: always on)."""
        return cls(app)

    def side_panel(self, area: Tuple[int, int], world: Tuple[int, int]) -> int:
        """Pixels this add-on keeps for itself at the right of the map, off the play area (default none).

        ``area`` is the map's area between the HUD bars and ``world`` the
        level's size, both in pixels. :meth:`draw_overlay` draws in it: its
        ``view`` ends where the panel begins.
        """
        return 0

    def on_level(self) -> None:
        """A new level (or the same one restarted) is on: ``self.app.game.level``."""

    def update(self, dt: float) -> None:
        """``dt`` seconds of play passed."""

    def draw_world(self, surface: "pygame.Surface", offset: Tuple[int, int]) -> None:
        """Draw in world space: world pixel (0, 0) is at ``offset`` on ``surface``."""

    def draw_overlay(self, surface: "pygame.Surface", view: "pygame.Rect") -> None:
        """Draw on screen over the map; ``view`` is the screen rect the map occupies."""

    def hud_flags(self) -> List[str]:
        """Short words for the HUD's status (e.g. "MAP")."""
        return []
