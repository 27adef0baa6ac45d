"""The wheel carries every package of the tree, the firmware and the virtual board's shims."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _listed_packages() -> set[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return set(data["tool"]["setuptools"]["packages"])


def test_every_package_in_the_tree_is_listed_in_pyproject() -> None:
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "companion").rglob("__init__.py")
    }
    found.add("companion.firmware")  # firmware/ is mapped into the package
    assert _listed_packages() == found


def test_the_firmware_is_a_resource_of_the_installed_package() -> None:
    names = {p.name for p in resources.files("companion.firmware").iterdir()}
    assert {"main.py", "fw_app.py", "fw_logic.py", "fw_proto.py", "fw_hw.py"} <= names
    assert "protocol_vectors.json" in names


def test_the_micropython_shims_are_a_resource_of_the_hal() -> None:
    shims = resources.files("companion.hal").joinpath("mpshims")
    assert {"machine.py", "neopixel.py", "utime.py", "micropython.py"} <= {
        p.name for p in shims.iterdir()
    }
