"""Where the web server listens: the socket is bound before uvicorn runs, so a port in use
or a bad host is one OSError saying why, and on "::" IPv4 phones reach it too."""

from __future__ import annotations

import socket

import pytest

from companion.games.registry import get_game
from companion.web.hub import WebHub
from companion.web.server import WebServer
from companion.web.site import Site


def site() -> Site:
    game = get_game("battle-royale")
    config = game.config()
    hub = WebHub(game, config, config.players)
    hub.update(game.new_game(config), [])
    return Site(hub)


def test_a_port_in_use_says_so() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(OSError) as raised:
            WebServer(site(), "127.0.0.1", port).start()
    assert str(raised.value) == (
        f"the web server could not listen on 127.0.0.1:{port}: address already in use"
    )


def test_an_address_not_on_this_machine_says_so() -> None:
    with pytest.raises(OSError, match="could not listen on 192.0.2.1:8765: cannot assign"):
        WebServer(site(), "192.0.2.1", 8765).start()  # TEST-NET-1: never this machine's


@pytest.mark.skipif(not socket.has_dualstack_ipv6(), reason="no dual-stack IPv6 here")
def test_every_interface_in_ipv6_takes_ipv4_too() -> None:
    try:
        server = WebServer(site(), "::", 0).start()
    except OSError as exc:  # a machine without IPv6 configured
        pytest.skip(f"no IPv6 here: {exc}")
    try:
        with socket.create_connection(("127.0.0.1", server.port), timeout=5):
            pass  # an IPv4 phone's connection is accepted
    finally:
        server.stop()
