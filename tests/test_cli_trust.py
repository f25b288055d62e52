"""What a newcomer meets on the command line (issue 34, item 15): batch -j and dataset build --workers agree,
generate --help in groups, compile's columns in line, counts in the right number."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from mazeplugin import cli
from mazeplugin.cli import batch as cli_batch

from processes import child_env
from test_cli import run


def test_batch_and_dataset_build_default_to_every_core(capsys, monkeypatch, tmp_path):
    from mazeplugin.dataset.cli import build_parser as dataset_parser

    batch = cli.build_parser().parse_args(["batch", "kruskal", "--count", "3", "--out", "x"])
    build = dataset_parser().parse_args(["build", "spec.json", "out"])
    assert batch.jobs is None and build.workers is None  # None: every core, in both
    status, out, _ = run(capsys, "batch", "--help")
    assert "default: one per core, as dataset build's --workers" in " ".join(out.split())
    shared = []
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    monkeypatch.setattr(cli_batch, "_run_parallel", lambda tasks, jobs, *rest: shared.append(jobs) or
                        [cli_batch._batch_chunk(task) for task in tasks] and None)
    status, _, _ = run(capsys, "batch", "kruskal", "--size", "3x3", "--count", str(cli_batch.SMALL_BATCH),
                       "--out", str(tmp_path / "many"), "--quiet")
    assert status == 0 and shared == [3]
    status, _, _ = run(capsys, "batch", "kruskal", "--size", "3x3", "--count", str(cli_batch.SMALL_BATCH - 1),
                       "--out", str(tmp_path / "few"), "--quiet")
    assert status == 0 and shared == [3]  # a small batch stays in this process
    assert len(os.listdir(tmp_path / "few")) == cli_batch.SMALL_BATCH  # its levels and the manifest


def test_generate_help_lists_its_options_in_groups(capsys):
    status, out, _ = run(capsys, "generate", "--help")
    titles = [t.replace("optional arguments", "options")  # argparse before Python 3.10
              for t in re.findall(r"^([a-z][a-z ]+):$", out, re.MULTILINE)]
    assert status == 0 and titles == ["positional arguments", "options", "shape", "rooms", "dungeon",
                                      "pictures and maps", "seed and difficulty", "output", "content", "grid", "world"]
    groups = dict(zip(titles, re.split(r"^[a-z][a-z ]+:$", out, flags=re.MULTILINE)[1:]))
    assert "--keys" in groups["content"] and "--window" in groups["world"] and "--wrap" in groups["grid"]
    assert "--seed" in groups["seed and difficulty"] and "--output" in groups["output"]
    assert "--locks" in groups["dungeon"] and "--pattern" in groups["dungeon"]


def test_compile_lines_up_its_columns_for_long_kernel_names(capsys, monkeypatch):
    from mazeplugin import _compiled, compiled

    longest = max(_compiled.KERNELS, key=len)

    def fake(names, *, report):
        for name, seconds in (("bfs", 1.0), (longest, 12.5)):
            report(name, seconds)
        return {"bfs": 1.0, longest: 12.5}

    monkeypatch.setattr(compiled, "compile_kernels", fake)
    assert compiled.main([]) == 0
    lines = capsys.readouterr().out.splitlines()[:2]
    assert len({line.index(" s") for line in lines}) == 1 and lines[1].startswith(longest + " "), lines


def test_dataset_info_says_one_shard(tmp_path, capsys):
    import mazeplugin.dataset as ds
    from mazeplugin.dataset.cli import main

    out = tmp_path / "one"
    ds.build({"generator": "kruskal", "width": 3, "height": 3, "count": 1}, out, workers=1)
    assert main(["info", str(out)]) == 0
    text = capsys.readouterr().out
    assert ": 1 level in 1 npz shard, " in text and "1 level, seeds 0..0, 1 shard" in text, text
    assert "1 shards" not in text and "1 levels" not in text


# -- batch workers die with the command ---------------------------------------------------------------

_REAPER = """
import ctypes, os, signal, subprocess, sys, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: orphans come to us
out = sys.argv[1]
batch = subprocess.Popen([sys.executable, "-m", "mazeplugin", "batch", "kruskal", "--size", "30x30", "--count",
                          "200000", "--out", out, "-j", "2", "-q"])
while not (os.path.isdir(out) and sum(name.endswith(".json") for name in os.listdir(out)) >= 20):
    time.sleep(0.02)  # until the workers are writing levels
os.kill(batch.pid, signal.SIGKILL)  # the main process alone, as `kill -9 PID` does
batch.wait()
orphans, deadline = 0, time.monotonic() + 60  # a hang guard: a worker that lives on is counted below
while time.monotonic() < deadline:  # hang guard: every orphaned worker, reaped as it dies
    try:
        pid, _ = os.waitpid(-1, os.WNOHANG)
    except ChildProcessError:
        break
    orphans += bool(pid)
    time.sleep(0 if pid else 0.05)
alive = [int(pid) for pid in subprocess.run(["pgrep", "-P", str(os.getpid())], capture_output=True,
                                             text=True).stdout.split() if int(pid) != batch.pid]
for pid in alive:  # the old workers lived on: end them here
    os.kill(pid, signal.SIGKILL)
print(orphans, len(alive))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper that counts orphans is Linux's")
def test_killing_batchs_main_process_ends_its_workers(tmp_path):
    # Before: the two pool workers lived on under init, writing the 200,000 levels into the folder
    # ("0 2": none ended, both still alive a minute later).
    result = subprocess.run([sys.executable, "-c", _REAPER, str(tmp_path / "levels")], capture_output=True, text=True,
                            timeout=300, env=child_env())
    assert result.returncode == 0, result.stderr[-2000:]
    orphans, alive = (int(word) for word in result.stdout.split())
    assert orphans >= 1 and alive == 0, result.stdout
