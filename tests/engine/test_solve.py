"""The double-dummy solver (pitchcli.engine.solve) and ``pitch solve``.

1. An exhaustive minimax written here -- every legal line, no pruning, no
   merging of equivalent cards, no transposition table -- that plays and scores
   through the engine's own step-by-step functions (``legal_plays``,
   ``winner``, ``auction_awards``/``award_points``, ``ten_point_taken``) agrees
   with the solver on random small deals of 2 and 3 players (and a few
   four-seat partnership deals), in both families: the value, the value with
   the best first lead, and every costly play of a random line of play.
2. Hand-built positions with known answers.
3. Properties over simulated games: no costly play means the value is what the
   bidding side took; each costly play starts where the one before ended; the
   ``better`` card keeps the value.
4. The command: text, the JSON fields, tally hands, the budget, exit codes.

PITCH_SOLVE_DEALS sets the random small deals per family and player count
(default 100); PITCH_SOLVE_GAMES the simulated games per profile (default 1).
"""

from __future__ import annotations

import json
import os
import random
from functools import cache

import pytest
import yaml
from click.testing import CliRunner

from pitchcli.cards import Card, card
from pitchcli.cli import main
from pitchcli.engine.family import Family, family_for
from pitchcli.engine.play import Play, Trick, legal_plays, winner
from pitchcli.engine.scoring import auction_awards, award_points, played_tricks, ten_point_taken
from pitchcli.engine.solve import Deal, OutOfBudget, deal_of, solve, value_after
from pitchcli.pipeline.feed import analyze
from pitchcli.pipeline.simulate import simulate_game

DEALS = int(os.environ.get("PITCH_SOLVE_DEALS", "100"))
GAMES = int(os.environ.get("PITCH_SOLVE_GAMES", "1"))
AUCTION = family_for("auction", "play-all")
TEN_POINT = family_for("ten-point", "refill")


# --- 1. the exhaustive minimax ----------------------------------------------------


def _taken(deal: Deal, tricks: list[Trick], trump: str) -> int:
    """The bidding side's points, scored by the engine."""
    fam = deal.family
    view = fam.view(trump)
    units = max(deal.unit_of) + 1
    if not fam.scores_awards:
        taken = ten_point_taken(played_tricks(tricks), view, deal.unit_of, units)
    else:
        awards, _, _ = auction_awards(played_tricks(tricks), view, deal.unit_of, units, deal.low_rule)
        taken = award_points(awards, units)
    return sum(taken[u] for u in deal.bidding_units)


def minimax(deal: Deal, trump: str | None, prefix: tuple[Card, ...] = ()) -> int:
    """The value by trying every legal line. ``trump`` None: Auction Pitch with
    any first lead (the first card led sets trump, AP-PLAY-1); otherwise in
    Auction Pitch the first lead is a card of ``trump``. ``prefix``: cards
    already played, in order."""
    fam = deal.family
    n = deal.seats
    holdings = [list(h) for h in deal.holdings]

    def rec(leader: int, plays: list[Play], tricks: list[Trick], suit: str | None) -> int:
        if len(plays) == n:
            view = fam.view(suit)  # type: ignore[arg-type]
            won, reason = winner(plays, view, fam.offsuit_trick_has_winner)
            t = Trick(len(tricks) + 1, leader, tuple(plays), won, reason)
            return rec(won if won is not None else leader, [], [*tricks, t], suit)
        seat = (leader + len(plays)) % n
        hold = holdings[seat]
        if not hold:
            return _taken(deal, tricks, suit)  # type: ignore[arg-type]
        if suit is None or (not tricks and not plays and not fam.trump_named):
            options = [c for c in hold if suit is None or c.suit == suit]
        else:
            options = legal_plays(hold, plays[0].card if plays else None, fam.view(suit))
        values = []
        for c in options:
            hold.remove(c)
            values.append(rec(leader, [*plays, Play(seat, c)], tricks,
                              suit if suit is not None else c.suit))
            hold.append(c)
        bidding = deal.unit_of[seat] in deal.bidding_units
        return max(values) if bidding else min(values)

    # play the prefix, then search
    leader, plays, tricks, suit = deal.leader, [], [], trump
    for c in prefix:
        seat = (leader + len(plays)) % n
        holdings[seat].remove(c)
        if suit is None:
            suit = c.suit
        plays.append(Play(seat, c))
        if len(plays) == n:
            view = fam.view(suit)
            won, reason = winner(plays, view, fam.offsuit_trick_has_winner)
            tricks.append(Trick(len(tricks) + 1, leader, tuple(plays), won, reason))
            leader, plays = (won if won is not None else leader), []
    return rec(leader, plays, tricks, suit)


