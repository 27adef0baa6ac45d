"""``--web [HOST:PORT]``: the address the web view listens on, and its URL."""

from __future__ import annotations

import pytest

from companion.web.address import DEFAULT_HOST, DEFAULT_PORT, http_url, parse_address


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (None, (DEFAULT_HOST, DEFAULT_PORT)),
        ("", (DEFAULT_HOST, DEFAULT_PORT)),
        ("0.0.0.0:8080", ("0.0.0.0", 8080)),
        ("0.0.0.0", ("0.0.0.0", DEFAULT_PORT)),
        (":9000", (DEFAULT_HOST, 9000)),
        ("9000", (DEFAULT_HOST, 9000)),
        ("[::1]:8080", ("::1", 8080)),
        ("[::]", ("::", DEFAULT_PORT)),
        ("127.0.0.1:0", ("127.0.0.1", 0)),
    ],
)
def test_an_address_is_read(text: str | None, expected: tuple[str, int]) -> None:
    assert parse_address(text) == expected


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[::1:8080", "IPv6 address goes in brackets"),
        ("host:port", "the port must be a number 0..65535"),
        ("host:70000", "the port must be a number 0..65535"),
    ],
)
def test_a_bad_address_says_what_to_write(text: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        parse_address(text)


def test_the_url_brackets_an_ipv6_host() -> None:
    assert http_url("::1", 8080) == "http://[::1]:8080"
    assert http_url("127.0.0.1", 8765) == "http://127.0.0.1:8765"
