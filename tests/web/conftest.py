"""The web tests need the web extra (``pip install -e '.[test]'`` installs it)."""

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed")
