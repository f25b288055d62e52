"""Mission graphs (``mp.mission``, issue 33): their quality over many seeds, and how long one takes.

    python benchmarks/bench_dungeon.py [--seeds 1000] [--repeats 200] [--skip-quality] [--skip-layout]
                                       [--bounded] [--drops] [--patterns P,Q] [--rooms polygons|mazes]
                                       [--write benchmarks/results/dungeon.json]

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

3. Layout: for each pattern, the same ``--seeds`` missions laid out as levels (``Mission.layout``), each
   checked by the content proof every level gets (``level.check()``), by the tile solver (``level.solution()``
   reaches the exit), by the test's own readers of the tiles (``tests/test_dungeon_layout.py``: the corridors
   join exactly the rooms the mission joins; the doors the tile walk passes, in its order, can be opened in that
   order on the mission, each still needed), and by the independent tile solver of
   ``tests/test_dungeon_tile_oracle.py`` (states (tile, keys held), nothing shared with the library: solvable,
   no soft lock, every door necessary; *oracle* counts the levels failing any, the breakdown is printed).
   Printed: the failures of each check (all 0 is the promise) and the median milliseconds a layout takes (the
   mission aside) and a layout with its proof. ``--write`` keeps the table as JSON for the benchmarks page.
4. Side by side, in the same run and seed by seed (so the machine's load falls on all alike):
   ``mp.dungeon_level(rooms=20, locks=4)`` and ``rooms=50``, ``mp.generate("dungeon", S, S, rooms=, locks=4)``
   (S = 40 and 56 cells) and ``mp.generate("backtracker", S, S)``, a maze of the same tiles; the ratio of the
   dungeon's median to the maze's.
6. ``--rooms KIND``: sections 3 and 4 with the opt-in rooms of ``generate("dungeon", ...)``: ``polygons``
   (``shapes="mixed"``, ``treasure=2``, ``enemies=2``: open L, T, plus and U rooms with things in them) or
   ``mazes`` (``shapes="mixed"``, ``interior="backtracker"``, ``enemies=2``: maze rooms, enemies patrolling
   them); the proof walls every patrol, so an enemy that cuts a way fails *proof*.
5. ``--bounded``: the same ``--seeds`` per pattern made by ``mp.generate("dungeon", S, S, ...)`` (S the demo's
   ``dungeon_side``: 10 + 5·√rooms cells), whose layouts must fit the size, each proven by ``level.check()``
   and the independent tile solver. Printed: refused, failures, median ms. Not written to the JSON.
6. ``--drops``: 3, 4 and 5 with every dungeon made with ``drops=True`` (its one-way edges carved as drops), the
   joins counting the one-way edges, and the oracle the directed one of ``tests/test_dungeon_drops.py`` (states
   (tile, keys held), each drop walked its way only: solvable, no soft lock, every door necessary, and the
   library's walk as short as the oracle's: *oracle-long* when not). Not written to the JSON (``--write`` refuses).

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
from test_dungeon_layout import doors_in_walk_order, joined_rooms, mission_reach  # noqa: E402
from test_dungeon_model import oracle_solvable, oracle_states, oracle_stranded  # noqa: E402
from test_dungeon_drops import DropOracle  # noqa: E402
from test_dungeon_tile_oracle import TileOracle  # noqa: E402

DROPS = {"drops": False}  # --drops: every dungeon made with drops=True, and proven by the directed oracle


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


def layout_failures(m, level) -> Counter:
    """What is wrong with ``level``, ``m`` laid out, by each check of the module's doc (empty: nothing)."""
    failed: Counter = Counter()
    try:
        level.check()
    except ValueError:
        failed["proof"] += 1
    walk = level.solution()
    failed["unsolved"] += not (walk[0] == level.entrance and walk[-1] == level.exit)
    carved = sorted(tuple(sorted((e.a, e.b))) for e in m.edges if e.kind != "one-way" or DROPS["drops"])
    failed["joins"] += joined_rooms(level) != carved
    passed = doors_in_walk_order(level)
    locked = sorted(e.name for e in m.edges_of("locked"))
    holder = {node.key: node.id for node in m.nodes if node.kind == "key"}
    order_ok = sorted(d.props["edge"] for d in passed) == locked
    for n, door in enumerate(passed):
        edge = next(e for e in m.edges if e.name == door.props["edge"])
        reached = mission_reach(m, [d.props["edge"] for d in passed[:n]])
        order_ok &= holder[edge.key] in reached and m.goal not in reached
    failed["order"] += not order_ok
    verdict = DropOracle(level).verdict() if DROPS["drops"] else TileOracle(level).verdict()
    if DROPS["drops"]:
        failed["oracle-long"] += verdict["shortest"] != len(walk) - 1
    failed["oracle-unsolvable"] += not verdict["solvable"]
    failed["oracle-softlock"] += bool(verdict["stranded"])
    failed["oracle-needless"] += bool(verdict["needless"])
    failed["oracle"] += (not verdict["solvable"] or bool(verdict["stranded"]) or bool(verdict["needless"])
                         or bool(failed["oracle-long"]))
    return failed


