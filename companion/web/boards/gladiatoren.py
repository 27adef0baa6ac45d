"""Kampf der Gladiatoren: the 17 fields at their places from the game's data file.

A field holds a team (its owner's colour and letter, its hit stars, its gladiators by
short code: Sp spear, Ne net, Sw sword, Tr trident, Sh shield) or an animal (its name,
hit stars of its hit value); neighbouring fields are joined by lines."""

from __future__ import annotations

from typing import Any

from companion.games.kampf_der_gladiatoren.rules import KINDS, SHORT
from companion.ui.gladiatoren import LETTER
from companion.web.boards import fill, ink, svg, text

COL = 52  # a map column is half a field wide
ROW = 74
W, H = 98, 64


def _team_text(counts: list[int]) -> str:
    return "".join(SHORT[k] * n for k, n in zip(KINDS, counts, strict=True))


def draw(public: dict[str, Any], config: Any) -> str:
    arena = config.data.arena
    animals = config.data.animals
    colours = config.colours
    teams = {t["id"]: t for t in public["teams"]}
    fighting = {tuple(p) for p in ((public.get("combat") or {}).get("pieces") or ())}
    centre = [(col * COL + W / 2 + 4, row * ROW + H / 2 + 4) for row, col in arena.positions]
    body = []
    for f, near in enumerate(arena.neighbours):
        for g in near:
            if g > f:
                (x1, y1), (x2, y2) = centre[f], centre[g]
                body.append(f'<line x1="{x1:g}" y1="{y1:g}" x2="{x2:g}" y2="{y2:g}" class="edge"/>')
    for f, (row, col) in enumerate(arena.positions):
        x, y = col * COL + 4, row * ROW + 4
        piece = public["board"][f]
        cls = "field marked" if piece is not None and tuple(piece) in fighting else "field"
        body.append(f'<rect x="{x}" y="{y}" width="{W}" height="{H}" rx="8" class="{cls}"/>')
        body.append(text(x + 6, y + 15, arena.ids[f], "lbl"))
        if piece is None:
            continue
        kind, n = piece
        if kind == "team":
            team = teams[n]
            colour = colours[team["owner"]]
            body.append(
                f'<rect x="{x + 24}" y="{y + 3}" width="22" height="17" rx="4" '
                f'fill="{fill(colour)}" stroke="#000"/>'
                + text(x + 35, y + 16, LETTER.get(colour, "?"), "tok", fill=ink(colour))
            )
            if team["stars"]:
                body.append(text(x + 52, y + 16, "\u2605" * team["stars"], "star"))
            body.append(text(x + 6, y + 38, _team_text(team["active"]), "small"))
            if any(team["inactive"]):
                body.append(text(x + 6, y + 55, f"({_team_text(team['inactive'])})", "small dim"))
        else:
            animal = animals[n]
            stars = public["animal_stars"][n]
            body.append(text(x + 24, y + 16, animal.id, "animal"))
            body.append(text(x + 6, y + 38, f"\u2605{stars}/{animal.hits}", "small"))
            body.append(text(x + 6, y + 55, _team_text(list(animal.symbols)), "small"))
    width = max(c for _, c in arena.positions) * COL + W + 8
    height = max(r for r, _ in arena.positions) * ROW + H + 8
    return svg(width, height, "Kampf der Gladiatoren arena", body)
