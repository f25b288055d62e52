"""Level datasets: many levels from a small spec, in shards whose bytes depend only on the spec.

A dataset is a folder of shard files (``.npz``, or Parquet with the
``parquet`` extra) and a ``manifest.json`` a person can read: the spec, the
seed ranges, each shard's SHA-256 and level count, the mazeplugin and numpy
versions and the seed promise version. The same spec makes the same bytes
with 1 worker or 100, on a laptop or on a Ray cluster (``engine="ray"``,
the ``cluster`` extra), and an interrupted build resumes where it stopped.

>>> import os, tempfile
>>> import mazeplugin.dataset as ds
>>> out = os.path.join(tempfile.mkdtemp(), "levels")
>>> spec = {"generator": "backtracker", "width": 9, "height": 9, "count": 20, "shard_size": 8, "keys": 1}
>>> manifest = ds.build(spec, out, workers=1)
>>> len(manifest["shards"]), ds.verify(out)
(3, [])
>>> levels = list(ds.open(out))
>>> len(levels), levels[0].shape, [t.kind for t in levels[0].things]
(20, (19, 19), ['key', 'door'])
>>> import mazeplugin as mp
>>> again = mp.generate("backtracker", 9, 9, seed=levels[5].seed, keys=1)
>>> ds.digest(levels[5]) == ds.digest(again)
True

A spec entry's ``"columns"`` adds what learning systems read (solutions,
distance maps, gym moves and MiniGrid actions, text tokens, image pairs: see
:mod:`mazeplugin.dataset.columns`), on each level read as ``level.columns``;
:mod:`mazeplugin.dataset.tokens` writes and reads the text formats, and
:func:`padded` lays levels out as fixed-shape buffers for JAX grid worlds;
:func:`to_maze_dataset` and :func:`from_maze_dataset` convert levels to and from maze-dataset's mazes;
:class:`LevelArrays` reads levels by index as numpy arrays and :func:`torch_dataset` as a PyTorch ``Dataset``.

The command line does the same: ``mazeplugin dataset build SPEC OUT``,
``mazeplugin dataset verify OUT``, ``mazeplugin dataset info OUT`` (also
``python -m mazeplugin.dataset ...``).
"""

from __future__ import annotations

from .building import DatasetError, MANIFEST, SEED_PROMISE, build, info, read_manifest, verify
from .digest import DIGEST_VERSION, digest
from .interchange import from_maze_dataset, to_maze_dataset
from .padded import padded
from .reading import open_dataset as open
from .reading import parquet_schema
from .spec import Entry, Spec, SpecError, load_spec, parse_spec
from .training import LevelArrays, torch_dataset

__all__ = [
    "DIGEST_VERSION",
    "DatasetError",
    "Entry",
    "LevelArrays",
    "MANIFEST",
    "SEED_PROMISE",
    "Spec",
    "SpecError",
    "build",
    "digest",
    "info",
    "load_spec",
    "open",
    "padded",
    "parse_spec",
    "parquet_schema",
    "read_manifest",
    "verify",
    "to_maze_dataset",
    "from_maze_dataset",
    "torch_dataset",
]
