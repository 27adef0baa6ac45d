"""The pages, rendered on the server from a :class:`~companion.web.hub.Frame`.

Small HTML, no build step, no CDN: one stylesheet and one script from the package.
:func:`table_main` is the table screen (public only: ``view(state, None)``),
:func:`seat_main` a seat's phone (``view(state, seat)``: the public part plus that seat's
own secrets, its offer, its own notes, the events as that seat may see them). The
``<main>`` element is what a live update replaces.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from companion.web.boards import draw, fill, ink
from companion.web.hub import Frame, Offer

LOG_SHOWN = 25
GROUP_OVER = 16  # more choices than this are folded by their first word
CHANCE, TERMINAL = -1, -2


def page(title: str, base: str, main: str, seq: int, extra_class: str = "") -> str:
    """A whole page; ``base`` is the role's path (``/seat/2``) the script talks to."""
    return (
        "<!doctype html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="referrer" content="no-referrer">'
        f"<title>{escape(title)}</title>"
        '<link rel="stylesheet" href="/static/style.css">'
        '<script src="/static/app.js" defer></script></head>'
        f'<body class="{extra_class}" data-base="{escape(base)}" data-seq="{seq}">'
        '<div id="conn" class="conn" role="status"></div>'
        f'<main id="main">{main}</main></body></html>'
    )


# -- names and markers ------------------------------------------------------------------------


def seat_names(config: Any, public: dict[str, Any]) -> list[str]:
    names = public.get("houses") or public.get("colours") or getattr(config, "colours", ())
    return [str(n) for n in names]


def letter(game: str, name: str) -> str:
    """The seat's letter as on the terminal (colour-blind-safe marker)."""
    if game == "spartacus":
        return name[:1].upper()
    if game == "gladiatoren":
        from companion.ui.gladiatoren import LETTER
    elif game == "skirmish":
        from companion.ui.skirmish import LETTER
    else:
        from companion.ui.battle_royale import LETTER
    return LETTER.get(name, name[:1].upper())


def marker(game: str, name: str) -> str:
    """A seat's badge: its colour (where it is a colour) and always its letter and name."""
    colour = name if game != "spartacus" else "grey"
    return (
        f'<span class="badge" style="background:{fill(colour)};color:{ink(colour)}">'
        f"{escape(letter(game, name))}</span> {escape(name)}"
    )


def _whose_turn(frame: Frame, game: str, names: list[str]) -> str:
    view = frame.view(None)
    current = view["current_player"]
    public = view["public"]
    if current == TERMINAL or public.get("winners"):
        won = ", ".join(names[s] for s in public.get("winners", ()))
        return f"game over{': ' + escape(won) + ' won' if won else ''}"
    # at a roll, the seat rolling (Spartacus's ``rolling``: the house the ROLL prompt
    # names, not always the one whose turn it is); else the seat whose turn it is
    seat = current if current >= 0 else public.get("rolling")
    if seat is None:
        seat = public.get("active")
    who = marker(game, names[seat]) if isinstance(seat, int) and 0 <= seat < len(names) else ""
    dice = " (dice)" if current == CHANCE else ""
    return f"turn: {who}{dice}"


def _header(frame: Frame, title: str, names: list[str], game: str) -> str:
    public = frame.view(None)["public"]
    counter = " ".join(
        f"{k} {public[k]}" for k in ("round", "turn") if isinstance(public.get(k), int)
    )
    return (
        f'<header><h1>{escape(title)}</h1><p class="meta">{escape(counter)} · phase '
        f'{escape(str(frame.view(None)["phase"]))}</p><p class="turn">'
        f"{_whose_turn(frame, game, names)}</p></header>"
    )


# -- parts ---------------------------------------------------------------------------------


