"""A Record behaves as the frozen dataclass it is written as (``companion.records``).

Each test builds the same class twice, as a ``Record`` and as ``@dataclass(frozen=True)``,
and checks that both do the same: construction (positional, keywords, defaults, default
factories, ``__post_init__``), ``repr``, ``==`` and ``hash`` with ``compare=False`` and
``repr=False`` fields, frozenness, ``dataclasses.replace``/``asdict``/``fields``,
pickling and subclassing; and that the methods are compiled on first use only.
"""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
from dataclasses import (
    FrozenInstanceError,
    InitVar,  # noqa: F401 - the exec'd classes' annotations name it
    dataclass,
    field,
)
from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.records import Record


def checked(value: Any) -> Any:
    if value == "bad":
        raise ValueError("bad value")
    return value


class Card(Record):
    id: str
    steps: int = 1
    extras: tuple[str, ...] = field(default=(), compare=False)
    seen: list[str] = field(default_factory=list, repr=False, compare=False)
    kind: ClassVar[str] = "card"

    def __post_init__(self) -> None:
        checked(self.id)
        object.__setattr__(self, "seen", [*self.seen, self.id])


@dataclass(frozen=True)
class CardDC:
    id: str
    steps: int = 1
    extras: tuple[str, ...] = field(default=(), compare=False)
    seen: list[str] = field(default_factory=list, repr=False, compare=False)
    kind: ClassVar[str] = "card"

    def __post_init__(self) -> None:
        checked(self.id)
        object.__setattr__(self, "seen", [*self.seen, self.id])


class Rare(Card):
    """A card with a level (a record subclassed)."""

    level: int = 3


def as_dc(record: Card) -> CardDC:
    return CardDC(record.id, record.steps, record.extras, list(record.seen[:-1]))


texts = st.text(max_size=4).filter(lambda t: t != "bad")
cards = st.tuples(texts, st.integers(-3, 3), st.lists(texts, max_size=2).map(tuple))


@given(cards, cards)
def test_construction_equality_hash_and_repr_are_a_frozen_dataclass_s(a: Any, b: Any) -> None:
    ra, rb = Card(*a), Card(a[0], steps=b[1], extras=b[2])
    da, db = CardDC(*a), CardDC(a[0], steps=b[1], extras=b[2])
    assert (ra == rb) == (da == db)
    assert (ra != rb) == (da != db)
    assert (hash(ra) == hash(rb)) == (hash(da) == hash(db))
    assert repr(ra).removeprefix("Card") == repr(da).removeprefix("CardDC")
    assert ra.seen == da.seen == [a[0]]
    assert ra != da and ra != object()  # of another class: not equal


def test_defaults_factories_and_errors_as_a_dataclass_s() -> None:
    assert Card("a") == Card("a", 1, ("other",))  # compare=False left out
    assert Card("a").seen is not Card("a").seen  # one new list per instance
    for make in (Card, CardDC):
        with pytest.raises(TypeError):
            make()
        with pytest.raises(TypeError):
            make("a", nope=1)
        with pytest.raises(ValueError, match="bad value"):
            make("bad")  # __post_init__ ran
    assert Card.__doc__ == (
        "Card(id: 'str', steps: 'int' = 1, extras: 'tuple[str, ...]' = (), "
        "seen: 'list[str]' = <factory>)"
    )
    assert Card.__match_args__ == CardDC.__match_args__


