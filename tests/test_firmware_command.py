"""``companion firmware path|flash``: the installed firmware, flashed with a (fake) mpremote."""

from __future__ import annotations

import json
import os
import stat
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import companion.commands.firmware as firmware
from companion.cli import main

PICO = {"vid": 0x2E8A, "pid": 0x0005}


def fake_mpremote(folder: Path, *, exit_code: int = 0, says: str = "") -> Path:
    """An mpremote that records its arguments in calls.jsonl, prints *says* and exits."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "mpremote"
    script.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        f"with open({str(folder / 'calls.jsonl')!r}, 'a') as f:\n"
        "    f.write(json.dumps(sys.argv[1:]) + '\\n')\n"
        f"print({says!r}, file=sys.stderr)\n"
        f"sys.exit({exit_code})\n",
        encoding="utf-8",
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return folder


def calls(folder: Path) -> list[list[str]]:
    path = folder / "calls.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def path_with(monkeypatch, tmp_path):
    """Make mpremote findable only in the given folder (not in the test's own venv)."""

    def use(folder: Path | None) -> None:
        search = str(folder) if folder is not None else str(tmp_path / "nothing-here")
        monkeypatch.setattr(firmware, "mpremote_search_path", lambda: search)

    return use


@pytest.fixture
def ports(monkeypatch):
    """The USB serial ports pyserial lists: a Pico on /dev/ttyACM0 unless changed."""
    listed = [SimpleNamespace(device="/dev/ttyACM0", **PICO)]
    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: list(listed))
    return listed


def test_path_prints_the_installed_firmware_folder(capsys) -> None:
    assert main(["firmware", "path"]) == 0
    folder = Path(capsys.readouterr().out.strip())
    assert (folder / "main.py").is_file() and (folder / "fw_logic.py").is_file()


def test_only_the_board_files_are_copied_main_last() -> None:
    names = [p.name for p in firmware.firmware_files()]
    assert names[-1] == "main.py"
    assert set(names) == {"main.py", "fw_app.py", "fw_hw.py", "fw_logic.py", "fw_proto.py"}
    assert "__init__.py" not in names  # host-side only; docs and vectors stay too


def test_flash_copies_the_files_and_resets_the_board(tmp_path, path_with, ports, capsys) -> None:
    tool = fake_mpremote(tmp_path / "bin")
    path_with(tool)
    assert main(["firmware", "flash"]) == 0
    (argv,) = calls(tool)
    assert argv[:3] == ["connect", "/dev/ttyACM0", "cp"]
    assert argv[-3:] == [":", "+", "reset"]
    copied = [Path(a) for a in argv[3:-3]]
    assert [p.name for p in copied] == [p.name for p in firmware.firmware_files()]
    assert all(p.parent == firmware.firmware_folder() and p.is_file() for p in copied)
    assert "flashed and restarted the board on /dev/ttyACM0" in capsys.readouterr().out


def test_flash_with_port_uses_that_port(tmp_path, path_with, ports) -> None:
    tool = fake_mpremote(tmp_path / "bin")
    path_with(tool)
    port = tmp_path / "ttyACM7"
    port.touch()  # a device node stand-in: it exists
    ports.clear()  # and it need not be listed
    assert main(["firmware", "flash", "--port", str(port)]) == 0
    assert calls(tool)[0][:2] == ["connect", str(port)]


def test_flash_without_mpremote_exits_2_saying_how_to_get_it(path_with, ports, capsys) -> None:
    path_with(None)
    assert main(["firmware", "flash"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("companion: error: mpremote is not installed")
    assert "[board]" in err


def test_flash_with_no_board_connected_exits_2(tmp_path, path_with, ports, capsys) -> None:
    tool = fake_mpremote(tmp_path / "bin")
    path_with(tool)
    ports.clear()
    ports.append(SimpleNamespace(device="/dev/ttyUSB0", vid=0x0403, pid=0x6001))  # not a Pico
    assert main(["firmware", "flash"]) == 2
    assert "no I/O board connected" in capsys.readouterr().err
    assert calls(tool) == []  # mpremote never ran


def test_flash_with_a_missing_port_exits_2(tmp_path, path_with, ports, capsys) -> None:
    path_with(fake_mpremote(tmp_path / "bin"))
    assert main(["firmware", "flash", "--port", str(tmp_path / "ttyACM9")]) == 2
    assert "no board at" in capsys.readouterr().err


def test_flash_with_two_boards_asks_for_a_port(tmp_path, path_with, ports, capsys) -> None:
    path_with(fake_mpremote(tmp_path / "bin"))
    ports.append(SimpleNamespace(device="/dev/ttyACM1", **PICO))
    assert main(["firmware", "flash"]) == 2
    err = capsys.readouterr().err
    assert "several Picos" in err and "/dev/ttyACM0, /dev/ttyACM1" in err


def test_flash_when_mpremote_cannot_open_the_port_exits_2(tmp_path, path_with, ports, capsys):
    says = "mpremote: failed to access /dev/ttyACM0 (it may be in use by another program)"
    path_with(fake_mpremote(tmp_path / "bin", exit_code=1, says=says))
    assert main(["firmware", "flash"]) == 2
    assert "cannot open the board on /dev/ttyACM0" in capsys.readouterr().err


def test_flash_failing_on_the_board_exits_1_with_the_maintenance_hint(
    tmp_path, path_with, ports, capsys
) -> None:
    path_with(fake_mpremote(tmp_path / "bin", exit_code=1, says="could not enter raw repl"))
    assert main(["firmware", "flash"]) == 1
    err = capsys.readouterr().err
    assert "could not enter raw repl" in err and "maintenance mode" in err


def test_mpremote_is_found_next_to_the_running_python_first(monkeypatch) -> None:
    monkeypatch.setenv("PATH", "/somewhere/else")
    first = firmware.mpremote_search_path().split(os.pathsep)[0]
    assert first == str(Path(sys.executable).parent)
