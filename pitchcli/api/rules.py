"""Rule profiles and house rules: ``rule_profiles()`` and ``profile(name, rules)``.

A profile is a named set of rule options (docs/profiles.md); a record names
one with ``variant:`` and may override options with ``rules:`` — a house
rule, such as ``{"target": 21, "win_on_set": True}``. ``profile`` resolves
both as a record's would, and raises ``ProfileError`` for an unknown profile
or option, a value of the wrong type, or options that can't work together.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pitchcli.profiles import Profile, ProfileError, builtin_profiles, resolve

__all__ = ["Profile", "ProfileError", "profile", "rule_profiles"]


def rule_profiles() -> tuple[Profile, ...]:
    """The built-in profiles, in the order ``pitch profiles`` lists them."""
    return tuple(builtin_profiles().values())


def profile(name: str, rules: Mapping[str, Any] | None = None) -> Profile:
    """The built-in profile ``name`` with the house ``rules`` applied (as a
    record's ``variant:`` and ``rules:``)."""
    return resolve(name, dict(rules) if rules is not None else None)
