"""A web request never fires the Eliminator: no route arms, fires or presses the red button."""

from __future__ import annotations

import ast
import json
from importlib import resources
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from web_helpers import request

from companion.games.battle_royale import BattleRoyaleConfig
from companion.games.battle_royale.assist import ASSIST, new_assist_game
from companion.hal import HardwareConfig, ManualClock, open_hardware
from companion.web.app import create_app
from companion.web.buttons import WEB_BUTTONS, ButtonRelay, NotAWebButton
from companion.web.hub import WebHub
from companion.web.pairing import HOST, TABLE, seat
from companion.web.server import WebServer
from companion.web.site import Site

WEB = Path(resources.files("companion.web"))  # type: ignore[arg-type]
FORBIDDEN = ("trigger", "fire", "arm", "solenoid", "eliminator", "coil", "pulse")


def test_no_route_names_the_red_button():
    hub = WebHub(ASSIST, BattleRoyaleConfig(), 4)
    app = create_app(Site(hub))
    paths = [route.path for route in app.routes]
    assert paths  # the app has routes
    for path in paths:
        assert not any(word in path.lower() for word in FORBIDDEN), path


def test_the_web_package_never_touches_the_solenoid():
    """No module of the web view calls the guard (arm/fire) or emits a trigger event."""
    for path in WEB.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute):
                assert node.attr not in ("fire", "arm", "eliminator", "tap"), (path, node.attr)
            if isinstance(node, ast.Constant) and node.value == "trigger":
                pytest.fail(f"{path} names the trigger button")
    assert "trigger" not in WEB_BUTTONS


def test_the_relay_refuses_the_red_button():
    hw = open_hardware(HardwareConfig(profile="sim"), clock=ManualClock())
    relay = ButtonRelay(hw.inputs)
    for name in ("trigger", "TRIGGER", "fire", " trigger", "red"):
        with pytest.raises(NotAWebButton):
            relay.press(name)
    assert hw.inputs.drain() == []


@pytest.fixture(scope="module")
def armed_table():
    """Assist mode on sim hardware with the Eliminator armed: a trigger press would fire."""
    hw = open_hardware(HardwareConfig(profile="sim"), clock=ManualClock())
    state = new_assist_game(BattleRoyaleConfig())
    hub = WebHub(ASSIST, state.config, state.players)
    hub.update(state, [])
    site = Site(hub, relay=ButtonRelay(hw.inputs))
    hw.eliminator.arm("turn-1-c3")
    server = WebServer(site, "127.0.0.1", 0).start()
    yield hw, site, server
    server.stop()
    hw.close()


NAMES = st.sampled_from(
    ["trigger", "fire", "Trigger", "trigger ", "arm", "roll", "select", "confirm", "red", ""]
) | st.text(max_size=12)
PATHS = st.sampled_from(
    [
        "/seat/0/button",
        "/seat/1/act",
        "/host/revoke",
        "/seat/0/fire",
        "/fire",
        "/trigger",
        "/seat/0/trigger",
        "/host/fire",
        "/arm",
        "/table/button",
        "/host/button",
    ]
)


@settings(max_examples=150, deadline=None)
@given(path=PATHS, name=NAMES, hold=st.booleans(), who=st.sampled_from(["seat", "host", "table"]))
def test_no_request_produces_a_trigger_event(armed_table, path, name, hold, who):
    hw, site, server = armed_table
    token = {
        "seat": site.pairing.token(seat(0)),
        "host": site.pairing.token(HOST),
        "table": site.pairing.token(TABLE),
    }[who]
    body = {"button": name, "hold": hold, "kind": "action", "text": name, "offer": 1, "role": name}
    for method in ("POST", "GET"):
        request(server.url + path, method, token=token, body=body if method == "POST" else None)
    events = hw.inputs.drain()
    assert all(e.button != "trigger" for e in events), events
    assert all(e.button in WEB_BUTTONS for e in events)
    assert hw.eliminator.armed_token == "turn-1-c3"  # still armed: nothing fired it
    assert hw.sim.pulses == []


def test_a_phone_press_reaches_the_input_queue_as_a_button_press(armed_table):
    hw, site, server = armed_table
    token = site.pairing.token(seat(2))
    status, _, body = request(
        server.url + "/seat/2/button", "POST", token=token, body={"button": "roll"}
    )
    assert status == 200 and json.loads(body)["ok"]
    events = hw.inputs.drain()
    assert [(e.kind, e.button) for e in events] == [("press", "roll"), ("release", "roll")]
    assert all(hw.inputs.issued(e) for e in events)  # the hub's own events, as from a finger
    status, _, _ = request(
        server.url + "/seat/2/button", "POST", token=token, body={"button": "trigger"}
    )
    assert status == 409
    assert hw.inputs.drain() == [] and hw.sim.pulses == []


def test_the_relays_record_of_presses_keeps_only_the_recent_ones():
    """``serve --web`` runs for a season: who pressed what is kept for the recent presses
    only, and every press still reaches the input queue."""

    class Inputs:
        def __init__(self) -> None:
            self.events = 0

        def emit(self, kind: str, button: str) -> None:
            self.events += 1

    inputs = Inputs()
    relay = ButtonRelay(inputs)
    for n in range(relay.presses.limit + 50):
        relay.press("roll", n % 4)
    assert len(relay.presses) == relay.presses.limit
    assert relay.presses[-1] == ((relay.presses.limit + 49) % 4, "roll")
    assert inputs.events == 2 * (relay.presses.limit + 50)  # a press and a release each
