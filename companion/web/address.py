"""Where the web view listens: ``--web``'s ``HOST:PORT``, localhost on port 8765 by default,
and its URL."""

from __future__ import annotations

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def parse_address(text: str | None) -> tuple[str, int]:
    """``HOST:PORT``, ``HOST``, ``:PORT`` or ``PORT`` (``[::1]:8080`` for IPv6); empty or
    ``None``: localhost on the default port. ``ValueError`` with what to write."""
    if not text:
        return DEFAULT_HOST, DEFAULT_PORT
    host, port = text, ""
    if text.startswith("["):  # [v6]:port
        end = text.find("]")
        if end < 0:
            raise ValueError(f"--web {text!r}: an IPv6 address goes in brackets, [::1]:8765")
        host, port = text[1:end], text[end + 1 :].removeprefix(":")
    elif text.isdigit():
        host, port = DEFAULT_HOST, text
    elif text.count(":") == 1:
        host, port = text.split(":")
    host = host or DEFAULT_HOST
    if not port:
        return host, DEFAULT_PORT
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise ValueError(f"--web {text!r}: the port must be a number 0..65535 (HOST:PORT)")
    return host, int(port)


def http_url(host: str, port: int) -> str:
    """The server's address as a URL (an IPv6 host in brackets)."""
    host = f"[{host}]" if ":" in host else host
    return f"http://{host}:{port}"
