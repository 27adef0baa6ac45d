"""QR codes of the pairing links (segno: pure Python, no dependencies): SVG for the host
page, text for the terminal."""

from __future__ import annotations

import io
from functools import lru_cache
from typing import TextIO

import segno


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