ROOMS = {"polygons": {"shapes": "mixed", "treasure": 2, "enemies": 2},
         "mazes": {"shapes": "mixed", "interior": "backtracker", "enemies": 2}}
"""``--rooms``: the opt-in room options sections 3 and 4 lay the missions out with."""


def layouts(seeds: int, options: dict = {}) -> list:
    print(f"{'pattern':<14}{'levels':>7}{'refused':>8}{'proof':>6}{'unsolved':>9}{'joins':>6}{'order':>6}"
          f"{'oracle':>7}{'layout ms':>10}{'+proof ms':>10}{'tiles':>10}   oracle: unsolvable/softlock/needless")
    rows = []
    for pattern in PATTERNS:
        failed: Counter = Counter()
        alone, proven, sizes_seen = [], [], []
        drops_seen = 0
        for seed in range(seeds):
            rooms, locks, branching = sizes(pattern, seed)
            m = mp.mission(rooms=rooms, locks=locks, pattern=pattern, seed=seed, branching=branching)
            start = time.perf_counter()
            try:
                level = m.layout(**options)
            except ValueError:
                failed["refused"] += 1
                continue
            middle = time.perf_counter()
            level.check()
            proven.append(time.perf_counter() - start)
            alone.append(middle - start)
            sizes_seen.append(level.tiles.size)
            drops_seen += sum(t.kind == "drop" for t in level.things)
            failed.update(layout_failures(m, level))
        row = [f"`{pattern}`", str(seeds)] + [str(failed[k]) for k in ("refused", "proof", "unsolved", "joins",
                                                                        "order", "oracle")]
        row += [f"{statistics.median(alone) * 1000:.1f}", f"{statistics.median(proven) * 1000:.1f}",
                f"{statistics.median(sizes_seen):.0f}"]
        rows.append(row)
        print(f"{pattern:<14}" + "".join(f"{cell.strip('`'):>{w}}" for cell, w in
                                         zip(row[1:], (7, 8, 6, 9, 6, 6, 7, 10, 10, 10)))
              + f"   {failed['oracle-unsolvable']}/{failed['oracle-softlock']}/{failed['oracle-needless']}"
              + (f", long {failed['oracle-long']}, drops {drops_seen}" if DROPS["drops"] else ""))
    return rows


def _timed(make) -> tuple:
    start = time.perf_counter()
    try:
        level = make()
    except ValueError:
        return None, time.perf_counter() - start
    return level, time.perf_counter() - start


def layout_speed(repeats: int, options: dict = {}) -> list:
    """Rows ``[name, calls, refused, median ms, p95 ms, tiles]``: each seed's dungeon and maze made one after the
    other, so a shared machine's load falls on both alike; then the ratio of the medians."""
    rows = []
    for rooms, locks, side in ((20, 4, 40), (50, 4, 56)):
        more = "".join(f", {k}={v!r}" for k, v in options.items()).replace("'", '"')
        makers = {
            f"mp.dungeon_level(rooms={rooms}, locks={locks}{more})":
                lambda seed: mp.dungeon_level(rooms=rooms, locks=locks, seed=seed, **options),
            f'mp.generate("dungeon", {side}, {side}, rooms={rooms}, locks={locks}{more})':
                lambda seed: mp.generate("dungeon", side, side, seed=seed, rooms=rooms, locks=locks, **options),
            f'mp.generate("backtracker", {side}, {side})': lambda seed: mp.generate("backtracker", side, side, seed=seed),
        }
        times: dict = {name: [] for name in makers}
        refused: Counter = Counter()
        tiles: dict = {name: [] for name in makers}
        for seed in range(repeats):
            for name, make in makers.items():
                level, spent = _timed(lambda: make(seed))
                times[name].append(spent)
                refused[name] += level is None
                if level is not None:
                    tiles[name].append(level.tiles.size)
        medians = {}
        for name in makers:
            ordered = sorted(times[name])
            median, high = statistics.median(ordered) * 1000, ordered[int(0.95 * len(ordered))] * 1000
            medians[name] = median
            print(f"{name}: median {median:.2f} ms, 95th percentile {high:.2f} ms, {refused[name]} refused, "
                  f"{statistics.median(tiles[name]):.0f} tiles ({repeats} seeds)")
            rows.append([f"`{name}`", str(repeats), str(refused[name]), f"{median:.1f}", f"{high:.1f}",
                         f"{statistics.median(tiles[name]):.0f}"])
        dungeon, maze = list(medians)[1], list(medians)[2]
        ratio = medians[dungeon] / medians[maze]
        print(f"  the dungeon's median is {ratio:.1f}x the maze's of the same tiles")
        rows.append([f"dungeon ÷ maze, {side} × {side} cells", str(repeats), "–", f"{ratio:.1f}×", "–", "–"])
    return rows


