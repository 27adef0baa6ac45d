"""Test-wide settings: journals written by commands go to a temporary data directory."""

import pytest


@pytest.fixture(autouse=True)
def _journal_data_home(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("data-home")))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
