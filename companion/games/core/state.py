"""The game state machinery every engine shares (OpenSpiel's State, for table games).

A state starts from a config and changes only through :meth:`GameState.apply`.
:meth:`GameState.legal_actions` is the single source of legality (computed once per
state and cached); ``apply`` rejects anything else with an :class:`IllegalActionError`
that names the rule, and changes nothing. Where the rules roll a die or draw a card the
state is a chance node (``current_player == CHANCE``) that lists its outcomes with exact
probabilities in :meth:`GameState.chance_outcomes`; the caller picks one and applies it.
An engine never draws random numbers itself, so a game is its config plus its action
history, and :meth:`GameState.replay` rebuilds it bit for bit.

An engine subclass keeps only its rules:

- ``_setup()``: the board as the rulebook sets it up, run to the first decision;
- ``_choices()``: the legal actions at a decision (chance nodes list their outcomes);
- ``_chance_outcomes()`` (at a chance node), ``_chooser()`` (who decides at a decision),
  ``snapshot()``;
- one handler per action class, named ``_do_<ActionClass>`` (see :class:`Handlers`);
- ``_why(action)``: why an action is not legal, after the shared checks of
  :meth:`GameState.why_illegal`; ``PHASE_TEXT`` says what happens in each phase.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable
from fractions import Fraction
from operator import itemgetter
from typing import Any, ClassVar, TypeVar

from companion.games.core.actions import Action
from companion.games.core.errors import IllegalActionError
from companion.games.core.events import Event

_OUTCOME_ACTION = itemgetter(0)
_new_event = object.__new__

CHANCE = -1
TERMINAL = -2
GAME_OVER = "game_over"

S = TypeVar("S", bound="GameState")


class Handlers:
    """Dispatch of an action to the handler of its class: the method ``_do_<ActionClass>``.

    The lookup is done once per action class and kept in a table per subclass, so the
    dispatch costs one dict lookup.
    """

    _handlers: ClassVar[dict[type, Callable[[Any, Any], None]]] = {}
    #: whether the class dispatches in its own way (overrides :meth:`_dispatch`)
    _own_dispatch: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._handlers = {}
        cls._own_dispatch = cls._dispatch is not Handlers._dispatch

    def _dispatch(self, action: Any) -> None:
        kind = type(action)
        handler = self._handlers.get(kind)
        if handler is None:
            handler = getattr(type(self), "_do_" + kind.__name__)
            self._handlers[kind] = handler
        handler(self, action)

    @classmethod
    def handles(cls, action_type: type) -> bool:
        """Whether the class has a handler for ``action_type``."""
        return hasattr(cls, "_do_" + action_type.__name__)


def best(seats: Iterable[int], key: Callable[[int], Any]) -> list[int]:
    """The seats with the highest ``key`` (several on a tie), in the order given."""
    seats = list(seats)
    top = max(key(s) for s in seats)
    return [s for s in seats if key(s) == top]


class GameState(Handlers, ABC):
    """One game. Public attributes are read-only views of the state.

    - ``config``: the game's config; ``players``: how many seats (0..players-1), set up by
      the engine; ``phase``: where the game is (``game_over`` at the end);
    - ``history``: every action applied, in order; ``winners``, ``end_reason`` at the end;
    - ``initial_events``: the events of the setup, before the first action.
    """

    #: Phases that are chance nodes (an engine with other chance nodes overrides
    #: :attr:`is_chance_node`).
    CHANCE_PHASES: ClassVar[frozenset[str]] = frozenset()
    #: What happens in each phase, for refusals and prompts.
    PHASE_TEXT: ClassVar[dict[str, str]] = {}
    #: The rule that ends the game, named when anything is tried after the end.
    END_RULE: ClassVar[str] = "end of game"
    #: What a chance outcome is in this game, for refusals ("a die or card outcome").
    OUTCOME: ClassVar[str] = "a die or card outcome"
    #: The engine's action base class and the game's name with an article, for refusals.
    ACTION: ClassVar[type[Action]] = Action
    NAME: ClassVar[str] = "a"
    #: phase -> the method that lists a decision's playable actions (:meth:`playable_actions`:
    #: exactly the legal ones without corrections, in their legal order), where the engine
    #: has one: a bot's options in one call, without the legal list.
    PLAYABLE: ClassVar[dict[str, Callable[[Any], list[Action]]]] = {}

    def __init__(self, config: Any) -> None:
        self.config = config
        self.phase = ""
        self.history: list[Action] = []
        self.winners: list[int] = []
        self.end_reason = ""
        self._events: list[Event] = []
        self._legal: list[Action] | None = None
        self._legal_set: frozenset[Action] | None = None
        self._playable: list[Action] | None = None
        self._outcomes: list[tuple[Action, Fraction]] = []
        self._setup()
        self.initial_events: list[Event] = list(self._events)

    @classmethod
    def replay(cls: type[S], config: Any, history: Iterable[Action]) -> S:
        """Rebuild a state from its config and action log; every action is checked again."""
        state = cls(config)
        for action in history:
            state.apply(action)
        return state

    # ------------------------------------------------------------------ the rules

    @abstractmethod
    def _setup(self) -> None:
        """Set the game up as the rulebook says, up to the first decision or chance node."""

    @abstractmethod
    def _choices(self) -> list[Action]:
        """The actions allowed at a decision (not a chance node, not the end)."""

    @abstractmethod
    def _chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At a chance node: each outcome with its exact probability (they sum to 1)."""

    @abstractmethod
    def _chooser(self) -> int:
        """The seat that decides now (at a decision)."""

    def snapshot(self) -> dict[str, Any]:
        """Everything that makes the state, as plain JSON-able data: the engine adds its
        own parts to these (``{**super().snapshot(), ...}``)."""
        return {"phase": self.phase, "winners": list(self.winners), "end_reason": self.end_reason}

    def _why(self, action: Action) -> tuple[str, str] | None:
        """Why a well-formed action of the right sort is not legal now, if the engine knows
        more than "not now"."""
        return None

    # ------------------------------------------------------------------ queries

    @property
    def is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    @property
    def is_chance_node(self) -> bool:
        return self.phase in self.CHANCE_PHASES

    @property
    def current_player(self) -> int:
        """The seat to choose now, ``CHANCE`` at a chance node, ``TERMINAL`` at the end."""
        if self.phase == GAME_OVER:
            return TERMINAL
        if self.is_chance_node:
            return CHANCE
        return self._chooser()

    def seat_name(self, seat: int) -> str:
        """The seat's name for people (its colour unless the game says otherwise)."""
        colours: tuple[str, ...] = self.colours  # type: ignore[attr-defined]
        return colours[seat]

    def phase_text(self) -> str:
        """What happens now, in words."""
        return self.PHASE_TEXT.get(self.phase, self.phase)

    # ------------------------------------------------------------------ legality

    def legal_actions(self) -> list[Action]:
        """Every action allowed now (the chance outcomes at a chance node)."""
        legal = self._legal
        if legal is None:
            legal = self._refresh_legal()
        return list(legal)

    def playable_actions(self) -> list[Action]:
        """The legal actions without corrections: what a bot chooses from (corrections
        record what really happened at a table)."""
        return list(self._playable_now())

    def _playable_now(self) -> list[Action]:
        """:meth:`playable_actions` itself, kept (read it, never change it): from the
        phase's lister in :attr:`PLAYABLE` where it has one, else from
        :meth:`_playable_choices`, else the legal actions filtered."""
        playable = self._playable
        if playable is None:
            lister = self.PLAYABLE.get(self.phase)
            if lister is not None:
                playable = lister(self)
            else:
                if self._legal is None:
                    playable = self._playable_choices()
                if playable is None:
                    legal = self._legal if self._legal is not None else self._refresh_legal()
                    playable = [a for a in legal if not a.is_correction]
            self._playable = playable
        return playable

    def _playable_choices(self) -> list[Action] | None:
        """The playable actions now if the engine can list them without working out every
        correction (a phase that offers hundreds of them); None: filter the legal ones."""
        return None

    def _refresh_legal(self) -> list[Action]:
        legal = self._legal = self._compute_legal()
        self._legal_set = None
        self._playable = None
        return legal

    def chance_outcomes(self) -> list[tuple[Action, Fraction]]:
        """At a chance node: each outcome with its exact probability (they sum to 1); the
        actions are those of :meth:`legal_actions`. Elsewhere: an empty list."""
        if self._legal is None:
            self._refresh_legal()
        return list(self._outcomes)

    def _chance_now(self) -> list[tuple[Action, Fraction]]:
        """At a chance node (the caller knows it is one): its outcomes, kept with their
        actions as the legal list (read it, never change it)."""
        outcomes = self._outcomes = self._chance_outcomes()
        self._legal = list(map(_OUTCOME_ACTION, outcomes))
        self._legal_set = self._playable = None
        return outcomes

    def _compute_legal(self) -> list[Action]:
        self._outcomes = []
        if self.phase == GAME_OVER:
            return []
        if self.is_chance_node:
            self._outcomes = self._chance_outcomes()
            return list(map(_OUTCOME_ACTION, self._outcomes))
        return self._choices()

    def is_legal(self, action: Any) -> bool:
        """Whether ``action`` is one of :meth:`legal_actions` (never raises)."""
        playable = self._playable
        if playable is not None:  # a bot's choice, taken from the list: no hashing
            for candidate in playable:
                if candidate is action:
                    return True
        legal = self._legal
        if legal is None:
            legal = self._refresh_legal()
        for candidate in legal:  # an action taken from the list (bots, menus): no hashing
            if candidate is action:
                return True
        if self._legal_set is None:
            self._legal_set = frozenset(legal)
        try:
            return action in self._legal_set
        except TypeError:  # an unhashable look-alike: never legal
            return False

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action and return the events it caused.

        Raises :class:`IllegalActionError` (and changes nothing) for any action that
        :meth:`legal_actions` does not list.
        """
        # an action taken from the list (a bot's choice, a chance outcome): no hashing
        for candidate in self._playable or self._legal or ():
            if candidate is action:
                break
        else:
            if not self.is_legal(action):
                rule, reason = self.why_illegal(action)
                raise IllegalActionError(action, rule, reason)
        self._events = []
        self._legal = self._playable = None
        self.history.append(action)
        handler = self._handlers.get(type(action))
        if handler is None or self._own_dispatch:
            self._dispatch(action)
        else:  # the dispatch table's handler, without a call of _dispatch
            handler(self, action)
        return self._events

    def _play_out(
        self,
        pick: Callable[[list[Action]], Action],
        choose_outcome: Callable[[list[tuple[Action, Fraction]]], Any],
        max_actions: int,
    ) -> bool:
        """:func:`~companion.games.core.bots.play_out` for the uniform random bot: ``pick``
        is its generator's ``random.Random.choice`` (an element of the list it is given),
        so its choice is applied as listed, without a second search of the list; a chance
        outcome is found in the legal list (else :meth:`apply` decides). True when the
        game is over. Speed: what apply does, in one frame with what never changes in
        locals (a random game's actions are small; the calls were most of their cost)."""
        chance, listers, history = self.CHANCE_PHASES, self.PLAYABLE, self.history
        handlers = {} if self._own_dispatch else self._handlers
        for _ in range(max_actions):
            phase = self.phase
            if phase == GAME_OVER:
                return True
            if phase in chance:
                outcomes = self._outcomes = self._chance_outcomes()
                action = choose_outcome(outcomes)
                for candidate, _ in outcomes:
                    if candidate is action:
                        break
                else:  # not taken from the list: apply checks it as any caller's
                    self.apply(action)
                    continue
            else:
                playable = self._playable
                if playable is None:
                    lister = listers.get(phase)
                    playable = self._playable_now() if lister is None else lister(self)
                action = pick(playable)
            # apply's own steps (keep them alike)
            self._events = []
            self._legal = self._playable = None
            history.append(action)
            handler = handlers.get(type(action))
            if handler is None:
                self._dispatch(action)
            else:
                handler(self, action)
        return False

    def _emit(self, kind: str, text: str, /, **data: Any) -> None:
        """An event: ``kind``, ``text`` for people, the details by keyword."""
        self._record(kind, text, data)

    def _record(self, kind: str, text: str, data: dict[str, Any], /) -> None:
        """:meth:`_emit` with the details as a dict (an engine's busiest events: a dict
        display is cheaper than a call with keywords, and a key such as ``from`` needs
        no ``**{...}``, which CPython 3.11 cannot call without a second eval loop)."""
        # Event(kind, text, data) without running its __init__ (a Python call from C:
        # half the cost of an event)
        event = _new_event(Event)
        event.kind = kind
        event.text = text
        event.data = data
        event.private_to = event.public = None
        event.secret = ()
        self._events.append(event)

    def _emit_private(
        self, seat: int, kind: str, text: str, public: str, secret: tuple[str, ...], /, **data: Any
    ) -> None:
        """An event only ``seat`` may read in full; others see ``public`` and the data
        without the ``secret`` keys."""
        self._events.append(Event(kind, text, data, seat, public, secret))

    def _finish(
        self, winners: list[int], reason: str, text: str | None = None, **data: Any
    ) -> None:
        """The game is over: ``winners`` (several on a shared win) for ``reason``."""
        self.winners = list(winners)
        self.end_reason = reason
        self.phase = GAME_OVER
        self._legal = None
        self._playable = None
        if text is None:
            names = " and ".join(self.seat_name(s) for s in winners) or "nobody"
            text = f"{names} win{'s' if len(winners) == 1 else ''}: {reason}"
        self._emit("game_over", text, winners=list(winners), reason=reason, **data)

    # ------------------------------------------------------------------ refusals

    def legal_kinds(self, corrections: bool = True) -> str:
        """The kinds of action legal now, for refusals."""
        kinds = sorted({a.kind for a in self.legal_actions() if corrections or not a.is_correction})
        return ", ".join(kinds) if kinds else "nothing"

    def why_illegal(self, action: Any) -> tuple[str, str]:
        """``(rule, reason)`` for an action that is not in :meth:`legal_actions`.

        Only called after ``legal_actions`` has said no, so it explains and never decides:
        the game is over, not an action of this game (:meth:`_why_foreign`), a chance
        outcome at a decision or the other way round, then the engine's :meth:`_why`,
        else "not now".
        """
        if self.phase == GAME_OVER:
            return self.END_RULE, f"the game is over ({self.end_reason})"
        found = self._why_foreign(action) or self._why_chance(action) or self._why(action)
        return found or (
            "turn order",
            f"{action.kind} is not possible now: {self.phase_text()}; "
            f"legal now: {self.legal_kinds()}",
        )

    def _why_foreign(self, action: Any) -> tuple[str, str] | None:
        """Not an action of this game at all."""
        if not isinstance(action, self.ACTION):
            return "action format", f"{action!r} is not {self.NAME} action"
        return None

    def _why_chance(self, action: Action) -> tuple[str, str] | None:
        """A chance outcome where a player decides, a choice at a chance node, or an
        outcome this chance node cannot have."""
        if action.is_chance != self.is_chance_node:
            if self.is_chance_node:
                return "chance", (
                    f"now {self.phase_text()}: apply one of the chance outcomes "
                    f"({self.legal_kinds()})"
                )
            return "chance", (
                f"{action.kind} is {self.OUTCOME}, but now {self.phase_text()}; "
                f"legal now: {self.legal_kinds()}"
            )
        if action.is_chance:
            return self._why_outcome(action)
        return None

    def _why_outcome(self, action: Action) -> tuple[str, str]:
        """A chance outcome this chance node cannot have."""
        return "chance", f"{action.notation} is not an outcome of this chance node"
