"""Data files and config checks every engine shares."""

from __future__ import annotations

import re

import pytest

from companion.games.core.config import check_count, check_seat, load_for_config
from companion.games.core.data import DataFile, whole
from companion.games.core.errors import ConfigError, DataError


def parse(document, source):
    if not isinstance(document, dict) or "layouts" not in document:
        raise DataError(f"{source}: needs 'layouts'")
    return (source, sorted(document["layouts"]))


FILE = DataFile("battle_royale.json", "Test", parse)


def test_the_builtin_file_is_read_once():
    first = FILE.builtin_data()
    assert first[0] == "companion/data/battle_royale.json" and "first-game" in first[1]
    assert FILE.builtin_data() is first and FILE.load(None) is first


def test_a_users_file_is_parsed_with_its_path_as_source(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text('{"layouts": {"x": 1}}', "utf-8")
    assert FILE.load(path) == (str(path), ["x"])


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "cannot read Test data file"),
        ("{", "not valid JSON (line 1, column 2"),
        ("[]", "needs 'layouts'"),
    ],
)
def test_bad_files_give_one_clear_message(tmp_path, content, message):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content, "utf-8")
    with pytest.raises(DataError, match=re.escape(message)):
        FILE.load(path)
    with pytest.raises(ConfigError, match=re.escape(message)):  # a config names the bad file too
        load_for_config(FILE.load, path)


def test_whole_numbers_in_data_files():
    assert whole(3, "x", 1, 3) == 3
    for bad in (0, 4, True, "2", 2.0):
        with pytest.raises(DataError, match="x must be a whole number 1..3"):
            whole(bad, "x", 1, 3)


def test_counts_and_seats():
    assert check_count(10, 2, 10) == 10
    with pytest.raises(ConfigError, match=r"players must be 2\.\.10, got 11"):
        check_count(11, 2, 10)
    with pytest.raises(ConfigError, match="players must be 2, 3, 4 or 5, got True"):
        check_count(True, 2, 5)
    check_seat(None, 3, "host", "", drawn=True)
    with pytest.raises(ConfigError, match=r"host must be a seat 0\.\.2 or None \(drawn\), got 3"):
        check_seat(3, 3, "host", "", drawn=True)
    with pytest.raises(ConfigError, match=r"start must be a seat 0\.\.2 \(the oldest\), got None"):
        check_seat(None, 3, "start", " (the oldest)")
