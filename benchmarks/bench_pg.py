"""Figures for the pygame side: rendering, demo frames, regeneration, memory.

    python benchmarks/bench_pg.py

Headless (SDL dummy drivers). Prints medians (and 95th percentiles for
frames); the machine may be shared, so compare runs with care. Not a test:
nothing here asserts a time.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import tracemalloc

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import pygame  # noqa: E402

import mazeplugin as mp  # noqa: E402
import mazeplugin.pg as mpg  # noqa: E402
from demo.app import App, build_parser  # noqa: E402


def ms(seconds: float) -> str:
    return f"{seconds * 1000:7.2f} ms"


def timed(function, repeat: int) -> list:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return times


def rss_mib() -> float:
    with open("/proc/self/statm") as file:
        pages = int(file.read().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    print(f"pygame {pygame.version.ver} (SDL {'.'.join(map(str, pygame.get_sdl_version()))}), numpy via mazeplugin {mp.__version__}")

    level = mp.generate("kruskal", 100, 100, seed=1)  # 201 x 201 tiles
    print(f"\nrender: {level.tiles.shape[1]}x{level.tiles.shape[0]}-tile map")
    for tile in (1, 4, 8):
        times = timed(lambda: mpg.render(level, tile=tile), 40)
        print(f"  render(tile={tile}) -> {201 * tile}x{201 * tile} px    median {ms(statistics.median(times))}")
    times = timed(lambda: mpg.render(level, tile=8, show_solution=True), 20)
    print(f"  render(tile=8, show_solution=True)         median {ms(statistics.median(times))}")
    floor, walls = pygame.Surface((8, 8)), mpg.simple_wall_set(8)
    times = timed(lambda: mpg.render_images(level, floor=floor, wall_set=walls), 20)
    print(f"  render_images(16-image wall set, 8 px)     median {ms(statistics.median(times))}")
    times = timed(lambda: mpg.render_images(level, floor=pygame.Surface((28, 28)), wall_set=mpg.simple_wall_set(28), area=(0, 0, 16, 16)), 40)
    print(f"  render_images 16x16-tile chunk at 28 px    median {ms(statistics.median(times))}")

    print("\ndemo frames: 960x720 window, 28 px tiles, autoplay walking")
    for code, extra in (("kruskal-50x50-1", []), ("kruskal-50x50-1", ["--fog", "--solution"]), ("kruskal-100x100-1", [])):
        app = App(build_parser().parse_args(["--code", code, "--autoplay", *extra]))
        for _ in range(30):
            app.tick(1 / 60)
        times = timed(lambda: app.tick(1 / 60), 600)
        times.sort()
        tiles = app.game.level.tiles.shape
        print(
            f"  {code} ({tiles[1]}x{tiles[0]} tiles) {' '.join(extra) or 'plain':18s}"
            f" median {ms(statistics.median(times))}  p95 {ms(times[int(len(times) * 0.95)])}"
            f"  max {ms(times[-1])}"
        )

    print("\nregenerate 64x64 cells (new seed + first frame drawn), per generator")
    app = App(build_parser().parse_args(["--code", "kruskal-64x64-1"]))
    for name in mp.algorithms():
        app.game.try_load(name, 64, 64, 1)

        def regenerate() -> None:
            app.game.new_seed()
            app.tick(1 / 60)

        times = timed(regenerate, 15)
        print(f"  {name:16s} median {ms(statistics.median(times))}  max {ms(max(times))}")

    print("\nholding N: regenerations of backtracker 12x9 (one per frame)")
    app = App(build_parser().parse_args(["--code", "backtracker-12x9-1"]))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_n, mod=0, unicode="n", scancode=0))
    for _ in range(100):
        app.tick(1 / 60)
    tracemalloc.start()
    rss_before, traced_before = rss_mib(), tracemalloc.get_traced_memory()[0]
    start_version = app.game.version
    times = timed(lambda: app.tick(1 / 60), 600)
    regenerated = app.game.version - start_version
    traced_after, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        f"  {regenerated} regenerations: frame median {ms(statistics.median(times))}, max {ms(max(times))}; "
        f"RSS {rss_before:.1f} -> {rss_mib():.1f} MiB; Python heap {traced_before / 2**20:.2f} -> "
        f"{traced_after / 2**20:.2f} MiB (peak {peak / 2**20:.2f})"
    )
    pygame.quit()


if __name__ == "__main__":
    main()
