"""deploy/companion.service: a valid unit that runs ``serve --config``, stops safely, is
watched by systemd and sandboxed (systemd-analyze security exposure at most 4.0)."""

from __future__ import annotations

import configparser
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "deploy" / "companion.service"
DOC = ROOT / "docs" / "pi-service.md"


EXPOSURE_LIMIT = 4.0


@pytest.fixture(scope="module")
def unit() -> configparser.ConfigParser:
    # systemd allows a key more than once (DeviceAllow=, SystemCallFilter=): keep the last
    # here, and read every value of such keys with values() below
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string(UNIT.read_text(encoding="utf-8"), source=str(UNIT))
    return parser


def values(key: str) -> list[str]:
    """Every value of *key* in the unit, in order (systemd accumulates repeated keys)."""
    pattern = re.compile(rf"^{re.escape(key)}=(.*)$", re.M)
    return pattern.findall(UNIT.read_text(encoding="utf-8"))


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
    assert service["User"] == "companion"
    # gpio: /dev/gpiochip* (gpio profile); dialout: /dev/ttyACM* (the I/O board)
    assert service["SupplementaryGroups"].split() == ["gpio", "dialout"]
    assert service["ConfigurationDirectory"] == "companion"  # /etc/companion
    assert "GPIOZERO_PIN_FACTORY=lgpio" in service["Environment"].split()
    assert service["StateDirectory"] == "companion"
    # lgpio writes pipe files into the working directory: it must be the writable state dir
    assert service["WorkingDirectory"] == "/var/lib/companion"
    assert unit["Install"]["WantedBy"] == "multi-user.target"


def test_unit_is_notify_with_a_watchdog_and_switches_the_coil_off_after_every_stop(unit):
    service = unit["Service"]
    assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
    watchdog_s = int(service["WatchdogSec"])
    assert 5 <= watchdog_s <= 60  # well above a poll (0.05 s) or a pause step (1 s)
    argv = shlex.split(service["ExecStopPost"])
    assert argv[0] == "/opt/companion/.venv/bin/companion"
    assert argv[1:] == ["safe-off", "--config", "/etc/companion/table.toml"]


HARDENING = {
    "NoNewPrivileges": "yes",
    "CapabilityBoundingSet": "",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
    "ProtectKernelTunables": "yes",
    "ProtectKernelModules": "yes",
    "ProtectKernelLogs": "yes",
    "ProtectControlGroups": "yes",
    "RestrictNamespaces": "yes",
    "LockPersonality": "yes",
    "UMask": "0027",
    "DevicePolicy": "closed",
}


def test_unit_hardening_keys(unit) -> None:
    service = unit["Service"]
    for key, value in HARDENING.items():
        assert service.get(key) == value, key
    assert values("SystemCallFilter")[0] == "@system-service"
    assert values("DeviceAllow") == ["char-gpiochip rw", "char-ttyACM rw"]
    # the network stays: the planned web view binds its own port
    assert "PrivateNetwork" not in service and "IPAddressDeny" not in service
    assert {"AF_INET", "AF_INET6", "AF_UNIX"} <= set(service["RestrictAddressFamilies"].split())
    # what would hide the pins or the board is not there
    assert "PrivateDevices" not in service and "ProcSubset" not in service


def systemd_analyze() -> str | None:
    """systemd-analyze with --offline (systemd 250 and newer), or None."""
    tool = shutil.which("systemd-analyze")
    if tool is None:
        return None
    version = subprocess.run([tool, "--version"], capture_output=True, text=True, check=False)
    found = re.match(r"systemd (\d+)", version.stdout)
    return tool if found and int(found.group(1)) >= 250 else None


def test_unit_exposure_is_at_most_4(tmp_path) -> None:
    tool = systemd_analyze()
    if tool is None:
        pytest.skip("systemd-analyze 250+ is not installed (apt-get install systemd); CI has it")
    result = subprocess.run(
        [tool, "security", "--offline=yes", str(UNIT)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        cwd=tmp_path,
    )
    found = re.search(r"Overall exposure level for companion.service: (\d+\.\d)", result.stdout)
    assert found, result.stdout + result.stderr
    exposure = float(found.group(1))
    assert exposure <= EXPOSURE_LIMIT
    assert f"exposure level {exposure}" in DOC.read_text(encoding="utf-8")  # documented


def test_the_guide_covers_install_selftest_and_safe_stop() -> None:
    text = DOC.read_text(encoding="utf-8")
    for needle in (
        "deploy/install.sh",
        "/etc/companion/table.toml",
        "systemctl start companion",
        "journalctl -u companion -f",
        "companion selftest",
        "--hardware gpio --fire",
        "companion calibrate",
        "companion firmware flash",
        "sudo systemctl stop companion",
        "SIGTERM",
        "git pull",
        "systemd-analyze security",
        "WatchdogSec",
    ):
        assert needle in text, needle