def random_line(deal: Deal, trump: str, rng: random.Random) -> list[Card]:
    """A random legal line of play (the first lead a trump in Auction Pitch)."""
    fam = deal.family
    view = fam.view(trump)
    holdings = [list(h) for h in deal.holdings]
    n, leader, out = deal.seats, deal.leader, []
    while holdings[0]:
        plays: list[Play] = []
        for i in range(n):
            seat = (leader + i) % n
            if not out and not fam.trump_named:
                options = [c for c in holdings[seat] if c.suit == trump]
            else:
                options = legal_plays(holdings[seat], plays[0].card if plays else None, view)
            c = rng.choice(options)
            holdings[seat].remove(c)
            plays.append(Play(seat, c))
            out.append(c)
        won, _ = winner(plays, view, fam.offsuit_trick_has_winner)
        leader = won if won is not None else leader
    return out


def small_deal(fam: Family, seats: int, per: int, rng: random.Random, teams: bool = False) -> tuple[Deal, str]:
    """A random deal from a few suits (so that trumps and point cards meet)."""
    trump = rng.choice("SHDC")
    deck = fam.deck
    other = rng.choice([s for s in "SHDC" if s != trump])
    suits = {trump, other, rng.choice("SHDC")}
    pool = [c for c in deck if c.suit in suits or (c.suit is None and rng.random() < 0.7)]
    if not fam.trump_named:
        # the pitcher leads trump: he must hold one
        while True:
            rng.shuffle(pool)
            if any(c.suit == trump for c in pool[:per]):
                break
    else:
        rng.shuffle(pool)
    holdings = tuple(tuple(pool[s * per:(s + 1) * per]) for s in range(seats))
    unit_of = tuple(s % 2 for s in range(seats)) if teams else tuple(range(seats))
    bidding = {unit_of[0]}
    if not teams and seats == 3 and rng.random() < 0.25:
        bidding.add(2)  # two units on the bidding side (a called partner)
    return Deal(fam, holdings, 0, unit_of, frozenset(bidding), rng.choice(["captured", "played"])), trump


CASES = [(fam, seats, per) for fam in (AUCTION, TEN_POINT) for seats, per in ((2, 4), (3, 3))]


@pytest.mark.parametrize(("fam", "seats", "per"), CASES,
                         ids=[f"{f.name}-{s}p" for f, s, _ in CASES])
def test_agrees_with_exhaustive_minimax(fam: Family, seats: int, per: int) -> None:
    rng = random.Random(f"{fam.name}{seats}")
    for _ in range(DEALS):
        deal, trump = small_deal(fam, seats, per, rng)
        sol = solve(deal, trump)
        assert sol.solved
        assert sol.value == minimax(deal, trump), deal
        if fam.trump_named:
            assert sol.value_best_lead is None
        else:
            assert sol.value_best_lead == minimax(deal, None), deal


