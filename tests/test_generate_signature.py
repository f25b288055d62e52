"""``generate``'s parameter list is written out in its signature and again in the check stage
(``pipeline.Build.checked``), so that both keep ``**options`` and the defaults users read. These tests keep the
two the same, and ``generate`` one signature: every grid returns the one level class, so there is no overload
to narrow the return type (a change that brought back a second level class would fail here)."""

from __future__ import annotations

import inspect
import sys
import typing

import mazeplugin as mp
from mazeplugin import pipeline


def test_generate_has_one_signature_returning_the_one_level_class():
    assert inspect.signature(mp.generate).return_annotation == "Level"
    if sys.version_info >= (3, 11):
        assert typing.get_overloads(mp.generate) == []
    made = [mp.generate("wilson", 5, 4, seed=1, **kw)
            for kw in ({}, {"weave": True}, {"wrap": "xy"}, {"grid": "hex"}, {"grid": "triangle"}, {"grid": "polar"})]
    assert {type(level) for level in made} == {mp.Level}


def test_the_check_stage_takes_every_argument_of_generate_but_require_with_its_default():
    generate = inspect.signature(mp.generate).parameters
    checked = inspect.signature(pipeline.Build.checked).parameters
    level = [name for name in generate if name != "require"]  # require= is a search over levels, not one level's
    assert list(checked) == level
    for name in level:
        assert checked[name].kind == generate[name].kind, name
        assert checked[name].default == generate[name].default, name
