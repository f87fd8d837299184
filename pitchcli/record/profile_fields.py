"""The schema stage's profile-driven part: the fields a record's profile doesn't have.

FORMAT.md principle 3: everything recorded is checked. A field the chosen
profile has no use for (``discards`` in Auction Pitch, ``draws`` in a cut-down
profile, ``kitty`` in a refill one, ``dead`` where none are set aside,
``partner`` without called partners, ``teams`` without fixed teams) is
therefore an error, not ignored: a schema problem (RULES.md, "Which rule a
structural problem is reported under"), code S206 at the field itself.

Which fields a profile has follows from its options (``mode``, ``kitty``,
``dead``, ``sides``), never from its name, so a renamed or overridden profile
is judged the same way. A record whose profile can't be resolved gets nothing
here: the engine reports its variant or rule option.
"""

from __future__ import annotations

from itertools import chain
from typing import Any

from pitchcli.diagnostics import Diagnostic
from pitchcli.profiles import Profile, ProfileError, resolve

CODE = "S206"


def missing_hand_fields(p: Profile) -> dict[str, str]:
    """The hand fields profile ``p`` doesn't have, each with why (its option)."""
    out: dict[str, str] = {}
    if not p.discards:
        out["discards"] = f"mode '{p.mode}' plays every card dealt, so nobody discards"
    if not p.draws:
        out["draws"] = (f"mode '{p.mode}' deals nothing after the discards "
                        "(only 'refill' does)")
    if p.kitty == 0:
        out["kitty"] = "its kitty is 0: no cards are left over for the bidder"
    if p.dead == 0:
        out["dead"] = "its dead is 0: no cards are set aside at the deal"
    if not p.calls_partner:
        out["partner"] = f"its sides are '{p.sides}': nobody calls a partner"
    return out


def _profile(data: dict[str, Any]) -> Profile | None:
    variant, rules = data.get("variant"), data.get("rules")
    if not isinstance(variant, str) or not (rules is None or isinstance(rules, dict)):
        return None
    if rules is not None and not all(isinstance(k, str) for k in rules):
        return None
    try:
        return resolve(variant, rules)
    except ProfileError:
        return None  # the engine reports the profile (P301, P302)


def validate(data: Any) -> list[Diagnostic]:
    """A diagnostic for every field of ``data`` its profile doesn't have."""
    if not isinstance(data, dict):
        return []
    p = _profile(data)
    if p is None:
        return []
    out: list[Diagnostic] = []
    if "teams" in data and not p.has_teams:
        out.append(Diagnostic(
            code=CODE, pointer="/teams",
            message=f"'teams' is not a field of profile '{p.name}': its sides are "
                    f"'{p.sides}', not fixed teams",
            extra={"keyword": "profile", "key": "teams"}))
    hands = data.get("hands")
    if not isinstance(hands, list):
        return out
    missing = missing_hand_fields(p)
    if all([h.__class__ is dict for h in hands]) and missing.keys().isdisjoint(chain.from_iterable(hands)):
        return out  # (the usual record: no hand has one, found in one pass over the keys in C)
    for i, h in enumerate(hands):
        if not isinstance(h, dict):
            continue
        for key in h.keys() & missing.keys():
            out.append(Diagnostic(
                code=CODE, pointer=f"/hands/{i}/{key}", hand=i + 1,
                message=f"'{key}' is not a field of hand {i + 1} in profile '{p.name}': "
                        f"{missing[key]}",
                extra={"keyword": "profile", "key": key}))
    return out