@pytest.mark.parametrize("fam", [AUCTION, TEN_POINT], ids=["auction", "ten-point"])
def test_partnership_deals_agree(fam: Family) -> None:
    rng = random.Random(f"teams-{fam.name}")
    for _ in range(max(10, DEALS // 3)):
        deal, trump = small_deal(fam, 4, 2, rng, teams=True)
        assert solve(deal, trump).value == minimax(deal, trump), deal


@pytest.mark.parametrize(("fam", "seats", "per"), CASES,
                         ids=[f"{f.name}-{s}p" for f, s, _ in CASES])
def test_costly_plays_agree_with_exhaustive_minimax(fam: Family, seats: int, per: int) -> None:
    """Along a random line: a card is costly exactly when the exhaustive value
    changes after it, with the same before and after, and ``better`` keeps it."""
    rng = random.Random(f"costly-{fam.name}{seats}")
    for _ in range(max(10, DEALS // 3)):
        deal, trump = small_deal(fam, seats, per, rng)
        line = random_line(deal, trump, rng)
        sol = solve(deal, trump, line)
        values = [minimax(deal, trump, tuple(line[:k])) for k in range(len(line) + 1)]
        expected = [(k // seats + 1, line[k], values[k], values[k + 1])
                    for k in range(len(line)) if values[k] != values[k + 1]]
        assert [(c.trick, c.card, c.before, c.after) for c in sol.costly] == expected
        for c in sol.costly:
            k = line.index(c.card)
            assert minimax(deal, trump, (*line[:k], c.better)) == c.before


# --- 2. positions with known answers --------------------------------------------------


def cards(text: str) -> tuple[Card, ...]:
    return tuple(card(t) for t in text.split())


def two_hands(first: str, second: str, fam: Family = AUCTION, low: str = "captured") -> Deal:
    return Deal(fam, (cards(first), cards(second)), 0, (0, 1), frozenset({0}), low)


def test_a_lone_trump_is_high_and_low() -> None:
    # 5S is the only trump: High and Low (AP-SCORE-3); KH takes Game for the other.
    assert solve(two_hands("5S 2H", "KH 3D"), "S").value == 2


def test_a_lone_jack_scores_three() -> None:
    # JS alone: High, Low and Jack (AP-SCORE-3); the other player's KH wins Game.
    sol = solve(two_hands("JS 2H", "KH 3D"), "S")
    assert sol.value == minimax(two_hands("JS 2H", "KH 3D"), "S") == 3


def test_a_jack_that_cannot_be_saved() -> None:
    # After AH the defender's last heart is JH and he must follow KH with it.
    deal = two_hands("AH KH 4C", "JH 3H 5C")
    sol = solve(deal, "H", list(cards("AH 3H KH JH 4C 5C")))
    assert sol.value == 4 and sol.costly == []
    # Giving the jack a guard saves it: then only High, Low and Game.
    assert solve(two_hands("AH KH 4C", "JH 3H 2H"), "H").value == 3


def test_game_decided_by_one_ten() -> None:
    # High and Low (AS, 2S) are the pitcher's; Game turns on 10D alone.
    assert solve(two_hands("AS 10D 3C", "2S 9D 4C"), "S").value == 3   # 10D beats 9D
    assert solve(two_hands("AS 10D 3C", "2S QD 4C"), "S").value == 2   # QD takes it


def test_a_pitcher_who_makes_three_only_with_another_suit() -> None:
    deal = two_hands("AH KH 2C", "3H AC JC")
    sol = solve(deal, "C")
    # Pitching the 2C gives the other High, Low and Jack; the hearts make 3.
    assert sol.value == minimax(deal, "C") == 0
    assert (sol.value_best_lead, sol.best_lead_suit) == (3, "H")
    # With low: played the 2C is Low for the pitcher who played it.
    assert solve(two_hands("AH KH 2C", "3H AC JC", low="played"), "C").value == 1


def test_ten_point_two_scores_for_who_played_it() -> None:
    # TP-POINTS-1: the 2 of trumps scores for the player who played it, even
    # when the other side wins the trick; the AH wins everything else.
    deal = two_hands("2H 4S", "AH 3H", fam=TEN_POINT)
    assert solve(deal, "H").value == 1 == minimax(deal, "H")


def test_ten_point_off_jack_and_jokers_are_trumps() -> None:
    # JD is the off-jack of hearts (TP-TRUMP-2): it follows a heart lead and beats
    # the jokers; the bidder's BJ falls to it.
    deal = two_hands("BJ 5S", "JD 6S", fam=TEN_POINT)
    assert solve(deal, "H").value == 0 == minimax(deal, "H")
    assert solve(two_hands("JD 5S", "BJ 6S", fam=TEN_POINT), "H").value == 2


def test_the_budget_gives_bounds() -> None:
    deal = two_hands("AH KH 2C QS", "3H AC JC 10S")
    sol = solve(deal, "C", budget=3)
    assert not sol.solved and sol.value is None
    lo, hi = sol.value_bounds
    exact = solve(deal, "C").value
    assert exact is not None and lo <= exact <= hi and lo < hi
    with pytest.raises(OutOfBudget):
        value_after(deal, "C", [], budget=3)


# --- 3. properties over simulated games ------------------------------------------------


@cache
def _games(variant: str, players: int) -> list[dict]:
    rng = random.Random(f"solve-{variant}-{players}")
    return [simulate_game(variant, players, rng=rng) for _ in range(GAMES)]


PROPERTY_CONFIGS = [("auction", 2, None), ("auction", 3, None), ("auction", 4, 3),
                    ("auction-partners", 4, 2), ("ten-point-2", 2, None), ("ten-point", 4, 2),
                    ("ten-point-5", 5, 1)]


@pytest.mark.parametrize(("variant", "players", "first"), PROPERTY_CONFIGS,
                         ids=[f"{v}-{n}" for v, n, _ in PROPERTY_CONFIGS])
def test_costly_plays_over_simulated_games(variant: str, players: int, first: int | None) -> None:
    checked = 0
    for rec in _games(variant, players):
        a = analyze(rec)
        assert a.ok and a.table is not None and a.profile is not None
        fam = family_for(a.profile.family, a.profile.mode)
        for r in a.hands[:first]:
            assert r is not None
            deal = deal_of(r, a.table.unit_of, fam, a.profile.low)
            assert deal is not None and r.trump is not None
            line = [p.card for t in r.tricks for p in t.plays]
            sol = solve(deal, r.trump, line)
            if not sol.solved:
                continue
            checked += 1
            took = sum(r.taken[u] for u in r.bidding_units)
            final = sol.costly[-1].after if sol.costly else sol.value
            assert final == took  # the value at the end is what was taken
            before = sol.value
            for c in sol.costly:
                assert c.before == before  # each starts where the one before ended
                bidding = a.table.unit_of[c.seat] in r.bidding_units
                assert (c.after < c.before) if bidding else (c.after > c.before)
                k = line.index(c.card)
                assert value_after(deal, r.trump, [*line[:k], c.better]) == c.before
                assert value_after(deal, r.trump, line[:k + 1]) == c.after
                before = c.after
            if not fam.trump_named:
                assert sol.value_best_lead is not None and sol.value_best_lead >= sol.value
    assert checked


# --- 4. the command ---------------------------------------------------------------------


def _run(*args: str, input: str | None = None) -> tuple[int, str, str]:
    r = CliRunner().invoke(main, ["solve", *args], input=input)
    return r.exit_code, r.stdout, r.stderr


FIELDS = ["hand", "bidder", "bid", "trump", "value", "value_best_lead", "makeable", "costly", "solved",
          "nodes"]


def test_json_report_fields() -> None:
    code, out, _ = _run("samples/auction-full.yaml", "--format", "json")
    assert code == 0
    report = json.loads(out)
    assert (report["report"], report["version"]) == ("pitch-solve", 2)
    assert [(d["file"], d["document"]) for d in report["documents"]] == [("samples/auction-full.yaml", 1)]
    hands = report["documents"][0]["hands"]
    assert hands
    for h in hands:
        assert list(h) == FIELDS
        if h["solved"]:
            assert isinstance(h["value"], int) and isinstance(h["value_best_lead"], int)
            assert h["makeable"] == (h["value"] >= h["bid"])
            for c in h["costly"]:
                assert list(c) == ["trick", "player", "card", "before", "after", "better"]


def test_documents_count_from_1_in_json_and_text(tmp_path) -> None:
    # Version 2 of the report: "document" is the number every output shows
    # (version 1 counted from 0); the text heads a later document the same way.
    from pitchcli.record.write import to_yaml_stream
    path = tmp_path / "two.yaml"
    path.write_text(to_yaml_stream([simulate_game("auction", 4, seed=s) for s in (1, 2)]))
    code, out, _ = _run(str(path), "--format", "json", "--hand", "1", "--budget", "2000")
    assert code == 0
    assert [d["document"] for d in json.loads(out)["documents"]] == [1, 2]
    code, text, _ = _run(str(path), "--hand", "1", "--budget", "2000")
    assert code == 0
    assert text.startswith(f"{path}:\n") and f"\n{path} (document 2):\n" in text


def test_ten_point_has_no_best_lead_value() -> None:
    code, out, _ = _run("samples/ten-point.yaml", "--format", "json", "--hand", "1")
    assert code == 0
    (h,) = json.loads(out)["documents"][0]["hands"]
    assert h["hand"] == 1 and h["value_best_lead"] is None and h["solved"]


def test_tally_hands_are_not_solvable() -> None:
    code, out, _ = _run("samples/auction-tally.yaml", "--format", "json")
    assert code == 0
    hands = json.loads(out)["documents"][0]["hands"]
    assert hands and all(h["value"] is None and not h["solved"] and h["nodes"] == 0 for h in hands)
    code, text, _ = _run("samples/auction-tally.yaml")
    assert code == 0 and "can't be solved" in text


def test_budget_out_reports_bounds() -> None:
    code, out, _ = _run("samples/auction-full.yaml", "--format", "json", "--budget", "5")
    assert code == 0
    hands = json.loads(out)["documents"][0]["hands"]
    stopped = [h for h in hands if not h["solved"]]
    assert stopped
    for h in stopped:
        assert isinstance(h["value"], list) and h["value"][0] <= h["value"][1]


def test_text_names_the_costly_card(tmp_path) -> None:
    # Hand 3 of this simulated game has costly cards; each costly line names the
    # player, his card and a card that kept the value.
    rec = simulate_game("auction", 4, seed=3)
    from pitchcli.record.write import dump
    path = tmp_path / "g.yaml"
    path.write_text(dump([rec], "yaml"))
    code, text, _ = _run(str(path), "--hand", "3")
    assert code == 0
    code, out, _ = _run(str(path), "--format", "json", "--hand", "3")
    (h,) = json.loads(out)["documents"][0]["hands"]
    assert h["costly"]
    assert f"Hand 3: {h['bidder']} bid {h['bid']}" in text
    for c in h["costly"]:
        assert f"trick {c['trick']}, {c['player']}'s {c['card']}" in text and f"— {c['better']} " in text


def test_exit_codes(tmp_path) -> None:
    assert _run(str(tmp_path / "missing.yaml"))[0] == 3
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: pitch-record/1\nvariant: auction\nplayers: [A, B]\nhands: 3\n")
    code, out, err = _run(str(bad))
    assert code == 1 and out == "" and "not solved" in err
    assert _run("samples/auction-full.yaml", "--hand", "99")[0] == 1
    assert _run("samples/auction-full.yaml", "--budget", "0")[0] == 2


def test_help_states_the_default_budget() -> None:
    # The commands don't import the engine for --help, so the default is written in
    # the help text: this keeps the two the same.
    from pitchcli.engine.solve import DEFAULT_BUDGET
    r = CliRunner().invoke(main, ["solve", "--help"])
    assert f"[default: {DEFAULT_BUDGET:,}]" in " ".join(r.stdout.split())


def test_text_names_the_point_a_card_changed() -> None:
    # Hand 4 of the sample: Ben's 4H pitch let Ann's 7H take Dot's 2H (Low);
    # Ann's 4C then let Ben have Game (README, "Solve").
    code, text, _ = _run("samples/auction-full.yaml", "--hand", "4")
    assert code == 0
    assert "trick 1, Ben's 4H lost Low (2 to 1) — KH kept 2." in text
    assert "trick 4, Ann's 4C gave away Game (1 to 2) — KS held it to 1." in text
    with open("samples/auction-full.yaml", encoding="utf-8") as f:
        hand4 = analyze(yaml.safe_load(f)).hands[3]
    assert hand4 is not None and hand4.awards["game"].unit == 1  # Ben took Game


def test_the_whole_run_is_bounded_across_hands(tmp_path) -> None:
    """Issue 27, item 16: --budget bounded each hand only, so a long game of
    seven players ran for minutes. --total-budget bounds the sum over every
    hand (and every game of the file): the nodes counted in the report stay
    within it (plus the walk's allowance of a quarter of a hand's budget),
    and the hands reached after it is spent are reported with their bounds."""
    rec = simulate_game("auction", 7, seed=5)
    from pitchcli.record.write import dump
    path = tmp_path / "seven.yaml"
    path.write_text(dump([rec, rec], "yaml"))  # two games: the bound is the run's, not a game's
    total, budget = 60_000, 50_000
    code, out, _ = _run(str(path), "--format", "json", "--budget", str(budget), "--total-budget", str(total))
    assert code == 0
    hands = [h for d in json.loads(out)["documents"] for h in d["hands"]]
    assert len(hands) > 20
    assert sum(h["nodes"] for h in hands) <= total + budget // 4 + len(hands)
    late = hands[-5:]
    assert all(not h["solved"] and h["nodes"] <= 1 and isinstance(h["value"], list) for h in late)
    code, text, _ = _run(str(path), "--budget", str(budget), "--total-budget", str(total))
    assert code == 0 and "--total-budget" in text


def test_help_states_the_default_total_budget() -> None:
    from pitchcli.views.solve import DEFAULT_TOTAL_BUDGET
    r = CliRunner().invoke(main, ["solve", "--help"])
    assert f"[default: {DEFAULT_TOTAL_BUDGET:,}]" in " ".join(r.stdout.split())
