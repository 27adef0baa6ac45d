"""QR codes of the pairing links (segno: pure Python, no dependencies): SVG for the host
page, text for the terminal (:func:`print_pairing`: every link of a table)."""

from __future__ import annotations

import io
import sys
from collections.abc import Mapping
from functools import lru_cache
from typing import Any, TextIO

import segno

from companion.web.pairing import HOST, TABLE, Role


@lru_cache(maxsize=32)
def qr_svg(link: str) -> str:
    """An inline SVG of ``link`` for the host page. Encoding a code is most of the work of
    a host page (segno tries every mask), and the page is drawn again on every frame, so a
    link's code is made once; a new code (a revoke, a new game) is a new link. The cache is
    bounded: a season of games does not grow it."""
    return segno.make(link, error="m").svg_inline(scale=3, border=2, dark="#000", light="#fff")


def print_qr(link: str, out: TextIO) -> None:
    """``link`` as a QR code on a terminal (two module rows per text line)."""
    buffer = io.StringIO()
    segno.make(link, error="m").terminal(out=buffer, compact=True, border=2)
    out.write(buffer.getvalue())


def print_pairing(
    links: Mapping[Role, str], config: Any, out: TextIO | None = None, *, codes: bool = True
) -> None:
    """The pairing ``links`` (and QR codes) on the terminal: the table screen, every seat
    (named by ``config``'s colours, where it has them), and last the host's link (it may
    revoke codes: keep it to yourself)."""
    out = out if out is not None else sys.stdout
    names = config.colours if hasattr(config, "colours") else ()
    for role, link in links.items():
        if role == HOST:
            continue
        label = "table screen" if role == TABLE else f"seat {role.seat} ({names[role.seat]})"
        out.write(f"\n{label}: {link}\n")
        if codes:
            print_qr(link, out)
    out.write(f"\nhost (revoke codes; keep it to yourself): {links[HOST]}\n")
    out.flush()
