"""The generator a seeded game draws its chance outcomes from, which is part of the game's rules version.

Every draw comes from the game's seed and chance counter alone, so replays, corrections and imports draw the same.
Rules 0.1.0 to 0.3.0 use ``random.Random(f"{seed}:{chance}")``; 0.4.0 on, SplitMix64 keyed by a BLAKE2b digest of
the same text, much cheaper to seed (docs/engine/rules-versions.md).
"""

from __future__ import annotations

import random
from collections.abc import MutableSequence, Sequence
from hashlib import blake2b
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

MERSENNE = frozenset({"0.1.0", "0.2.0", "0.3.0"})
"""Rules versions whose seeded draws come from ``random.Random`` seeded with text: their recorded games draw
again exactly as they drew (a redraw after an amendment, an import's check of what the seed draws)."""

_MASK = (1 << 64) - 1
_SPAN = 1 << 64
_GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment: 2^64 divided by the golden ratio, odd


class Draws(Protocol):
    """What a chance prompt's draw asks of its generator (``random.Random`` and `SplitMix` both give it)."""

    def randint(self, a: int, b: int) -> int: ...

    def choice(self, seq: Sequence[T]) -> T: ...

    def shuffle(self, x: MutableSequence[Any]) -> None: ...


class SplitMix:
    """SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators", 2014, as Vigna's
    splitmix64.c and Java's SplittableRandom have it): the state advances by `_GAMMA`, and each output is the
    state through Stafford's "Mix13" finaliser. Started from `key`'s BLAKE2b digest (``"{seed}:{chance}"``,
    `rng_for`)."""

    __slots__ = ("_state",)

    def __init__(self, key: bytes) -> None:
        self._state = int.from_bytes(blake2b(key, digest_size=8).digest(), "little")

    def _below(self, n: int) -> int:
        """A whole number in [0, n), every one equally likely: outputs at or past the largest multiple of n
        below 2^64 are drawn again (for a die, one in 3 * 10^18)."""
        if not 0 < n <= _SPAN:
            raise ValueError(f"nothing to draw from below {n}")
        limit = _SPAN - _SPAN % n
        while True:
            # Inlined (not a method of its own): a call is a third of a number's cost in CPython.
            self._state = state = (self._state + _GAMMA) & _MASK
            mixed = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            mixed = ((mixed ^ (mixed >> 27)) * 0x94D049BB133111EB) & _MASK
            mixed ^= mixed >> 31
            if mixed < limit:
                return mixed % n

    def randint(self, a: int, b: int) -> int:
        """A whole number from a to b, both included."""
        return a + self._below(b - a + 1)

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self._below(len(seq))]

    def shuffle(self, x: MutableSequence[Any]) -> None:
        """Fisher-Yates, from the last place down (as ``random.shuffle``)."""
        for i in range(len(x) - 1, 0, -1):
            j = self._below(i + 1)
            x[i], x[j] = x[j], x[i]


def draw_of(rules_version: str) -> str:
    """The generator a seeded game of `rules_version` draws from, in words: two versions that name the same one
    draw alike from the same seed (what ``heronlog upgrade`` checks before moving a seeded game)."""
    return "the Mersenne Twister" if rules_version in MERSENNE else "SplitMix64"


def rng_for(rules_version: str, seed: int | None, chance: int, salt: str = "") -> Draws:
    """The generator of the draw numbered `chance` of the game seeded with `seed`, under `rules_version`'s
    draw; `salt` tells apart a second use of the same two numbers (the layout's ``"tiles"``)."""
    key = f"{seed}:{chance}:{salt}" if salt else f"{seed}:{chance}"
    if rules_version in MERSENNE:
        return random.Random(key)
    assert seed is not None, "a seeded draw has a seed"
    return SplitMix(key.encode())
