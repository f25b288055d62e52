"""Reading a dataset for training: LevelArrays (numpy, by index) and torch_dataset (a PyTorch Dataset)."""

from __future__ import annotations

import importlib.util
import pickle
import sys
import types
from pathlib import Path
from typing import Any, Dict, Tuple

import numpy as np
import pytest

import mazeplugin.dataset as ds
from mazeplugin.dataset import training

SPEC: Dict[str, Any] = {"levels": [
    {"generator": "kruskal", "width": 5, "height": 4, "count": 7, "shard_size": 3, "keys": 1,
     "columns": ["solution", "distances", "actions"]},
    {"generator": "backtracker", "width": 4, "height": 4, "count": 3, "grid": "hex", "columns": ["solution"]},
]}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("training") / "levels"
    ds.build(SPEC, out, workers=1)
    return out


def test_items_are_the_levels_open_reads_in_its_order(built: Path) -> None:
    levels = ds.LevelArrays(built, keep=1)
    raws = list(ds.open(built, raw=True))
    assert len(levels) == len(raws) == 10
    for i in [9, 0, 4, 3, 8, 1]:  # out of order: shards are read again as needed
        item, raw = levels[i], raws[i]
        assert int(item["seed"]) == raw["seed"] and int(item["slot"]) == raw["slot"] and int(item["entry"]) == raw["entry"]
        assert sorted(item["solution"].tolist()) == sorted(raw["columns"]["solution"].tolist())
        assert item["solution"].tobytes() == raw["columns"]["solution"].tobytes()
        if "tiles" in item:
            assert item["tiles"].tobytes() == raw["tiles"].tobytes() and item["tiles"].dtype == np.uint8
            assert tuple(item["entrance"].tolist()) == raw["entrance"]
            assert (item["distances"] == raw["columns"]["distances"]).all()
            assert item["actions"].tobytes() == raw["columns"]["actions"].tobytes()
        else:
            assert (item["passages"] == raw["passages"]).all() and int(item["entrance"]) == raw["entrance"]
        assert len(levels._shards) == 1  # keep=1: one shard in memory
    assert int(levels[-1]["seed"]) == int(levels[9]["seed"])


def test_columns_are_chosen_and_bad_requests_refused(built: Path) -> None:
    levels = ds.LevelArrays(built, columns=["solution"])
    assert "actions" not in levels[0] and "solution" in levels[0] and "solution" in levels[8]
    with pytest.raises(ds.DatasetError, match=r"level 8: its entry \(1\) has no 'actions' column"):
        ds.LevelArrays(built, columns=["actions"])[8]
    with pytest.raises(IndexError, match="out of range for a dataset of 10 levels"):
        levels[10]
    with pytest.raises(TypeError, match="must be an int"):
        levels["0"]  # type: ignore[index]
    with pytest.raises(ValueError, match="columns must be a list"):
        ds.LevelArrays(built, columns=["path"])
    with pytest.raises(ValueError, match="keep must be"):
        ds.LevelArrays(built, keep=0)
    with pytest.raises(ds.DatasetError, match="holds no dataset"):
        ds.LevelArrays(built.parent / "nowhere")


def test_pickles_without_the_shards_it_read(built: Path) -> None:
    levels = ds.LevelArrays(built)
    first = levels[0]
    copy = pickle.loads(pickle.dumps(levels))
    assert copy._shards == {} and copy[0]["tiles"].tobytes() == first["tiles"].tobytes()


