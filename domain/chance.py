"""The generator a seeded game draws its chance outcomes from, which is part of the game's rules version.

In seeded mode every chance outcome (a deal, a roll, a reveal: docs/engine/chance.md) is drawn from the
game's seed and its chance counter alone, so that a replay, the redraw after an amendment, an import's check
("what the seed draws") and a layout's ``draw_rest`` all draw the same. The layout's search for an order of
die-tile draws (R-S05, decision C.9) shuffles the spaces it leaves free from the same two numbers and the salt
``"tiles"``. Which generator turns (seed, chance) into outcomes is therefore a rule like any other: a game keeps
the one of the rules version it was recorded under (`GameState.rules_version`).

- 0.1.0 to 0.3.0 (`MERSENNE`): ``random.Random(f"{seed}:{chance}")``, CPython's Mersenne Twister seeded from
  that text (``:tiles`` appended for the layout's shuffle). Seeding it is most of what a draw costs: the text
  hashed with SHA-512, then 624 words of state initialised and twisted before the first number.
- 0.4.0 on: `SplitMix`, SplitMix64 whose 64-bit state is a BLAKE2b digest of the same text, with bounded
  integers by rejection (unbiased) and a Fisher-Yates shuffle written here. Seeding is one 8-byte BLAKE2b
  digest, and each number a few integer operations. SplitMix64 passes TestU01's BigCrush; the digest takes any
  whole number as a seed exactly (the domain takes any, negative or past 64 bits) and gives unrelated states to
  neighbouring chance counters. The draws, choice, shuffle and bounds included, are all defined in this module,
  so they cannot change with the Python that runs them.

Chosen among candidates timed alike (CPython 3.11, the shared development machine, the least disturbed of 30
rounds; µs for seeding alone / seeding and a roll of 3 dice / a choice): the Twister from the text 4.8 / 6.0 /
5.2, from an integer 4.1 / 5.3 / 4.5 (the 624-word initialisation is the cost either way); a ``random.Random``
subclass drawing from SplitMix64 1.05 / 3.5 / 1.8 (its C base initialises a Twister all the same, and its
bounded draws go through Python); BLAKE2b in counter mode, a digest per number, 0.41 / 2.5 / 1.0 (the
cheapest single choice, dearer for each number after the first: a shuffle of 10 costs 5.4 against 4.4);
SplitMix64 keyed by BLAKE2b, this one, 0.74 / 2.3 / 1.2; keyed by an integer mix of seed and chance 0.57 /
2.25 / 0.97. Those last differences are a fifth of a microsecond a draw (about 20 µs in a game of a hundred
draws, against milliseconds of moves). The integer mix folds seeds past 64 bits, and negative ones, onto
others, or needs a second way to key those; the digest keys them all one way, from the text the Twister was
keyed with. bench/bench_domain.py prints a draw of each version in the same run.
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
