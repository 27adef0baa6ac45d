"""deploy/install.sh against a temporary root, twice, from the built wheel; and the wheel's
venv, outside the checkout, running the commands a maker runs first.

The wheel comes from ``$COMPANION_TEST_WHEEL`` (.ci/run builds it once) or is built here.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from companion.table.config import example_table_config_text

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "deploy" / "install.sh"
pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def wheel(tmp_path_factory) -> Path:
    given = os.environ.get("COMPANION_TEST_WHEEL")
    if given:
        return Path(given)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(ROOT)],
        check=True,
        timeout=300,
    )
    (built,) = out.glob("*.whl")
    return built


def test_the_wheel_carries_what_a_pi_needs(wheel) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in (
        "companion/py.typed",
        "companion/data/table.example.toml",
        "companion/deploy/companion.service",
        "companion/deploy/install.sh",
        "companion/firmware/main.py",
        "companion/hal/mpshims/machine.py",
        "companion/hal/virtual_board.py",
    ):
        assert name in names, name
    (meta,) = [n for n in names if n.endswith(".dist-info/METADATA")]
    text = zipfile.ZipFile(wheel).read(meta).decode()
    assert "Name: arena-table-companion" in text and "License-Expression: MIT" in text
    assert not any(n.startswith(("tests/", "bench/", "hardware/")) for n in names)


def install(root: Path, wheel: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin"  # the system's python3, not this venv's
    return subprocess.run(
        ["bash", str(SCRIPT), "--root", str(root), "--from", str(wheel)],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        check=False,
    )


def tree(root: Path) -> dict[str, str]:
    """Every file outside the venv with its checksum (links: their target)."""
    found = {}
    for path in sorted(root.rglob("*")):
        rel = str(path.relative_to(root))
        if rel.startswith("opt/companion/.venv"):
            continue
        if path.is_symlink():
            found[rel] = "-> " + os.readlink(path)
        elif path.is_file():
            found[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def test_install_twice_into_a_temporary_root(tmp_path, wheel) -> None:
    root = tmp_path / "root"
    first = install(root, wheel)
    assert first.returncode == 0, first.stdout + first.stderr
    # what needs a real Pi is printed as a plan, not run
    for planned in (
        "(--root: skipped) apt-get install -y python3-venv",
        "(--root: skipped) useradd --system --user-group --groups gpio,dialout",
        "(--root: skipped) systemctl daemon-reload",
    ):
        assert planned in first.stdout, planned
    config = root / "etc/companion/table.toml"
    unit = root / "etc/systemd/system/companion.service"
    assert config.read_text(encoding="utf-8") == example_table_config_text()
    assert unit.read_text(encoding="utf-8") == (ROOT / "deploy/companion.service").read_text()
    venv = root / "opt/companion/.venv"
    assert (venv / "bin/mpremote").exists()  # the [board] extra
    link = root / "etc/systemd/system/multi-user.target.wants/companion.service"
    if link.is_symlink():  # `systemctl --root` enables offline where systemctl exists
        assert os.readlink(link) == "/etc/systemd/system/companion.service"
    before = tree(root)

    config.write_text(config.read_text() + "# edited by the maker\n", encoding="utf-8")
    edited = tree(root)
    second = install(root, wheel)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "virtual environment exists" in second.stdout
    assert "exists, left as it is" in second.stdout and "unchanged" in second.stdout
    assert tree(root) == edited != before  # nothing changed, the maker's edit kept

    # the installed companion, run from outside the checkout
    def run(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(venv / "bin/companion"), *argv],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            timeout=120,
            check=False,
        )

    shown = run("config", "example")
    assert shown.returncode == 0 and shown.stdout == example_table_config_text()
    folder = Path(run("firmware", "path").stdout.strip())
    assert folder.is_relative_to(venv) and (folder / "main.py").is_file()
    demo = run("demo", "--players", "2", "--speed", "100")  # .ci/run: --hardware virtual-board too
    assert demo.returncode == 0 and "Game over" in demo.stdout, demo.stderr[-2000:]


def test_install_refuses_bad_input(tmp_path) -> None:
    result = subprocess.run(
        ["bash", str(SCRIPT), "--root", str(tmp_path), "--from", str(tmp_path / "none.whl")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2 and "does not exist" in result.stderr
    result = subprocess.run(
        ["bash", str(SCRIPT), "--frobnicate"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2 and "unknown option --frobnicate" in result.stderr
