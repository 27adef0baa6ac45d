"""A seat played from a phone: the table's agent for that seat.

:class:`WebAgent` is an agent of the table loop (``choose(state, legal)``): it offers the
seat's legal actions (their notations, from ``legal_actions()``) to the seat's phone
through the :class:`~companion.web.hub.WebHub` and waits for the phone's answer. An
answer is taken only if it is one of those notations, so the phone can never choose
anything the rules do not list; an undo is handed to the table as an ``UndoRequest``.

Only the seat's own actions are offered (``own_actions``: the table adapter's, which for
Spartacus leaves out every other house's out-of-turn plays: a "post-guard" or "react"
of another house would show that house's hand).

Physical dice: at a chance node the table may ask a seat what its own dice show
(:func:`dice_entry`, :func:`outcome_for`): the answer is one of the node's own outcomes.

Long lists, as at the terminal (``adapter``: the table adapter): the question lists what the
adapter's ``listed_options`` lists (Spartacus: each scheme once, without supporters) and, for
each kind it left actions out of, a "step by step" button; that chooses the rest with the
engine's menu (``adapter.menu``), one parameter a question, until the actions left fit on
the phone (a scheme's sets of supporters), each then a button (:meth:`WebAgent.by_steps`).

Hints: with ``hints`` (a :class:`~companion.web.hints.Hints`), the seat's offer has a hint
button; pressing it hands a copy of the state, made here on the table's thread, to a
worker thread, and the answer is shown on that seat's phone only.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from companion.table.people import TableStopped, UndoRequest
from companion.web.hub import DiceEntry, Offer, Submission, WebHub

#: the actions a seat is offered: ``own_actions(state, seat, legal)`` (the table adapter's)
OwnActions = Callable[[Any, int, Sequence[Any]], Sequence[Any]]

SECRET_KINDS = frozenset({"bid", "net"})  # entered on the seat's phone only
MAX_LISTED_OUTCOMES = 12  # more outcomes than this: enter the faces die by die
MAX_STEP_BUTTONS = 12  # step by step: the actions left are buttons once this few
POLL_S = 0.1


def asked_for(state: Any) -> str:
    """A phone question's title: the game's phase in words and "your choice" (not "your
    turn": a scheme's answer, a net or a reroll are asked outside one's turn)."""
    phase = getattr(state, "phase", None)
    return f"{phase.replace('_', ' ')}: your choice" if isinstance(phase, str) else "your choice"


class WebAgent:
    """The person at ``seat``, choosing on their phone.

    ``undoable``: how many actions of this turn may be taken back now (the session's
    ``undoable``); ``stop``: set it to end a wait (the table stops: ``TableStopped``);
    ``heartbeat``: called while waiting (the service's watchdog).
    """

    is_bot = False

    def __init__(
        self,
        hub: WebHub,
        seat: int,
        *,
        undoable: Callable[[], int] | None = None,
        stop: threading.Event | None = None,
        heartbeat: Callable[[], None] | None = None,
        own_actions: OwnActions | None = None,
        hints: Any = None,
        adapter: Any = None,
    ) -> None:
        self.hub = hub
        self.seat = seat
        self.undoable = undoable
        self.stop = stop if stop is not None else threading.Event()
        self.heartbeat = heartbeat
        if own_actions is None and adapter is not None:
            own_actions = adapter.own_actions
        self.own_actions = own_actions
        self.hints = hints
        self.adapter = adapter  # the table adapter: listed_options and menu (long lists)

    def labels(self, state: Any, actions: Sequence[Any]) -> tuple[tuple[str, str], ...]:
        """The buttons that read otherwise than their notation, as the terminal names
        them (the adapter's ``named``: seats by colour where the notation has numbers)."""
        if self.adapter is None:
            return ()
        named = ((a.notation, self.adapter.named(state, a.notation)) for a in actions)
        return tuple((notation, label) for notation, label in named if label != notation)

    def choose(self, state: Any, legal: Sequence[Any]) -> Any:
        own = self.own_actions(state, self.seat, legal) if self.own_actions else list(legal)
        options = [a for a in own if not getattr(a, "is_correction", False)]
        corrections = [a for a in own if getattr(a, "is_correction", False)]
        by_notation = {a.notation: a for a in own}
        listed, steps, menu = options, (), None
        if self.adapter is not None:
            menu = self.adapter.menu(state, self.seat)
            # a phone cannot type: the adapter's shorter list only where what it leaves
            # out can be chosen step by step (Spartacus's schemes); elsewhere every option
            # (Kampf der Gladiatoren's challenges naming who acts for the animal, rule 6a)
            if menu:  # the kinds the list left actions out of: chosen step by step
                listed = self.adapter.listed_options(state, options)
                steps = tuple(dict.fromkeys(a.kind for a in options if a not in listed))

        def ask() -> Offer:
            offer = Offer(
                id=self.hub.new_offer_id(),
                prompt=asked_for(state),
                actions=tuple(a.notation for a in listed),
                corrections=tuple(a.notation for a in corrections),
                secret=any(getattr(a, "kind", "") in SECRET_KINDS for a in options),
                undo=self.undoable() if self.undoable is not None else 0,
                hint=self.hints is not None and len(options) > 1,
                steps=steps,
                labels=self.labels(state, listed),
            )
            self.hub.offer(self.seat, offer)
            return offer

        offer = ask()
        try:
            while True:
                answer = self.wait()
                if answer.kind == "undo":
                    return UndoRequest(max(1, answer.count))
                if answer.kind == "hint" and offer.hint:
                    self.hints.ask(state, self.seat, offer.id)  # a copy, made on this thread
                    continue
                if answer.kind == "step" and answer.text in offer.steps:
                    stepped = self.by_steps(state, menu, answer.text)
                    if stepped is not None:
                        return stepped
                    offer = ask()  # back: the question again
                    continue
                action = by_notation.get(answer.text)
                if answer.kind == "action" and action is not None:
                    return action
                self.hub.note(self.seat, f"{answer.text!r} is not one of your choices now")
        finally:
            self.hub.offer(self.seat, None)

    def by_steps(self, state: Any, menu: Any, kind: str) -> Any | None:
        """``kind`` chosen step by step, as the terminal does (``menu.step``: one
        parameter a question, a button per value), until the actions left are few: then
        each is a button (a scheme's sets of supporters). ``None``: the seat went back."""
        chosen: dict[str, Any] = {}
        while True:
            step = menu.step(kind, chosen)
            if not hasattr(step, "values"):
                return step  # the choices made single out one action
            left = menu.matching(kind, chosen)
            if step.multi or len(left) <= MAX_STEP_BUTTONS:
                return self._pick(
                    f"{kind}, step by step: which one?", {a.notation: a for a in left}
                )
            value = self._pick(
                f"{kind}, step by step: which {step.name}?",
                dict(zip(step.labels(), step.values, strict=True)),
            )
            if value is None:
                return None
            chosen[step.name] = value

    def _pick(self, question: str, choices: dict[str, Any]) -> Any | None:
        """One step's question: a button per choice and "back" (``None``)."""
        offer = Offer(
            id=self.hub.new_offer_id(), prompt=question, actions=tuple(choices), back=True
        )
        self.hub.offer(self.seat, offer)
        while True:
            answer = self.wait()
            if answer.kind == "back":
                return None
            if answer.kind == "action" and answer.text in choices:
                return choices[answer.text]
            self.hub.note(self.seat, f"{answer.text!r} is not one of your choices now")

    def out_of_turn(self, state: Any, seat: int, options: Sequence[Any], text: str) -> Any:
        """Asked out of turn (a reaction's moment, ruling R11c; ``text`` says which): the
        seat's own plays (``options``, the table adapter's) and "pass" on its phone; the
        table screen says whose phone it waits for and the moment, nothing of the options.
        Every seat the table names is asked alike, holding a card or not (a phone with
        nothing to play shows "pass" only), so neither the question nor its time gives a
        hand away. Returns the play, or ``None`` for a pass."""
        name = state.seat_name(self.seat)
        by_notation = {a.notation: a for a in options}
        offer = Offer(
            id=self.hub.new_offer_id(),
            prompt=f"out of turn: {text} - play one, or pass"
            if options
            else f"out of turn: {text} - nothing you hold can be played: pass",
            actions=tuple(by_notation),
            passing=True,
        )
        self.hub.prompt(f"out of turn: waiting for {name}'s phone - {text}")
        self.hub.offer(self.seat, offer)
        try:
            while True:
                answer = self.wait()
                if answer.kind == "pass":
                    return None
                action = by_notation.get(answer.text)
                if answer.kind == "action" and action is not None:
                    return action
                self.hub.note(self.seat, f"{answer.text!r} is not one of your plays now")
        finally:
            self.hub.offer(self.seat, None)
            self.hub.answered()

    def wait(self) -> Submission:
        """The next answer from the seat's phone to its present offer (``TableStopped``
        once :attr:`stop` is set)."""
        while True:
            if self.stop.is_set():
                raise TableStopped("the web table stopped")
            if self.heartbeat is not None:
                self.heartbeat()
            if self.hints is not None:
                self.hints.deliver()  # journalled and shown on the table's thread
            answer = self.hub.take(self.seat, POLL_S)
            if answer is not None:
                return answer

    def enter_dice(self, outcomes: Sequence[tuple[Any, Any]], label: str) -> Any:
        """Physical dice: the outcome of this chance node the seat enters on its phone
        (one of the node's own outcomes; anything else is refused and asked again)."""
        entry = dice_entry(outcomes, label)
        self.hub.offer(self.seat, Offer(id=self.hub.new_offer_id(), prompt="dice", dice=entry))
        try:
            while True:
                answer = self.wait()
                action = outcome_for(outcomes, answer)
                if answer.kind == "dice" and action is not None:
                    return action
                self.hub.note(self.seat, "those faces are not a possible roll here")
        finally:
            self.hub.offer(self.seat, None)


# -- physical dice ----------------------------------------------------------------------------


def _faces(action: Any) -> tuple[int, ...] | None:
    faces = getattr(action, "faces", None)
    return tuple(sorted(faces)) if faces is not None else None


def dice_entry(outcomes: Sequence[tuple[Any, Any]], label: str) -> DiceEntry:
    """How a phone enters a roll of physical dice for this chance node: its outcomes as
    buttons, or (for many outcomes of several dice) one face per die."""
    actions = [a for a, _ in outcomes]
    first = _faces(actions[0])
    if len(actions) > MAX_LISTED_OUTCOMES and first is not None:
        sides = max(max(_faces(a) or (1,)) for a in actions)
        return DiceEntry(label, dice=len(first), sides=sides)
    return DiceEntry(label, outcomes=tuple(a.notation for a in actions))


def outcome_for(outcomes: Sequence[tuple[Any, Any]], submission: Submission) -> Any | None:
    """The chance node's outcome a phone entered (by notation, or by faces in any order),
    or ``None`` if it is none of them."""
    for action, _ in outcomes:
        if submission.text and action.notation == submission.text:
            return action
        if submission.faces and _faces(action) == tuple(sorted(submission.faces)):
            return action
    return None
