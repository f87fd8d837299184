"""Fixtures shared by every layer's tests; the builders live in ``support.games``."""

from __future__ import annotations

from typing import Any

import pytest
from support.games import base_game


@pytest.fixture
def base() -> dict[str, Any]:
    """A fresh copy of ``base_game()``, free to break."""
    return base_game()
