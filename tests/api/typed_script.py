"""A script that uses every public name of ``pitchcli``: ``mypy --strict`` must
pass on it (tests/api/test_typed.py), and it runs (against samples/)."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator

import pitchcli
from pitchcli import (
    Call,
    CallKind,
    Card,
    CheckedDocument,
    CostlyCard,
    Counts,
    Credit,
    Diagnostic,
    Document,
    EndReason,
    Family,
    Game,
    GameRow,
    Hand,
    HandEvent,
    Level,
    Limits,
    NotWon,
    NoWin,
    Play,
    Point,
    PointCard,
    PointKind,
    ProblemRow,
    Profile,
    ProfileError,
    RecordError,
    RecordFormat,
    Scoring,
    Severity,
    SolvedHand,
    Source,
    Summary,
    Trick,
    TrumpBy,
    Win,
    WonWith,
    Words,
)


def games(*sources: Source) -> Iterator[Game]:
    for checked in pitchcli.validate(*sources, max_errors=10, limits=Limits()):
        c: CheckedDocument = checked
        d: Document = c.document
        for diag in c.diagnostics:
            problem: Diagnostic = diag
            severity: Severity = problem.severity
            print(problem.file, problem.line, problem.code, severity.value, d.number, file=sys.stderr)
        if c.valid and c.game is not None:
            yield c.game


def event_line(game: Game, e: HandEvent) -> str:
    """One line per event, every event type by name."""
    match e:
        case pitchcli.HandStarted():
            return f"hand {e.hand} dealt by {e.dealer}"
        case pitchcli.CallMade():
            return f"{game.players[e.seat]} {e.bid}"
        case pitchcli.ContractSet():
            return f"{game.players[e.bidder]} bid {e.bid}"
        case pitchcli.TrumpSet():
            return f"trump {e.trump} {e.by.value}"
        case pitchcli.PartnerCalled() | pitchcli.Discarded() | pitchcli.Drew():
            return f"{e.cards}"
        case pitchcli.TrickStarted():
            return f"trick {e.trick}"
        case pitchcli.CardPlayed():
            return f"{e.card}"
        case pitchcli.TrickWon():
            return f"won by {e.winner}"
        case pitchcli.PointsTaken():
            awards: tuple[pitchcli.Awarded, ...] = e.awards
            credits: tuple[pitchcli.PointCredit, ...] = e.credits
            return f"{len(awards)} {len(credits)} {e.taken}"
        case pitchcli.HandSettled():
            return f"made {e.made}"


def describe(game: Game) -> str:
    family: Family = game.family
    lines = [f"{game.variant} ({family.value}): {', '.join(game.players)}"]
    words: Words = game.words
    scoring: Scoring = game.scoring
    trump_named: bool = game.trump_named
    lines.append(f"the {words.role} {words.closes}; scored by {scoring.value}; trump named: {trump_named}")
    for hand in game.hands:
        h: Hand = hand
        level: Level | None = h.level
        calls: tuple[Call, ...] = h.calls
        kinds: list[CallKind] = [c.kind for c in calls]
        for trick in h.tricks:
            t: Trick = trick
            plays: tuple[Play, ...] = t.plays
            reason: WonWith = t.reason
            card: Card | None = t.card
            lines.append(f"{h.number}.{t.number} {t.winner} {reason.value} {card} {len(plays)}")
        points: tuple[Point, ...] = h.points
        kinds_won: list[PointKind] = [p.kind for p in points]
        cards: tuple[PointCard, ...] = h.point_cards
        credits: list[Credit] = [pc.how for pc in cards]
        lines.append(f"{level} {kinds} {kinds_won} {credits} {dict(h.score)}")
        # The deal (the hand diagram's fields): empty where the record has none.
        dealt: dict[str, tuple[Card, ...]] = dict(h.dealt)
        exchange: list[tuple[Card, ...]] = [*h.discards.values(), *h.draws.values()]
        kitty: tuple[Card, ...] | None = h.kitty
        aside: tuple[Card, ...] | None = h.set_aside
        lines.append(f"deal {h.has_deal} {len(dealt)} {len(exchange)} {kitty} {aside}")
        took: int | None = h.side_took
        short: int | None = h.short
        lines.append(f"took {took} short {short}")
        # The auction's and the settlement's facts, and the end.
        closing: Call | None = h.closing
        game_points: dict[str, int] = dict(h.game_points)
        out_of_play: tuple[Card, ...] = h.out_of_play
        settle: str | None = h.settle_rule
        lines.append(f"{h.stuck} {h.stolen} {closing} {game_points} {out_of_play} {h.other_took} {settle}")
        win: Win | None = h.win
        not_won: list[NoWin] = list(h.not_won)
        why: list[NotWon] = [n.reason for n in not_won]
        lines.append(f"{win.side if win else None} {[n.side for n in not_won]} {why}")
    end: EndReason | None = game.end
    events: list[HandEvent] = list(game.events(1))
    trump_by: list[TrumpBy] = [e.by for e in events if isinstance(e, pitchcli.TrumpSet)]
    lines.append(f"{game.winner} {end} {len(events)} {trump_by}")
    lines += [event_line(game, e) for e in events]
    margin: int | None = game.margin
    rules: Profile = game.profile
    side: str | None = game.side_of(game.players[0])
    members: tuple[str, ...] = game.members(game.sides[0])
    lines.append(f"{margin} {rules.max_bid} {side} {members}")
    may_pass: bool = game.dealer_may_pass
    contract_rule: str = game.rule("contract")
    seats: tuple[int, int] = family.seats
    columns: tuple[str, ...] = family.columns
    lines.append(f"{may_pass} {contract_rule} {seats} {columns} {family.hand_points}")
    return "\n".join(lines)


def main() -> None:
    for game in games("samples/auction-full.yaml", io.BytesIO(b"format: pitch-record/1\n")):
        print(describe(game))
        solved: list[SolvedHand] = pitchcli.solve(game, hand=1)
        costly: list[CostlyCard] = [c for s in solved for c in s.costly]
        print(len(costly))
    with open("samples/auction-play.yaml", encoding="utf-8") as f:
        scored: list[Game] = list(pitchcli.score(text=f.read()))
    print(len(scored))
    try:
        list(pitchcli.score("samples-invalid/suit-not-followed.yaml"))
    except RecordError as e:
        print(len(e.diagnostics))
    docs: list[Document] = list(pitchcli.read("samples/tournament"))
    summary: Summary = pitchcli.summarize("samples/tournament", jobs=1)
    one: Summary = pitchcli.summarize_file("samples/auction-full.yaml")
    pitchcli.write_report(pitchcli.merge(summary, one), sys.stdout, "csv")
    counted: Counts = summary.count
    rows: tuple[GameRow, ...] | None = summary.game_rows
    problems: tuple[ProblemRow, ...] = pitchcli.summarize("samples-invalid").problem_rows
    print(counted.valid, [(r.file, r.document, r.winner) for r in rows or ()][:2],
          [(p.code, p.line) for p in problems][:2])
    profiles: tuple[Profile, ...] = pitchcli.rule_profiles()
    try:
        house: Profile = pitchcli.profile("auction", {"target": 21})
        print(house.target, len(profiles), len(docs))
    except ProfileError as e:
        print(e)
    records = list(pitchcli.simulate("auction", games=2, seed=1))
    text: str = pitchcli.dumps(records, RecordFormat.JSONL)
    pitchcli.write(records, io.StringIO(), RecordFormat.YAML)
    print(len(text), pitchcli.__version__)


if __name__ == "__main__":
    main()
