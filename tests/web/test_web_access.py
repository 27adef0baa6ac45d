"""Pairing and access: no token, a wrong token, another seat's token are refused."""

from __future__ import annotations

import contextlib
import http.client
import json
import re
from urllib.parse import urlsplit

import pytest
from web_helpers import phone_table, request

from companion.web.app import (
    ALREADY_PAIRED_PAGE,
    NOT_PAIRED_PAGE,
    NOT_YOURS_PAGE,
    OTHER_SEAT_PAGE,
)
from companion.web.pairing import HOST, TABLE, Pairing, seat
from companion.web.site import COOKIE

pytestmark = pytest.mark.slow

GETS = [
    "/",
    "/table",
    "/host",
    "/seat/0",
    "/seat/1",
    "/table/state",
    "/seat/1/state",
    "/seat/0/events",
    "/table/events",
    "/static/app.js",
    "/static/style.css",
]
POSTS = [
    ("/seat/0/act", {"offer": 1, "kind": "action", "text": "done"}),
    ("/seat/1/button", {"button": "roll"}),
    ("/host/revoke", {"role": "seat-1"}),
]


@pytest.fixture(scope="module")
def running():
    with phone_table("spartacus", people={0, 1, 2, 3}) as r:
        yield r


PAGES = {"/", "/table", "/host", "/seat/0", "/seat/1"}  # what a person opens in a browser


def test_no_token_and_wrong_tokens_are_refused_without_information(running):
    wrong = "x" * 22
    for token in (None, wrong, "", running.token(seat(0))[:-1]):
        for path in GETS:
            status, headers, body = request(running.url + path, token=token)
            assert status == 401, (path, token)
            if path in PAGES:  # the one fixed page that says what to do
                assert body == NOT_PAIRED_PAGE.encode(), path
            else:
                assert body == b"401"  # nothing about the game, the seats or the tokens
        for path, data in POSTS:
            status, _, body = request(running.url + path, "POST", token=token, body=data)
            assert status == 401, (path, token)
            assert body == b"401"
    status, _, body = request(running.url + "/pair/" + wrong)
    assert status == 401 and body == NOT_PAIRED_PAGE.encode()


def test_the_not_paired_page_says_what_to_do_and_nothing_of_the_game():
    text = NOT_PAIRED_PAGE.lower()
    assert "scan your seat's qr code again" in text and "new game" in text
    for secret in ("seat 1", "token", "spartacus", "gold", "hand"):
        assert secret not in text


def test_another_seats_token_is_refused(running):
    mine = running.token(seat(0))
    for path in ("/seat/1", "/seat/1/state", "/seat/1/events", "/table", "/host"):
        status, _, body = request(running.url + path, token=mine)
        # a page a person opens says where it belongs (one fixed page); the rest a bare 403
        expected = NOT_YOURS_PAGE.encode() if path in PAGES else b"403"
        assert status == 403 and body == expected, path
    assert "seat 1" not in NOT_YOURS_PAGE and "spartacus" not in NOT_YOURS_PAGE.lower()
    # the browser's own request for an icon is no refusal (it logged a 401 on every page)
    assert request(running.url + "/favicon.ico")[0] == 204
    status, _, _ = request(
        running.url + "/seat/1/act",
        "POST",
        token=mine,
        body={"offer": 1, "kind": "action", "text": "done"},
    )
    assert status == 403
    # the table screen's token (on the TV for everyone to see) opens no seat and cannot revoke
    table = running.token(TABLE)
    for path in ("/seat/0", "/seat/0/state", "/host"):
        assert request(running.url + path, token=table)[0] == 403
    assert (
        request(running.url + "/host/revoke", "POST", token=table, body={"role": "seat-0"})[0]
        == 403
    )


def test_pairing_link_moves_the_token_into_a_cookie_and_a_clean_address(running):
    token = running.token(seat(2))
    status, headers, _ = request(running.url + "/pair/" + token)
    assert status == 303
    assert headers["location"] == "/seat/2"  # the token is not in the address any more
    cookie = headers["set-cookie"]
    assert "HttpOnly" in cookie and "samesite=lax" in cookie.lower()
    assert f"Max-Age={24 * 3600}" in cookie  # kept when the browser is closed
    assert request(running.url + "/seat/2", token=token)[0] == 200


def test_each_seat_sees_its_own_page_only(running):
    for n in range(4):
        status, _, body = request(running.url + f"/seat/{n}/state", token=running.token(seat(n)))
        assert status == 200
        assert b'"seq"' in body


