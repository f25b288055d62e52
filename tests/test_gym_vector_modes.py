"""Every vectorization mode of ``gymnasium.make_vec`` gives the same observations for the same seeds and actions.

``sync``, ``vector_entry_point`` (the batched :class:`~mazeplugin.gym.MazeVectorEnv`)
and ``async`` with each start method (fork, spawn, forkserver), with and without
gymnasium's shared memory, each made in a fresh process (a fork must not catch
a kernel half loaded), 2 envs, a few steps across an autoreset. The workers of
spawn and forkserver start without the background load of the compiled kernels
(``warm_up=False``: seconds of CPU per worker, and nothing a fresh interpreter
can inherit half done); fork's keep it, as a user's do.
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from processes import child_env

gymnasium = pytest.importorskip("gymnasium")

import mazeplugin.gym as mg  # noqa: E402
from mazeplugin.gym.missions import MissionText, SharedMissions  # noqa: E402

RUN = textwrap.dedent('''
    import hashlib, json, sys
    import numpy as np
    import gymnasium
    import mazeplugin.gym

    def run(mode, context, shared):
        kwargs = {}
        if mode == "async":
            kwargs["vector_kwargs"] = {"context": context, "shared_memory": shared}
        if context in ("spawn", "forkserver"):  # fresh interpreters: no background load of numba (seconds of CPU each)
            kwargs["warm_up"] = False
        envs = gymnasium.make_vec("mazeplugin/MazeKeys-v0", num_envs=2, vectorization_mode=mode, width=4, height=4, keys=1,
                                  max_steps=5, **kwargs)
        obs, info = envs.reset(seed=11)
        seen = [(hashlib.sha256(obs["image"].tobytes()).hexdigest(), obs["direction"].tolist(), list(obs["mission"]))]
        rng = np.random.default_rng(0)
        for _ in range(7):  # past max_steps: every env ends and autoresets
            obs, reward, terminated, truncated, info = envs.step(rng.integers(0, 3, size=2))
            seen.append((hashlib.sha256(obs["image"].tobytes()).hexdigest(), obs["direction"].tolist(),
                         list(obs["mission"]), reward.tolist(), terminated.tolist(), truncated.tolist()))
        envs.close()
        return seen

    if __name__ == "__main__":  # each argument a run: mode,context,shared (1 or 0)
        runs = [arg.split(",") for arg in sys.argv[1:]]
        print(json.dumps({arg: run(m, None if c == "-" else c, s == "1") for arg, (m, c, s) in zip(sys.argv[1:], runs)}))
''')

# The runs, a fresh process per group: fork first thing in its process (a fork of a process busy loading
# kernels is what must not break); spawn and forkserver start fresh interpreters for their workers anyway.
STARTS = multiprocessing.get_all_start_methods()
GROUPS = [
    ["sync,-,0", "vector_entry_point,-,0"],
    ["async,fork,1", "async,fork,0"] if "fork" in STARTS else [],
    (["async,spawn,1"] if "spawn" in STARTS else []) + (["async,forkserver,0"] if "forkserver" in STARTS else []),
]
GROUPS = [g for g in GROUPS if g]


@pytest.fixture(scope="module")
def script(tmp_path_factory):
    path = tmp_path_factory.mktemp("vector_modes") / "run_modes.py"
    path.write_text(RUN)
    return path


def run_group(script, runs):
    done = subprocess.run([sys.executable, str(script), *runs], capture_output=True, text=True, timeout=300, env=child_env())
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def reference(script):
    return run_group(script, GROUPS[0])


def test_vector_entry_point_sees_what_sync_sees(reference):
    assert reference["vector_entry_point,-,0"] == reference["sync,-,0"]


@pytest.mark.parametrize("runs", GROUPS[1:], ids=lambda runs: "+".join(r.replace("async,", "").replace(",1", "-shared").replace(",0", "") for r in runs))
def test_async_sees_what_sync_sees(script, reference, runs):
    seen = run_group(script, runs)
    for run in runs:
        assert seen[run] == reference["sync,-,0"], run


def test_the_reference_run_is_not_empty(reference):
    reference = reference["sync,-,0"]
    missions = {m for step in reference for m in step[2]}
    assert missions == {mg.MISSION_KEYS}
    assert any(any(step[5]) for step in reference[1:])  # an autoreset happened within the run


def test_missions_in_shared_memory_are_read_when_looked_at():
    """The mission space through gymnasium's shared memory: later missions show (gymnasium's own Text gives 'aaaa…')."""
    from gymnasium.vector.utils import create_shared_memory, read_from_shared_memory, write_to_shared_memory

    space = mg.MazeEnv(warm_up=False).observation_space["mission"]
    assert isinstance(space, MissionText) and space == gymnasium.spaces.Text(max_length=96, charset=space.character_set)
    memory = create_shared_memory(space, n=2)
    missions = read_from_shared_memory(space, memory, n=2)  # read once, as AsyncVectorEnv does
    assert isinstance(missions, SharedMissions)
    write_to_shared_memory(space, 0, mg.MISSION, memory)
    write_to_shared_memory(space, 1, mg.MISSION_KEYS, memory)
    import copy

    assert missions == (mg.MISSION, mg.MISSION_KEYS) and missions[1] == mg.MISSION_KEYS and len(missions) == 2
    assert copy.deepcopy(missions) == (mg.MISSION, mg.MISSION_KEYS) and type(copy.deepcopy(missions)) is tuple
    assert np.array_equal(np.array(list(missions)), np.array([mg.MISSION, mg.MISSION_KEYS]))
