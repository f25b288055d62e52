"""Stable-Baselines3 PPO end to end: the batched :class:`mazeplugin.gym.sb3.MazeVecEnv` vs ``DummyVecEnv`` of single envs.

    pip install "mazeplugin[gym]" stable-baselines3 torch     # a CPU torch is enough
    python benchmarks/bench_sb3.py [--timesteps 50000] [--rounds 1] [--mode simple|minigrid] [--json FILE]

Each round trains the same seeded PPO (``MlpPolicy``, 16 envs, Kruskal mazes of
5 × 5 cells in ``--mode`` (``"simple"``; ``"minigrid"``: the view alone), training seeds 0..49,999, one torch thread) twice,
each in a fresh process: once on ``MazeVecEnv`` (every env stepped at once) and once
on ``DummyVecEnv`` of :class:`~mazeplugin.gym.MazeEnv` under SB3's ``Monitor`` (the
envs one by one in Python); the two alternate. It times ``model.learn`` (wall and the
process's CPU time) after loading the compiled path (``compiled.warm_up``), and digests
the trained policy's parameters: the adapter gives SB3 what ``DummyVecEnv`` gives, step
for step, so both runs train the very same policy and only the time may differ.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from typing import Dict, List

CHILD = r"""
import hashlib, json, sys, time
kind, timesteps, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
import gymnasium
import torch
from stable_baselines3 import PPO
from stable_baselines3.common.monitor import Monitor
from stable_baselines3.common.vec_env import DummyVecEnv
import mazeplugin.gym as mg
from mazeplugin import compiled
from mazeplugin.gym.sb3 import MazeVecEnv

torch.set_num_threads(1)
compiled.warm_up(["gym", "kruskal"])
kwargs = dict(generator="kruskal", width=5, height=5, mode=mode, max_steps=256, seeds=range(50_000))


class Image(gymnasium.ObservationWrapper):  # MiniGrid's ImgObsWrapper: the view alone, as MazeVecEnv gives it
    def __init__(self, env):
        super().__init__(env)
        self.observation_space = env.observation_space["image"]

    def observation(self, obs):
        return obs["image"]


def single():
    env = mg.MazeEnv(**kwargs)
    return Monitor(env if mode == "simple" else Image(env))


envs = MazeVecEnv(16, **kwargs) if kind == "batched" else DummyVecEnv([single for _ in range(16)])
model = PPO("MlpPolicy", envs, n_steps=128, batch_size=256, n_epochs=4, learning_rate=5e-4, gamma=0.97, seed=0,
            device="cpu")
wall, cpu = time.perf_counter(), time.process_time()
model.learn(total_timesteps=timesteps)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
digest = hashlib.sha256(b"".join(p.detach().numpy().tobytes() for p in model.policy.parameters())).hexdigest()
print(json.dumps({"wall": wall, "cpu": cpu, "steps": model.num_timesteps, "policy": digest,
                  "episodes": len(model.ep_info_buffer)}))
"""

KINDS = {"batched": "`MazeVecEnv(16, ...)` (batched)", "dummy": "`DummyVecEnv` of 16 `MazeEnv` + `Monitor`"}


def measure(kind: str, timesteps: int, mode: str) -> Dict[str, float]:
    """One fresh process training PPO on ``kind``'s envs."""
    env = {k: v for k, v in os.environ.items() if k != "MAZEPLUGIN_COMPILED"}
    env["OMP_NUM_THREADS"] = "1"
    done = subprocess.run([sys.executable, "-c", CHILD, kind, str(timesteps), mode], env=env, capture_output=True,
                          text=True, timeout=7200)
    if done.returncode != 0:
        sys.exit(f"{kind} run failed:\n{done.stderr[-3000:]}")
    result: Dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--mode", choices=["simple", "minigrid"], default="simple",
                        help="the env's mode (minigrid: the 7 x 7 view alone, as MiniGrid's ImgObsWrapper)")
    parser.add_argument("--json", default=None, help="write the results table here")
    args = parser.parse_args()
    if args.timesteps < 2048 or args.rounds < 1:
        parser.error(f"--timesteps must be at least 2048 (one rollout) and --rounds at least 1, "
                     f"got {args.timesteps} and {args.rounds}")
    results: Dict[str, List[Dict[str, float]]] = {kind: [] for kind in KINDS}
    loads = [os.getloadavg()[0]]
    for round_ in range(args.rounds):
        for kind in (KINDS if round_ % 2 == 0 else list(reversed(list(KINDS)))):
            result = measure(kind, args.timesteps, args.mode)
            results[kind].append(result)
            print(f"round {round_ + 1} {kind}: {result['steps']:,} steps in {result['wall']:.1f} s wall, "
                  f"{result['cpu']:.1f} s CPU; policy {str(result['policy'])[:12]}", flush=True)
    loads.append(os.getloadavg()[0])
    policies = {str(r["policy"]) for rs in results.values() for r in rs}
    same = "yes" if len(policies) == 1 else f"no ({len(policies)} different)"
    wall = {kind: statistics.median(r["wall"] for r in rs) for kind, rs in results.items()}
    cpu = {kind: statistics.median(r["cpu"] for r in rs) for kind, rs in results.items()}
    rows = []
    for kind in KINDS:
        steps = int(results[kind][0]["steps"])
        rows.append([KINDS[kind], f"{steps:,}", f"{wall[kind]:.1f} s", f"{cpu[kind]:.1f} s",
                     f"{steps / cpu[kind]:,.0f}", f"{cpu['dummy'] / cpu[kind]:.2f}×", same])
        print(f"{kind}: median {wall[kind]:.1f} s wall, {cpu[kind]:.1f} s CPU")
    print(f"same trained policy in every run: {same}; load {loads[0]:.1f} before, {loads[1]:.1f} after")
    if args.json:
        import stable_baselines3
        import torch
        from tables import machine, write_table

        write_table(
            args.json, machine=machine(loads, f"stable-baselines3 {stable_baselines3.__version__}",
                                       f"torch {torch.__version__}, one thread"),
            title="Stable-Baselines3 PPO end to end: batched adapter vs DummyVecEnv",
            command=f"python benchmarks/bench_sb3.py --timesteps {args.timesteps} --rounds {args.rounds} "
                    f"--mode {args.mode} --json benchmarks/results/sb3.json",
            note="PPO `MlpPolicy` (n_steps 128, batch 256, 4 epochs, seed 0), 16 envs, Kruskal mazes of 5 × 5 "
                 "cells, " + ("simple mode (top-down channels)" if args.mode == "simple" else
                 "MiniGrid mode (the 7 × 7 view alone, ImgObsWrapper's way)") + ", training seeds 0–49,999; each run a fresh process, compiled path loaded "
                 "first; `model.learn` timed (medians of the rounds; the two kinds alternated). CPU time is the "
                 "process's, so the shared machine's load counts less than in wall time. Same policy: the "
                 "trained parameters' digest is equal across every run (the adapter matches DummyVecEnv step "
                 "for step).",
            columns=["envs", "steps", "wall time", "CPU time", "steps per CPU second", "vs DummyVecEnv (CPU)",
                     "same trained policy"],
            rows=rows)


if __name__ == "__main__":
    main()