def test_posts_must_be_json(running):
    token = running.token(seat(0))
    status, _, _ = request(
        running.url + "/seat/0/act",
        "POST",
        token=token,
        body=None,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert status == 400


def test_revoked_token_is_locked_out_and_the_new_one_works():
    with phone_table("spartacus", people={0}) as r:
        old = r.token(seat(1))
        assert request(r.url + "/seat/1", token=old)[0] == 200
        status, _, _ = request(
            r.url + "/host/revoke", "POST", token=r.token(HOST), body={"role": "seat-1"}
        )
        assert status == 200
        assert request(r.url + "/seat/1", token=old)[0] == 401
        assert request(r.url + "/seat/1", token=r.token(seat(1)))[0] == 200
        # the host's own token is not revocable from the page
        assert (
            request(r.url + "/host/revoke", "POST", token=r.token(HOST), body={"role": "host"})[0]
            == 409
        )


def test_a_seats_code_pairs_one_phone_and_the_host_page_says_so():
    """A second phone that opened a seat's link (a photo of the host page, the neighbour's
    code scanned) saw that seat's hand, and nobody was told."""
    with phone_table("spartacus", people={0}) as r:
        token = r.token(seat(1))
        link = r.url + "/pair/" + token
        assert code_status(host_codes(r), 1) == "waiting for its phone"
        status, headers, _ = request(link)  # the seat's phone
        assert status == 303 and token in headers["set-cookie"]
        assert code_status(host_codes(r), 1) == "paired"
        assert request(link, token=token)[0] == 303  # the same phone opens it again
        for cookie in (None, r.token(TABLE)):  # another phone
            status, headers, body = request(link, token=cookie)
            assert status == 409 and body == ALREADY_PAIRED_PAGE.encode()
            assert "set-cookie" not in headers
        assert code_status(host_codes(r), 1) == "paired; 2 other phones refused"
        assert request(r.url + "/seat/1", token=token)[0] == 200  # the first phone plays on
        # a seat that changes phones: a new code pairs the new phone, the old one is out
        r.site.revoke("seat-1")
        new = r.token(seat(1))
        assert code_status(host_codes(r), 1) == "waiting for its phone"
        assert request(r.url + "/pair/" + new, token=None)[0] == 303
        assert request(r.url + "/seat/1", token=token)[0] == 401
        # the table screen's code (on the TV) and the host's pair any number of screens
        for role in (TABLE, TABLE, HOST, HOST):
            assert request(r.url + "/pair/" + r.token(role))[0] == 303


def test_a_phone_holding_a_seat_is_refused_the_neighbours_code():
    """Found by a review: seat 1's phone that scanned seat 2's code by mistake was paired
    with seat 2 (its hand on the wrong phone), seat 2's own phone was then refused, and
    seat 1's phone was locked out of its own seat."""
    with phone_table("spartacus", people={0}) as r:
        mine, theirs = r.token(seat(1)), r.token(seat(2))
        assert request(r.url + "/pair/" + mine)[0] == 303
        status, headers, body = request(r.url + "/pair/" + theirs, token=mine)
        assert status == 409 and body == OTHER_SEAT_PAGE.encode()
        assert "set-cookie" not in headers
        assert code_status(host_codes(r), 2) == "waiting for its phone; 1 other phone refused"
        assert request(r.url + "/pair/" + theirs)[0] == 303  # seat 2's own phone pairs
        assert request(r.url + "/seat/1", token=mine)[0] == 200  # and seat 1's plays on
        # the host plays too: its phone (the host's cookie) takes its seat's code
        assert request(r.url + "/pair/" + r.token(seat(0)), token=r.token(HOST))[0] == 303


def test_a_seats_phone_that_scans_the_table_screens_code_keeps_its_seat():
    """Found by a newcomer: a seat's phone that scanned the TV's code became a table
    screen, its own seat's page answered 403 and its own code then 409 ("Already
    paired"), while the host page counted it as another phone refused."""
    with phone_table("spartacus", people={0}) as r:
        mine = r.token(seat(1))
        assert request(r.url + "/pair/" + mine)[0] == 303
        status, headers, _ = request(r.url + "/pair/" + r.token(TABLE), token=mine)
        assert status == 303 and headers["location"] == "/seat/1"
        assert "set-cookie" not in headers  # still the seat's cookie
        assert request(r.url + "/seat/1", token=mine)[0] == 200
        assert request(r.url + "/pair/" + mine, token=mine)[0] == 303
        assert code_status(host_codes(r), 1) == "paired"  # nobody refused
        # a browser holding no seat still pairs as the table screen
        status, headers, _ = request(r.url + "/pair/" + r.token(TABLE))
        assert status == 303 and headers["location"] == "/table" and "set-cookie" in headers


def test_the_already_paired_pages_say_what_to_do_and_nothing_of_the_game():
    text = ALREADY_PAIRED_PAGE.lower()
    assert "ask the host for a new code" in text and "scan your own seat's code" in text
    other = OTHER_SEAT_PAGE.lower()
    assert "nothing was changed" in other and "ask the host for a new code" in other
    for page in (text, other):
        for secret in ("seat 1", "token", "spartacus", "gold", "hand"):
            assert secret not in page


def test_the_host_page_hears_of_a_pairing_between_frames():
    """The host's live page got a frame only when the game moved: a code paired (or a new
    code) stayed unshown on a table waiting for a person's move."""
    with phone_table("spartacus", people={0, 1, 2, 3}) as r:  # waiting for a person
        r.wait(lambda: any(r.site.hub.current_offer(n) for n in range(4)))
        seq = r.site.hub.frame.seq
        with events(r, HOST, seq) as lines:
            first = next_frame(lines)  # the codes as they are, at every connection
            assert code_status(first["main"], 2) == "waiting for its phone"
            assert request(r.url + "/pair/" + r.token(seat(2)))[0] == 303
            frame = next_frame(lines)
        assert frame["seq"] == seq and code_status(frame["main"], 2) == "paired"


def code_status(main: str, n: int) -> str:
    """What the host page says beside seat ``n``'s code."""
    found = re.search(rf'seat {n}: \w+ <span class="paired">\(([^)]*)\)</span>', main)
    assert found, main
    return found.group(1)


def test_the_host_page_catches_up_when_it_reconnects():
    """Found by a review: a host page that slept while a seat paired reconnected at the
    frame it had and got nothing until the game moved."""
    with phone_table("spartacus", people={0, 1, 2, 3}) as r:  # waiting for a person
        r.wait(lambda: any(r.site.hub.current_offer(n) for n in range(4)))
        seq = r.site.hub.frame.seq
        assert request(r.url + "/pair/" + r.token(seat(3)))[0] == 303  # while it slept
        with events(r, HOST, seq) as lines:
            frame = next_frame(lines)
        assert frame["seq"] == seq and code_status(frame["main"], 3) == "paired"


def host_codes(r) -> str:
    status, _, body = request(r.url + "/host/state", token=r.token(HOST))
    assert status == 200
    return json.loads(body)["main"]


@contextlib.contextmanager
def events(r, role, since: int):
    """The lines of ``role``'s live stream from frame ``since`` on."""
    parts = urlsplit(r.url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
    conn.request(
        "GET", f"{role.path}/events?since={since}", headers={"Cookie": f"{COOKIE}={r.token(role)}"}
    )
    response = conn.getresponse()
    assert response.status == 200
    try:
        yield iter(response.fp.readline, b"")
    finally:
        conn.close()


def next_frame(lines) -> dict:
    for line in lines:
        if line.startswith(b"data: {") and b'"main"' in line:
            return json.loads(line[len(b"data: ") :])
    raise AssertionError("the stream ended")


def test_tokens_are_new_per_game_and_compared_over_every_role():
    pairing = Pairing(3)
    first = {role: pairing.token(role) for role in pairing.roles}
    assert len(set(first.values())) == len(first) == 5
    assert all(len(t) >= 22 for t in first.values())  # 128 bits
    pairing.new_game(3)
    assert all(pairing.role_of(t) is None for t in first.values())
    assert pairing.role_of(pairing.token(seat(2))) == seat(2)
    assert pairing.role_of(None) is None and pairing.role_of("") is None


def test_tokens_are_compared_in_constant_time(mocker):
    import secrets

    spy = mocker.spy(secrets, "compare_digest")
    pairing = Pairing(4)
    pairing.role_of("guess")
    assert spy.call_count == 6  # every token, no early exit


def test_the_host_page_encodes_each_pairing_code_once_not_on_every_frame(mocker):
    """Each frame redraws the host page; encoding its QR codes every time was three
    quarters of the server's work while phones played (py-spy of bench/web_latency.py)."""
    import segno

    from companion.web.qr import qr_svg

    qr_svg.cache_clear()
    made = mocker.spy(segno, "make")
    with phone_table("battle-royale", people=set()) as r:  # bots: the frames go on
        roles = len(r.site.pairing.roles) - 1  # every role's code but the host's own
        first = r.site.pairing_box()
        assert made.call_count == roles
        r.wait(lambda: r.site.hub.frame.seq > 3)  # the table moved on: new frames
        assert r.site.pairing_box() == first
        assert made.call_count == roles
        r.site.revoke("seat-0")  # a new code is a new link: encoded once
        assert r.site.pairing_box() != first
        assert made.call_count == roles + 1
