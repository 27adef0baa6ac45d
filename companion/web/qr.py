"""QR codes of the pairing links (segno: pure Python, no dependencies): SVG for the host
page, text for the terminal."""

from __future__ import annotations

import io
from typing import TextIO

import segno


def qr_svg(link: str) -> str:
    """An inline SVG of ``link`` for the host page."""
    return segno.make(link, error="m").svg_inline(scale=3, border=2, dark="#000", light="#fff")


def print_qr(link: str, out: TextIO) -> None:
    """``link`` as a QR code on a terminal (two module rows per text line)."""
    buffer = io.StringIO()
    segno.make(link, error="m").terminal(out=buffer, compact=True, border=2)
    out.write(buffer.getvalue())