def dice_box(frame: Frame, seat: int | None, game_obj: Any) -> str:
    """The last roll, animated once by the page when it is new (``data-roll``)."""
    if frame.roll is None:
        return ""
    event = game_obj.event_view(frame.roll.event, seat)
    data = event["data"]
    faces = data.get("faces") or ([data["face"]] if "face" in data else None)
    if faces is None and "roll" in data:  # star dice: (doubles, singles, blanks)
        d, s, b = data["roll"]
        faces = ["\u2605\u2605"] * d + ["\u2605"] * s + ["\u00a0"] * b
    if faces is None:
        return ""
    colour = escape(str(data.get("die", "")))
    dice = "".join(
        f'<span class="die {colour}">{escape(str(f).replace("_", " "))}</span>' for f in faces
    )
    return (
        f'<section class="dice" data-roll="{frame.roll.seq}" aria-label="last roll">'
        f'{dice}<span class="dice-text">{escape(event["text"])}</span></section>'
    )


def odds_box(frame: Frame) -> str:
    sections = frame.extras.get("odds") or ()
    if not sections:
        return ""
    out = ['<section class="odds"><h2>Exact odds</h2>']
    for title, rows in sections:
        cells = "".join(f"<li>{escape(k)}: <b>{escape(p)}</b></li>" for k, p in rows)
        out.append(f"<h3>{escape(title)}</h3><ul>{cells}</ul>")
    out.append("</section>")
    return "".join(out)


def log_box(frame: Frame, seat: int | None, game_obj: Any) -> str:
    items = [
        f"<li>{escape(game_obj.event_view(e.event, seat)['text'])}</li>"
        for e in reversed(frame.log[-LOG_SHOWN:])
    ]
    return f'<section class="log"><h2>What happened</h2><ul>{"".join(items)}</ul></section>'


def messages_box(frame: Frame) -> str:
    lines = [f"<p>{escape(m)}</p>" for m in frame.messages]
    if frame.prompt:
        lines.append(f'<p class="prompt">{escape(frame.prompt)}</p>')
    return f'<section class="messages">{"".join(lines)}</section>' if lines else ""


def _total(value: Any) -> int:
    """A number for a table cell: a list of numbers summed, of things counted."""
    if isinstance(value, list):
        return sum(_total(v) if isinstance(v, list | int) else 1 for v in value)
    return value if isinstance(value, int) else 1


def _cell(value: Any) -> str:
    if isinstance(value, bool):  # a yes/no column (Spartacus's "bid in"): not True/False
        return "yes" if value else ""
    return escape(str(_total(value) if isinstance(value, list) else value))


PLAYER_COLUMNS = {  # public key -> column title, per game (per-seat lists or dicts)
    "battle-royale": (
        ("arena_total", "in arena"),
        ("prisoners", "prisoners"),
        ("box", "box"),
        ("hand_sizes", "cards"),
    ),
    "gladiatoren": (("survivors", "survivors"), ("stables", "stable")),
    "skirmish": (("scored", "points"),),
    "spartacus": (
        ("influence", "influence"),
        ("gold", "gold"),
        ("hand_sizes", "intrigue"),
        ("guards", "guards"),
        ("bids_entered", "bid in"),
    ),
}


def players_box(game: str, public: dict[str, Any], names: list[str]) -> str:
    columns = [(k, t) for k, t in PLAYER_COLUMNS.get(game, ()) if k in public]
    head = "".join(f"<th>{escape(t)}</th>" for _, t in columns)
    rows = []
    out = public.get("out") or [False] * len(names)
    for seat, name in enumerate(names):
        cells = []
        for key, _ in columns:
            value = public[key]
            entry = value.get(str(seat), "") if isinstance(value, dict) else value[seat]
            cells.append(f"<td>{_cell(entry)}</td>")
        gone = ' class="out"' if seat < len(out) and out[seat] else ""
        rows.append(f"<tr{gone}><td>{marker(game, name)}</td>{''.join(cells)}</tr>")
    return (
        '<section class="players"><table><thead><tr><th>seat</th>'
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></section>"
    )


def _entry(value: Any) -> str:
    """One entry of a private list: a peeked card as "card (house, round 1)"."""
    if isinstance(value, dict) and "card" in value:
        rest = ", ".join(
            f"{k} {v}" if k == "round" else str(v) for k, v in value.items() if k != "card"
        )
        return f"{value['card']} ({rest})" if rest else str(value["card"])
    return str(value)


