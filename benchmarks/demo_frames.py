"""The demo's frame times over a headless autoplay run of many levels: does any frame stall?

    python benchmarks/demo_frames.py                     # 20 levels, default size, window and tile
    python benchmarks/demo_frames.py --levels 5 --content
    python benchmarks/demo_frames.py --sync              # the next level made on the frame loop (as before)

Runs the maze game in this process under SDL's dummy drivers, with
``--autoplay`` and 1/60 s frames, until ``--levels`` levels are finished,
and prints the median and worst frame by the wall clock and by the main
thread's CPU time (the machine is shared: a wall-clock frame can be long
because the process was not scheduled, which the CPU time does not count),
and the slowest frames with the level they were on. Level content is off
unless ``--content`` (the autopilot does not dodge enemies, so with them a
run of many levels takes very long). Prints figures only; nothing is
asserted.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import mazeplugin.compiled  # noqa: E402
from demo.app import App, build_parser  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, default=20)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--content", action="store_true", help="keys, doors, treasure, enemies and rooms from level 2")
    parser.add_argument("--sync", action="store_true", help="make each next level on the frame loop, not in the background")
    parser.add_argument("--max-frames", type=int, default=400_000)
    args = parser.parse_args()
    argv = ["--autoplay", "--seed", args.seed, "--levels", str(args.levels)] + ([] if args.content else ["--no-content"])
    mazeplugin.compiled.warm_up(background=True)
    app = App(build_parser().parse_args(argv))
    if args.sync:
        app.game.ahead = None
    pauses: list = []  # (seconds, generation) of each garbage collection: a frame can be long because of one
    started_gc = [0.0]

    def watch(phase: str, info: dict) -> None:
        if phase == "start":
            started_gc[0] = time.perf_counter()
        else:
            pauses.append((time.perf_counter() - started_gc[0], info["generation"]))

    gc.callbacks.append(watch)
    walls, cpus = [], []
    slowest: list = []
    busiest: list = []
    started = time.perf_counter()
    while app.running and app.frames < args.max_frames:
        wall, cpu = time.perf_counter(), time.thread_time()
        app.tick(1 / 60)
        wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
        walls.append(wall)
        cpus.append(cpu)
        slowest.append((wall, cpu, app.frames, app.game.level_number))
        busiest.append((cpu, wall, app.frames, app.game.level_number))
        if len(slowest) > 200:
            slowest = sorted(slowest, reverse=True)[:8]
            busiest = sorted(busiest, reverse=True)[:8]
    total = time.perf_counter() - started
    walls.sort()
    cpus.sort()
    print(f"{app.status()}")
    print(f"levels finished {app.game.level_number - 1}, frames {len(walls)}, {total:.1f} s in all"
          f"{' (next level made on the frame loop)' if args.sync else ''}")
    print(f"wall clock: median {walls[len(walls) // 2] * 1000:.2f} ms, 99.9% {walls[int(len(walls) * 0.999)] * 1000:.2f} ms, "
          f"worst {walls[-1] * 1000:.2f} ms")
    print(f"main-thread CPU: median {cpus[len(cpus) // 2] * 1000:.2f} ms, 99.9% {cpus[int(len(cpus) * 0.999)] * 1000:.2f} ms, "
          f"worst {cpus[-1] * 1000:.2f} ms")
    longest = max(pauses, default=(0.0, 0))
    print(f"garbage collections {len(pauses)}, longest {longest[0] * 1000:.2f} ms (generation {longest[1]})")
    print("slowest frames by the wall clock (wall ms, CPU ms, frame, level):")
    for wall, cpu, frame, level in sorted(slowest, reverse=True)[:8]:
        print(f"  {wall * 1000:8.2f} {cpu * 1000:8.2f} {frame:8d} {level:4d}")
    print("slowest frames by CPU time (wall ms, CPU ms, frame, level):")
    for cpu, wall, frame, level in sorted(busiest, reverse=True)[:8]:
        print(f"  {wall * 1000:8.2f} {cpu * 1000:8.2f} {frame:8d} {level:4d}")


if __name__ == "__main__":
    main()
