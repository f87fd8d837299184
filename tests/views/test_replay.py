"""``pitch replay``: the auction call by call, every trick, the points; the
JSON event stream."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from support.score_records import FORMAT_EXAMPLE, LONE_AND_TIE

from pitchcli.api.games import game_of
from pitchcli.cli import main
from pitchcli.engine.hand import HandResult
from pitchcli.pipeline.feed import analyze
from pitchcli.pipeline.simulate import simulate_game
from pitchcli.record.write import canonical, to_yaml
from pitchcli.views.replay import EVENTS, events

EVENT_FIELDS = {
    "game": {"format", "file", "document", "variant", "family", "players", "teams", "units", "target", "hands",
             "role", "scoring"},
    "hand": {"hand", "dealer", "level", "replayable"},
    "call": {"hand", "player", "call", "kind"},
    "contract": {"hand", "bidder", "bid", "trump", "called", "partners", "recorded", "stuck", "steal"},
    "trump": {"hand", "suit", "by"},
    "partner": {"hand", "cards", "partners"},
    "discard": {"hand", "player", "cards"},
    "draw": {"hand", "player", "cards"},
    "trick": {"hand", "trick", "leader"},
    "play": {"hand", "trick", "player", "card", "trump"},
    "trick_won": {"hand", "trick", "winner", "card", "reason", "captured", "value", "suit_led"},
    "points": {"hand", "taken"},
    "hand_end": {"hand", "bidder", "bid", "took", "made", "score", "totals", "rule"},
    "game_end": {"winner", "hand", "totals", "finished", "reason", "rule"},
    "problem": {"hand", "trick", "code", "rule", "severity", "message", "line", "column", "pointer"},
}
ROOT = Path(__file__).resolve().parents[2]


def replay(tmp_path: Path, text: str, *args: str) -> Any:
    path = tmp_path / "game.yaml"
    path.write_text(text, encoding="utf-8")
    return CliRunner().invoke(main, ["replay", str(path), *args])


def simulated(variant: str, want: Callable[[HandResult], bool]) -> tuple[dict[str, Any], int]:
    """The first simulated game (by seed) with a hand that has ``want``."""
    for seed in range(100):
        rec = simulate_game(variant, seed=seed)
        for h in analyze(rec).hands:
            if h is not None and want(h):
                return rec, h.number
    raise AssertionError(f"no simulated {variant} game has the hand wanted")


def test_tricks_told_with_winners_and_reasons(tmp_path: Path) -> None:
    r = replay(tmp_path, LONE_AND_TIE)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "Hand 1: Ann deals.\n  Ben passes.\n  Cal bids 2.\n  Dot passes.\n  Ann passes.\n" in out
    assert "  Cal is the pitcher with 2.\n" in out
    assert "  Trick 1, led by Cal: Cal AS, Dot 2C, Ann 3C, Ben 4C.\n" in out
    assert "    The first card led makes spades trump.\n" in out
    assert "    Cal wins with AS, the highest trump, and takes AS 2C 3C 4C (4 game points).\n" in out
    assert "    Ben wins with AH, the highest heart, the suit led, and takes 2H 3H 4H AH (4 game points)." in out
    assert "Ben, the dealer, must bid since nobody else did: 2." in out
    assert "Points: High 5S: Ann; Low 2S: Ann; Jack: not awarded (not in play); Game: not awarded (tied)." in out
    assert "Ben bid 2 and took 0: set back. Score: Ann +2, Ben -2, Cal 0, Dot 0." in out
    assert out.rstrip().endswith("Unfinished: nobody has won yet (target 7).")


def test_pitch_steal_and_implied_passes_named(tmp_path: Path) -> None:
    rec, n = simulated("auction", lambda h: any(c.kind == "implied" for c in h.calls))
    out = replay(tmp_path, to_yaml(canonical(rec)), "--hand", str(n)).stdout
    assert "pitches: bids 4, which closes the auction." in out
    assert "passes (not recorded: the auction was closed)." in out
    rec, n = simulated("auction", lambda h: any(c.kind == "steal" for c in h.calls))
    out = replay(tmp_path, to_yaml(canonical(rec)), "--hand", str(n)).stdout
    assert ", the dealer, steals the bid at " in out


def test_ten_point_off_trick_won_by_nobody_and_stuck_dealer(tmp_path: Path) -> None:
    rec, n = simulated("ten-point", lambda h: any(t.winner is None for t in h.tricks))
    r = replay(tmp_path, to_yaml(canonical(rec)), "--hand", str(n))
    assert r.exit_code == 0
    assert "No trump in it: nobody wins it, and " in r.stdout and " leads again." in r.stdout
    assert "names " in r.stdout and " trump" in r.stdout
    rec, n = simulated("ten-point", lambda h: any(c.kind == "stuck" and c.bid is None for c in h.calls))
    out = replay(tmp_path, to_yaml(canonical(rec)), "--hand", str(n)).stdout
    assert ", the dealer, passes and is stuck with the bid." in out


def test_tally_hand_said_not_replayable(tmp_path: Path) -> None:
    r = replay(tmp_path, FORMAT_EXAMPLE, "--hand", "2")
    assert r.exit_code == 0
    assert "A tally hand (the contract and who won which points, no cards): it can be scored but not replayed." \
        in r.stdout
    assert "Trick" not in r.stdout
    lines = [json.loads(x) for x in replay(tmp_path, FORMAT_EXAMPLE, "--hand", "2", "--format", "json")
             .stdout.splitlines()]
    assert [e["event"] for e in lines] == ["game", "hand", "contract", "points", "hand_end", "game_end"]
    assert lines[1]["replayable"] is False and lines[1]["level"] == "tally"


def test_json_event_stream_is_documented_and_complete(tmp_path: Path) -> None:
    for variant in ("auction", "auction-partners", "ten-point", "ten-point-5", "ten-point-7"):
        rec = simulate_game(variant, seed=11)
        r = replay(tmp_path, to_yaml(canonical(rec)), "--format", "json")
        assert r.exit_code == 0, r.stderr
        evs = [json.loads(line) for line in r.stdout.splitlines()]
        assert evs[0]["event"] == "game" and evs[-1]["event"] == "game_end"
        for e in evs:
            assert e["event"] in EVENTS
            assert EVENT_FIELDS[e["event"]] <= set(e), e
        n = len(rec["players"])
        hands = len(rec["hands"])
        assert sum(e["event"] == "hand" for e in evs) == hands
        assert sum(e["event"] == "trick" for e in evs) == 6 * hands
        assert sum(e["event"] == "play" for e in evs) == 6 * n * hands
        assert sum(e["event"] == "call" for e in evs) == n * hands
        # The stream agrees with the record's own (simulated) claims.
        ends = [e for e in evs if e["event"] == "hand_end"]
        assert [e["score"] for e in ends] == [h["score"] for h in rec["hands"]]
        assert evs[-1]["winner"] == rec["result"]["winner"]
        # Every play of a trick is followed by its trick_won, whose captured cards are those played.
        plays: list[str] = []
        for e in evs:
            if e["event"] == "trick":
                plays = []
            elif e["event"] == "play":
                plays.append(e["card"])
            elif e["event"] == "trick_won":
                assert e["captured"] == plays and (e["winner"] is None) == (e["reason"] == "none")


def test_events_library_and_hand_filter() -> None:
    rec = simulate_game("auction", seed=2)
    game = game_of(analyze(rec), "x", 1)
    assert game is not None
    evs = list(events(game, hand=2))
    assert {e.get("hand") for e in evs if e["event"] not in ("game", "game_end")} == {2}


def test_invalid_record_replayed_with_each_problem_where_it_happens(tmp_path: Path) -> None:
    # Issue 12: a replay is how a revoke is found, so an invalid record is
    # replayed as far as it goes, each problem marked where it happens; exit 1.
    bad = (ROOT / "samples-invalid" / "suit-not-followed.yaml").read_text(encoding="utf-8")
    js = replay(tmp_path, bad, "--format", "json")
    assert js.exit_code == 1 and "R407" in js.stderr
    evs = [json.loads(line) for line in js.stdout.splitlines()]
    at = [i for i, e in enumerate(evs) if e["event"] == "problem"]
    assert [(evs[i]["code"], evs[i]["rule"], evs[i]["severity"]) for i in at] == [("R407", "AP-PLAY-2", "error")] * 2
    assert all(set(evs[i]) == EVENT_FIELDS["problem"] | {"event"} for i in at)
    first = evs[at[0]]
    assert (first["hand"], first["trick"], first["pointer"], first["line"]) == (1, 3, "/hands/0/tricks/2/3", 22)
    before = evs[at[0] - 1]
    assert before["event"] == "trick_won" and (before["hand"], before["trick"]) == (1, 3)
    assert (evs[at[1] - 1]["event"], evs[at[1] - 1]["trick"]) == ("trick_won", 4)
    # the rest of the game is replayed too
    assert sum(e["event"] == "trick_won" for e in evs) == 12 and evs[-1]["event"] == "game_end"
    text = replay(tmp_path, bad)
    assert text.exit_code == 1
    lines = text.stdout.splitlines()
    trick3 = next(i for i, line in enumerate(lines) if line.startswith("  Trick 3,"))
    assert lines[trick3 + 2].startswith("  ! error: R407 [AP-PLAY-2] Ann played 3H")
    assert any(line.startswith("Hand 2:") for line in lines)
    # --hand 2: hand 1's problems are not shown
    two = replay(tmp_path, bad, "--hand", "2", "--format", "json")
    assert two.exit_code == 1 and not [e for e in map(json.loads, two.stdout.splitlines())
                                       if e["event"] == "problem"]


def test_problem_without_a_trick_at_its_hand_and_escaped(tmp_path: Path) -> None:
    # A hand that has no contract (a call that isn't one): its problem right
    # after the hand's start; the record's text in the message is escaped.
    bad = (ROOT / "samples-invalid" / "bid-no.yaml").read_text(encoding="utf-8")
    evs = [json.loads(line) for line in replay(tmp_path, bad, "--format", "json").stdout.splitlines()]
    i = next(i for i, e in enumerate(evs) if e["event"] == "problem")
    assert evs[i - 1]["event"] == "hand" and evs[i]["hand"] == 1 and evs[i]["trick"] is None
    r = replay(tmp_path, bad.replace("[no,", "[\"n\\e[31mo\","))
    assert r.exit_code == 1 and "\x1b" not in r.stdout
    assert any(line.startswith("  ! error: S204 ") for line in r.stdout.splitlines())


def test_record_that_cannot_be_seated_is_not_replayed(tmp_path: Path) -> None:
    r = replay(tmp_path, LONE_AND_TIE.replace("variant: auction", "variant: setback"))
    assert r.exit_code == 1 and r.stdout == ""
    assert "not replayed: the record is invalid" in r.stderr
    r = replay(tmp_path, LONE_AND_TIE.replace("players: [Ann,", "players: [Ann, Ann,", 1), "--format", "json")
    assert r.exit_code == 1 and r.stdout == ""
    assert replay(tmp_path, LONE_AND_TIE, "--hand", "9").exit_code == 1


def _lines(text: str, start: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith(start)]


def _hand_one(tmp_path: Path, sample: str, contract: str) -> tuple[str, list[str], list[dict[str, Any]]]:
    """A sample's text, the lines of the text replay of its hand 1 after the
    ``contract`` line, and hand 1's JSON events."""
    text = (ROOT / "samples" / sample).read_text(encoding="utf-8")
    r = replay(tmp_path, text, "--hand", "1")
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    evs = [json.loads(x) for x in replay(tmp_path, text, "--hand", "1", "--format", "json").stdout.splitlines()]
    return text, lines[lines.index(contract) + 1:], evs


