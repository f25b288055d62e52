"""``mazeplugin stats``: texture figures (dead ends, longest path, solution, ...) averaged over seeds."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any, Dict, List

from ..limits import MAX_COUNT
from .common import bounded_type, dungeon_kwargs, is_terminal, level_kwargs, level_options, make_level, natural_type
from .progress import Progress

__all__ = ["add_parser", "run", "FIGURES"]

FIGURES = (
    ("dead_end_fraction", "dead-end fraction"),
    ("longest_path", "longest path (cells)"),
    ("solution_length", "solution length (cells)"),
    ("dead_ends", "dead ends"),
    ("junctions", "junctions"),
    ("loops", "loops"),
    ("decision_points", "decision points"),
    ("detour_ratio", "detour ratio"),
    ("turns", "turns on the solution"),
)
"""The ``Level.stats()`` fields ``stats`` reports, with their labels."""


def add_parser(commands: Any) -> None:
    """Add ``stats`` to the subcommands."""
    stats = commands.add_parser(
        "stats", parents=[level_options()], help="texture figures averaged over seeds",
        description="Dead-end fraction, longest path and solution length (and more), averaged over seeds.",
    )
    stats.add_argument("--seeds", type=bounded_type(1, MAX_COUNT), default=20, metavar="N",
                       help=f"how many seeds (default 20, at most {MAX_COUNT:,})")
    stats.add_argument("--first-seed", type=natural_type, default=0, metavar="S",
                       help="seeds are S, S+1, ... (default 0)")
    stats.add_argument("--json", action="store_true", help="print the figures as JSON")
    stats.add_argument("-q", "--quiet", action="store_true",
                       help="no progress bar (shown on a terminal, or for 1000 seeds or more)")
    stats.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Measure the levels of ``--seeds`` seeds and print the figures; the exit status."""
    kwargs = level_kwargs(args)
    dungeon_kwargs(args, kwargs)
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    # Running totals: memory stays the same however many seeds are measured.
    totals: Dict[str, List[float]] = {key: [0.0, 0, float("inf"), float("-inf")] for key, _ in FIGURES}
    show = not args.quiet and (is_terminal(sys.stderr) or len(seeds) >= 1000)
    progress = Progress(len(seeds), label="stats", enabled=show)
    try:
        for seed in seeds:
            stats = make_level(args, seed, kwargs).stats()
            for key, _ in FIGURES:
                value = getattr(stats, key)
                if value is not None:
                    total = totals[key]
                    total[0] += float(value)
                    total[1] += 1
                    total[2] = min(total[2], float(value))
                    total[3] = max(total[3], float(value))
            progress.advance()
    finally:
        progress.close()
    summary = {
        key: {"mean": t[0] / t[1], "min": t[2], "max": t[3]} if t[1] else None
        for key, t in totals.items()
    }
    width, height = args.size
    if args.json:
        print(json.dumps({"generator": args.algorithm, "width": width, "height": height,
                          "seeds": [seeds.start, seeds.stop - 1], "figures": summary}, indent=1))
        return 0
    print(f"{args.algorithm} {width}x{height}, {len(seeds)} seeds ({seeds.start}..{seeds.stop - 1})")
    print(f"{'':26}{'mean':>10}{'min':>10}{'max':>10}")
    for key, label in FIGURES:
        s = summary[key]
        if s is None:
            print(f"{label:26}{'-':>10}")
        else:
            cells = [f"{s[k]:10.3f}" if key in ("dead_end_fraction", "detour_ratio") else f"{s[k]:10.1f}"
                     for k in ("mean", "min", "max")]
            print(f"{label:26}{''.join(cells)}")
    return 0
