"""``generate``'s parameter list is written out in each of its overloads, its implementation and the check
stage (``pipeline.Build.checked``): typing has no way to share one keyword list among overloads and keep
``**options`` and the defaults users read. These tests keep the copies the same, so adding or changing an
argument in one and not the others fails here rather than in a user's type checker."""

from __future__ import annotations

import inspect
import sys
import typing

import pytest

import mazeplugin as mp
from mazeplugin import pipeline

# What an overload narrows (which grid, which wrap, and so which level class it returns).
NARROWED = {"grid", "wrap"}


def _parameters(function: object) -> typing.Dict[str, typing.Tuple[object, object, object]]:
    """Each parameter's kind, default and annotation (a string: the modules use postponed annotations)."""
    return {name: (p.kind, p.default, p.annotation)
            for name, p in inspect.signature(function).parameters.items()}


@pytest.mark.skipif(sys.version_info < (3, 11), reason="typing.get_overloads is new in Python 3.11")
def test_every_overload_of_generate_takes_the_implementations_arguments_with_its_defaults():
    overloads = typing.get_overloads(mp.generate)
    assert len(overloads) == 4
    implementation = _parameters(mp.generate)
    assert list(implementation)[:3] == ["algorithm", "width", "height"] and list(implementation)[-1] == "options"
    for overload in overloads:
        declared = _parameters(overload)
        assert list(declared) == list(implementation)  # the same names in the same order
        for name, (kind, default, annotation) in declared.items():
            assert kind == implementation[name][0], name
            if name not in NARROWED:
                assert (default, annotation) == implementation[name][1:], name
    returns = sorted(inspect.signature(overload).return_annotation for overload in overloads)
    assert returns == ["GridLevel", "GridLevel", "Level", "Union[Level, GridLevel]"]


def test_the_check_stage_takes_every_argument_of_generate_but_require_with_its_default():
    generate = inspect.signature(mp.generate).parameters
    checked = inspect.signature(pipeline.Build.checked).parameters
    level = [name for name in generate if name != "require"]  # require= is a search over levels, not one level's
    assert list(checked) == level
    for name in level:
        assert checked[name].kind == generate[name].kind, name
        assert checked[name].default == generate[name].default, name