def private_box(private: dict[str, Any]) -> str:
    """This seat's own secrets (its hand, gold while hidden, its bid, peeked cards)."""
    if not private:
        return ""
    rows = []
    for key, value in private.items():
        if value and isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
            # texts by name (Spartacus's cards: id -> printed name and effect): a row each
            rows += [f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in value.items()]
            continue
        if isinstance(value, dict):
            shown = ", ".join(f"{k} ×{n}" if n != 1 else k for k, n in value.items() if n)
        elif isinstance(value, list):
            shown = ", ".join(_entry(v) for v in value)
        else:
            shown = "" if value is None else str(value)
        label = key.replace("_", " ")
        rows.append(f"<dt>{escape(label)}</dt><dd>{escape(shown) or '—'}</dd>")
    return (
        '<section class="private"><h2>Only you see this</h2>'
        f'<dl data-private="1">{"".join(rows)}</dl></section>'
    )


def offer_box(offer: Offer | None, buttons: tuple[str, ...], hint: str | None = None) -> str:
    """The seat's choices as buttons (each posts the notation of a legal action); its hint
    button and the hint it asked for (this seat's page only)."""
    out = []
    if offer is not None:
        oid = offer.id
        out.append(f'<section class="offer" data-offer="{oid}"><h2>{escape(offer.prompt)}</h2>')
        if offer.hint:
            out.append('<button class="act hint" data-kind="hint">hint</button>')
            if hint:
                out.append(f'<p class="hint" data-hint="1">{escape(hint)}</p>')
        if offer.secret:
            out.append(_secret_form(offer))
        else:
            out.append(_choices(offer.actions, labels=dict(offer.labels)))
        if offer.steps:  # the kinds the list leaves actions out of: step by step
            out.append(
                '<div class="choices">'
                + "".join(
                    f'<button class="act step" data-kind="step" data-text="{escape(k)}">'
                    f"{escape(k)} with more choices, step by step…</button>"
                    for k in offer.steps
                )
                + "</div>"
            )
        if offer.passing:
            out.append(
                '<div class="choices"><button class="act pass" data-kind="pass">pass</button></div>'
            )
        if offer.back:
            out.append(
                '<div class="choices"><button class="act back" data-kind="back">back</button></div>'
            )
        if offer.dice is not None:
            out.append(_dice_form(offer))
        if offer.undo:
            out.append('<button class="act undo" data-kind="undo" data-count="1">undo</button>')
        if offer.corrections:
            out.append("<details><summary>corrections (what really happened)</summary>")
            out.append(_buttons(offer.corrections, "act small"))
            out.append("</details>")
        out.append("</section>")
    if buttons:
        presses = "".join(
            f'<button class="press" data-button="{b}"'
            + (' title="hold: undo the selection"' if b == "select" else "")
            + f">{b.upper()}</button>"
            for b in buttons
        )
        out.append(f'<section class="buttons" aria-label="table buttons">{presses}</section>')
    return "".join(out)


def _buttons(
    actions: Sequence[str],
    cls: str = "act",
    kind: str = "action",
    labels: Mapping[str, str] | None = None,
) -> str:
    """A button per action: it sends the notation and reads as its label (if any)."""
    labels = labels or {}
    return "".join(
        f'<button class="{cls}" data-kind="{kind}" data-text="{escape(a)}">'
        f"{escape(labels.get(a, a))}</button>"
        for a in actions
    )


def _choices(
    actions: Sequence[str], kind: str = "action", labels: Mapping[str, str] | None = None
) -> str:
    """The actions as buttons; a long list grouped by its first word (a verb) in folds."""
    if len(actions) <= GROUP_OVER:
        return f'<div class="choices">{_buttons(actions, kind=kind, labels=labels)}</div>'
    groups: dict[str, list[str]] = {}
    for a in actions:
        groups.setdefault(a.split()[0], []).append(a)
    out = []
    for verb, group in groups.items():
        buttons = _buttons(group, kind=kind, labels=labels)
        if len(group) == 1:
            out.append(f'<div class="choices">{buttons}</div>')
        else:
            out.append(
                f"<details><summary>{escape(verb)} ({len(group)})</summary>"
                f'<div class="choices">{buttons}</div></details>'
            )
    return "".join(out)


