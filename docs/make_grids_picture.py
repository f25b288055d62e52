"""Draw docs/grids.svg (and docs/grids.png when pygame can read SVG): a hex, a triangle and a polar maze.

    python docs/make_grids_picture.py

Each maze is ``level.to_svg(show_solution=True)`` (mazeplugin.formats.svg),
the three set side by side in one SVG. The PNG is that SVG rasterised by
pygame (SDL_image); without pygame only the SVG is written.
"""

from __future__ import annotations

import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import mazeplugin as mp  # noqa: E402

LEVELS = [("wilson", 12, 9, "hex", 7), ("backtracker", 22, 10, "triangle", 3), ("backtracker", 8, 8, "polar", 5)]
HEIGHT = 260  # pixels of each picture
GAP = 16


def main() -> None:
    pictures = []
    for algorithm, width, height, grid, seed in LEVELS:
        level = mp.generate(algorithm, width, height, grid=grid, seed=seed)
        svg = level.to_svg(20, show_solution=True)
        box_w, box_h = (float(v) for v in re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', svg).groups())  # type: ignore[union-attr]
        body = svg[svg.index(">") + 1:svg.rindex("</svg>")]  # the drawing, in grid units
        body = body.replace('width="100%" height="100%"', f'width="{box_w}" height="{box_h}"')
        pictures.append((body, HEIGHT / box_h, box_w * HEIGHT / box_h))
    total = sum(w for _, _, w in pictures) + GAP * (len(pictures) + 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total:.0f}" height="{HEIGHT + 2 * GAP}" '
             f'viewBox="0 0 {total:.0f} {HEIGHT + 2 * GAP}">',
             '<rect width="100%" height="100%" fill="#ffffff"/>']
    x = float(GAP)
    for body, scale, w in pictures:  # groups, not nested <svg>s: SDL_image's SVG reader draws groups
        parts.append(f'<g transform="translate({x:.1f} {GAP}) scale({scale:.4f})">{body}</g>')
        x += w + GAP
    parts.append("</svg>")
    path = os.path.join(HERE, "grids.svg")
    with open(path, "w", encoding="utf-8") as file:
        file.write("\n".join(parts) + "\n")
    print("wrote", path)
    try:
        import pygame
    except ImportError:
        return
    png = os.path.join(HERE, "grids.png")
    pygame.image.save(pygame.image.load(path), png)
    print("wrote", png)


if __name__ == "__main__":
    main()
