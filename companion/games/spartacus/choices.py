"""Choices for people: the kind of action first, then its parameters one at a time.

A seat's legal actions can be many at once: every support combination of a scheme,
every price of a trade, every fighter with every piece of equipment. A :class:`Menu`
groups them so a person chooses in small steps - the kind (``scheme``), then each
parameter from the values still possible (the card, the target, the supporters) -
while ``legal_actions()`` stays the one source of legality: every step only filters
the legal actions, and the last step is one of them.

- :meth:`Menu.kinds`: the kinds of action, each with its parameters;
- :meth:`Menu.step`: given the kind and the values chosen so far, the next
  :class:`Param` to ask (a parameter with one value left is filled in, never asked) or,
  once the choices single one out, the action itself;
- a :class:`Param` is a list of values, a range of whole numbers (``0..17``: typed, not
  listed) or a set of names to pick any of (``multi``: supporters, equipment);
- :meth:`Param.complete` matches what a person types against the values (a unique
  prefix is enough: ``mit`` for ``mittellos``).

Nothing here knows the rules or the game: it reads action fields. The engine exposes a
seat's menu as ``state.menu(seat)``; the terminal and the web view render kind ->
parameters from it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

from companion.games.core.actions import Action

#: Fields a person never chooses: the playing seat (``by``) is the seat whose menu it is.
HIDDEN = frozenset({"by"})


@dataclass(frozen=True)
class Param:
    """One parameter to choose: its field name and the values still possible."""

    name: str
    values: tuple[Any, ...]
    multi: bool = False  # choose any set of the values (a tuple field)

    @property
    def is_range(self) -> bool:
        """Whole numbers without a gap: typed as a number, shown as ``low..high``."""
        vals = self.values
        return (
            not self.multi
            and len(vals) > 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in vals)
            and sorted(vals) == list(range(min(vals), max(vals) + 1))
        )

    def shown(self) -> list[str]:
        """The lines a person sees: one per value, or one for a range."""
        if self.is_range:
            return [f"{min(self.values)}..{max(self.values)}"]
        return [_text(v) for v in self.values]

    def labels(self) -> list[str]:
        """One line per value, a range's numbers too (a phone's buttons)."""
        return [_text(v) for v in self.values]

    def complete(self, typed: str) -> list[Any]:
        """The values that what was typed names: an exact match, else every value that
        starts with it (case ignored; one left means it is chosen)."""
        word = typed.strip().lower()
        exact = [v for v in self.values if _text(v).lower() == word]
        if exact:
            return exact
        return [v for v in self.values if _text(v).lower().startswith(word)]


@dataclass(frozen=True)
class KindChoice:
    """One kind of action in a menu."""

    kind: str
    count: int  # legal actions of this kind
    params: tuple[str, ...]  # the fields a person may have to choose, in order
    correction: bool  # a correction of what happened on the table (gold, cards)


def _text(value: Any) -> str:
    if isinstance(value, tuple):
        return " ".join(map(str, value)) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


class Menu:
    """A seat's legal actions, chosen kind first, then parameter by parameter."""

    def __init__(self, actions: Sequence[Action], hidden: frozenset[str] = HIDDEN) -> None:
        self.actions = list(actions)
        self.hidden = hidden
        self._by_kind: dict[str, list[Action]] = {}
        for a in self.actions:
            self._by_kind.setdefault(a.kind, []).append(a)

    def __bool__(self) -> bool:
        return bool(self.actions)

    def _params(self, kind: str) -> list[str]:
        sample = self._by_kind[kind][0]
        return [f.name for f in fields(sample) if f.name not in self.hidden]

    def kinds(self, corrections: bool = True) -> list[KindChoice]:
        """The kinds of action (rules first, corrections after), with their parameters."""
        out = [
            KindChoice(kind, len(acts), tuple(self._params(kind)), acts[0].is_correction)
            for kind, acts in self._by_kind.items()
            if corrections or not acts[0].is_correction
        ]
        return sorted(out, key=lambda k: k.correction)

    def matching(self, kind: str, chosen: Mapping[str, Any] | None = None) -> list[Action]:
        """The legal actions of ``kind`` that agree with the values chosen so far (a set
        field agrees when it holds the same names, in any order)."""
        chosen = chosen or {}
        out = []
        for a in self._by_kind.get(kind, []):
            for name, want in chosen.items():
                have = getattr(a, name)
                if isinstance(have, tuple):
                    if set(have) != set(want if isinstance(want, list | tuple | set) else [want]):
                        break
                elif have != want:
                    break
            else:
                out.append(a)
        return out

    def step(self, kind: str, chosen: Mapping[str, Any] | None = None) -> Param | Action:
        """The next parameter to choose, or the action once the choices single one out.

        Raises ``KeyError`` for a kind that is not legal now and ``ValueError`` when the
        values chosen match no legal action.
        """
        if kind not in self._by_kind:
            raise KeyError(f"{kind} is not possible now; possible: {', '.join(self._by_kind)}")
        chosen = dict(chosen or {})
        candidates = self.matching(kind, chosen)
        if not candidates:
            raise ValueError(f"no legal {kind} with {chosen}")
        for name in self._params(kind):
            if name in chosen:
                continue
            values = list(dict.fromkeys(getattr(a, name) for a in candidates))
            if len(values) == 1:
                chosen[name] = values[0]
                continue
            if all(isinstance(v, tuple) for v in values):
                names = tuple(dict.fromkeys(x for v in values for x in v))
                return Param(name, names, multi=True)
            return Param(name, tuple(values))
        final = self.matching(kind, chosen)
        return final[0]

    def longest_list(self, corrections: bool = False) -> int:
        """The longest list a person sees on the way to any action of this menu: the kinds,
        or the values of one parameter (a range counts once: it is typed)."""
        longest = len(self.kinds(corrections))
        for k in self.kinds(corrections):
            stack: list[dict[str, Any]] = [{}]
            while stack:
                chosen = stack.pop()
                found = self.step(k.kind, chosen)
                if isinstance(found, Action):
                    continue
                longest = max(longest, len(found.shown()))
                if found.multi or found.name == k.params[-1]:
                    continue  # the last choice (or any subset) gives the action
                stack += [{**chosen, found.name: v} for v in found.values]
        return longest
