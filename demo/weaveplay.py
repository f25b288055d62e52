"""The demo on weave levels: bridges over tunnels (``mp.generate(..., weave=True)``, see :mod:`mazeplugin.weave`).

``V`` (or ``--weave``) toggles weave for square levels: the same generator,
size and seed made with ``weave=True``. A generator that cannot weave (one
whose mazes have loops) gives way to :data:`FALLBACK`, and the status line
says so. Toggled weave levels carry no automatic rooms or content; a typed
code with ``w`` (``backtracker-10x8-3+k1t2w``) plays exactly its level, keys
and treasure included.

On a weave level the player does not slide by pixels as on other square
levels: it steps **tile to tile** with :meth:`mazeplugin.level.Level.step`,
which knows where a step goes over a bridge and where under it, gliding
between the two tiles at the square game's speed (a step once begun is
finished). Under a bridge the player is drawn dimmed with the bridge's
railings over it (see :func:`draw_walker`), so over and under read apart.
Locked doors (from a typed code) block a step as walls do (``game.solid``).
"""

from __future__ import annotations

import argparse
from typing import List, Optional, Tuple

import numpy as np
import pygame
from numpy.typing import NDArray

import mazeplugin as mp
import mazeplugin.pg as mpg
from mazeplugin.seeds import Seed

from .addon_api import Addon, Binding, Host
from .options import weave_options

Tile = Tuple[int, int]
FALLBACK = "backtracker"
"""The generator a weave level falls back to when the game's one cannot weave."""
DIM = 0.45
"""How much of the player's colour shows under a bridge (the rest is the wall's)."""


def weave_level(algorithm: str, width: int, height: int, seed: Seed, weave: "bool | float" = True) -> mp.Level:
    """The weave level of ``(algorithm, size, seed)``, or :data:`FALLBACK`'s when ``algorithm`` cannot weave
    (``weave``: True, or the share of crossings taken, as in :func:`mazeplugin.generate`).

    >>> weave_level("backtracker", 8, 6, 3).weave
    True
    >>> weave_level("backtracker", 8, 6, 3).tiles.tobytes() == mp.generate("backtracker", 8, 6, seed=3, weave=True).tiles.tobytes()
    True
    """
    try:
        return mp.generate(algorithm, width, height, seed=seed, weave=weave)
    except ValueError:
        if algorithm == FALLBACK or can_weave(algorithm):
            raise  # the size or seed is wrong, not the generator
        return mp.generate(FALLBACK, width, height, seed=seed, weave=weave)


def woven_level(algorithm: str, width: int, height: int, seed: Seed, number: int, rooms: int = 0) -> mp.Level:
    """:func:`weave_level` as a :data:`demo.rules.LevelMaker` (the number and rooms do not change it), so the
    next weave level is made ahead in the worker (:mod:`demo.ahead`) like any other."""
    return weave_level(algorithm, width, height, seed)


def can_weave(algorithm: str) -> bool:
    """Whether ``algorithm`` makes weave levels (perfect generators do).

    >>> can_weave("kruskal"), can_weave("union-find")
    (True, False)
    """
    return algorithm in mp.algorithms() and mp.get_generator(algorithm).perfect  # weave= takes perfect ones


