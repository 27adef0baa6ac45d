"""Table dice: definitions as data, unbiased rolling, exact distributions.

A :class:`Die` is a tuple of :class:`Face` objects, each with a count (how many
sides carry it). Dice come from ``companion/data/dice.json`` (the Doom die, the
Kampf der Gladiatoren star die, the Spartacus red/black/blue d6) and from the
plain ``dN`` names (``d6``, ``d20``, ...).

Rolling goes through a :class:`Roller`. The default roller draws from the
operating system (:class:`random.SystemRandom`, whose ``randrange`` uses
rejection sampling, never ``byte % n``), so every side is equally likely by
construction. :meth:`Roller.seeded` is the one way to get repeatable rolls, for
demos, tests and replays.

Rules engines never roll: they expose chance nodes whose outcomes come from
:meth:`Die.distribution`, and the caller picks an outcome with a roller.
"""

from __future__ import annotations

import math
import random
import re
from bisect import bisect_right
from collections.abc import Sequence
from fractions import Fraction
from functools import cache, lru_cache
from itertools import accumulate
from operator import attrgetter, itemgetter
from typing import Any

from companion.records import Record

_DN = re.compile(r"^d([1-9][0-9]{0,3})$")
MAX_PLAIN_SIDES = 1000


class DiceError(ValueError):
    """A die name, count or dice data file is not usable. The message says what to do."""


class Face(Record):
    """One kind of face on a die: ``id`` for programs, ``label`` for people."""

    id: str
    label: str
    symbol: str
    count: int = 1


class Die(Record):
    """A die: its faces with side counts. ``sides`` is the sum of the counts."""

    name: str
    title: str
    faces: tuple[Face, ...]
    game: str = ""
    source: str = ""

    @property
    def sides(self) -> int:
        return sum(face.count for face in self.faces)

    def face(self, face_id: str) -> Face:
        """The face with this id; :class:`DiceError` if the die has none."""
        for face in self.faces:
            if face.id == face_id:
                return face
        known = ", ".join(f.id for f in self.faces)
        raise DiceError(f"die {self.name!r} has no face {face_id!r}; its faces are: {known}")

    def distribution(self) -> dict[str, Fraction]:
        """Exact probability of each face id (fractions summing to 1)."""
        total = self.sides
        return {face.id: Fraction(face.count, total) for face in self.faces}

    def face_for_side(self, side: int) -> Face:
        """The face on side ``side`` (0-based), sides numbered face by face."""
        if not 0 <= side < self.sides:
            raise DiceError(f"side {side} is not on die {self.name!r} (0..{self.sides - 1})")
        for face in self.faces:
            if side < face.count:
                return face
            side -= face.count
        raise AssertionError("unreachable")  # pragma: no cover


def plain_die(sides: int) -> Die:
    """A plain numbered die ``dN`` with faces ``"1"`` .. ``"N"``."""
    if not 2 <= sides <= MAX_PLAIN_SIDES:
        raise DiceError(f"a plain die needs 2..{MAX_PLAIN_SIDES} sides, not {sides}")
    faces = tuple(Face(id=str(n), label=str(n), symbol=str(n)) for n in range(1, sides + 1))
    return Die(name=f"d{sides}", title=f"plain {sides}-sided die", faces=faces)


def _parse_die(entry: Any, where: str) -> Die:
    if not isinstance(entry, dict):
        raise DiceError(f"{where}: each die must be an object, got {type(entry).__name__}")
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        raise DiceError(f"{where}: a die needs a non-empty 'name'")
    title = str(entry.get("title", name))
    meta = {"game": str(entry.get("game", "")), "source": str(entry.get("source", ""))}
    if "numeric" in entry:
        sides = entry["numeric"]
        if not isinstance(sides, int) or isinstance(sides, bool):
            raise DiceError(f"{where}: die {name!r}: 'numeric' must be a whole number of sides")
        plain = plain_die(sides)
        return Die(name=name, title=title, faces=plain.faces, **meta)
    faces_data = entry.get("faces")
    if not isinstance(faces_data, list) or not faces_data:
        raise DiceError(f"{where}: die {name!r} needs a non-empty 'faces' list or 'numeric'")
    faces = []
    for i, f in enumerate(faces_data):
        if not isinstance(f, dict) or not isinstance(f.get("id"), str):
            raise DiceError(f"{where}: die {name!r}, face {i}: needs an 'id' string")
        count = f.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise DiceError(
                f"{where}: die {name!r}, face {f['id']!r}: 'count' must be a whole number >= 1,"
                f" got {count!r}"
            )
        faces.append(
            Face(
                id=f["id"],
                label=str(f.get("label", f["id"])),
                symbol=str(f.get("symbol", f["id"])),
                count=count,
            )
        )
    ids = [f.id for f in faces]
    if len(set(ids)) != len(ids):
        raise DiceError(f"{where}: die {name!r} lists a face id twice: {ids}")
    return Die(name=name, title=title, faces=tuple(faces), **meta)


