"""Pairing and access: no token, a wrong token, another seat's token are refused."""

from __future__ import annotations

import pytest
from web_helpers import phone_table, request

from companion.web.app import NOT_PAIRED_PAGE
from companion.web.pairing import HOST, TABLE, Pairing, seat

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
        assert status == 403 and body == b"403", path
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
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
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
