"""Endless worlds: how long a chunk takes, and the frame times of a camera walking the world.

    python benchmarks/bench_world.py [--frames 3600] [--speed 4]

1. Chunk generation: 32 × 32-cell chunks (64 × 64 tiles) with each fast
   generator, every chunk a new one (cache of 1): median and worst of 200,
   next to ``mp.generate`` of a 32 × 32 maze in the same run (the chunk's own
   overhead: seeds, border openings, the joined check, cutting the tiles).
2. Content: treasure and a Place kind on a chunk (``world.chunk_things``).
3. A walk: a 1280 × 720 view at 8 px per tile (160 × 90 tiles) following a
   player that moves ``--speed`` px per frame east, then diagonally; each
   frame moves the player against the walls, draws the chunks in view (from
   the surface cache) and the treasure. Reported: median, 95th percentile and
   worst frame, and how many frames missed 60 fps (16.7 ms). Frame time is
   our work only (no vsync wait), headless (SDL's dummy driver).

The machine may be shared: compare figures from one run. Not a test;
nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import mazeplugin as mp  # noqa: E402

FAST = ("backtracker", "eller", "kruskal", "prim")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:6.2f} ms"


def chunk_times(algorithm: str, count: int, **extra: object) -> list:
    world = mp.World(algorithm, seed=1, chunk=(32, 32), cache=1, **extra)
    times = []
    for i in range(1, count + 1):
        start = time.perf_counter()
        world.chunk_tiles((i, -i))
        times.append(time.perf_counter() - start)
    return times


def generate_times(algorithm: str, count: int) -> list:
    times = []
    for seed in range(count):
        start = time.perf_counter()
        mp.generate(algorithm, 32, 32, seed=seed, markers="none")
        times.append(time.perf_counter() - start)
    return times


def walk(frames: int, speed: int) -> list:
    import pygame

    import mazeplugin.pg as mpg

    pygame.display.init()
    screen = pygame.display.set_mode((1280, 720))
    tile = 8
    world = mp.World("backtracker", seed=7, chunk=(32, 32), treasure=3, cache=128)
    view = mpg.WorldView(world, tile=tile, cache=48)
    camera = mpg.EndlessCamera(screen.get_size())
    player = pygame.Rect(0, 0, tile - 2, tile - 2)
    player.center = mpg.tile_to_pixel(world.spawn, tile)
    # The player walks through walls here (a ghost), so the camera really crosses
    # chunk after chunk at the given speed; move_rect is still timed every frame.
    x, y = float(player.centerx), float(player.centery)
    times = []
    for frame in range(frames):
        start = time.perf_counter()
        dx, dy = (speed, 0) if frame < frames // 2 else (speed, speed)
        view.move_rect(player, dx, dy)
        x, y = x + dx, y + dy
        camera.follow((x, y))
        screen.fill((0, 0, 0))
        view.draw(screen, camera.offset)
        view.draw_things(screen, camera.offset)
        pygame.display.flip()
        times.append(time.perf_counter() - start)
    crossed = (round(x) // (world.chunk_span[0] * tile), round(y) // (world.chunk_span[1] * tile))
    print(f"  walked {frames} frames to world pixel ({round(x)}, {round(y)}), chunk {crossed}; "
          f"{view.rendered} chunk surfaces rendered, {world.cache_info().misses} chunks generated")
    pygame.display.quit()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=3600, help="frames to walk (default 3600: a minute at 60 fps)")
    parser.add_argument("--speed", type=int, default=4, help="pixels per frame (default 4)")
    parser.add_argument("--chunks", type=int, default=200, help="chunks timed per generator (default 200)")
    args = parser.parse_args()

    print(f"mazeplugin {mp.__version__}, python {sys.version.split()[0]}")
    print("\n32 x 32-cell chunk (64 x 64 tiles), a new chunk each time:")
    print(f"  {'generator':12} {'chunk median':>13} {'worst':>10} {'generate() median':>19} {'overhead':>9}")
    for algorithm in FAST:
        chunk = chunk_times(algorithm, args.chunks)
        plain = generate_times(algorithm, args.chunks)
        cm, pm = statistics.median(chunk), statistics.median(plain)
        print(f"  {algorithm:12} {ms(cm):>13} {ms(max(chunk)):>10} {ms(pm):>19} {cm / pm:8.2f}x")

    world = mp.World("backtracker", seed=1, chunk=(32, 32), treasure=3,
                     place=[mp.Place("torch", 4, where="junctions")], cache=1)
    content = []
    for i in range(1, 51):
        world.chunk_tiles((i, 0))
        start = time.perf_counter()
        world.chunk_things((i, 0))
        content.append(time.perf_counter() - start)
    print(f"\ncontent on a chunk (3 treasure, 4 torches): median {ms(statistics.median(content))}, worst {ms(max(content))}")

    print(f"\nwalk: 1280 x 720 view, 8 px tiles, {args.speed} px per frame, {args.frames} frames")
    times = walk(args.frames, args.speed)
    ordered = sorted(times)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    missed = sum(t > 1 / 60 for t in times)
    print(f"  frame median {ms(statistics.median(times))}, p95 {ms(p95)}, worst {ms(max(times))}; "
          f"{missed} of {len(times)} frames over 16.7 ms")


if __name__ == "__main__":
    main()