def parse_dice(data: Any, where: str = "dice data") -> dict[str, Die]:
    """Validate a dice document (the JSON of ``dice.json``) into dice by name."""
    if not isinstance(data, dict) or not isinstance(data.get("dice"), list):
        raise DiceError(f"{where}: expected an object with a 'dice' list")
    dice: dict[str, Die] = {}
    for i, entry in enumerate(data["dice"]):
        die = _parse_die(entry, f"{where}, die #{i}")
        if die.name in dice:
            raise DiceError(f"{where}: die {die.name!r} is defined twice")
        if _DN.match(die.name):
            raise DiceError(
                f"{where}: {die.name!r} is reserved for plain dice; choose another name"
            )
        dice[die.name] = die
    return dice


@cache
def builtin_dice() -> dict[str, Die]:
    """The dice shipped in ``companion/data/dice.json``."""
    import json  # here, not at the top: importing the dice stays cheap (measured 7 ms:
    from importlib import resources  # resources brings tempfile, shutil, bz2, lzma)

    text = resources.files("companion.data").joinpath("dice.json").read_text("utf-8")
    return parse_dice(json.loads(text), "companion/data/dice.json")


def get_die(name: str) -> Die:
    """A die by name: a built-in die or ``dN``. Unknown names raise :class:`DiceError`."""
    dice = builtin_dice()
    if name in dice:
        return dice[name]
    match = _DN.match(name)
    if match:
        return plain_die(int(match.group(1)))
    known = ", ".join(sorted(dice))
    raise DiceError(f"unknown die {name!r}; known dice: {known}, or dN for a plain die (d6, d20)")


class Roller:
    """Picks die faces. ``Roller()`` uses the system's generator; ``Roller.seeded(s)`` repeats.

    Every roll draws a side with ``randrange(sides)``, which both generators
    implement by rejection sampling, so no side is favoured.
    """

    def __init__(self, rng: random.Random | None = None) -> None:
        self._rng = rng if rng is not None else random.SystemRandom()
        self.seed: int | None = None

    @classmethod
    def seeded(cls, seed: int) -> Roller:
        """A repeatable roller: the same seed gives the same rolls on every machine."""
        roller = cls(random.Random(seed))
        roller.seed = seed
        return roller

    @property
    def is_system(self) -> bool:
        return isinstance(self._rng, random.SystemRandom)

    def roll(self, die: Die) -> Face:
        """Roll ``die`` once."""
        return die.face_for_side(self._rng.randrange(die.sides))

    def roll_many(self, die: Die, count: int) -> list[Face]:
        if not isinstance(count, int) or count < 1:
            raise DiceError(f"count must be a whole number >= 1, not {count!r}")
        return [self.roll(die) for _ in range(count)]

    def choose(self, outcomes: Sequence[tuple[Any, Fraction]]) -> Any:
        """Pick one outcome of a chance node, each with its exact probability.

        Draws a whole number below the common denominator and takes the outcome whose
        share of whole numbers holds it, so the probabilities are followed exactly.
        """
        if not outcomes:
            raise DiceError("a chance node with no outcomes cannot be resolved")
        probabilities = map(_PROBABILITY, outcomes)
        try:  # Fraction's own fields: its numerator and denominator are properties
            ratios = tuple(map(_FRACTION, probabilities))
        except AttributeError:  # whole numbers (0 or 1)
            ratios = tuple(map(_RATIO, map(_PROBABILITY, outcomes)))
        denom, bounds = _shares(ratios)
        return outcomes[bisect_right(bounds, self._rng.randrange(denom))][0]

    def shuffle(self, items: list[Any]) -> None:
        self._rng.shuffle(items)


_PROBABILITY = itemgetter(1)
_RATIO = attrgetter("numerator", "denominator")
_FRACTION = attrgetter("_numerator", "_denominator")


@lru_cache(maxsize=4096)
def _shares(ratios: tuple[tuple[int, int], ...]) -> tuple[int, tuple[int, ...]]:
    """Probabilities as whole numbers over their common denominator: ``(denominator,
    running totals)`` (a game's chance nodes repeat a few distributions: made once each)."""
    denom = math.lcm(*(d for _, d in ratios))
    weights = [n * (denom // d) for n, d in ratios]
    # the same test as summing the fractions to exactly 1, without a fraction per addition
    if sum(weights) != denom or min(weights) < 0:
        raise DiceError("chance outcome probabilities must be >= 0 and sum to exactly 1")
    return denom, tuple(accumulate(weights))
