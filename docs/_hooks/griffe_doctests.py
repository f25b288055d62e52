"""A griffe extension for the API reference: the docstrings' reST habits shown as Markdown.

mazeplugin's docstrings are plain text with doctest examples (``>>>``, run by the test
suite), reST literals (````x````), roles (``:class:`X```) and ``::`` literal blocks.
Markdown would read ``>>>`` as nested quotes; this turns each run of doctest lines into a
fenced ``pycon`` block and each role into a code span, before mkdocstrings renders it.
"""

from __future__ import annotations

import re
from typing import Any, List

import griffe

ROLE = re.compile(r":(?:class|func|meth|mod|attr|data|obj|exc|const|py:\w+):`~?([^`]+)`")


def markdown(text: str) -> str:
    """A docstring's text with each run of doctest lines fenced as ``pycon`` and roles as code spans."""
    lines = text.splitlines()
    out: List[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith(">>>"):
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + "```pycon")
            while i < len(lines) and lines[i].strip():
                out.append(lines[i])
                i += 1
            out.append(indent + "```")
            continue
        out.append(ROLE.sub(lambda m: f"`{m.group(1)}`", line))
        i += 1
    return "\n".join(out)


class DoctestsAsCode(griffe.Extension):
    """Rewrite every docstring once it is loaded."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:  # griffe 1.x and 2.x
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)
