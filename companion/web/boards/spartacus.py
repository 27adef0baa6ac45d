"""Spartacus: the hex arena of the fight (fighters I and II on their hexes, their dice
and life), or, between fights, the houses' standing (influence track)."""

from __future__ import annotations

import math
from typing import Any

from companion.web.boards import svg, text

R = 22  # hex radius (pointy top)
SIDE_CLASS = {"I": "side-i", "II": "side-ii"}


def _hex(cx: float, cy: float, cls: str) -> str:
    points = " ".join(
        f"{cx + R * math.cos(math.radians(60 * k - 30)):.1f},"
        f"{cy + R * math.sin(math.radians(60 * k - 30)):.1f}"
        for k in range(6)
    )
    return f'<polygon points="{points}" class="{cls}"/>'


def draw(public: dict[str, Any], config: Any) -> str:
    fight = public.get("fight")
    if fight is None:
        return _standing(public, config)
    arena = config.arena_map
    dx, dy = R * math.sqrt(3) / 2, R * 1.5
    where = {tuple(f["pos"]): f["side"] for f in fight["fighters"]}
    body = []
    xs = [x for x, _ in arena.hexes]
    x0 = min(xs)
    for h in sorted(arena.hexes):
        x, r = h
        cx, cy = (x - x0) * dx + R + 4, r * dy + R + 4
        side = where.get(h)
        body.append(_hex(cx, cy, "hex " + SIDE_CLASS.get(side, "")))
        if side:
            body.append(text(cx, cy + 5, side, "tok side"))
        else:
            body.append(text(cx, cy + 4, arena.names[h], "lbl mid dim"))
    width = (max(xs) - x0) * dx + 2 * R + 8
    height = max(r for _, r in arena.hexes) * dy + 2 * R + 8
    return svg(width, height, "Spartacus hex arena", body)


def _standing(public: dict[str, Any], config: Any) -> str:
    """Between fights: each house's influence on a track to the goal."""
    houses = public["houses"]
    influence = public["influence"]
    goal = max(12, *influence)
    body = []
    for i, (house, value) in enumerate(zip(houses, influence, strict=True)):
        y = 8 + i * 30
        body.append(text(4, y + 16, house, "lbl"))
        width = 200 * value / goal
        body.append(f'<rect x="96" y="{y}" width="{width:.1f}" height="20" class="bar"/>')
        body.append(text(100 + width, y + 15, value, "lbl"))
    return svg(330, 16 + 30 * len(houses), "Spartacus influence", body)
