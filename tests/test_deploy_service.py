"""deploy/companion.service: a valid unit that runs ``serve --config`` and stops safely."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "deploy" / "companion.service"
DOC = ROOT / "docs" / "pi-service.md"


@pytest.fixture(scope="module")
def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string(UNIT.read_text(encoding="utf-8"), source=str(UNIT))
    return parser


def test_unit_parses_as_ini_with_the_three_sections(unit) -> None:
    assert unit.sections() == ["Unit", "Service", "Install"]


def test_unit_runs_serve_with_the_system_config(unit) -> None:
    argv = shlex.split(unit["Service"]["ExecStart"])
    assert argv[0] == "/opt/companion/.venv/bin/companion"
    assert argv[1:] == ["serve", "--config", "/etc/companion/table.toml"]
    assert "serve --config" in unit["Service"]["ExecStart"]


def test_unit_restarts_on_failure_and_stops_with_sigterm(unit) -> None:
    service = unit["Service"]
    assert service["Restart"] == "on-failure"
    assert service["RestartSec"] == "2"
    assert service["KillSignal"] == "SIGTERM"
    assert service["TimeoutStopSec"] == "5"
    assert "143" in service["SuccessExitStatus"].split()  # SIGTERM exit is a clean stop
    assert service["RestartPreventExitStatus"] == "2"  # a bad config is not retried


def test_unit_user_environment_and_directories(unit) -> None:
    service = unit["Service"]
    assert service["User"] == "companion" and service["SupplementaryGroups"] == "gpio"
    assert "GPIOZERO_PIN_FACTORY=lgpio" in service["Environment"].split()
    assert service["StateDirectory"] == "companion"
    # lgpio writes pipe files into the working directory: it must be the writable state dir
    assert service["WorkingDirectory"] == "/var/lib/companion"
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_the_guide_covers_install_selftest_and_safe_stop() -> None:
    text = DOC.read_text(encoding="utf-8")
    for needle in (
        "pip install '.[pi]'",
        "/etc/companion/table.toml",
        "systemctl enable --now companion",
        "journalctl -u companion -f",
        "companion selftest",
        "--hardware gpio --fire",
        "sudo systemctl stop companion",
        "SIGTERM",
        "git pull",
    ):
        assert needle in text, needle