def test_ten_point_discards_and_draws_told(tmp_path: Path) -> None:
    """Refill (TP4-3, TP4-4): each hand's discards and draws, one line each,
    after the contract and before the first trick, as the record has them."""
    text, lines, evs = _hand_one(tmp_path, "ten-point.yaml", "  Dot is the bidder with 6 and names clubs trump.")
    assert lines[0] == ("  Discards: Ann 7D 5D 5S 8H 9D 6H 4D JH 9S; Ben QS 2D 2H 8S KS QD 4H KH; "
                        "Cal 8D 3S 7H 7S 4S 10H; Dot AH KD 10D 3D 9H QH 10S.")
    assert lines[1] == "  Draws: Ann BJ 5C AS 3H JD 5H; Ben JC 2S QC 6S LJ; Cal 3C 6D AD; Dot QH 10S 10D KD."
    assert lines[2].startswith("  Trick 1, led by Dot:")
    # every hand of the game has its two lines; the JSON log has the same cards
    whole = replay(tmp_path, text).stdout
    assert len(_lines(whole, "  Discards: ")) == len(_lines(whole, "  Draws: ")) == 8
    drawn = {e["player"]: e["cards"] for e in evs if e["event"] == "draw"}
    assert drawn == {"Ann": ["BJ", "5C", "AS", "3H", "JD", "5H"], "Ben": ["JC", "2S", "QC", "6S", "LJ"],
                     "Cal": ["3C", "6D", "AD"], "Dot": ["QH", "10S", "10D", "KD"]}
    assert [e["player"] for e in evs if e["event"] == "discard"] == ["Ann", "Ben", "Cal", "Dot"]
    # Names are the record's text: escaped here as on every line of the replay.
    r = replay(tmp_path, text.replace("Ann", '"A\\e[2Jnn"'), "--hand", "1")
    assert r.exit_code == 0, r.stderr
    assert "\x1b" not in r.stdout
    assert _lines(r.stdout, "  Draws: ")[0].startswith("  Draws: A\\x1b[2Jnn BJ 5C AS 3H JD 5H; Ben ")


