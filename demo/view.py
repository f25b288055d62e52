"""Drawing the demo: the map in cached chunks, markers, the player, the HUD.

The map is drawn with ``mazeplugin.pg.render_images`` (autotiled wall
sprites) in square chunks of tiles, each rendered the first time it scrolls
into view and kept in a small cache, so any level size costs the same per
frame and a new level only pays for the chunks on screen.

The HUD fits itself to the window: each bar picks the longest of its
variants that fits (down to the narrowest window the demo opens, 320
pixels), and messages wrap at spaces, breaking a word only when it alone is
wider than the window.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Dict, List, Optional, Protocol, Sequence, Tuple

import pygame
import pygame.freetype

import mazeplugin as mp
import mazeplugin.pg as mpg

from .game import Game
from .weaveplay import draw_walker

Colour = Tuple[int, int, int]
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
MARGIN = 10
"""Pixels between the window's sides and the HUD's text."""
CHUNK = 16
"""Tiles per side of a cached map chunk."""
MAX_CHUNKS = 96
"""Chunks kept (least recently drawn go first): bounds memory for any level size."""


def floor_image(tile: int) -> pygame.Surface:
    """A floor tile: the floor colour with a faint seam on its top and left."""
    image = pygame.Surface((tile, tile))
    image.fill(PALETTE.floor)
    seam = tuple(max(0, c - 12) for c in PALETTE.floor)
    pygame.draw.line(image, seam, (0, 0), (tile - 1, 0))
    pygame.draw.line(image, seam, (0, 0), (0, tile - 1))
    return image


def size_words(level: "mp.AnyLevel") -> Tuple[str, str]:
    """The HUD's words for a level's size, long and short: ``("25x19 tiles", "25x19")``, or for a
    level on another grid (a graph of cells, maybe without a tilemap) ``("108 cells", "108c")``."""
    if level.kind != "square":
        return f"{level.cells} cells", f"{level.cells}c"
    rows, columns = level.tiles.shape
    return f"{columns}x{rows} tiles", f"{columns}x{rows}"


def player_radius(game: Game) -> int:
    """The player disc's radius in pixels (its white edge not included)."""
    return max(1, game.rect.width // 2)


def entrance_ring(tile: int) -> Tuple[int, int]:
    """``(radius, width)`` of the entrance ring: as wide as its tile, so it shows around the player's disc."""
    return (max(3, tile // 2), max(2, tile // 8))


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

    def draw_map(self, surface: pygame.Surface, game: Game, camera: mpg.Camera, top: int) -> Tuple[int, int]:
        """Draw the map, the solution and the markers; returns the offset of world pixel (0, 0) on ``surface``."""
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
            self._draw_solution(surface, game, (ox, oy))
        self._draw_markers(surface, game, (ox, oy))
        return (ox, oy)

    def _draw_solution(self, surface: pygame.Surface, game: Game, offset: Tuple[int, int]) -> None:
        """The whole solution; under fog only the way from the player over seen tiles (see ``Game.hint``)."""
        tile = self.tile
        if game.fog:
            points = [mpg.tile_to_pixel(t, tile) for t in game.hint()]
        else:
            if not self.solution_points:
                self.solution_points = [mpg.tile_to_pixel(t, tile) for t in game.path]
            points = self.solution_points
        if len(points) >= 2:
            ox, oy = offset
            pygame.draw.lines(surface, PALETTE.solution, False, [(x + ox, y + oy) for x, y in points], max(2, tile // 5))

    def _draw_markers(self, surface: pygame.Surface, game: Game, offset: Tuple[int, int]) -> None:
        level = game.level
        # Under fog, a marker shows once its tile has been seen.
        shown = {
            name: not game.fog or (tile_xy is not None and bool(game.seen[tile_xy[1], tile_xy[0]]))
            for name, tile_xy in (("entrance", level.entrance), ("exit", level.exit))
        }
        mpg.draw_markers(surface, level, tile=self.tile, offset=offset, palette=PALETTE, entrance=False, exit=shown["exit"])
        if shown["entrance"] and level.entrance is not None:
            self._entrance(surface, level.entrance, offset)

    def _entrance(self, surface: pygame.Surface, tile_xy: Tuple[int, int], offset: Tuple[int, int]) -> None:
        radius, width = entrance_ring(self.tile)
        centre = mpg.tile_rect(tile_xy, self.tile).move(offset).center
        pygame.draw.circle(surface, PALETTE.entrance, centre, radius, width)

    def draw_player(self, surface: pygame.Surface, game: Game, offset: Tuple[int, int]) -> None:
        """The player's disc; where it stands on the entrance, the ring is drawn again around it."""
        player = game.rect.move(offset)
        radius = player_radius(game)
        if game.walker is not None:  # a weave level: the player may be under a bridge
            draw_walker(surface, game.level, game.walker, tile=self.tile, offset=offset, radius=radius,
                        colour=PLAYER, edge=PLAYER_EDGE, wall=PALETTE.wall)
            return
        pygame.draw.circle(surface, PLAYER_EDGE, player.center, radius + max(1, self.tile // 14))
        pygame.draw.circle(surface, PLAYER, player.center, radius)
        entrance = game.level.entrance
        if entrance is not None and (not game.fog or game.seen[entrance[1], entrance[0]]):
            if player.colliderect(mpg.tile_rect(entrance, self.tile).move(offset)):
                ring_radius, width = entrance_ring(self.tile)
                if ring_radius - width < radius + max(1, self.tile // 14):  # the disc would hide the ring
                    self._entrance(surface, entrance, offset)


# -- text ------------------------------------------------------------------------


class Measures(Protocol):
    """What :func:`wrap` needs of a font (``pygame.font.Font`` and :class:`TextFont` both have it)."""

    def size(self, text: str) -> Tuple[int, int]:
        ...  # pragma: no cover


class TextFont:
    """The HUD's font: ``pygame.freetype`` with kerning, so letters are evenly spaced at small sizes.

    ``pygame.font`` (SDL_ttf) hints glyphs, rounding each letter's advance to
    whole pixels; with the default font at the HUD's sizes that opened gaps
    inside words ("for ks", "TR EASURE"). FreeType here places letters at
    their true advances, kerned. The part of ``pygame.font.Font`` the HUD
    uses: :meth:`size`, :meth:`render`, :meth:`get_linesize`.
    """

    def __init__(self, size: int) -> None:
        if not pygame.freetype.get_init():
            pygame.freetype.init()
        self.font = pygame.freetype.Font(None, size)
        self.font.kerning = True
        self.font.pad = True  # every line as tall as the font, whatever its letters

    def size(self, text: str) -> Tuple[int, int]:
        """Width and height in pixels of ``text`` rendered."""
        return (self.font.get_rect(text).width, self.get_linesize())

    def render(self, text: str, antialias: bool, colour: Colour) -> pygame.Surface:
        """``text`` on a transparent surface (antialiased; the flag is for ``pygame.font`` compatibility)."""
        image, _ = self.font.render(text, colour)
        return image

    def get_linesize(self) -> int:
        return int(self.font.get_sized_height(0))  # 0: the font's own size


def wrap(text: str, font: Measures, width: int) -> List[str]:
    """``text`` in lines no wider than ``width`` pixels, split at spaces; words stay whole.

    Only a word wider than ``width`` on its own is broken: after a hyphen
    where it has one, else between characters. Measured with ``font.size``,
    which pygame and pygame-ce both have, so both wrap alike.
    """
    lines: List[str] = []
    for word in text.split():
        if lines and font.size(lines[-1] + " " + word)[0] <= width:
            lines[-1] += " " + word
            continue
        lines.extend(_break_word(word, font, width))
    return lines or [""]


def _break_word(word: str, font: Measures, width: int) -> List[str]:
    """A word in pieces no wider than ``width``: whole if it fits, else at hyphens, else between characters."""
    if font.size(word)[0] <= width:
        return [word]
    pieces: List[str] = []
    for part in re.findall(r"[^-]+-?|-", word):
        if pieces and font.size(pieces[-1] + part)[0] <= width:
            pieces[-1] += part
        elif font.size(part)[0] <= width:
            pieces.append(part)
        else:
            for char in part:
                if pieces and font.size(pieces[-1] + char)[0] <= width:
                    pieces[-1] += char
                else:
                    pieces.append(char)
    return pieces


@dataclass(frozen=True)
class HudState:
    """What the HUD shows besides the game: typed code, frame rate, flags, key help."""

    prompt: Optional[str] = None
    fps: float = 0.0
    flags: Sequence[str] = ()
    help_lines: Sequence[str] = ()
    """Key help from the longest to the shortest; the longest that fits is shown."""
    keys_overlay: Sequence[Tuple[str, str, str]] = ()
    """``(key, what it does, in short)`` rows for the ``?`` overlay; empty when it is closed."""
    paused: bool = False


class Hud:
    """The bars at the top and bottom, messages, banners, the key overlay and the level-code prompt."""

    def __init__(self) -> None:
        self.fonts = {0: TextFont(13), 1: TextFont(17), 2: TextFont(36)}
        self._cache: Dict[Tuple[str, int, Colour], pygame.Surface] = {}
        self.placed: List[Tuple[str, pygame.Rect]] = []
        """Every text drawn in the last frame and where (for tests: nothing may be cut off or overlap)."""

    def _text(self, text: str, size: int, colour: Colour) -> pygame.Surface:
        key = (text, size, colour)
        image = self._cache.get(key)
        if image is None:
            image = self.fonts[size].render(text, True, colour)
            if len(self._cache) > 256:
                self._cache.clear()
            self._cache[key] = image
        return image

    def blit(self, surface: pygame.Surface, text: str, size: int, colour: Colour, **where: object) -> pygame.Rect:
        image = self._text(text, size, colour)
        rect = image.get_rect(**where)
        surface.blit(image, rect)
        self.placed.append((text, rect))
        return rect

    def draw(self, surface: pygame.Surface, game: Game, state: HudState) -> None:
        """Draw every overlay for this frame."""
        self.placed = []
        width, height = surface.get_size()
        surface.fill(HUD_BACK, (0, 0, width, HUD_TOP))
        surface.fill(HUD_BACK, (0, height - HUD_BOTTOM, width, HUD_BOTTOM))
        left_over = self._top_bar(surface, game, state)
        self._bottom_bar(surface, state, left_over)
        if game.completed and game.last_complete is not None:
            seconds, moves = game.last_complete
            detail = f"{seconds:.1f} s, {moves} moves. Next: a bigger maze"
            self.banner(surface, "Level complete!", detail + ("; making the next level..." if game.waiting else ""))
        if state.paused and state.prompt is None:
            self.banner(surface, "Paused", "P to play on; the clock is stopped")
        if state.keys_overlay:
            self.keys_overlay(surface, state.keys_overlay)
        if state.prompt is not None:
            self.banner(surface, "Level code: " + state.prompt + "_", "Enter to play it, Esc to cancel", size=1)
        if game.message_left > 0 and game.message:
            self.toast(surface, game.message)

    def _top_bar(self, surface: pygame.Surface, game: Game, state: HudState) -> List[str]:
        """The level, its code and size on the left, the clock and moves on the right; the flags beside them
        when there is room. Returns the flags that did not fit (the bottom bar shows them).

        What goes first when the window is narrow: the flags (to the bottom
        bar), then long words ("moves", "tiles", "Level"), then the end of a
        long code; the level number and size always stay.
        """
        width = surface.get_width()
        middle = HUD_TOP // 2
        clock = f"{game.elapsed:5.1f} s".strip()
        moves = f"{game.moves} move" + ("" if game.moves == 1 else "s")
        tiles_text, size_text = size_words(game.level)
        level_text = f"Level {game.level_number}"
        full = [(level_text, HUD_DIM), (game.code, HUD_ACCENT), (tiles_text, HUD_DIM)]
        compact = [(f"L{game.level_number}", HUD_DIM), (game.code, HUD_ACCENT), (size_text, HUD_DIM)]
        # As many flags as fit beside the clock, from the first (the app lists the game's own first).
        layouts = [(full, "   ".join([clock, moves, *state.flags[:k]]), list(state.flags[k:]))
                   for k in range(len(state.flags), -1, -1)]
        layouts += [(compact, f"{clock}   {moves}", list(state.flags)), (compact, f"{clock}  {game.moves}m", list(state.flags))]
        for gap in (18, 10):
            for left, right, left_over in layouts:
                room = width - 2 * MARGIN - self.fonts[1].size(right)[0] - gap
                if sum(self.fonts[1].size(text)[0] for text, _ in left) + gap * (len(left) - 1) <= room:
                    x = MARGIN
                    for text, colour in left:
                        x = self.blit(surface, text, 1, colour, midleft=(x, middle)).right + gap
                    self.blit(surface, right, 1, HUD_TEXT, midright=(width - MARGIN, middle))
                    return left_over
        # A very long code in a narrow window: the clock, the level and its size, then as much of the code as fits.
        right_rect = self.blit(surface, f"{clock}  {game.moves}m", 1, HUD_TEXT, midright=(width - MARGIN, middle))
        x = self.blit(surface, f"L{game.level_number} {size_text}", 0, HUD_DIM, midleft=(MARGIN, middle)).right + 8
        room = right_rect.left - 10 - x
        code = game.code
        while code and self.fonts[0].size(code + "…")[0] > room:
            code = code[:-1]
        self.blit(surface, code + "…", 0, HUD_ACCENT, midleft=(x, middle))
        return list(state.flags)

    def _bottom_bar(self, surface: pygame.Surface, state: HudState, flags: Sequence[str] = ()) -> None:
        """The longest key line that fits, and at the right the flags the top bar had no room for (else the frame rate).

        The key line comes first; the flags that fit beside it show, from the
        first.
        """
        width, height = surface.get_size()
        middle = height - HUD_BOTTOM // 2
        room = width - 2 * MARGIN
        fits = [line for line in state.help_lines if self.fonts[0].size(line)[0] <= room]
        line = fits[0] if fits else (state.help_lines[-1] if state.help_lines else "")
        rect = self.blit(surface, line, 0, HUD_DIM, midleft=(MARGIN, middle)) if line else pygame.Rect(MARGIN, middle, 0, 0)
        words = list(flags)
        while words and rect.right + 24 + self.fonts[0].size("  ".join(words))[0] > width - MARGIN:
            words.pop()  # the key line comes first; the flags that fit beside it
        right = "  ".join(words) if words else (f"{state.fps:.0f} fps" if state.fps else "")
        if right and rect.right + 24 + self.fonts[0].size(right)[0] <= width - MARGIN:
            self.blit(surface, right, 0, HUD_ACCENT if words else HUD_DIM, midright=(width - MARGIN, middle))

    def _lines(self, text: str, size: int, width: int) -> List[str]:
        return wrap(text, self.fonts[size], width)

    def _panel_text(self, surface: pygame.Surface, rows: List[Tuple[str, int, Colour]], centre: Tuple[int, int]) -> None:
        """A panel holding ``rows`` of (text, size, colour), centred lines, with its centre at ``centre``."""
        images = [self._text(text, size, colour) for text, size, colour in rows]
        spacing = 4
        box = pygame.Rect(0, 0, max(image.get_width() for image in images) + 32, sum(i.get_height() for i in images) + spacing * (len(images) - 1) + 24)
        box.center = centre
        width, height = surface.get_size()
        box.clamp_ip(pygame.Rect(0, HUD_TOP, width, max(1, height - HUD_TOP - HUD_BOTTOM)))
        _panel(surface, box)
        y = box.top + 12
        for (text, _, _), image in zip(rows, images):
            rect = image.get_rect(midtop=(box.centerx, y))
            surface.blit(image, rect)
            self.placed.append((text, rect))
            y = rect.bottom + spacing

    def banner(self, surface: pygame.Surface, title: str, detail: str, *, size: int = 2) -> None:
        width, height = surface.get_size()
        room = width - 2 * MARGIN - 32
        if size == 2 and self.fonts[2].size(title)[0] > room:
            size = 1
        rows = [(line, size, HUD_ACCENT if size == 2 else HUD_TEXT) for line in self._lines(title, size, room)]
        rows += [(line, 1, HUD_TEXT) for line in self._lines(detail, 1, room)]
        self._panel_text(surface, rows, (width // 2, height // 2))

    def toast(self, surface: pygame.Surface, message: str) -> None:
        width, height = surface.get_size()
        rows = [(line, 1, HUD_TEXT) for line in self._lines(message, 1, width - 2 * MARGIN - 32)]
        line_height = self.fonts[1].get_linesize()
        box_height = len(rows) * (line_height + 4) + 20
        self._panel_text(surface, rows, (width // 2, height - HUD_BOTTOM - 12 - box_height // 2))

    def keys_overlay(self, surface: pygame.Surface, keys: Sequence[Tuple[str, str, str]]) -> None:
        """The ``?`` overlay: every key and what it does, in as many columns as fit (short names if need be)."""
        width, height = surface.get_size()
        font = self.fonts[0]
        title = self._text("Keys (? closes)", 1, HUD_ACCENT)
        room = pygame.Rect(0, HUD_TOP, width, max(1, height - HUD_TOP - HUD_BOTTOM))
        layout: List[List[str]] = []
        column_width = line = 0
        # Long names with roomy lines first; then short names; then lines closer together.
        for long, gap in ((True, 2), (False, 2), (False, 0)):
            line = font.get_linesize() + gap
            fit_rows = max(1, (room.height - title.get_height() - 30) // line)
            rows = [f"{key}  {what if long or not short else short}" for key, what, short in keys]
            columns = [rows[i : i + fit_rows] for i in range(0, len(rows), fit_rows)]
            column_width = max(font.size(row)[0] for row in rows) + 18
            layout = columns
            if column_width * len(columns) + 24 <= room.width:
                break
        box = pygame.Rect(0, 0, max(column_width * len(layout), title.get_width()) + 24, title.get_height() + line * len(layout[0]) + 30)
        box.center = room.center
        box.clamp_ip(room)
        _panel(surface, box)
        rect = title.get_rect(midtop=(box.centerx, box.top + 10))
        surface.blit(title, rect)
        self.placed.append(("Keys (? closes)", rect))
        for c, column in enumerate(layout):
            for r, row in enumerate(column):
                self.blit(surface, row, 0, HUD_TEXT, topleft=(box.left + 12 + c * column_width, rect.bottom + 8 + r * line))


def _panel(surface: pygame.Surface, box: pygame.Rect) -> None:
    """A translucent dark box with a thin light border."""
    panel = pygame.Surface(box.size, pygame.SRCALPHA)
    panel.fill((*HUD_BACK, 225))
    surface.blit(panel, box)
    pygame.draw.rect(surface, HUD_DIM, box, 1)
