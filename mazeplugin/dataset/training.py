"""Reading a dataset for training: random access to its levels as arrays, and a PyTorch ``Dataset`` over them.

:class:`LevelArrays` is a map-style dataset with no framework behind it:
``len(levels)`` and ``levels[i]``, level ``i`` of the dataset in the order
:func:`mazeplugin.dataset.open` reads them (entries in spec order, each in
seed order), as a dict of numpy arrays. A shard is read (and its checksum
checked) when one of its levels is first asked for, and the last few shards
read are kept. :func:`torch_dataset` wraps it as a ``torch.utils.data.Dataset``
whose items are tensors (torch is imported only there). A square level's item:

- ``tiles`` uint8 ``(rows, columns)``, 1 wall and 0 floor; ``entrance`` and
  ``exit`` int32 ``(2,)``, ``(x, y)`` (-1 without markers);
- ``entry``, ``slot``, ``seed`` int64 scalars (arrays of shape ``()``);
- the entry's opt-in ``"columns"`` (:mod:`mazeplugin.dataset.columns`), or
  those of ``columns=``: ``solution`` int32 ``(n, 2)``, ``distances`` int32
  ``(rows, columns)``, ``moves``/``actions`` uint8 ``(n,)``, ``tokens`` int32,
  ``images`` uint8 ``(2, rows * s, columns * s, 3)``.

A grid level's item (``grid=``, ``wrap=``) has ``passages`` (bool, one an
edge of the grid) in place of ``tiles``, and ``entrance``/``exit`` cells
(int32 scalars); its columns are cells (``solution`` int32 ``(n,)``,
``distances`` one a cell).

>>> import os, tempfile
>>> import mazeplugin.dataset as ds
>>> out = os.path.join(tempfile.mkdtemp(), "levels")
>>> _ = ds.build({"generator": "kruskal", "width": 5, "height": 4, "count": 10, "shard_size": 4,
...               "columns": ["solution", "actions"]}, out, workers=1)
>>> levels = LevelArrays(out)
>>> len(levels), sorted(levels[7]), levels[7]["tiles"].shape
(10, ['actions', 'entrance', 'entry', 'exit', 'seed', 'slot', 'solution', 'tiles'], (9, 11))
>>> int(levels[-1]["seed"]), levels[7]["solution"][0].tolist() == levels[7]["entrance"].tolist()
(9, True)
"""

from __future__ import annotations

import bisect
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
from numpy.typing import NDArray

from .building import DatasetError, read_manifest
from .columns import COLUMNS, columns_at, names_in
from .reading import shard_arrays_of
from .spec import PathLike
from .storage import Folder

__all__ = ["LevelArrays", "torch_dataset", "TorchLevels"]

Item = Dict[str, NDArray[Any]]