def test_a_record_without_a_docstring_is_defined_without_a_signature(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``dataclass()`` works out a class's signature (``inspect.signature``, slow) for a
    class without a docstring; a record writes its own from its fields instead."""
    import inspect

    def refused(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("inspect.signature was called")

    monkeypatch.setattr(inspect, "signature", refused)

    class Undocumented(Record):
        id: str
        steps: int = 1

    assert Undocumented.__doc__ == "Undocumented(id: 'str', steps: 'int' = 1)"


def test_it_is_frozen() -> None:
    card = Card("a")
    with pytest.raises(FrozenInstanceError):
        card.id = "b"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        del card.steps  # type: ignore[misc]
    assert card.id == "a"


def test_dataclasses_functions_and_pickle_see_a_dataclass() -> None:
    card = Card("a", 2, ("x",))
    assert dataclasses.is_dataclass(card)
    assert [f.name for f in dataclasses.fields(card)] == ["id", "steps", "extras", "seen"]
    assert dataclasses.replace(card, steps=5) == Card("a", 5)
    assert dataclasses.asdict(card) == {"id": "a", "steps": 2, "extras": ("x",), "seen": ["a"]}
    copy = pickle.loads(pickle.dumps(card))
    assert copy == card and copy.extras == ("x",) and type(copy) is Card


def test_a_subclass_adds_its_fields_and_compares_only_with_its_own_class() -> None:
    rare = Rare("a", 2)
    assert (rare.level, repr(rare)) == (3, "Rare(id='a', steps=2, extras=(), level=3)")
    assert rare != Card("a", 2) and Card("a", 2) != rare
    assert hash(rare) == hash(("a", 2, 3))
    assert Rare.kind == "card"


def test_methods_are_compiled_on_first_use_only() -> None:
    class Point(Record):
        x: int
        y: int = 0

    first_use = Record.__init__, Record.__eq__, Record.__hash__
    assert (Point.__init__, Point.__eq__, Point.__hash__) == first_use
    assert Point(1) == Point(1, 0)
    assert Point.__init__ is not Record.__init__ and Point.__hash__ is not Record.__hash__
    assert Point.__init__.__qualname__.endswith("Point.__init__")


def test_a_class_keeps_its_own_eq_and_hash() -> None:
    class Loose(Record):
        x: int

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Loose)

        def __hash__(self) -> int:
            return 7

    assert Loose(1) == Loose(2) and hash(Loose(1)) == 7


@pytest.mark.parametrize(
    "body",
    [
        "x: int = 1\n    y: int",  # a default before a non-default, as dataclass() refuses
        "x: InitVar[int]",
        "x: int = field(default=1, init=False)",
        "x: int = field(default=1, kw_only=True)",
    ],
)
def test_what_a_record_does_not_support_is_refused_when_defined(body: str) -> None:
    scope = {"__name__": __name__, "Record": Record, "field": field}
    with pytest.raises(TypeError):
        exec(f"class Odd(Record):\n    {body}\n", scope)


class Contact(Record, frozen=False):
    name: str
    level: bool = False
    edges: list[float] = field(default_factory=list)


@dataclass
class ContactDC:
    name: str
    level: bool = False
    edges: list[float] = field(default_factory=list)


def test_a_mutable_record_is_a_dataclass_s_mutable_twin() -> None:
    record, twin = Contact("fire"), ContactDC("fire")
    record.level = twin.level = True
    record.edges.append(1.0)
    twin.edges.append(1.0)
    assert repr(record).removeprefix("Contact") == repr(twin).removeprefix("ContactDC")
    assert record == Contact("fire", True, [1.0]) and record != Contact("fire")
    assert Contact.__hash__ is None is ContactDC.__hash__  # unhashable, as @dataclass
    with pytest.raises(TypeError):
        hash(record)
    del record.level  # back to the class default, as a dataclass's
    assert record.level is False
    assert dataclasses.replace(record, name="select").name == "select"


def test_a_record_and_its_bases_are_all_frozen_or_all_mutable() -> None:
    with pytest.raises(TypeError, match="all frozen or all mutable"):

        class Odd(Card, frozen=False):
            pass

    class Closer(Contact):  # mutable, as its base
        hold: float = 0.0

    closer = Closer("fire")
    closer.hold = 1.0
    assert closer.hold == 1.0


def test_an_eager_record_is_compiled_when_defined() -> None:
    class Press(Record, eager=True):
        seq: int

    assert Press.__init__ is not Record.__init__ and Press.__eq__ is not Record.__eq__
    assert Press(1) == Press(1) and hash(Press(1)) == hash((1,))


def test_the_fire_path_s_records_are_compiled_at_import() -> None:
    """A press is an InputEvent made before the coil switches on, and a Pulse and a
    FireResult answer it: the first press of the evening must not compile them. (A fresh
    interpreter: another test may have made one already in this one.)"""
    code = (
        "from companion.hal.contracts import FireResult, InputEvent, Pulse\n"
        "from companion.records import Record\n"
        "print(*(c.__init__ is Record.__init__ for c in (InputEvent, Pulse, FireResult)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "False", "False"]
