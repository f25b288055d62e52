"""Drawing a grid level of the demo (:class:`demo.gridplay.GridGame`): the level scaled to fit, its content, the player."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Tuple

import pygame

import mazeplugin as mp
import mazeplugin.pg as mpg

if TYPE_CHECKING:  # pragma: no cover - types only: gridplay imports this module
    from .gridplay import GridGame


class GridView:
    """Draws a :class:`GridGame`: the level scaled to fit the view (cached per level and size), and the player."""

    def __init__(self, palette: mpg.Palette, player: mpg.Colour, edge: mpg.Colour) -> None:
        self.palette, self.player, self.edge = palette, player, edge
        self.key: Tuple[int, bool, int] = (-1, False, 0)
        self.picture: Optional[pygame.Surface] = None

    @staticmethod
    def cell_pixels(level: mp.Level, view: Tuple[int, int]) -> int:
        """Pixels per grid unit that fit the whole level (and its half-unit margins) in ``view``, 2 to 256."""
        width, height = level.maze.grid.extent()
        fit = min(view[0] / (width + 1), view[1] / (height + 1))
        return max(2, min(256, int(fit)))

    def draw(self, surface: pygame.Surface, game: GridGame, view: pygame.Rect) -> Tuple[int, int]:
        """Draw the level centred in ``view`` and the player on it; returns the player's centre on ``surface``."""
        cell = self.cell_pixels(game.level, view.size)
        key = (game.version, game.show_solution, cell)
        if key != self.key or self.picture is None:
            self.picture = mpg.render(game.level, cell=cell, show_solution=game.show_solution, palette=self.palette)
            self.key = key
        rect = self.picture.get_rect(center=view.center)
        surface.blit(self.picture, rect)
        if game.stuff is not None:
            game.stuff.draw(surface, cell, rect.topleft)
        end = game.target if game.target is not None else game.cell
        return mpg.draw_grid_player(surface, game.level, game.cell, cell=cell, end=end, progress=game.progress,
                                    offset=rect.topleft, colour=self.player, edge=self.edge)
