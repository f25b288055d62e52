"""Run the code examples of a Markdown page (README.md, the site's pages) as a reader would: each block alone.

Shared by tests/test_readme.py, tests/test_docs_pages.py and the site's build (docs/_hooks/build.py), so
an example that fails fails the tests and the strict build alike. The rules:

- A block is a fenced code block: a line of three backticks and a language,
  the code, a line of three backticks. ``python`` blocks run; ``sh`` blocks
  are commands (tests/test_readme.py runs them in a copy of the checkout);
  anything else is only shown.
- Every ```python block runs **alone**, in a fresh Python process whose
  working folder is an empty temporary folder: it imports what it uses and
  makes what it reads. A file of the checkout's ``docs/`` folder that a
  block names (``docs/NAME``) is copied into that folder first. A block that
  imports a module not installed here (an optional extra) is skipped, saying
  which; so is one whose comments say "needs pygame" where pygame is absent.
  After the block, every file it saves by a literal name (``save_png("level.png")``)
  must exist. pygame runs under SDL's dummy video and audio drivers.
- A block that reads ``pygame.key.get_pressed()`` is a game loop and is
  played: ``get_pressed`` reports the arrow keys that lead the block's
  ``player`` rect along its ``level``'s ``solution()`` (each key before its door), and
  ``pygame.time.Clock.tick`` returns 1/60 s without sleeping. The loop must
  end by itself when the player reaches the exit; after ``MAX_FRAMES`` frames
  the harness closes the window (a QUIT event) and the run fails.
"""

from __future__ import annotations

import ast
import os
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import List, Optional, Tuple

from processes import child_env

ROOT = Path(__file__).resolve().parent.parent
MAX_FRAMES = 20_000
BLOCK_TIMEOUT = 600  # a hang guard, never a speed bound
COMMAND_TIMEOUT = 600  # a hang guard, never a speed bound

Block = Tuple[int, str, str]  # first line of the code in its page (1-based), language, code

DOCS_PATH = re.compile(r"\bdocs/[\w./-]*\w")
SAVED = re.compile(r"\.save_\w+\(\s*[\"']([^\"']+)[\"']")


def blocks(text: str) -> List[Block]:
    """The fenced code blocks of a Markdown text: ``(first code line, language, code)``."""
    found = []
    for match in re.finditer(r"^```(\w*)\n(.*?)^```$", text, re.MULTILINE | re.DOTALL):
        first_line = text.count("\n", 0, match.start(2)) + 1
        found.append((first_line, match.group(1), match.group(2)))
    return found


def install_commands(text: str) -> List[str]:
    """The commands under ``<!-- main-command -->`` and ``<!-- test-command -->`` (CI runs those)."""
    return re.findall(r"<!-- (?:main|test)-command -->\n```sh\n(.*?)\n```", text, re.DOTALL)


def python_blocks(text: str) -> List[Tuple[int, str]]:
    """The ```python blocks: ``(first code line, code)``."""
    return [(line, code) for line, language, code in blocks(text) if language == "python"]


