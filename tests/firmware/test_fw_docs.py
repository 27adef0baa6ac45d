"""The firmware README's pin table says what the firmware and the wiring do."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
README = REPO / "firmware" / "README.md"


def readme_rows() -> dict[str, tuple[int, str]]:
    """``{signal: (GPIO number, notes)}`` of the README's Pico pin table."""
    text = README.read_text(encoding="utf-8")
    rows = re.findall(r"^\|\s*([^|]+?)\s*\|\s*GP(\d+) \(\d+\)\s*\|\s*([^|]*)\|", text, re.M)
    return {name: (int(gpio), notes) for name, gpio, notes in rows}


def firmware_pins() -> dict[str, int]:
    text = (REPO / "firmware" / "fw_hw.py").read_text(encoding="utf-8")
    return {k: int(v) for k, v in re.findall(r"^PIN_([A-Z]+) = (\d+)$", text, re.M)}


def test_the_readme_pins_are_the_firmware_pins() -> None:
    rows, pins = readme_rows(), firmware_pins()
    by_pin = {gpio: name for name, (gpio, _) in rows.items()}
    assert set(by_pin) == set(pins.values())
    for constant, gpio in pins.items():
        assert constant.lower() in by_pin[gpio].lower(), (constant, by_pin[gpio])


def test_the_coil_pin_goes_through_the_on_time_limiter_as_in_the_wiring() -> None:
    """The Pico's coil pin is wired like the Pi's: through the 74HCT123, whose output
    alone drives the gate (a README that wired the pin to the gate left out the hardware
    cap on every pulse)."""
    _, notes = readme_rows()["solenoid driver input"]
    wiring = (REPO / "hardware" / "wiring.md").read_text(encoding="utf-8")
    pi_row = re.search(r"^\|\s*`pins\.solenoid`\s*\|[^|]*\|[^|]*\|([^|]*)\|", wiring, re.M)
    assert pi_row is not None
    assert "74HCT123" in notes and "never straight to the gate" in notes
    assert pi_row.group(1).strip().rstrip(".") in notes