class LevelArrays:
    """The levels of the dataset in folder ``out`` (a path or fsspec URL) by index, as dicts of numpy arrays.

    ``columns`` picks the opt-in columns each item holds (default: all its entry has; a name its entry lacks is a
    :class:`~mazeplugin.dataset.DatasetError` when that level is read); ``check`` compares each shard's checksum
    with the manifest before reading it; ``keep`` is how many shards stay in memory. Picklable, so
    ``torch.utils.data.DataLoader`` workers each get their own (the shards read are not sent along).
    """

    def __init__(self, out: PathLike, *, columns: Optional[Sequence[str]] = None, check: bool = True,
                 keep: int = 2) -> None:
        if columns is not None:
            unknown = [name for name in columns if name not in COLUMNS]
            if isinstance(columns, str) or unknown:
                raise ValueError(f"columns must be a list of names from {', '.join(COLUMNS)}, got {columns!r:.80}")
        if isinstance(keep, bool) or not isinstance(keep, int) or keep < 1:
            raise ValueError(f"keep must be an int of at least 1 (shards kept in memory), got {keep!r}")
        folder = Folder(out)
        manifest = read_manifest(folder)
        if not manifest.get("complete"):
            raise DatasetError(f"{folder.out}: the build did not finish; run build again to resume it")
        self.out = folder.out
        self.columns: Optional[Tuple[str, ...]] = None if columns is None else tuple(columns)
        self.check, self.keep = check, keep
        self.file_format: str = manifest["file_format"]
        self.records: List[Dict[str, Any]] = list(manifest["shards"])
        self.entries: List[Dict[str, Any]] = list(manifest["entries"])
        self.starts: List[int] = [0]
        for record in self.records:
            self.starts.append(self.starts[-1] + int(record["levels"]))
        self._shards: Dict[int, Dict[str, NDArray[Any]]] = {}

    def __len__(self) -> int:
        return self.starts[-1]

    def __getitem__(self, index: int) -> Item:
        if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
            raise TypeError(f"a level index must be an int, got {type(index).__name__}")
        total = len(self)
        i = int(index) + (total if index < 0 else 0)
        if not 0 <= i < total:
            raise IndexError(f"level index {index} is out of range for a dataset of {total:,} levels")
        shard = bisect.bisect_right(self.starts, i) - 1
        return self._item(self._arrays(shard), i - self.starts[shard], shard)

    def __getstate__(self) -> Dict[str, Any]:
        state = dict(self.__dict__)
        state["_shards"] = {}  # a worker reads its own shards
        return state

    def _arrays(self, shard: int) -> Dict[str, NDArray[Any]]:
        found = self._shards.pop(shard, None)
        if found is None:
            record = self.records[shard]
            found = shard_arrays_of(Folder(self.out), record, self.file_format, check=self.check,
                                    entry=self.entries[int(record["entry"])])
            while len(self._shards) >= self.keep:
                self._shards.pop(next(iter(self._shards)))  # the least recently read
        self._shards[shard] = found  # (last: the most recently read)
        return found

    def _item(self, arrays: Dict[str, NDArray[Any]], k: int, shard: int) -> Item:
        entry = int(self.records[shard]["entry"])
        item: Item = {"entry": np.array(entry, dtype=np.int64), "slot": np.array(arrays["slot"][k], dtype=np.int64),
                      "seed": np.array(arrays["seed"][k], dtype=np.int64)}
        if "passages" in arrays:
            edges = int(arrays["edge_count"][0])
            item["passages"] = np.unpackbits(arrays["passages"][k], count=edges).astype(bool)
            item["entrance"] = np.array(arrays["entrance"][k], dtype=np.int32)
            item["exit"] = np.array(arrays["exit"][k], dtype=np.int32)
        else:
            columns = int(arrays["tile_shape"][1])
            item["tiles"] = np.unpackbits(arrays["tiles"][k], axis=-1, count=columns)
            item["entrance"] = np.array(arrays["entrance"][k], dtype=np.int32)
            item["exit"] = np.array(arrays["exit"][k], dtype=np.int32)
        held = names_in(arrays)
        wanted = held if self.columns is None else self.columns
        missing = [name for name in wanted if name not in held]
        if missing:
            raise DatasetError(f"level {self.starts[shard] + k}: its entry ({entry}) has no {missing[0]!r} column "
                               f"(it has: {', '.join(held) or 'none'}); ask for columns every entry has")
        item.update(columns_at(arrays, k, wanted))
        return item

    def __repr__(self) -> str:
        return f"LevelArrays({self.out!r}, {len(self):,} levels)"


def torch_dataset(out: PathLike, *, columns: Optional[Sequence[str]] = None,
                  transform: Optional[Callable[[Dict[str, Any]], Any]] = None, check: bool = True) -> Any:
    """A ``torch.utils.data.Dataset`` of the dataset in ``out``: :class:`LevelArrays`' items as tensors
    (``torch.from_numpy``; ``bool`` and ``uint8`` kept), passed through ``transform`` when given.

    Items with ragged columns (``solution``, ``moves``, ``actions``, ``tokens``) differ in length from level
    to level: batch them with a ``collate_fn`` that pads (``torch.nn.utils.rnn.pad_sequence``), or use
    ``batch_size=None``. Needs torch (``pip install torch``); ``ImportError`` saying so otherwise.
    """
    try:
        import torch  # noqa: F401 - only to fail here, saying so, when torch is missing
    except ImportError:
        raise ImportError("mazeplugin.dataset.torch_dataset needs PyTorch: pip install torch "
                          "(LevelArrays gives the same items as numpy arrays without it)") from None
    return _torch_class()(LevelArrays(out, columns=columns, check=check), transform)


_CLASS: List[type] = []


def _torch_class() -> type:
    """``TorchLevels``: made on first use, as a subclass of ``torch.utils.data.Dataset``."""
    if not _CLASS:
        import torch
        from torch.utils.data import Dataset

        class TorchLevels(Dataset):  # type: ignore[misc, type-arg, unused-ignore]
            """:class:`LevelArrays` as a PyTorch dataset (see :func:`torch_dataset`)."""

            def __init__(self, levels: LevelArrays, transform: Optional[Callable[[Dict[str, Any]], Any]]) -> None:
                self.levels, self.transform = levels, transform

            def __len__(self) -> int:
                return len(self.levels)

            def __getitem__(self, index: int) -> Any:
                item = {name: torch.from_numpy(value if value.flags.c_contiguous else value.copy())
                        for name, value in self.levels[index].items()}  # (0-d stays 0-d: a scalar tensor)
                return self.transform(item) if self.transform is not None else item

        TorchLevels.__module__ = __name__
        TorchLevels.__qualname__ = "TorchLevels"  # pickled by name: the module's __getattr__ makes it in a worker
        _CLASS.append(TorchLevels)
    return _CLASS[0]


def __getattr__(name: str) -> Any:
    """``TorchLevels`` on first use (PEP 562): what pickles a :func:`torch_dataset` by name, in a
    ``DataLoader`` worker too."""
    if name == "TorchLevels":
        return _torch_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