def test_cut_down_discards_told_without_draws(tmp_path: Path) -> None:
    """Cut-down (TP5-2, TP5-4): the bidder, who took the kitty, discards from
    his cards and the kitty's, everyone down to six; nobody draws."""
    text, lines, evs = _hand_one(tmp_path, "ten-point-5.yaml",
                                 "  Eve is the bidder with 6 and names spades trump; the call is BJ: partner Dot.")
    # Eve's eight include AH 9C 8H of the kitty [AH, 9C, 8S, 8H]
    assert lines[0] == ("  Discards: Ann QC 3C 2C QD; Ben 7D 4C 5C 4H; Cal 3D 4D 10C 9H; Dot 10D 6H 9D 2D; "
                        "Eve 7H JD AH KC 8H 6D 3H 9C.")
    assert lines[1].startswith("  Trick 1, led by Eve:")
    assert not _lines(replay(tmp_path, text).stdout, "  Draws: ")
    assert {e["player"]: e["cards"] for e in evs if e["event"] == "discard"}["Eve"] == \
        ["7H", "JD", "AH", "KC", "8H", "6D", "3H", "9C"]
    assert not [e for e in evs if e["event"] == "draw"]
    # Auction Pitch has neither
    out = replay(tmp_path, LONE_AND_TIE).stdout
    assert not _lines(out, "  Discards: ") and not _lines(out, "  Draws: ")
