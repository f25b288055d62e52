"""The mission's space, :class:`MissionText`: gymnasium's ``Text``, made to pass through ``AsyncVectorEnv``'s shared memory.

``gymnasium.make_vec(id, vectorization_mode="async")`` shares observations
between processes through shared memory by default. Gymnasium reads a
``Text`` space out of it once, when the vector env is made, as a tuple of
strings: later missions never show (every env's mission reads ``"aaaa…"``,
the first character repeated; MiniGrid's ``MissionSpace`` is refused
outright). :class:`MissionText` is a ``Text`` whose shared memory is read as
:class:`SharedMissions`, a sequence that reads the shared characters each
time it is looked at; the copy ``AsyncVectorEnv`` hands out (``copy=True``,
its default) is a plain tuple of strings, as the other vector envs give.

>>> import string
>>> space = MissionText(max_length=8, charset=string.ascii_lowercase + " ")
>>> space.contains("go up"), isinstance(space, spaces.Text)
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Iterator, Tuple, Union, overload

from gymnasium import spaces
from gymnasium.vector.utils import read_from_shared_memory

__all__ = ["MissionText", "SharedMissions"]


class MissionText(spaces.Text):
    """The ``mission`` observation's space: ``spaces.Text``, equal to it, readable from ``AsyncVectorEnv``'s shared memory
    (gymnasium writes it there as any ``Text``: a character index per place)."""


class SharedMissions(Sequence):  # type: ignore[type-arg]
    """N missions in shared memory (``AsyncVectorEnv(shared_memory=True)``): each read when looked at.

    Equal to the tuple of its strings; ``copy.copy``/``copy.deepcopy`` (what
    ``AsyncVectorEnv`` returns with ``copy=True``) give that tuple.
    """

    def __init__(self, space: spaces.Text, memory: Any, n: int) -> None:
        self._space, self._memory, self._n = space, memory, n

    def _now(self) -> Tuple[str, ...]:
        texts = read_from_shared_memory.dispatch(spaces.Text)(self._space, self._memory, n=self._n)
        return tuple(texts)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> Tuple[str, ...]: ...

    def __getitem__(self, index: Union[int, slice]) -> Union[str, Tuple[str, ...]]:
        return self._now()[index]

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[str]:
        return iter(self._now())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SharedMissions):
            other = other._now()
        return isinstance(other, (tuple, list)) and self._now() == tuple(other)

    def __hash__(self) -> int:
        return hash(self._now())

    def __repr__(self) -> str:
        return repr(self._now())

    def __copy__(self) -> Tuple[str, ...]:
        return self._now()

    def __deepcopy__(self, memo: Any) -> Tuple[str, ...]:
        return self._now()

    def __reduce__(self) -> Any:  # pickled (sent to another process): the strings
        return (tuple, (self._now(),))


@read_from_shared_memory.register(MissionText)
def _read_missions(space: MissionText, shared_memory: Any, n: int = 1) -> SharedMissions:
    return SharedMissions(space, shared_memory, n)