def anytime_box(offer: Offer | None) -> str:
    """The seat's plays out of turn while another seat is asked (its own phone only)."""
    if offer is None:
        return ""
    return (
        f'<section class="anytime" data-offer="{offer.id}"><h2>out of turn</h2>'
        f"<p>{escape(offer.prompt)}: a guard laid, gold given, a reaction</p>"
        + _choices(offer.actions, kind="anytime")
        + "</section>"
    )


def _secret_form(offer: Offer) -> str:
    """A secret bid (or a net): typed on this phone, shown nowhere else."""
    bids = [a for a in offer.actions if a.split()[0] == "bid"]
    if not bids:
        return _choices(offer.actions)
    amounts = [int(a.split()[1]) for a in bids]
    # the house's other plays of the moment (a guard it may post) stay buttons beside the
    # field: before, one of them turned the bid into a button per amount
    rest = [a for a in offer.actions if a not in bids]
    return (
        '<form class="secret" data-kind="action" data-prefix="bid ">'
        f"<label>your secret bid (0..{max(amounts)} gold) "
        f'<input name="amount" type="number" inputmode="numeric" min="0" '
        f'max="{max(amounts)}" value="0" autocomplete="off"></label>'
        '<button type="submit">bid</button></form>'
    ) + (_choices(rest) if rest else "")


def _dice_form(offer: Offer) -> str:
    entry = offer.dice
    assert entry is not None
    out = [f'<div class="dice-entry"><h3>{escape(entry.label)}</h3>']
    if entry.outcomes:
        out.extend(
            f'<button class="act" data-kind="dice" data-text="{escape(o)}">{escape(o)}</button>'
            for o in entry.outcomes
        )
    else:
        options = "".join(f"<option>{f}</option>" for f in range(1, entry.sides + 1))
        selects = "".join(
            f'<select name="face" aria-label="die {i + 1}">{options}</select>'
            for i in range(entry.dice)
        )
        out.append(f'<form class="faces" data-kind="dice">{selects}<button>enter</button></form>')
    out.append("</div>")
    return "".join(out)


# -- the two main parts ---------------------------------------------------------------------


def table_main(
    frame: Frame, game_obj: Any, config: Any, title: str, board: str | None = None
) -> str:
    """The table screen; ``board``: the board already drawn for this frame's public view."""
    view = frame.view(None)
    public = view["public"]
    names = seat_names(config, public)
    game = view["game"]
    board = draw(game, public, config) if board is None else board
    return (
        _header(frame, title, names, game)
        + f'<div class="cols"><section class="boardbox">{board}</section>'
        + '<div class="side">'
        + dice_box(frame, None, game_obj)
        + messages_box(frame)
        + players_box(game, public, names[: len(frame.views) - 1])
        + odds_box(frame)
        + "</div></div>"
        + log_box(frame, None, game_obj)
    )


def badge(offer: Offer | None) -> str:
    """Beside "you are ...": what the seat is asked for, if anything (a question outside
    its turn is no "your turn": a scheme's answer, a net, a reroll)."""
    if offer is None:
        return ""
    if offer.passing:
        return "out of turn"
    return "your roll" if offer.dice is not None else "your choice"


def seat_main(
    frame: Frame,
    seat: int,
    game_obj: Any,
    config: Any,
    title: str,
    buttons: tuple[str, ...],
    board: str | None = None,
) -> str:
    """A seat's phone; ``board``: the board already drawn for this frame's public view."""
    view = frame.view(seat)
    public = view["public"]
    names = seat_names(config, public)
    game = view["game"]
    board = draw(game, public, config) if board is None else board
    note = frame.notes.get(seat)
    offer = frame.offers.get(seat)
    asked = badge(offer)
    return (
        f'<p class="you">you are {marker(game, names[seat])}'
        + (f' <b class="yourturn">{asked}</b>' if asked else "")
        + "</p>"
        + _header(frame, title, names, game)
        + (f'<p class="note">{escape(note)}</p>' if note else "")
        + offer_box(offer, buttons, frame.hints.get(seat))
        + anytime_box(frame.anytime.get(seat))
        + messages_box(frame)
        + private_box(view["private"])
        + dice_box(frame, seat, game_obj)
        + f'<section class="boardbox">{board}</section>'
        + players_box(game, public, names[: len(frame.views) - 1])
        + log_box(frame, seat, game_obj)
    )
