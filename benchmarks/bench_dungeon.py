"""Mission graphs (``mp.mission``, issue 33): their quality over many seeds, and how long one takes.

    python benchmarks/bench_dungeon.py [--seeds 1000] [--repeats 200] [--skip-quality]

1. Quality: for each pattern, ``--seeds`` missions (seeds 0 … n-1; rooms and
   locks cycling through 12/1, 20/2, 20/4 (hidden and gauntlet: 25/4), 50/4;
   branching 0, 0.25, 0.5), each checked by the independent solver of
   ``tests/test_dungeon_model.py`` (explicit states, not the library's): solvable, solvable without secrets,
   no soft lock, every lock necessary, every key reachable before its lock, and the start–goal distance at least
   the pattern's intent (``least_distance``). Printed: how many missions failed
   each check (all 0 is the promise), the smallest margin over the intent,
   the median distance and the states the library's solver explored.
2. Speed: the median (and 95th percentile) of ``--repeats`` calls of
   ``mp.mission(rooms=20, locks=4)`` and ``rooms=50, locks=4`` (pattern
   ``mixed``; every call includes the proof the grammar runs before it returns).

The machine may be shared: compare figures from one run. Not a test; nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

import mazeplugin as mp  # noqa: E402
from mazeplugin.dungeon import PATTERNS, least_distance, least_rooms  # noqa: E402
from test_dungeon_model import oracle_solvable, oracle_states, oracle_stranded  # noqa: E402


def sizes(pattern: str, seed: int) -> tuple:
    rooms, locks = [(12, 1), (20, 2), (20, 4), (50, 4)][seed % 4]
    return max(rooms, least_rooms(pattern, locks)), locks, [0.0, 0.25, 0.5][seed % 3]


def quality(seeds: int) -> None:
    print(f"{'pattern':<14}{'missions':>9}{'unsolvable':>11}{'secret':>7}{'softlock':>9}{'lock-not-needed':>16}"
          f"{'key-late':>9}{'short':>6}{'margin':>7}{'distance':>9}{'states':>7}")
    for pattern in PATTERNS:
        failed: Counter = Counter()
        margins, distances, states = [], [], []
        for seed in range(seeds):
            rooms, locks, branching = sizes(pattern, seed)
            m = mp.mission(rooms=rooms, locks=locks, pattern=pattern, seed=seed, branching=branching)
            failed["unsolvable"] += not oracle_solvable(m)
            failed["secret"] += not oracle_solvable(m, hidden=False)
            failed["softlock"] += bool(oracle_stranded(m))
            for edge in m.edges_of("locked"):
                failed["lock"] += oracle_solvable(m, skip=edge)
                room = next(node.id for node in m.nodes if node.kind == "key" and node.key == edge.key)
                failed["key"] += not any(at == room for at, _ in oracle_states(m, skip=edge))
            distance = m.distance() or 0
            margin = distance - least_distance(pattern, rooms, locks, branching)
            failed["short"] += margin < 0
            margins.append(margin)
            distances.append(distance)
            states.append(m.prove().states)
        print(f"{pattern:<14}{seeds:>9}{failed['unsolvable']:>11}{failed['secret']:>7}{failed['softlock']:>9}"
              f"{failed['lock']:>16}{failed['key']:>9}{failed['short']:>6}{min(margins):>7}"
              f"{statistics.median(distances):>9}{statistics.median(states):>7}")


def speed(repeats: int) -> None:
    for rooms, locks in ((20, 4), (50, 4)):
        times = []
        for seed in range(repeats):
            start = time.perf_counter()
            mp.mission(rooms=rooms, locks=locks, seed=seed)
            times.append(time.perf_counter() - start)
        times.sort()
        print(f"mp.mission(rooms={rooms}, locks={locks}): median {statistics.median(times) * 1000:.2f} ms, "
              f"95th percentile {times[int(0.95 * len(times))] * 1000:.2f} ms ({repeats} seeds)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--skip-quality", action="store_true")
    args = parser.parse_args()
    if not args.skip_quality:
        quality(args.seeds)
    speed(args.repeats)


if __name__ == "__main__":
    main()
