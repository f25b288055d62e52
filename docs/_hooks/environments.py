"""The environment pages: one per registered id, in Gymnasium's style, and the MiniGrid wrapper table.

Every fact on these pages is read from the code while the site is built: the ids
and their arguments from ``mazeplugin.gym.IDS``, the defaults from
``MazeEnv``'s signature, the spaces and ``max_steps`` from an environment made
with them, the animation from ``render()`` frames of an agent that walks
``level.solution()``, and the wrapper table from running each MiniGrid wrapper.
"""

from __future__ import annotations

import inspect
import struct
import zlib
from typing import Any, Dict, List, Tuple

import numpy as np

FRAMES = 36  # frames in an animation: enough to see the agent walk, cheap to build
TILE = 14  # pixels a tile in the animations
STEP = {0: (1, 0), 1: (0, 1), 2: (-1, 0), 3: (0, -1)}  # MiniGrid's directions: east, south, west, north


def apng(frames: List[np.ndarray], delay_ms: int = 150) -> bytes:
    """An animated PNG of uint8 ``(h, w, 3)`` frames, written with zlib alone (no imaging library)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    h, w = frames[0].shape[:2]
    out = [b"\x89PNG\r\n\x1a\n", chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)),
           chunk(b"acTL", struct.pack(">II", len(frames), 0))]
    sequence = 0
    for index, picture in enumerate(frames):
        out.append(chunk(b"fcTL", struct.pack(">IIIIIHHBB", sequence, w, h, 0, 0, delay_ms, 1000, 0, 0)))
        sequence += 1
        raw = b"".join(b"\x00" + row.tobytes() for row in np.ascontiguousarray(picture, dtype=np.uint8))
        data = zlib.compress(raw, 9)
        if index == 0:
            out.append(chunk(b"IDAT", data))
        else:
            out.append(chunk(b"fdAT", struct.pack(">I", sequence) + data))
            sequence += 1
    out.append(chunk(b"IEND", b""))
    return b"".join(out)


def play(env: Any, seed: int) -> Tuple[List[np.ndarray], bool]:
    """Frames of an agent walking the level's solution (MiniGrid's turns, pickups and toggles), and whether it won."""
    import mazeplugin.gym as mg

    base = env.unwrapped
    env.reset(seed=seed)
    frames = [env.render()]
    way = base.level.solution()
    doors = {(t.x, t.y) for t in base.level.things if t.kind == "door"}
    doors |= {tile for t in base.level.things if t.kind == "door" for tile in t.props.get("tiles", ())}
    keys = {(t.x, t.y) for t in base.level.things if t.kind == "key"}
    won = False
    minigrid = base.settings.mode == "minigrid"

    def act(action: int) -> bool:
        _, _, terminated, truncated, _ = env.step(action)
        frames.append(env.render())
        return terminated or truncated

    tiles = base.level.tiles
    things = {(t.x, t.y) for t in base.level.things}
    carrying: object = False  # False, True (a key for a door ahead) or "used"

    def face(direction: int) -> None:
        while base.agent_dir != direction:
            act(mg.Actions.right if (direction - base.agent_dir) % 4 <= 2 else mg.Actions.left)

    for i, (here, there) in enumerate(zip(way, way[1:])):
        d = (there[0] - here[0], there[1] - here[1])
        if minigrid:
            want = next(k for k, v in STEP.items() if v == d)
            if carrying == "used":  # MiniGrid holds one key: put a used one down beside the way, off it
                rest = set(way[i:])
                spare = [k for k, (dx, dy) in STEP.items()
                         if 0 <= here[1] + dy < tiles.shape[0] and 0 <= here[0] + dx < tiles.shape[1]
                         and tiles[here[1] + dy, here[0] + dx] == 0
                         and (here[0] + dx, here[1] + dy) not in rest | things]
                if spare:
                    face(spare[0])
                    act(mg.Actions.drop)
                    carrying: object = False  # False, True (a key for a door ahead) or "used"
            if there in keys and carrying:
                break
            face(want)
            if there in keys:
                act(mg.Actions.pickup)
                keys.discard(there)
                carrying = True
            if there in doors:
                act(mg.Actions.toggle)
                doors.discard(there)
                carrying = "used"
            done = act(mg.Actions.forward)
        else:
            done = act(next(k for k, v in enumerate([(0, -1), (1, 0), (0, 1), (-1, 0)]) if v == d))
        if done:
            won = True
            break
    if len(frames) > FRAMES:  # a few dozen frames, evenly spaced, the last one kept
        picks = np.linspace(0, len(frames) - 1, FRAMES).round().astype(int)
        frames = [frames[i] for i in picks]
    return frames, won


def slug(env_id: str) -> str:
    return env_id.split("/")[-1].lower()


def _space(space: Any) -> List[Tuple[str, str]]:
    import gymnasium.spaces as sp

    if isinstance(space, sp.Dict):
        return [(f'`"{k}"`', f"`{v}`") for k, v in space.spaces.items()]
    return [("", f"`{space}`")]


def wrapper_results() -> Tuple[List[str], Dict[str, Dict[str, str]]]:
    """Every MiniGrid wrapper run on every registered id: ``{wrapper: {id: "works" or the error}}``."""
    import gymnasium
    import minigrid.wrappers as mw
    import mazeplugin.gym as mg

    arguments = {"NoDeath": {"no_death_types": ("lava",)}, "ReseedWrapper": {"seeds": (3, 4)}}
    names = sorted(name for name, value in vars(mw).items()
                   if inspect.isclass(value) and issubclass(value, gymnasium.Wrapper)
                   and value.__module__ == mw.__name__)
    table: Dict[str, Dict[str, str]] = {}
    for name in names:
        table[name] = {}
        for env_id in mg.IDS:
            try:
                env = getattr(mw, name)(gymnasium.make(env_id), **arguments.get(name, {}))
                env.reset(seed=1)
                for action in (2, 1, 2, 0, 2, 3, 5):
                    env.step(action % env.action_space.n)
                env.close()
                table[name][env_id] = "works"
            except Exception as error:  # the table reports it: that is what it is for
                table[name][env_id] = f"{type(error).__name__}: {str(error).splitlines()[0][:90]}"
    return names, table


def pages() -> Dict[str, object]:
    """The environment pages; made on the numpy path (the same levels and frames, and no kernels to build)."""
    import os

    before = os.environ.get("MAZEPLUGIN_COMPILED")
    os.environ["MAZEPLUGIN_COMPILED"] = "0"
    try:
        return _pages()
    finally:
        if before is None:
            os.environ.pop("MAZEPLUGIN_COMPILED", None)
        else:
            os.environ["MAZEPLUGIN_COMPILED"] = before


def _pages() -> Dict[str, object]:
    import gymnasium
    import mazeplugin.gym as mg
    from mazeplugin.gym.env import Settings

    defaults = {name: p.default for name, p in inspect.signature(Settings.__init__).parameters.items()
                if p.default is not inspect.Parameter.empty}
    files: Dict[str, object] = {}
    names, wrappers = wrapper_results()
    index = ["# Environments", "",
             "`import mazeplugin.gym` registers these ids with Gymnasium (`pip install \"mazeplugin[gym]\"`).",
             "Any argument of `MazeEnv` overrides an id's defaults, and `gymnasium.make_vec(id, num_envs=N,",
             'vectorization_mode="vector_entry_point")` gives the batched `MazeVectorEnv`. Each page is generated',
             "from the code while the site is built.", "",
             "| id | level | mode | action space | max_steps |", "|---|---|---|---|---|"]
    for env_id, kwargs in mg.IDS.items():
        settings = {**defaults, **kwargs}
        env = gymnasium.make(env_id, render_mode="rgb_array", tile_size=TILE)
        base = env.unwrapped
        level = (f'{settings["generator"]} {settings["width"]} × {settings["height"]} cells'
                 + (f', {settings["rooms"]} rooms' if settings["rooms"] else "")
                 + (f', {settings["keys"]} keys' if settings["keys"] else ""))
        index.append(f"| [`{env_id}`]({slug(env_id)}.md) | {level} | {settings['mode']} | "
                     f"`{env.action_space}` | {base.max_steps} |")
        for seed in range(2, 40):  # the first seed from 2 whose walk this simple agent finishes
            frames, won = play(env, seed)
            if won:
                break
        files[f"environments/{slug(env_id)}.png"] = apng(frames)
        minigrid = settings["mode"] == "minigrid"
        actions = mg.Actions if minigrid else mg.Moves
        page = [f"# {env_id.split('/')[-1]}", "",
                f"![An agent walking level seed {seed} of {env_id} to its exit]({slug(env_id)}.png)", "",
                "| interface | |", "|---|---|",
                f"| Action space | `{env.action_space}` |",
                f"| Observation space | `{env.observation_space}` |",
                f"| Import | `import gymnasium, mazeplugin.gym` then `gymnasium.make(\"{env_id}\")` |",
                f"| Vectorised | `gymnasium.make_vec(\"{env_id}\", num_envs=N, vectorization_mode=\"vector_entry_point\")` |",
                "",
                f"The animation: level seed {seed}, an agent walking `level.solution()`"
                f"{' (turning, picking keys up and opening doors as MiniGrid does)' if minigrid else ''}"
                f"; {'it reaches the goal' if won else 'it stops short of the goal (it holds one key at a time)'}"
                f" ({len(frames)} frames of `env.render()`, made while the site was built).", "",
                "## Description", "",
                f"A {level} maze (`mazeplugin.generate(\"{settings['generator']}\", ...)`), a new level every episode:",
                "`reset(seed=s)` plays level seed `s`; later resets draw level seeds from the environment's",
                "`np_random` (or from `seeds=`, a training split). `info[\"level_code\"]` names the level played.", "",
                "## Actions", "", "| value | action |", "|---|---|"]
        page += [f"| {a.value} | `{a.name}` |" for a in actions]
        page += ["", "## Observation", ""]
        if minigrid:
            page += ["MiniGrid's observation dict: an egocentric view in MiniGrid's object/colour/state encoding",
                     "(walls and locked doors block sight), the agent's direction (0 east, 1 south, 2 west, 3 north)",
                     "and the mission text.", "", "| key | space |", "|---|---|"]
        else:
            page += ["The whole level top-down, one 0/1 channel each: wall, agent, goal, key, locked door,",
                     "locked door whose key is held.", "", "| | space |", "|---|---|"]
        page += [f"| {k} | {v} |" for k, v in _space(env.observation_space)]
        page += ["", "## Reward", ""]
        page += (["`1 - 0.9 * steps / max_steps` on reaching the goal (the level's exit), MiniGrid's reward; 0 otherwise."]
                 if minigrid else ["`1 - 0.9 * steps / max_steps` on reaching the goal (the level's exit); 0 otherwise."])
        page += ["", "## Episode end", "",
                 "- **Terminated** when the agent reaches the goal (`info[\"is_success\"]` is then true).",
                 f"- **Truncated** after `max_steps` steps: **{base.max_steps}** here (4 × the level's "
                 f"{base.height} × {base.width} tiles).", ""]
        if settings["keys"]:
            page += ["Keys: " + ("picked up from the tile ahead (`pickup`), one at a time; `toggle` opens a locked"
                                 " door while holding the key of its colour." if minigrid else
                                 "picked up by walking over them; a locked door opens when walked into with its key."), ""]
        page += ["## Arguments", "",
                 "The id's defaults; every argument of `MazeEnv` may be passed to `gymnasium.make`.", "",
                 "| argument | default |", "|---|---|"]
        for name, value in defaults.items():
            mark = " (this id)" if name in kwargs else ""
            page.append(f"| `{name}` | `{settings[name]!r}`{mark} |")
        page += ["", "## MiniGrid wrappers", "",
                 "Run on this id while the site was built ([the compatibility page](compatibility.md) has all ids):", "",
                 "| wrapper | result |", "|---|---|"]
        page += [f"| `{name}` | {wrappers[name][env_id]} |" for name in names]
        page += ["", "## Version history", "", "- v0: the first version.", ""]
        files[f"environments/{slug(env_id)}.md"] = "\n".join(page)
        env.close()
    index += ["", "See also the [MiniGrid wrapper compatibility](compatibility.md) table and the",
              "[training tutorial](../tutorials/training-an-agent.md).", ""]
    files["environments/index.md"] = "\n".join(index)
    compat = ["# MiniGrid wrapper compatibility", "",
              "Each of MiniGrid's wrappers (`minigrid.wrappers`), run on each registered id (its defaults, a reset",
              "and seven steps) while the site was built: **works**, or the error it raised.", "",
              "| wrapper | " + " | ".join(f"`{i.split('/')[-1]}`" for i in mg.IDS) + " |",
              "|---|" + "---|" * len(mg.IDS)]
    compat += [f"| `{name}` | " + " | ".join(wrappers[name][i] for i in mg.IDS) + " |" for name in names]
    compat += ["", "The simple mode's observation is an array, not MiniGrid's dict: wrappers that read",
               "`obs[\"image\"]` or MiniGrid's grid objects need the MiniGrid mode.", ""]
    files["environments/compatibility.md"] = "\n".join(compat)
    return files