def bounded(seeds: int) -> None:
    print(f"{'pattern':<14}{'levels':>7}{'refused':>8}{'proof':>6}{'oracle':>7}{'ms':>7}   mp.generate('dungeon', S, S)")
    for pattern in PATTERNS:
        failed: Counter = Counter()
        times = []
        for seed in range(seeds):
            rooms, locks, _ = sizes(pattern, seed)
            side = 10 + round(5 * rooms ** 0.5)
            level, spent = _timed(lambda: mp.generate("dungeon", side, side, seed=seed, rooms=rooms, locks=locks,
                                                      pattern=pattern, **DROPS))
            if level is None:
                failed["refused"] += 1
                continue
            times.append(spent)
            try:
                level.check()
            except ValueError:
                failed["proof"] += 1
            verdict = DropOracle(level).verdict() if DROPS["drops"] else TileOracle(level).verdict()
            failed["oracle"] += not verdict["solvable"] or bool(verdict["stranded"]) or bool(verdict["needless"])
        print(f"{pattern:<14}{seeds:>7}{failed['refused']:>8}{failed['proof']:>6}{failed['oracle']:>7}"
              f"{statistics.median(times) * 1000:>7.1f}")


def write(path: str, seeds: int, repeats: int, rows: list, speed_rows: list, rooms: str = "") -> None:
    import platform

    from tables import machine, write_table

    laid = "`Mission.layout`" + (f" with {', '.join(f'{k}={v!r}' for k, v in ROOMS[rooms].items())}" if rooms else "")
    note = (f"Each pattern's missions for seeds 0 … {seeds - 1} (rooms/locks cycling 12/1, 20/2, 20/4, 50/4) laid out "
            f"by {laid}, then proven: *refused* layouts, `level.check()` (*proof*), the tile solver "
            "reaching the exit (*unsolved*), corridors joining exactly the mission's rooms (*joins*), doors walked "
            "in an order the mission allows (*order*), and the independent tile solver of "
            "`tests/test_dungeon_tile_oracle.py` (states (tile, keys held): solvable, no soft lock, every door "
            "necessary; *oracle*: levels failing any); all 0 is the promise. Medians: the layout alone, the layout "
            "with its proof, and the tiles of a level. Last rows, side by side in one run, seed by seed: "
            "`mp.dungeon_level`, `mp.generate(\"dungeon\", ...)` (mission and layout) and a backtracker maze of the "
            "same tiles (median and 95th percentile in the *layout ms* column), and the ratio of the dungeon's "
            f"median to the maze's; over {repeats} seeds"
            + (", plain path." if os.environ.get("MAZEPLUGIN_COMPILED") == "0" else "."))
    speed_cells = [[cell, n, refused, "–", "–", "–", "–", "–", median if high == "–" else f"{median} (p95 {high})",
                    "–", tiles] for cell, n, refused, median, high, tiles in speed_rows]
    title = "Dungeons: missions laid out as levels" + {"": "", "polygons": ", polygon rooms with treasure and enemies",
                                                         "mazes": ", maze rooms with enemies"}[rooms]
    write_table(path, title=title, command=(
                    "MAZEPLUGIN_COMPILED=0 " if os.environ.get("MAZEPLUGIN_COMPILED") == "0" else "")
                + f"python benchmarks/bench_dungeon.py --skip-quality --seeds {seeds} --repeats {repeats}"
                + (f" --rooms {rooms}" if rooms else "") + f" --write {path}",
                machine=machine(None, platform.machine()), note=note,
                columns=["pattern", "levels", "refused", "proof", "unsolved", "joins", "order", "oracle", "layout ms",
                         "+ proof ms", "tiles"], rows=rows + speed_cells)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=200)
    parser.add_argument("--skip-quality", action="store_true")
    parser.add_argument("--skip-layout", action="store_true")
    parser.add_argument("--bounded", action="store_true", help="also prove mp.generate('dungeon', S, S) levels")
    parser.add_argument("--drops", action="store_true", help="make every dungeon with drops=True (not written)")
    parser.add_argument("--patterns", help="only these patterns (comma-separated; not written)")
    parser.add_argument("--write", metavar="PATH", help="write the layout table as JSON (benchmarks/results/)")
    parser.add_argument("--rooms", choices=sorted(ROOMS), default="",
                        help="lay the dungeons out with these opt-in rooms (section 6)")
    args = parser.parse_args()
    if args.drops and args.write:
        parser.error("--drops is printed only: the benchmarks page's table is of dungeons without drops")
    DROPS["drops"] = args.drops
    if args.patterns:
        if args.write:
            parser.error("--patterns is printed only: the benchmarks page's table has every pattern")
        global PATTERNS
        PATTERNS = tuple(p for p in PATTERNS if p in args.patterns.split(","))
    if not args.skip_quality:
        quality(args.seeds)
    speed(args.repeats)
    if not args.skip_layout:
        options = {**ROOMS.get(args.rooms, {}), **({"drops": True} if args.drops else {})}
        rows = layouts(args.seeds, options)
        speed_rows = layout_speed(args.repeats, options)
        if args.write:
            write(args.write, args.seeds, args.repeats, rows, speed_rows, args.rooms)
    if args.bounded:
        bounded(args.seeds)


if __name__ == "__main__":
    main()