def missing_modules(code: str) -> List[str]:
    """Top-level modules the code imports, or says it "needs", that are not installed here (never mazeplugin)."""
    names = set(re.findall(r"#.*\bneeds (pygame)\b", code))
    for node in ast.walk(ast.parse(code)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
            if any(alias.name.startswith("mazeplugin.pg") for alias in node.names):
                names.add("pygame")  # mazeplugin.pg is the package that needs pygame
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
            if node.module.startswith("mazeplugin.pg") or (
                    node.module == "mazeplugin" and any(alias.name == "pg" for alias in node.names)):
                names.add("pygame")
    return sorted(n for n in names if not n.startswith("mazeplugin") and importlib.util.find_spec(n) is None)


RUNNER = r'''
import json, os, sys

source, first_line, code = json.load(open(sys.argv[1], encoding="utf-8"))
report = {"frames": 0, "forced_quit": False, "loops": 0}

try:
    import pygame
except ImportError:
    pygame = None

namespace = {"__name__": "__main__"}

if pygame is not None:
    real_get = pygame.event.get

    class Hands:
        """What a player would hold: arrow keys towards the next tile on the shortest way to the exit."""

        def __init__(self, held):
            self.held = held

        def __getitem__(self, key):
            return int(key in self.held)

        def __len__(self):
            return 512

    walk = {"level": None, "way": [], "at": 0}

    def held_keys():
        """Arrow keys towards the next tile of ``level.solution()`` (through each key before its door)."""
        import mazeplugin.pg as mpg

        level, player, tile = namespace.get("level"), namespace.get("player"), namespace.get("TILE")
        if level is None or player is None or tile is None or level.exit is None:
            return set()
        if walk["level"] is not level:
            walk.update(level=level, way=list(level.solution()), at=0)
        way = walk["way"]
        here = mpg.pixel_to_tile(player.center, tile)
        if walk["at"] + 1 < len(way) and here == way[walk["at"] + 1]:
            walk["at"] += 1
        if walk["at"] + 1 >= len(way):
            return set()
        tx, ty = mpg.tile_to_pixel(way[walk["at"] + 1], tile)
        cx, cy = player.center
        held = set()
        if tx > cx: held.add(pygame.K_RIGHT)
        if tx < cx: held.add(pygame.K_LEFT)
        if ty > cy: held.add(pygame.K_DOWN)
        if ty < cy: held.add(pygame.K_UP)
        return held

    def get_pressed():
        return Hands(held_keys())

    def get(*args, **kwargs):
        events = real_get(*args, **kwargs)
        report["frames"] += 1
        if report["frames"] > int(os.environ["README_MAX_FRAMES"]):
            report["forced_quit"] = True
            events = list(events) + [pygame.event.Event(pygame.QUIT)]
        return events

    class Clock:
        """A clock that does not sleep: every tick is 1/60 s."""

        def tick(self, framerate=0):
            report["loops"] += 1
            return 1000 // 60

        def get_time(self):
            return 1000 // 60

        def get_fps(self):
            return 60.0

    pygame.key.get_pressed = get_pressed
    pygame.event.get = get
    pygame.time.Clock = Clock

try:
    # Padded so that tracebacks name the page's own line numbers.
    exec(compile("\n" * (first_line - 1) + code, source, "exec"), namespace)
finally:
    print("README-RUN " + json.dumps(report), flush=True)
'''


def run_block(source: str, first_line: int, code: str, folder: Path, python: Optional[str] = None) -> Optional[str]:
    """Run one block alone in an empty ``folder/fresh``; None when it ran as promised, else what went wrong.

    ``source`` names the page in tracebacks and messages (``docs/how-to/grids.md``).
    """
    where = f"{source}:{first_line}"
    work = folder / "fresh"
    work.mkdir(parents=True)
    for name in sorted(set(DOCS_PATH.findall(code))):
        if not (ROOT / name).is_file():
            return f"{where} reads {name}, which the checkout does not have"
        (work / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, work / name)
    (folder / "block.json").write_text(json.dumps([source, first_line, code]), encoding="utf-8")
    (folder / "runner.py").write_text(RUNNER, encoding="utf-8")
    env = child_env(  # the compiled path in its default mode, as a reader runs the block
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        MAZEPLUGIN_NO_PLUGINS="1",
        README_MAX_FRAMES=str(MAX_FRAMES),
        PYTHONPATH=str(ROOT),  # this checkout's mazeplugin, as if installed: the folder holds nothing else
    )
    done = subprocess.run(
        [python or sys.executable, str(folder / "runner.py"), str(folder / "block.json")],
        cwd=work, env=env, capture_output=True, text=True, timeout=BLOCK_TIMEOUT,
    )
    if done.returncode != 0:
        return f"{where}: the block failed alone:\n{done.stderr[-4000:]}"
    (line,) = [line for line in done.stdout.splitlines() if line.startswith("README-RUN ")]
    report = json.loads(line.split(" ", 1)[1])
    if "pygame.key.get_pressed" in code and not (report["loops"] > 100 and not report["forced_quit"]):
        # The game loop must end because its player reached the exit, not because the harness closed it.
        return f"{where}: the game loop did not end at the exit: {report}"
    if "Level complete in " in code and "Level complete in " not in done.stdout:
        return f"{where}: the game loop never printed 'Level complete in'"
    for name in SAVED.findall(code):
        if not (work / name).is_file():
            return f"{where} says it saves {name}, and did not"
    return None


def sh_commands(text: str) -> List[Tuple[int, str]]:
    """Every command of every ```sh block but the install commands: ``(line, command)``."""
    skip = set(install_commands(text))
    commands = []
    for first_line, language, code in blocks(text):
        if language != "sh" or code.strip() in skip:
            continue
        pending, start = "", 0
        for offset, line in enumerate(code.splitlines()):
            if not pending:
                start = offset
            pending += line
            if pending.endswith("\\"):
                pending = pending[:-1] + " "
                continue
            if pending.strip() and not pending.lstrip().startswith("#"):
                commands.append((first_line + start, pending.strip()))
            pending = ""
    return commands


def checkout_copy(target: Path) -> None:
    """A copy of the checkout's sources; numba's cache of the compiled kernels comes along.

    The cache sits in ``mazeplugin/_compiled/__pycache__`` and is keyed by each
    source file's size and modification time, which the copy keeps: commands
    run in the copy load the kernels instead of compiling them all again.
    """
    skip = shutil.ignore_patterns(
        ".git", ".venv*", "*.egg-info", "build", "dist", "site", "site-screenshots", ".hypothesis", ".pytest_cache", ".mypy_cache", "bench-venv*",
    )

    def ignore(folder: str, names: List[str]) -> set:
        ignored = set(skip(folder, names))
        if Path(folder).name != "_compiled":
            ignored.update(n for n in names if n == "__pycache__")
        return ignored

    shutil.copytree(ROOT, target, ignore=ignore)


def run_command(checkout: Path, where: str, command: str) -> Optional[str]:
    """Run one documented command in ``checkout`` as a reader types it; None when it succeeds, else why not."""
    bin_dir = os.path.dirname(sys.executable)
    env = child_env(  # the compiled path in its default mode, as a reader types the command
        PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""),
        SDL_VIDEODRIVER="dummy",
        SDL_AUDIODRIVER="dummy",
        PYTHONDONTWRITEBYTECODE="1",
        # `python -m pytest FILE` in one process: this suite's workers already fill the cores, and
        # -n auto would start one more worker per core for one small file (xdist runs in the suite itself).
        PYTEST_ADDOPTS="-n 0",
    )
    # `python` is the test's own interpreter, as in the activated venv the README assumes.
    command_line = re.sub(r"^python(3)?\b", lambda _: f'"{sys.executable}"', command)
    done = subprocess.run(
        ["bash", "-c", command_line], cwd=checkout, env=env, capture_output=True, text=True, timeout=COMMAND_TIMEOUT,
    )
    if done.returncode != 0:
        return f"{where}: {command}\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}"
    return None
