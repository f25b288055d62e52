"""Drawing the demo: the map in cached chunks, markers, the player, the HUD.

The map is drawn with ``mazeplugin.pg.render_images`` (autotiled wall
sprites) in square chunks of tiles, each rendered the first time it scrolls
into view and kept in a small cache, so any level size costs the same per
frame and a new level only pays for the chunks on screen.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import replace
from typing import Dict, List, Tuple

import pygame

import mazeplugin.pg as mpg

from .game import Game

PALETTE = replace(
    mpg.DEFAULT_PALETTE,
    wall=(52, 61, 82),
    floor=(232, 226, 212),
    entrance=(46, 160, 67),
    exit=(214, 48, 49),
    solution=(245, 166, 35),
    fog=(22, 25, 34),
)
PLAYER = (37, 99, 235)
PLAYER_EDGE = (255, 255, 255)
HUD_BACK = (15, 17, 24)
HUD_TEXT = (226, 232, 240)
HUD_DIM = (148, 163, 184)
HUD_ACCENT = (250, 204, 21)
HUD_TOP, HUD_BOTTOM = 34, 26
CHUNK = 16
"""Tiles per side of a cached map chunk."""
MAX_CHUNKS = 96
"""Chunks kept (least recently drawn go first): bounds memory for any level size."""

HELP = "Arrows/WASD move   R restart   N new seed   G generator   H solution   +/- size   F fog   Enter type code   Esc quit"
SHORT_HELP = "Move: arrows/WASD  R restart  N new  G gen  H path  +/- size  F fog  Enter code  Esc"


def floor_image(tile: int) -> pygame.Surface:
    """A floor tile: the floor colour with a faint seam on its top and left."""
    image = pygame.Surface((tile, tile))
    image.fill(PALETTE.floor)
    seam = tuple(max(0, c - 12) for c in PALETTE.floor)
    pygame.draw.line(image, seam, (0, 0), (tile - 1, 0))
    pygame.draw.line(image, seam, (0, 0), (0, tile - 1))
    return image


class MapView:
    """Draws a :class:`~demo.game.Game`'s level through a camera, chunk by chunk."""

    def __init__(self, tile: int) -> None:
        self.tile = tile
        self.floor = floor_image(tile)
        self.walls = mpg.simple_wall_set(tile, PALETTE)
        self.chunks: "OrderedDict[Tuple[int, int], pygame.Surface]" = OrderedDict()
        self.key: Tuple[int, bool] = (-1, False)
        self.solution_points: List[Tuple[int, int]] = []

    def _sync(self, game: Game) -> None:
        key = (game.version, game.fog)
        if key != self.key:
            self.chunks.clear()
            self.solution_points = []
            self.key = key
            game.dirty.clear()
        if game.dirty:
            if game.fog:
                for x0, y0, x1, y1 in game.dirty:
                    for cy in range(y0 // CHUNK, (y1 - 1) // CHUNK + 1):
                        for cx in range(x0 // CHUNK, (x1 - 1) // CHUNK + 1):
                            self.chunks.pop((cx, cy), None)
            game.dirty.clear()

    def _chunk(self, game: Game, cx: int, cy: int) -> pygame.Surface:
        chunk = self.chunks.get((cx, cy))
        if chunk is None:
            chunk = mpg.render_images(
                game.level,
                floor=self.floor,
                wall_set=self.walls,
                area=(cx * CHUNK, cy * CHUNK, CHUNK, CHUNK),
                seen=game.seen if game.fog else None,
                fog=PALETTE.fog,
            )
            self.chunks[(cx, cy)] = chunk
            while len(self.chunks) > MAX_CHUNKS:
                self.chunks.popitem(last=False)
        else:
            self.chunks.move_to_end((cx, cy))
        return chunk

    def draw(self, surface: pygame.Surface, game: Game, camera: mpg.Camera, top: int) -> None:
        """Draw the map, markers, solution and player into the view area starting at row ``top``."""
        self._sync(game)
        tile, level = self.tile, game.level
        ox, oy = camera.offset
        oy += top
        view = camera.view_rect
        rows, columns = level.tiles.shape
        span = CHUNK * tile
        cx0, cy0 = max(view.left // span, 0), max(view.top // span, 0)
        cx1 = min((view.right - 1) // span, (columns - 1) // CHUNK)
        cy1 = min((view.bottom - 1) // span, (rows - 1) // CHUNK)
        for cy in range(cy0, cy1 + 1):
            for cx in range(cx0, cx1 + 1):
                surface.blit(self._chunk(game, cx, cy), (cx * span + ox, cy * span + oy))
        if game.show_solution:
            if not self.solution_points:
                self.solution_points = [mpg.tile_to_pixel(t, tile) for t in game.path]
            points = [(x + ox, y + oy) for x, y in self.solution_points]
            pygame.draw.lines(surface, PALETTE.solution, False, points, max(2, tile // 5))
        self._draw_markers(surface, game, (ox, oy))
        player = game.rect.move(ox, oy)
        radius = player.width // 2
        pygame.draw.circle(surface, PLAYER_EDGE, player.center, radius + max(1, tile // 14))
        pygame.draw.circle(surface, PLAYER, player.center, radius)

    def _draw_markers(self, surface: pygame.Surface, game: Game, offset: Tuple[int, int]) -> None:
        level = game.level
        # Under fog, a marker shows once its tile has been seen.
        shown = {
            name: not game.fog or (tile_xy is not None and bool(game.seen[tile_xy[1], tile_xy[0]]))
            for name, tile_xy in (("entrance", level.entrance), ("exit", level.exit))
        }
        mpg.draw_markers(surface, level, tile=self.tile, offset=offset, palette=PALETTE, **shown)


class Hud:
    """The bars at the top and bottom, messages, the banner, and the level-code prompt."""

    def __init__(self) -> None:
        self.font = pygame.font.Font(None, 26)
        self.small = pygame.font.Font(None, 20)
        self.big = pygame.font.Font(None, 56)
        self._cache: Dict[Tuple[str, int, Tuple[int, int, int]], pygame.Surface] = {}

    def _text(self, text: str, size: int, colour: Tuple[int, int, int]) -> pygame.Surface:
        key = (text, size, colour)
        image = self._cache.get(key)
        if image is None:
            font = {0: self.small, 1: self.font, 2: self.big}[size]
            image = font.render(text, True, colour)
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[key] = image
        return image

    def draw(self, surface: pygame.Surface, game: Game, prompt: "str | None", fps: float) -> None:
        """Draw every overlay for this frame."""
        width, height = surface.get_size()
        surface.fill(HUD_BACK, (0, 0, width, HUD_TOP))
        surface.fill(HUD_BACK, (0, height - HUD_BOTTOM, width, HUD_BOTTOM))
        x = 12
        for text, colour in (
            (f"Level {game.level_number}", HUD_DIM),
            (game.code, HUD_ACCENT),
            (f"{game.level.tiles.shape[1]}x{game.level.tiles.shape[0]} tiles", HUD_DIM),
        ):
            image = self._text(text, 1, colour)
            surface.blit(image, (x, (HUD_TOP - image.get_height()) // 2))
            x += image.get_width() + 22
        flags = [name for name, on in (("FOG", game.fog), ("SOLUTION", game.show_solution)) if on]
        right = f"{game.elapsed:5.1f} s   {game.moves} moves" + ("   " + " ".join(flags) if flags else "")
        image = self._text(right, 1, HUD_TEXT)
        surface.blit(image, (width - image.get_width() - 12, (HUD_TOP - image.get_height()) // 2))
        help_image = self._text(HELP, 0, HUD_DIM)
        if help_image.get_width() + 24 > width:
            help_image = self._text(SHORT_HELP, 0, HUD_DIM)
        surface.blit(help_image, (12, height - HUD_BOTTOM + (HUD_BOTTOM - help_image.get_height()) // 2))
        if fps:
            image = self._text(f"{fps:.0f} fps", 0, HUD_DIM)
            if help_image.get_width() + image.get_width() + 40 < width:
                surface.blit(image, (width - image.get_width() - 10, height - HUD_BOTTOM + 6))
        if game.completed and game.last_complete is not None:
            seconds, moves = game.last_complete
            self._banner(surface, "Level complete!", f"{seconds:.1f} s, {moves} moves. Next: a bigger maze")
        if prompt is not None:
            self._banner(surface, "Level code: " + prompt + "_", "Enter to play it, Esc to cancel", size=1)
        if game.message_left > 0 and game.message:
            lines = [self._text(line, 1, HUD_TEXT) for line in _wrap(game.message, self.font, width - 64)]
            line_height = lines[0].get_height() + 2
            box = pygame.Rect(0, 0, max(line.get_width() for line in lines) + 24, line_height * len(lines) + 12)
            box.midbottom = (width // 2, height - HUD_BOTTOM - 14)
            _panel(surface, box)
            for i, line in enumerate(lines):
                surface.blit(line, line.get_rect(midtop=(box.centerx, box.top + 7 + i * line_height)))

    def _banner(self, surface: pygame.Surface, title: str, detail: str, *, size: int = 2) -> None:
        width, height = surface.get_size()
        top = self._text(title, size, HUD_ACCENT if size == 2 else HUD_TEXT)
        sub = self._text(detail, 1, HUD_TEXT)
        box = pygame.Rect(0, 0, max(top.get_width(), sub.get_width()) + 48, top.get_height() + sub.get_height() + 36)
        box.center = (width // 2, height // 2)
        _panel(surface, box)
        surface.blit(top, top.get_rect(midtop=(box.centerx, box.top + 14)))
        surface.blit(sub, sub.get_rect(midbottom=(box.centerx, box.bottom - 12)))


def _wrap(text: str, font: pygame.font.Font, width: int) -> List[str]:
    """``text`` split at spaces into lines no wider than ``width`` pixels (a long word stays whole)."""
    lines: List[str] = []
    for word in text.split():
        if lines and font.size(lines[-1] + " " + word)[0] <= width:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _panel(surface: pygame.Surface, box: pygame.Rect) -> None:
    """A translucent dark box with a thin light border."""
    panel = pygame.Surface(box.size, pygame.SRCALPHA)
    panel.fill((*HUD_BACK, 225))
    surface.blit(panel, box)
    pygame.draw.rect(surface, HUD_DIM, box, 1)