class WeaveWalk:
    """A player on a weave level: its tile, whether it is under a bridge there, and the step it is gliding."""

    def __init__(self, tile: Tile) -> None:
        self.tile = tile
        self.under = False
        self.target: Optional[Tile] = None
        self.target_under = False
        self.progress = 0.0  # of the step under way, 0 to 1

    def advance(self, level: mp.Level, solid: NDArray[np.uint8], direction: Optional[Tile], steps: float) -> int:
        """Glide ``steps`` tiles' worth towards ``direction`` (None: only finish the step under way); how many
        steps were finished. A step goes where :meth:`~mazeplugin.level.Level.step` says, unless the tile
        there is solid in ``solid`` (a locked door)."""
        done = 0
        while steps > 0:
            if self.target is None:
                if direction is None:
                    return done
                there, under = level.step(self.tile, direction, self.under)
                if there == self.tile or solid[there[1], there[0]]:
                    return done
                self.target, self.target_under, self.progress = there, under, 0.0
            used = min(steps, 1.0 - self.progress)
            self.progress += used
            steps -= used
            if self.progress >= 1.0 - 1e-9:
                assert self.target is not None
                self.tile, self.under, self.target, self.progress = self.target, self.target_under, None, 0.0
                done += 1
        return done

    def centre(self, tile: int) -> Tuple[int, int]:
        """The player's centre in world pixels, ``tile`` pixels a tile, part way along its step."""
        x, y = mpg.tile_to_pixel(self.tile, tile)
        if self.target is None:
            return (x, y)
        tx, ty = mpg.tile_to_pixel(self.target, tile)
        return (round(x + (tx - x) * self.progress), round(y + (ty - y) * self.progress))

    def bridge_over(self) -> Optional[Tile]:
        """The bridge tile the player is drawn under now, or None: the tile its centre is on, when it is
        (or is going) under there."""
        if self.target is not None and self.progress >= 0.5:
            return self.target if self.target_under else None
        return self.tile if self.under else None


def dimmed(colour: mpg.Colour, behind: mpg.Colour) -> mpg.Colour:
    """``colour`` seen through the dark of a tunnel: mostly ``behind``.

    >>> dimmed((200, 100, 0), (0, 0, 0))
    (90, 45, 0)
    """
    return (round(colour[0] * DIM + behind[0] * (1 - DIM)), round(colour[1] * DIM + behind[1] * (1 - DIM)),
            round(colour[2] * DIM + behind[2] * (1 - DIM)))


def draw_walker(surface: pygame.Surface, level: mp.Level, walk: WeaveWalk, *, tile: int, offset: Tuple[int, int],
                radius: int, colour: mpg.Colour, edge: mpg.Colour, wall: mpg.Colour) -> None:
    """The player's disc; under a bridge dimmed, with the bridge's railings drawn over it."""
    bridge = walk.bridge_over()
    centre = walk.centre(tile)
    centre = (centre[0] + offset[0], centre[1] + offset[1])
    if bridge is None:
        pygame.draw.circle(surface, edge, centre, radius + max(1, tile // 14))
        pygame.draw.circle(surface, colour, centre, radius)
        return
    pygame.draw.circle(surface, dimmed(colour, wall), centre, radius)
    mpg.draw_bridges(surface, level, tile=tile, offset=offset, colour=wall, only=bridge)


class WeaveSwitch(Addon):
    """``V`` and ``--weave``: square levels made with weave, or without."""

    def __init__(self, app: Host) -> None:
        super().__init__(app)
        self.bindings = (Binding((pygame.K_v,), "V", "weave: bridges over tunnels", self.toggle, short="weave"),)

    add_arguments = staticmethod(weave_options)

    @classmethod
    def create(cls, app: Host, options: argparse.Namespace) -> "WeaveSwitch":
        switch = cls(app)
        if getattr(options, "weave", False):
            switch.toggle()
        return switch

    def toggle(self) -> None:
        """Weave on or off: the same generator, size and seed made again."""
        game = self.app.game
        game.weave = not game.weave
        if not game.try_load(game.algorithm, game.width, game.height, game.seed):
            game.weave = not game.weave
            return
        if not game.weave:
            game.say("Weave off")
        elif can_weave(game.algorithm):
            game.say("Weave on: bridges over tunnels (a step onto a bridge along its tunnel goes under)")
        else:
            game.say(f"Weave on: {game.algorithm} cannot weave (its mazes have loops), so {FALLBACK} makes this level")

    def hud_flags(self) -> List[str]:
        return ["WEAVE"] if self.app.game.weave else []