def _fake_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in for torch where it is not installed: Dataset a plain class, from_numpy a copy marker."""
    torch = types.ModuleType("torch")
    utils = types.ModuleType("torch.utils")
    data = types.ModuleType("torch.utils.data")

    class Dataset:
        pass

    data.Dataset = Dataset  # type: ignore[attr-defined]
    torch.from_numpy = lambda array: ("tensor", array)  # type: ignore[attr-defined]
    torch.utils = utils  # type: ignore[attr-defined]
    utils.data = data  # type: ignore[attr-defined]
    for name, module in (("torch", torch), ("torch.utils", utils), ("torch.utils.data", data)):
        monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setattr(training, "_CLASS", [])


def test_torch_dataset_wraps_items_as_tensors(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if importlib.util.find_spec("torch") is None:
        _fake_torch(monkeypatch)
    import torch

    levels = ds.torch_dataset(built, columns=["solution"], transform=lambda item: (item["solution"], item["seed"]))
    assert isinstance(levels, torch.utils.data.Dataset) and len(levels) == 10
    assert type(levels) is training.TorchLevels and type(levels).__module__ == "mazeplugin.dataset.training"
    solution, seed = levels[2]
    reference = ds.LevelArrays(built)[2]
    if isinstance(solution, tuple):  # the stand-in's tensors
        assert solution[1].tobytes() == reference["solution"].tobytes() and int(seed[1]) == int(reference["seed"])
    else:
        assert solution.numpy().tobytes() == reference["solution"].tobytes() and int(seed) == int(reference["seed"])


def test_torch_dataset_batches_with_a_data_loader(built: Path) -> None:
    torch = pytest.importorskip("torch", reason="PyTorch is not installed here (the stand-in test checks the wiring)")
    from torch.nn.utils.rnn import pad_sequence
    from torch.utils.data import DataLoader

    def collate(items: Any) -> Tuple[Any, Any]:
        return (torch.stack([i["tiles"] for i in items]),
                pad_sequence([i["actions"].long() for i in items], batch_first=True, padding_value=-1))

    square = [i for i in range(7)]
    loader = DataLoader(torch.utils.data.Subset(ds.torch_dataset(built), square), batch_size=4, collate_fn=collate)
    tiles, actions = next(iter(loader))
    assert tiles.shape == (4, 9, 11) and actions.shape[0] == 4 and int((actions >= 0).sum(1)[0]) == len(
        ds.LevelArrays(built)[0]["actions"])


@pytest.mark.skipif(importlib.util.find_spec("torch") is not None, reason="torch is installed here")
def test_torch_dataset_says_it_needs_torch(built: Path) -> None:
    with pytest.raises(ImportError, match="needs PyTorch: pip install torch"):
        ds.torch_dataset(built)


def test_hugging_face_datasets_reads_the_columns(tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    pytest.importorskip("pyarrow")
    spec = {"generator": "kruskal", "width": 6, "height": 5, "count": 12, "shard_size": 6, "keys": 1,
            "columns": ["solution", "actions", "distances"]}
    ds.build(spec, tmp_path / "hf", workers=1, file_format="parquet")
    rows = datasets.load_dataset("parquet", data_files=sorted(str(p) for p in (tmp_path / "hf").glob("*.parquet")),
                                 split="train", cache_dir=str(tmp_path / "cache")).with_format("numpy")
    levels = ds.LevelArrays(tmp_path / "hf")
    assert rows.num_rows == len(levels) == 12
    for i in (0, 7, 11):
        row, item = rows[i], levels[i]
        assert row["solution"].reshape(-1, 2).tolist() == item["solution"].tolist()
        assert row["actions"].tolist() == item["actions"].tolist() and int(row["seed"]) == int(item["seed"])
        assert row["distances"].reshape(item["tiles"].shape).tolist() == item["distances"].tolist()


class _Tensor:
    """The few tensor methods the tutorial's PyTorch example calls, over a numpy array."""

    def __init__(self, array: Any) -> None:
        self.array = np.asarray(array)

    @property
    def shape(self) -> Any:
        return _Size(self.array.shape)

    def float(self) -> "_Tensor":
        return _Tensor(self.array.astype(np.float32))

    def long(self) -> "_Tensor":
        return _Tensor(self.array.astype(np.int64))

    def __len__(self) -> int:
        return len(self.array)


class _Size(tuple):  # type: ignore[type-arg]
    def __repr__(self) -> str:
        return f"torch.Size({list(self)})"


def _stand_in_torch(monkeypatch: pytest.MonkeyPatch) -> None:
    """torch, torch.utils.data (Dataset, DataLoader) and torch.nn.utils.rnn.pad_sequence as the example uses them."""
    _fake_torch(monkeypatch)
    torch = sys.modules["torch"]
    torch.from_numpy = _Tensor  # type: ignore[attr-defined]
    torch.stack = lambda tensors: _Tensor(np.stack([t.array for t in tensors]))  # type: ignore[attr-defined]

    def data_loader(dataset: Any, batch_size: int = 1, shuffle: bool = False, collate_fn: Any = None,
                    num_workers: int = 0) -> Any:
        order = np.random.default_rng(0).permutation(len(dataset)) if shuffle else np.arange(len(dataset))
        if num_workers:
            dataset = pickle.loads(pickle.dumps(dataset))  # what a worker gets
        return [collate_fn([dataset[int(i)] for i in order[k:k + batch_size]])
                for k in range(0, len(order), batch_size)]

    def pad_sequence(tensors: Any, batch_first: bool = False, padding_value: float = 0) -> _Tensor:
        assert batch_first
        out = np.full((len(tensors), max(len(t) for t in tensors)), padding_value, dtype=tensors[0].array.dtype)
        for row, tensor in zip(out, tensors):
            row[:len(tensor)] = tensor.array
        return _Tensor(out)

    sys.modules["torch.utils.data"].DataLoader = data_loader  # type: ignore[attr-defined]
    nn, utils, rnn = (types.ModuleType(name) for name in ("torch.nn", "torch.nn.utils", "torch.nn.utils.rnn"))
    rnn.pad_sequence = pad_sequence  # type: ignore[attr-defined]
    torch.nn, nn.utils, utils.rnn = nn, utils, rnn  # type: ignore[attr-defined]
    for module in (nn, utils, rnn):
        monkeypatch.setitem(sys.modules, module.__name__, module)


def test_the_tutorials_pytorch_example(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """The tutorial's PyTorch block (which the site's build runs where torch is installed) runs here against a
    stand-in for the torch calls it makes where torch is not, and prints what its comment says."""
    import re

    text = (Path(__file__).resolve().parent.parent / "docs" / "tutorials" / "dataset.md").read_text(encoding="utf-8")
    block = next(code for code in re.findall(r"```python\n(.*?)```", text, re.S) if "import torch" in code)
    if importlib.util.find_spec("torch") is None:
        _stand_in_torch(monkeypatch)
    monkeypatch.chdir(tmp_path)
    exec(compile(block, "docs/tutorials/dataset.md", "exec"), {"__name__": "__main__"})
    printed = capsys.readouterr().out.strip().splitlines()[-1]
    assert printed == re.search(r"print\(tiles.shape, actions.shape\[0\]\)\s+# (.*)", block).group(1)  # type: ignore[union-attr]
