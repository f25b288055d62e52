# Long module: two text formats, each an encoder, a decoder and a vocabulary that must agree token for token;
# kept together so a format change touches one file.
"""Levels as text tokens for sequence models: maze-dataset's layout and AlphaMaze's, with a vocabulary each.

Both formats describe a level by its **cells** (``(row, column)``, row 0 at
the top), so they take square levels of the standard layout (``corridor=1``,
``wall=1``, no weave) whose tiles are exactly their cells and passages (no
rooms or masks that open tiles a passage list cannot say); any other level
is a ``ValueError`` naming what is allowed.

``format="maze-dataset"`` (understanding-search's ``maze-dataset``: an
adjacency list, origin, target and path)::

    <ADJLIST_START> (0,0) <--> (0,1) ; (0,1) <--> (1,1) ; ... <ADJLIST_END>
    <DOORS_START> <LOCK_1> (1,1) <--> (1,2) ; <DOORS_END> <KEYS_START> <LOCK_1> (0,2) ; <KEYS_END>
    <ORIGIN_START> (0,0) <OPENING_W> <ORIGIN_END> <TARGET_START> (2,2) <OPENING_E> <TARGET_END>
    <PATH_START> (0,0) (0,1) ... <PATH_END>

Passages row by row (each cell's east one, then its south one). The doors and
keys segments are there only on levels with keys (a thing on a cell's tile
is that cell, one on the tile between two cells is their pair). An opening
token says the marker is in the outer wall on that side of its cell (no token:
the marker is on the cell's own tile, as ``markers="farthest"`` makes);
``openings=False`` leaves them out, as maze-dataset's own text has none
(decoding then puts each marker on its cell's tile). ``coordinates="unique"``
writes a cell as one token ``(0,1)``; ``"tuple"`` as five, ``( 0 , 1 )``.
``path="coordinates"`` lists the cells walked (:meth:`~mazeplugin.Level.solution`,
detours to keys included); ``"compass"`` the first cell then ``NORTH``,
``EAST``, ``SOUTH``, ``WEST``; ``"relative"`` the first cell then
``FORWARD``, ``LEFT``, ``RIGHT``, ``BACK``, turning from a walker that starts
facing east (as the gym's agent does on a border entrance).

``format="alphamaze"`` (the AlphaMaze paper's, arXiv 2502.14669): each row of
cells as ``<|row-col|><|walls|><|marker|>`` triples and a ``"\\n"`` token; the
walls token names the cell's walls among up, down, left, right
(``<|up_left_wall|>``, ``<|no_wall|>``; a border cell's outer wall is missing
where the entrance or exit opens it), the marker ``<|origin|>``,
``<|target|>`` or ``<|blank|>``; then the solution as ``<|up|>``,
``<|down|>``, ``<|left|>``, ``<|right|>``. It has no words for keys and doors:
a level with them is refused, and so is one whose entrance and exit are in the same cell.

:func:`decode` gives a :class:`Decoded` (tiles, entrance, exit, keys, doors,
path cells); ``decode(encode(level))`` has the level's very tiles, markers
and keys and doors. :func:`vocabulary` lists every token of a format and
size; :func:`ids` and :func:`tokens_of` map tokens to their numbers in it.

>>> import mazeplugin as mp
>>> level = mp.generate("kruskal", 2, 2, seed=3)
>>> " ".join(encode(level))
'<ADJLIST_START> (0,0) <--> (0,1) ; (0,1) <--> (1,1) ; (1,0) <--> (1,1) ; <ADJLIST_END> <ORIGIN_START> (0,0) <OPENING_W> <ORIGIN_END> <TARGET_START> (1,1) <OPENING_E> <TARGET_END> <PATH_START> (0,0) (0,1) (1,1) <PATH_END>'
>>> decoded = decode(encode(level, coordinates="tuple", path="relative"))
>>> bool((decoded.tiles == level.tiles).all()), decoded.entrance == level.entrance, decoded.exit == level.exit
(True, True, True)
>>> "".join(encode(level, format="alphamaze")[:6])
'<|0-0|><|up_down_wall|><|origin|><|0-1|><|up_right_wall|><|blank|>'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

import mazeplugin as mp

__all__ = ["FORMATS", "COORDINATES", "PATHS", "Decoded", "encode", "decode", "vocabulary", "ids", "tokens_of",
           "MAX_LOCKS"]

FORMATS = ("maze-dataset", "alphamaze")
COORDINATES = ("unique", "tuple")
PATHS = ("coordinates", "compass", "relative")
MAX_LOCKS = 6
"""Lock tokens ``<LOCK_1>`` .. ``<LOCK_6>`` (MiniGrid's six colours bound a level's locks the same way)."""

Cell = Tuple[int, int]  # (row, column)
Tile = Tuple[int, int]  # (x, y)

_SIDES = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}  # (dx, dy)
_COMPASS = {"N": "NORTH", "E": "EAST", "S": "SOUTH", "W": "WEST"}
_SIDE_OF = {v: k for k, v in _SIDES.items()}
_HEADINGS = ("E", "S", "W", "N")  # clockwise from east
_TURNS = ("FORWARD", "RIGHT", "BACK", "LEFT")  # heading change 0, 1, 2, 3 quarter turns clockwise
_ALPHA_SIDES = (("up", "N"), ("down", "S"), ("left", "W"), ("right", "E"))
_ALPHA_MOVES = {"N": "<|up|>", "S": "<|down|>", "W": "<|left|>", "E": "<|right|>"}
_SPECIAL = ("<ADJLIST_START>", "<ADJLIST_END>", "<DOORS_START>", "<DOORS_END>", "<KEYS_START>", "<KEYS_END>",
            "<ORIGIN_START>", "<ORIGIN_END>", "<TARGET_START>", "<TARGET_END>", "<PATH_START>", "<PATH_END>",
            "<-->", ";", "<OPENING_N>", "<OPENING_E>", "<OPENING_S>", "<OPENING_W>")


@dataclass
class Decoded:
    """What a token sequence says: the level's tiles and markers, its keys and doors and the path.

    Attributes:
        tiles: uint8 ``(2 * rows + 1, 2 * columns + 1)``, 1 wall, 0 floor (``corridor=1, wall=1``).
        entrance, exit: ``(x, y)`` tiles.
        keys, doors: ``{(x, y) tile: lock}``.
        path: the path's cells ``(row, column)`` (empty when the tokens have none).
    """

    tiles: NDArray[np.uint8]
    entrance: Tile
    exit: Tile
    keys: Dict[Tile, int] = field(default_factory=dict)
    doors: Dict[Tile, int] = field(default_factory=dict)
    path: List[Cell] = field(default_factory=list)

    def level(self) -> mp.Level:
        """The decoded tiles and markers as a :class:`~mazeplugin.Level` (without keys and doors)."""
        from mazeplugin.formats.rebuild import level_from_tiles

        return level_from_tiles(self.tiles, entrance=self.entrance, exit=self.exit)


def _choice(name: str, value: object, allowed: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")
    return value


def _cell_of(tile: Tile) -> Cell:  # (x, y) tile -> (row, column) cell
    return ((tile[1] - 1) // 2, (tile[0] - 1) // 2)


def _tile_of(cell: Cell) -> Tile:  # (row, column) cell -> its (x, y) tile
    return (2 * cell[1] + 1, 2 * cell[0] + 1)


def _marker(tile: Tile, rows: int, columns: int) -> Tuple[Cell, Optional[str]]:
    """The cell of a marker tile and the side of the outer wall it opens (None on the cell's own tile)."""
    x, y = tile
    if x % 2 == 1 and y % 2 == 1:
        return _cell_of(tile), None
    for side, (dx, dy) in _SIDES.items():
        inside = (x - dx, y - dy)
        if (0 < inside[0] < 2 * columns and 0 < inside[1] < 2 * rows and inside[0] % 2 == 1 and inside[1] % 2 == 1
                and not (0 < x < 2 * columns and 0 < y < 2 * rows)):
            return _cell_of(inside), side
    raise ValueError(f"a marker at {tile} is neither on a cell nor in the outer wall beside one")


def _place(tile: Tile) -> Tuple[Cell, ...]:
    """A thing's tile as the cell it is on, or the two cells whose passage it is on."""
    x, y = tile
    if x % 2 == 1 and y % 2 == 1:
        return (_cell_of(tile),)
    if x % 2 == 0 and y % 2 == 1:
        return (_cell_of((x - 1, y)), _cell_of((x + 1, y)))
    if x % 2 == 1 and y % 2 == 0:
        return (_cell_of((x, y - 1)), _cell_of((x, y + 1)))
    raise ValueError(f"a thing at {tile} stands on a wall corner, which no cell or passage names")


def _check_level(level: mp.Level) -> Tuple[int, int]:
    square = isinstance(level, mp.AnyLevel) and level.kind == "square"
    if not square or level.layout.corridor != 1 or level.layout.wall != 1 or level.weave:
        raise ValueError("tokens describe square levels of corridor=1, wall=1 without weave (cells and passages); "
                         "got " + (type(level).__name__ if not square else
                                   f"corridor={level.layout.corridor}, wall={level.layout.wall}"
                                   + (", weave" if level.weave else "")))
    if level.entrance is None or level.exit is None:
        raise ValueError("tokens need a level with an entrance and an exit (markers='none' has neither)")
    rows, columns = (level.tiles.shape[0] - 1) // 2, (level.tiles.shape[1] - 1) // 2
    return rows, columns


def _passages(tiles: NDArray[np.uint8], rows: int, columns: int) -> List[Tuple[Cell, Cell]]:
    out = []
    for r in range(rows):
        for c in range(columns):
            if c + 1 < columns and tiles[2 * r + 1, 2 * c + 2] == mp.FLOOR:
                out.append(((r, c), (r, c + 1)))
            if r + 1 < rows and tiles[2 * r + 2, 2 * c + 1] == mp.FLOOR:
                out.append(((r, c), (r + 1, c)))
    return out


def _tiles(rows: int, columns: int, floor: Iterable[Cell], passages: Iterable[Tuple[Cell, Cell]],
           openings: Iterable[Tile]) -> NDArray[np.uint8]:
    tiles = np.ones((2 * rows + 1, 2 * columns + 1), dtype=np.uint8)
    for cell in floor:
        x, y = _tile_of(cell)
        tiles[y, x] = mp.FLOOR
    for a, b in passages:
        (x0, y0), (x1, y1) = _tile_of(a), _tile_of(b)
        tiles[y0, x0] = tiles[y1, x1] = tiles[(y0 + y1) // 2, (x0 + x1) // 2] = mp.FLOOR
    for x, y in openings:
        tiles[y, x] = mp.FLOOR
    return tiles


def _things(level: mp.Level) -> Tuple[Dict[Tile, int], Dict[Tile, int]]:
    keys: Dict[Tile, int] = {}
    doors: Dict[Tile, int] = {}
    for thing in level.things:
        lock = thing.props.get("lock")
        if thing.kind in ("key", "door") and isinstance(lock, int):
            if not 1 <= lock <= MAX_LOCKS:
                raise ValueError(f"tokens name locks 1 to {MAX_LOCKS}, this level has lock {lock}")
            for tile in thing.tiles():
                (keys if thing.kind == "key" else doors)[tile] = lock
    return keys, doors


def _coordinate(cell: Cell, coordinates: str) -> List[str]:
    r, c = cell
    return [f"({r},{c})"] if coordinates == "unique" else ["(", str(r), ",", str(c), ")"]


def _path_cells(level: mp.Level) -> List[Cell]:
    width = level.maze.width
    return [(n // width, n % width) for n in level.solution_cells()]


def _steps(cells: Sequence[Cell]) -> List[str]:
    out = []
    for (r0, c0), (r1, c1) in zip(cells, cells[1:]):
        side = _SIDE_OF.get((c1 - c0, r1 - r0))
        if side is None:
            raise ValueError(f"the path steps from cell {(r0, c0)} to {(r1, c1)}, which are not neighbours")
        out.append(side)
    return out


def encode(level: mp.Level, format: str = "maze-dataset", *, coordinates: str = "unique", path: str = "coordinates",
           solution: bool = True, openings: bool = True) -> List[str]:
    """The tokens of ``level`` in ``format`` (see the module docstring); ``solution=False`` leaves the path out."""
    format = _choice("format", format, FORMATS)
    coordinates = _choice("coordinates", coordinates, COORDINATES)
    path = _choice("path", path, PATHS)
    rows, columns = _check_level(level)
    keys, doors = _things(level)
    assert level.entrance is not None and level.exit is not None
    (origin, origin_side), (target, target_side) = (_marker(level.entrance, rows, columns),
                                                    _marker(level.exit, rows, columns))
    passages = _passages(level.tiles, rows, columns)
    floor = [(r, c) for r in range(rows) for c in range(columns) if level.tiles[2 * r + 1, 2 * c + 1] == mp.FLOOR]
    opened = [tile for tile, side in ((level.entrance, origin_side), (level.exit, target_side)) if side is not None]
    if not np.array_equal(_tiles(rows, columns, floor, passages, opened), level.tiles):
        raise ValueError("this level's tiles are not only cells and passages (rooms or a mask open other tiles); "
                         "tokens describe cells and passages")
    if max(r for r, _ in floor) != rows - 1 or max(c for _, c in floor) != columns - 1:
        raise ValueError("tokens give a level's size by its cells: this level's last row or column is walled")
    cells = _path_cells(level) if solution else []
    if format == "alphamaze":
        if keys or doors:
            raise ValueError("the AlphaMaze format has no tokens for keys and doors; use format='maze-dataset'")
        if len(floor) != rows * columns:
            raise ValueError("the AlphaMaze format describes every cell of a rectangle; this level has walled cells")
        if origin == target:
            raise ValueError("the AlphaMaze format marks a cell origin or target: this level's entrance and exit "
                             "open the same cell")
        return _alphamaze(level.tiles, rows, columns, origin, target, cells)
    out = ["<ADJLIST_START>"]
    for a, b in passages:
        out += _coordinate(a, coordinates) + ["<-->"] + _coordinate(b, coordinates) + [";"]
    out.append("<ADJLIST_END>")
    for name, things in (("DOORS", doors), ("KEYS", keys)):
        if not (keys or doors):
            break
        out.append(f"<{name}_START>")
        for tile, lock in sorted(things.items(), key=lambda item: (item[0][1], item[0][0])):
            place = _place(tile)
            out.append(f"<LOCK_{lock}>")
            out += _coordinate(place[0], coordinates)
            if len(place) == 2:
                out += ["<-->"] + _coordinate(place[1], coordinates)
            out.append(";")
        out.append(f"<{name}_END>")
    for name, cell, side in (("ORIGIN", origin, origin_side), ("TARGET", target, target_side)):
        out += [f"<{name}_START>"] + _coordinate(cell, coordinates)
        if openings and side is not None:
            out.append(f"<OPENING_{side}>")
        out.append(f"<{name}_END>")
    if solution:
        out.append("<PATH_START>")
        if path == "coordinates":
            for cell in cells:
                out += _coordinate(cell, coordinates)
        else:
            out += _coordinate(cells[0], coordinates)
            steps = _steps(cells)
            if path == "compass":
                out += [_COMPASS[side] for side in steps]
            else:
                heading = 0
                for side in steps:
                    want = _HEADINGS.index(side)
                    out.append(_TURNS[(want - heading) % 4])
                    heading = want
        out.append("<PATH_END>")
    return out


def _alphamaze(tiles: NDArray[np.uint8], rows: int, columns: int, origin: Cell, target: Cell,
               cells: Sequence[Cell]) -> List[str]:
    out: List[str] = []
    for r in range(rows):
        for c in range(columns):
            x, y = _tile_of((r, c))
            walls = [word for word, side in _ALPHA_SIDES if tiles[y + _SIDES[side][1], x + _SIDES[side][0]] != mp.FLOOR]
            out.append(f"<|{r}-{c}|>")
            out.append(f"<|{'_'.join(walls)}_wall|>" if walls else "<|no_wall|>")
            out.append("<|origin|>" if (r, c) == origin else "<|target|>" if (r, c) == target else "<|blank|>")
        out.append("\n")
    out += [_ALPHA_MOVES[side] for side in _steps(cells)]
    return out


class _Reader:
    """Tokens read one by one, each checked to be what the format has there."""

    def __init__(self, tokens: Sequence[str]) -> None:
        self.tokens, self.at = list(tokens), 0

    def peek(self) -> Optional[str]:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, expected: Optional[str] = None) -> str:
        token = self.peek()
        if token is None or (expected is not None and token != expected):
            raise ValueError(f"tokens: expected {expected or 'a token'} at position {self.at}, got {token!r}")
        self.at += 1
        return token

    def cell(self) -> Cell:
        token = self.take()
        if token == "(":
            r, _, c, _ = self.take(), self.take(","), self.take(), self.take(")")
            return (_number(r, self.at), _number(c, self.at))
        if token.startswith("(") and token.endswith(")") and token.count(",") == 1:
            r, c = token[1:-1].split(",")
            return (_number(r, self.at), _number(c, self.at))
        raise ValueError(f"tokens: expected a cell at position {self.at - 1}, got {token!r}")

    def is_cell(self) -> bool:
        return (self.peek() or "").startswith("(")


def _number(text: str, at: int) -> int:
    if not text.isdigit():
        raise ValueError(f"tokens: expected a number near position {at}, got {text!r}")
    return int(text)


def decode(tokens: Sequence[str], format: str = "maze-dataset") -> Decoded:
    """The level a token sequence describes (either coordinate style and any path style are read)."""
    format = _choice("format", format, FORMATS)
    if format == "alphamaze":
        return _decode_alphamaze(tokens)
    read = _Reader(tokens)
    read.take("<ADJLIST_START>")
    passages: List[Tuple[Cell, Cell]] = []
    while read.peek() != "<ADJLIST_END>":
        a = read.cell()
        read.take("<-->")
        passages.append((a, read.cell()))
        read.take(";")
    read.take("<ADJLIST_END>")
    things: Dict[str, Dict[Tile, int]] = {"DOORS": {}, "KEYS": {}}
    for name in ("DOORS", "KEYS"):
        if read.peek() != f"<{name}_START>":
            continue
        read.take()
        while read.peek() != f"<{name}_END>":
            lock_token = read.take()
            if not (lock_token.startswith("<LOCK_") and lock_token[6:-1].isdigit()):
                raise ValueError(f"tokens: expected <LOCK_n> at position {read.at - 1}, got {lock_token!r}")
            first = read.cell()
            x, y = _tile_of(first)
            if read.peek() == "<-->":
                read.take()
                second = _tile_of(read.cell())
                x, y = (x + second[0]) // 2, (y + second[1]) // 2
            things[name][(x, y)] = int(lock_token[6:-1])
            read.take(";")
        read.take(f"<{name}_END>")
    markers = []
    for name in ("ORIGIN", "TARGET"):
        read.take(f"<{name}_START>")
        cell = read.cell()
        tile = _tile_of(cell)
        if read.peek() in ("<OPENING_N>", "<OPENING_E>", "<OPENING_S>", "<OPENING_W>"):
            dx, dy = _SIDES[read.take()[9]]
            tile = (tile[0] + dx, tile[1] + dy)
        read.take(f"<{name}_END>")
        markers.append((cell, tile))
    path: List[Cell] = []
    if read.peek() == "<PATH_START>":
        read.take()
        path.append(read.cell())
        heading = 0
        while read.peek() != "<PATH_END>":
            if read.is_cell():
                path.append(read.cell())
                continue
            word = read.take()
            if word in _COMPASS.values():
                side = next(k for k, v in _COMPASS.items() if v == word)
            elif word in _TURNS:
                heading = (heading + _TURNS.index(word)) % 4
                side = _HEADINGS[heading]
            else:
                raise ValueError(f"tokens: {word!r} at position {read.at - 1} is no path token")
            dx, dy = _SIDES[side]
            r, c = path[-1]
            path.append((r + dy, c + dx))
        read.take("<PATH_END>")
    if read.peek() is not None:
        raise ValueError(f"tokens: {read.peek()!r} at position {read.at} after the end")
    if not passages and markers[0][0] != markers[1][0]:
        raise ValueError("tokens: no passages, yet the origin and target are different cells")
    everything = [cell for pair in passages for cell in pair] + [cell for cell, _ in markers] + path
    if min((min(cell) for cell in everything), default=0) < 0:
        raise ValueError("tokens: a cell with a negative row or column")
    rows = 1 + max(cell[0] for cell in everything)
    columns = 1 + max(cell[1] for cell in everything)
    openings = [tile for cell, tile in markers if tile != _tile_of(cell)]
    tiles = _tiles(rows, columns, everything, passages, openings)
    return Decoded(tiles, markers[0][1], markers[1][1], things["KEYS"], things["DOORS"], path)


def _decode_alphamaze(tokens: Sequence[str]) -> Decoded:
    cells: Dict[Cell, Tuple[List[str], str]] = {}
    moves: List[str] = []
    read = _Reader([t for t in tokens if t != "\n"])
    while read.peek() is not None and read.peek() not in _ALPHA_MOVES.values():
        token = read.take()
        parts = token[2:-2].split("-") if token.startswith("<|") and token.endswith("|>") else []
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise ValueError(f"tokens: expected a cell <|row-col|> at position {read.at - 1}, got {token!r}")
        walls = read.take()
        if not (walls.startswith("<|") and walls.endswith("_wall|>")):
            raise ValueError(f"tokens: expected a walls token at position {read.at - 1}, got {walls!r}")
        words = [] if walls == "<|no_wall|>" else walls[2:-7].split("_")
        sides = [side for word, side in _ALPHA_SIDES if word in words]
        cells[(int(parts[0]), int(parts[1]))] = (sides, read.take())
    while read.peek() is not None:
        token = read.take()
        side = next((k for k, v in _ALPHA_MOVES.items() if v == token), None)
        if side is None:
            raise ValueError(f"tokens: {token!r} at position {read.at - 1} is no move")
        moves.append(side)
    if not cells:
        raise ValueError("tokens: no cells")
    rows, columns = 1 + max(r for r, _ in cells), 1 + max(c for _, c in cells)
    passages = []
    openings: Dict[Cell, Tile] = {}
    for (r, c), (closed, _) in cells.items():
        if "E" not in closed and c + 1 < columns:
            passages.append(((r, c), (r, c + 1)))
        if "S" not in closed and r + 1 < rows:
            passages.append(((r, c), (r + 1, c)))
        for side, (dx, dy) in _SIDES.items():
            nr, nc = r + dy, c + dx
            if side not in closed and not (0 <= nr < rows and 0 <= nc < columns):
                x, y = _tile_of((r, c))
                openings[(r, c)] = (x + dx, y + dy)
    origin = next((cell for cell, (_, mark) in cells.items() if mark == "<|origin|>"), None)
    target = next((cell for cell, (_, mark) in cells.items() if mark == "<|target|>"), None)
    if origin is None or target is None:
        raise ValueError("tokens: the maze has no <|origin|> or no <|target|> cell")
    entrance, exit = openings.get(origin, _tile_of(origin)), openings.get(target, _tile_of(target))
    tiles = _tiles(rows, columns, list(cells), passages, list(openings.values()))
    path = [origin]
    for side in moves:
        dx, dy = _SIDES[side]
        path.append((path[-1][0] + dy, path[-1][1] + dx))
    return Decoded(tiles, entrance, exit, {}, {}, path if moves else [])


def vocabulary(format: str = "maze-dataset", rows: int = 32, columns: int = 32, *,
               coordinates: str = "unique") -> Tuple[str, ...]:
    """Every token of ``format`` for levels of up to ``rows`` x ``columns`` cells; a token's id is its index.

    >>> len(vocabulary("maze-dataset", 9, 9)), len(vocabulary("maze-dataset", 9, 9, coordinates="tuple"))
    (113, 44)
    """
    format = _choice("format", format, FORMATS)
    coordinates = _choice("coordinates", coordinates, COORDINATES)
    for name, value in (("rows", rows), ("columns", columns)):
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= mp.MAX_CELLS:
            raise ValueError(f"{name} must be an int from 1 to {mp.MAX_CELLS:,}, got {value!r}")
    if format == "alphamaze":
        walls = ["<|no_wall|>"] + [
            "<|" + "_".join(word for k, (word, _) in enumerate(_ALPHA_SIDES) if mask >> k & 1) + "_wall|>"
            for mask in range(1, 16)]
        cells = [f"<|{r}-{c}|>" for r in range(rows) for c in range(columns)]
        return tuple(["\n", "<|origin|>", "<|target|>", "<|blank|>"] + walls + list(_ALPHA_MOVES.values()) + cells)
    words = list(_SPECIAL) + [f"<LOCK_{n}>" for n in range(1, MAX_LOCKS + 1)] + list(_COMPASS.values()) + list(_TURNS)
    if coordinates == "unique":
        words += [f"({r},{c})" for r in range(rows) for c in range(columns)]
    else:
        words += ["(", ",", ")"] + [str(n) for n in range(max(rows, columns))]
    return tuple(words)


def ids(tokens: Sequence[str], vocab: Sequence[str]) -> NDArray[np.int32]:
    """The ids (indices in ``vocab``) of ``tokens``; ``ValueError`` naming a token ``vocab`` lacks."""
    index = {token: i for i, token in enumerate(vocab)}
    try:
        return np.array([index[token] for token in tokens], dtype=np.int32)
    except KeyError as error:
        raise ValueError(f"token {error.args[0]!r} is not in the vocabulary (a level larger than it was made for?)") from None


def tokens_of(numbers: Iterable[int], vocab: Sequence[str]) -> List[str]:
    """The tokens of ids in ``vocab`` (:func:`ids` undone)."""
    return [vocab[int(n)] for n in numbers]
