"""The gallery page: every generator on every grid it runs on, and every shaping option, each with its code.

Each picture is made during the build by running the code printed under it and
calling ``level.to_svg()`` (no pygame needed), so a picture can never be older
than the code. Which grids a generator runs on is asked of the generator itself:
the ones that refuse a grid are left out, with the reason they give.
"""

from __future__ import annotations

from typing import Dict, List, Tuple

import mazeplugin as mp

GRIDS: Dict[str, str] = {  # grid -> the size that pictures it well, small
    "square": "12, 8",
    "hex": "10, 7",
    "triangle": "14, 7",
    "polar": "6, 5",
}

SHAPING: List[Tuple[str, List[Tuple[str, str]]]] = [
    ("Braid: dead ends opened into loops", [
        ("braid=0 (a perfect maze)", 'mp.generate("backtracker", 12, 8, seed=7)'),
        ("braid=0.5", 'mp.generate("backtracker", 12, 8, seed=7, braid=0.5)'),
        ("braid=1: no dead ends", 'mp.generate("backtracker", 12, 8, seed=7, braid=1)'),
    ]),
    ("Masks: a maze in any shape", [
        ("a mask of strings", 'mp.generate("backtracker", 9, 7, seed=7, mask=[\n'
                              '    ".##...##.",\n    "####.####",\n    "#########",\n    ".#######.",\n'
                              '    "..#####..",\n    "...###...",\n    "....#....",\n])'),
        ("a disc of bools", 'mp.generate("wilson", 11, 11, seed=3, markers="farthest",\n'
                            '            mask=[[(x - 5) ** 2 + (y - 5) ** 2 <= 30 for x in range(11)] for y in range(11)])'),
    ]),
    ("Rooms and prefabs", [
        ("rooms=3", 'mp.generate("wilson", 20, 12, seed=7, rooms=3)'),
        ("rooms=3, doors=2", 'mp.generate("wilson", 20, 12, seed=7, rooms=3, doors=2)'),
        ("a prefab vault", 'mp.generate("backtracker", 16, 10, seed=7, rooms=[mp.Prefab.from_text("""\n'
                           '    ###+###+###\n    #.........#\n    #.#.#.#.#.#\n    +.........+\n    #####+#####\n'
                           '""", at=(5, 3))])'),
        ("the rooms generator", 'mp.generate("rooms", 16, 10, seed=7)'),
    ]),
    ("Content: keys, doors, treasure, enemies", [
        ("keys=2, treasure=4, enemies=2", 'mp.generate("backtracker", 14, 9, seed=7, keys=2, treasure=4, enemies=2)'),
        ("content on a hex grid", 'mp.generate("wilson", 10, 7, grid="hex", seed=7, keys=2, treasure=3)'),
    ]),
    ("Weave: bridges over tunnels", [
        ("weave=True", 'mp.generate("backtracker", 12, 8, seed=7, weave=True)'),
        ("weave=0.3", 'mp.generate("backtracker", 12, 8, seed=7, weave=0.3)'),
    ]),
    ("Wrap: cylinders and tori", [
        ('wrap="x" (a cylinder)', 'mp.generate("backtracker", 12, 8, seed=3, wrap="x")'),
        ('wrap="y"', 'mp.generate("backtracker", 12, 8, seed=3, wrap="y")'),
        ('wrap="xy" (a torus)', 'mp.generate("backtracker", 12, 8, seed=3, wrap="xy")'),
    ]),
    ("Corridor and wall widths", [
        ("corridor=2, wall=1", 'mp.generate("kruskal", 8, 6, seed=7, corridor=2, wall=1)'),
        ("corridor=3, wall=2", 'mp.generate("kruskal", 8, 6, seed=7, corridor=3, wall=2)'),
        ("corridor=1, wall=2", 'mp.generate("kruskal", 8, 6, seed=7, corridor=1, wall=2)'),
    ]),
    ("Entrance and exit", [
        ('markers="farthest"', 'mp.generate("wilson", 12, 8, seed=7, markers="farthest")'),
        ('markers="random"', 'mp.generate("wilson", 12, 8, seed=7, markers="random")'),
    ]),
    ("Generator options", [
        ('growing-tree, strategy="newest"', 'mp.generate("growing-tree", 12, 8, seed=7, strategy="newest")'),
        ('growing-tree, strategy="oldest"', 'mp.generate("growing-tree", 12, 8, seed=7, strategy="oldest")'),
        ('growing-tree, strategy="random"', 'mp.generate("growing-tree", 12, 8, seed=7, strategy="random")'),
        ('binary-tree, bias="southwest"', 'mp.generate("binary-tree", 12, 8, seed=7, bias="southwest")'),
    ]),
]


def _picture(code: str) -> str:
    namespace = {"mp": mp}
    exec(compile("level = " + code, "<gallery>", "exec"), namespace)
    level = namespace["level"]
    cell = 8 if level.kind == "square" else 18
    return level.to_svg(cell, show_solution=True)


def _card(name: str, title: str, code: str) -> str:
    return (f'<figure class="mp-card" markdown>\n![{title}]({name})\n'
            f'<figcaption markdown>{title}\n\n```python\nlevel = {code}\n```\n</figcaption>\n</figure>\n')


def pages() -> Dict[str, object]:
    """``{path under the site: text or bytes}``: ``gallery/index.md`` and its SVG pictures."""
    files: Dict[str, object] = {}
    out = ["---", "hide:", "  - navigation", "---", "", "# Gallery", "",
           "Every generator on every grid it runs on, then every way to shape a level. Each picture is made",
           "while the site is built, by running the code under it and then",
           "", "```python", "svg = level.to_svg(8, show_solution=True)   # 18 on grids beyond the square", "```",
           "", "(every snippet starts with `import mazeplugin as mp`). The amber line is `level.solution()`.", "",
           "## Generators on every grid", ""]
    refused: List[str] = []
    for grid, size in GRIDS.items():
        out += [f"### {grid.capitalize()}", "", '<div class="mp-gallery" markdown>', ""]
        for algorithm in mp.algorithms():
            extra = "" if grid == "square" else f', grid="{grid}"'
            code = f'mp.generate("{algorithm}", {size}, seed=7{extra})'
            try:
                svg = _picture(code)
            except ValueError as error:
                if "runs only on the square grid" not in str(error):
                    raise
                refused.append(f"{algorithm} ({grid})")
                continue
            name = f"{algorithm}-{grid}.svg"
            files[f"gallery/{name}"] = svg
            out.append(_card(name, f"{algorithm}", code))
        out += ["</div>", ""]
    out += ["Generators that run only on the square grid say so when asked for another: "
            + ", ".join(sorted({r.split(' ')[0] for r in refused})) + ".", ""]
    out += ["## Shaping a level", ""]
    for index, (heading, items) in enumerate(SHAPING):
        out += [f"### {heading}", "", '<div class="mp-gallery" markdown>', ""]
        for number, (title, code) in enumerate(items):
            name = f"shaping-{index}-{number}.svg"
            files[f"gallery/{name}"] = _picture(code)
            out.append(_card(name, title, code))
        out += ["</div>", ""]
    files["gallery/index.md"] = "\n".join(out)
    return files
