"""A record replayed in the engine: every hand checked, scored, and every
recorded claim compared with what the engine derives.

Input is a plain record (a ``dict`` as loaded, already checked against the
schema); output is a ``GameAnalysis`` with the results and the violations,
each located by a JSON Pointer. Parts of the record where the schema found a
problem are skipped (``skip``), so that the engine only sees well-shaped data.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Sequence
from functools import cached_property
from itertools import repeat
from typing import TYPE_CHECKING, Any

from pitchcli.cards import NOTATION_INDEX, parse_suit
from pitchcli.engine.claims import MISSING, NOT_A_UNIT, compare_claims, without_extensions
from pitchcli.engine.family import Family, family_of
from pitchcli.engine.game import GameState
from pitchcli.engine.hand import Cards, HandResult, HandScore, HandState
from pitchcli.engine.outcome import GameEnd
from pitchcli.engine.scoring import AWARDS
from pitchcli.engine.table import Seated, Table, seat_table
from pitchcli.engine.violations import Violation
from pitchcli.escape import long_texts, quote, short, shorten_names
from pitchcli.profiles import Profile, ProfileError, resolve
from pitchcli.suggest import did_you_mean

if TYPE_CHECKING:
    from pitchcli.engine.quick import GameVerdict, QuickBatch


def esc(part: object) -> str:
    """One JSON Pointer segment, escaped (RFC 6901)."""
    return str(part).replace("~", "~0").replace("/", "~1")


def ptr(*parts: object) -> str:
    """A JSON Pointer (RFC 6901) from path parts."""
    return "".join("/" + esc(p) for p in parts)


class GameAnalysis:
    """What the engine made of one record.

    After the quick pass (``analyze(..., quick=True)``) decided a clean game,
    ``hands`` and ``end`` are made when first read, by the full replay.
    (A plain class, as the pipeline's other working state: see ``Checked``.)"""

    __slots__ = (
        "_end",
        "_hands",
        "_replay",
        "_scores",
        "profile",
        "record",
        "table",
        "totals",
        "violations",
        "winner",
        "winner_hand",
    )

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.profile: Profile | None = None
        self.table: Table | None = None
        self.totals: list[int] | None = None  # per unit after the last hand; None if unknown
        self.winner: str | None = None  # the winning unit's name
        self.winner_hand: int | None = None
        self.violations: list[Violation] = []
        self._hands: list[HandResult | None] = []
        self._end: GameEnd | None = None
        self._replay: Callable[[], GameAnalysis] | None = None
        self._scores: Callable[[], list[HandScore]] | None = None

    def _results(self) -> None:
        if self._replay is not None:
            full, self._replay = self._replay(), None
            self._hands, self._end = full._hands, full._end

    @property
    def hands(self) -> list[HandResult | None]:
        """Each hand's result (``None``: it could not be scored)."""
        self._results()
        return self._hands

    @property
    def scores(self) -> list[HandScore | None]:
        """What each hand counts for (``None``: it could not be scored): read
        off the quick pass's verdict of a game it decided, with no replay;
        else off ``hands``."""
        if self._scores is not None and self._replay is not None:
            return list(self._scores())
        return [None if r is None else r.score() for r in self.hands]

    @property
    def end(self) -> GameEnd | None:
        """How and why the game ended (None: unfinished or unknown)."""
        self._results()
        return self._end

    @property
    def family(self) -> Family | None:
        """The rule family as an object (None when the profile is unknown)."""
        return None if self.profile is None else family_of(self.profile)

    @property
    def ok(self) -> bool:
        """True when no rule is broken and every claim agrees."""
        return not self.violations

    def unit_name(self, unit: int) -> str:
        """The name claims use for a unit (player or team)."""
        assert self.table is not None
        return self.table.unit_names[unit]


class Driver:
    """Feeds one record to the engine."""

    def __init__(self, record: dict[str, Any], skip: Collection[str],
                 ignore: Collection[str] = (), seated: Seated | None = None) -> None:
        self.rec = record
        self.seated = seated  # the tables a batch has seated (``seat_table``), or None: seat anew
        self.skip = skip
        self.ignore = frozenset(ignore)
        self.out = GameAnalysis(record)
        self.v = self.out.violations
        # Set once a hand breaks a rule of play: what the replay derives from
        # then on (that hand's points and score, every later running total, the
        # result) rests on a broken hand, so a claim disagreeing with it is not
        # reported again; the broken rule already was.
        self.broken = False

        self.long: list[str] = []  # names too long to quote whole (see tidy)

    def bad(self, code: str, rule: str | None, message: str, at: str, **details: object) -> None:
        """Report a problem of the record at the pointer ``at``."""
        if self.long:
            message = shorten_names(message, self.long)
        self.v.append(Violation(code, rule, message, at,
                                details=details))

    def tidy(self, violations: list[Violation]) -> list[Violation]:
        """The engine's violations with the long names in their messages
        shortened, hand by hand, so that a 200 KB name quoted in every message
        of a 10,000-hand record costs neither gigabytes of output nor memory."""
        if not self.long:
            return violations
        return [v._replace(message=shorten_names(v.message, self.long)) for v in violations]

    def skipped(self, at: str) -> bool:
        """True when the schema found a problem at or under ``at``."""
        return any(s == at or s.startswith(at + "/") for s in self.skip)

    def setup(self) -> bool:
        """Resolve the profile and seat the players; False when the game can't
        be set up (its table or rules are malformed)."""
        rec = self.rec
        if (self.skip and any(self.skipped(k) for k in ("/variant", "/rules", "/players"))) or \
                "" in self.skip or not isinstance(rec.get("players"), list) or \
                not isinstance(rec.get("variant"), str):
            return False
        try:
            profile = resolve(rec["variant"], rec.get("rules"))
        except ProfileError as e:
            code = "P302" if e.option else "P301"
            at = ptr("rules", e.option) if e.option and e.option in (rec.get("rules") or {}) else (
                "/rules" if e.option else "/variant")
            self.bad(code, None, str(e), at)
            return False
        self.out.profile = profile
        teams = rec.get("teams")
        if self.skipped("/teams") or "/teams" in self.ignore:
            if profile.has_teams:
                return False  # the teams the table needs are malformed
            teams = None  # teams where the profile has none: the schema stage said so
        players = list(rec["players"])
        self.long = long_texts([*players, *(teams or {})])
        table, problems = seat_table(profile, players, teams, self.seated)
        self.v.extend(self.tidy(problems))
        if any((p.code == "P303" and p.at == "/players") or p.code == "P302" for p in problems):
            return False  # the table itself can't be played: nothing more to check
        self.out.table = table
        self.seat_of = {name: i for i, name in enumerate(table.players)}
        # A tally's award by name -> its unit (None: not awarded), as ``tally`` reads it.
        self.unit_at: dict[object, int] = {None: -1, **{name: i for i, name in enumerate(table.unit_names)}}
        return True

    # (Made when the full replay first reads them: the quick pass, which
    # decides most games of a large input, needs neither.)
    @cached_property
    def player_key(self) -> dict[str, tuple[int, str]]:
        """Each player's seat and name as a pointer segment, made once a game,
        not in every hand's deal, discards and draws (``by_player``); not the
        names ``by_player`` leaves out as extension keys."""
        table = self.out.table
        assert table is not None
        return {name: (i, esc(name)) for i, name in enumerate(table.players) if not name.startswith("x-")}

    @cached_property
    def game(self) -> GameState:
        """The game's state as the full replay plays it, hand after hand."""
        assert self.out.table is not None
        return GameState(self.out.table)

    def run(self) -> GameAnalysis:
        """Check the whole record."""
        if not self.setup():
            return self.out
        hands = self.rec.get("hands")
        if not isinstance(hands, list):
            # The schema reported it (a number, text, a mapping): no hands to
            # replay, and the totals are unknown, not zero.
            hands = []
            if "hands" in self.rec:
                self.game.known = False
        for i, hand in enumerate(hands):
            at = f"/hands/{i}"
            if self.skipped(at) or not isinstance(hand, dict):
                dealer = hand.get("dealer") if isinstance(hand, dict) else None
                self.game.skip_hand(self.seat_of.get(dealer) if isinstance(dealer, str) else None)
                continue
            if self.ignore:
                hand = {k: v for k, v in hand.items() if f"{at}/{esc(k)}" not in self.ignore}
            self.hand(hand, at)
        self.finish()
        return self.out

    def feed(self, batch: QuickBatch, mapped: bool = False) -> bool:
        """Give every hand to the quick pass's batch (a game begun there);
        False when a hand is surely not one it decides (the caller drops the
        game from the batch and replays it in full). A hand is one of three
        kinds: the whole deal and the tricks (full detail), the tricks alone
        (play-level: the deal is what each seat played), or a tally (the
        ``points`` awarded, no deal, no tricks). A hand's tricks are read as
        lists of cards unless the first is written with its leader, or
        ``mapped`` (``_again``: a later one is)."""
        if batch.exchanges:
            return self._feed_exchange(batch, mapped)
        table = self.out.table
        assert table is not None
        players = table.players
        n = len(players)
        # (A card's index by ``__getitem__``: a text that is no card raises, and the
        # game is replayed. A quarter faster a card than ``get`` with a default.)
        index_of, add, keys = NOTATION_INDEX.__getitem__, batch.add_hand, _QUICK_KEYS
        for h in self.rec["hands"]:
            if h.__class__ is not dict or not (keys.issuperset(h) or _known_keys(h, keys)):
                return False
            auction = self._auction_of(h)
            if auction is None:
                return False
            deal, tricks = h.get("deal"), h.get("tricks")
            if tricks is None:  # a tally: the points are what the hand is scored from
                if deal is not None or not self._feed_tally(batch, *auction, h.get("points")):
                    return False
                continue
            if tricks.__class__ is not list:
                return False
            read = self._leads_of(tricks, mapped)
            if read is None:
                return False
            tricks, leads = read
            if deal is None:
                held = None
            elif not _by_player(deal, n):
                return False
            else:
                try:
                    held = list(map(deal.__getitem__, players))
                except (KeyError, TypeError):  # a name that is no player's: the full replay says
                    return False
            try:
                if not add(*auction, parse_suit(h["trump"]) if "trump" in h else None, held, tricks, index_of,
                           leads):
                    return not mapped and self._again(batch, tricks)
            except (KeyError, TypeError):  # a text that is no card, or can't be one: the full replay says
                return not mapped and self._again(batch, tricks)
        return True

    def _again(self, batch: QuickBatch, tricks: list[Any]) -> bool:
        """After the batch refused a hand's cards (or they raised): when one of
        its tricks is written with its leader after one written as its cards
        (``feed`` read them all as lists, the mapping's keys as cards, none),
        the game is taken out of the batch and fed again from its first hand
        with every trick read either way (``mapped``); otherwise False (a text
        that is no card: replayed). A cost only such a game pays, where looking
        for a mapping among every hand's tricks would cost every game."""
        if dict not in map(type, tricks):
            return False
        batch.drop_game()
        batch.begin_game()
        return self.feed(batch, mapped=True)

    def _leads_of(self, tricks: list[Any],
                  mapped: bool) -> tuple[list[Any], list[tuple[int, int]] | tuple[()]] | None:
        """The cards of each of a hand's tricks, for the quick pass, and
        (trick, seat) for each leader written (``{lead: NAME, cards: [...]}``),
        a claim the batch holds to the leader the play gives (C508). The
        tricks as they are, and no leaders, when the first is a list and not
        ``mapped`` (``_again``: every trick read either way). ``None`` for a
        trick it does not read (a lead that is no player's name, cards that
        are no list, a key of neither kind nor ``x-``): replayed."""
        if not mapped and (not tricks or tricks[0].__class__ is list):
            return tricks, ()  # (most records: a test, no copy)
        seat_of = self.seat_of
        cards: list[Any] = []
        leads: list[tuple[int, int]] = []
        for k, trick in enumerate(tricks):
            if trick.__class__ is list:
                cards.append(trick)
                continue
            if not _known_keys(trick, _TRICK_KEYS):
                return None
            lead, played = trick.get("lead"), trick.get("cards")
            seat = seat_of.get(lead) if lead.__class__ is str else None
            if seat is None or played.__class__ is not list:
                return None
            leads.append((k, seat))
            cards.append(played)
        return cards, leads

    def _auction_of(self, h: dict[str, Any]) -> tuple[int, tuple[object, ...] | None,
                                                      tuple[int, object] | None] | None:
        """A hand's dealer (a seat), its calls (``None``: no bids recorded)
        and its recorded contract (bidder, bid), for the quick pass; ``None``
        when a name is no player's or the calls are no list (replayed)."""
        seat_of = self.seat_of
        bids = h.get("bids")
        dealer = seat_of.get(h.get("dealer"))  # type: ignore[arg-type]
        if dealer is None or (bids is not None and bids.__class__ is not list):
            return None
        contract = None
        if "contract" in h:
            c = h["contract"]
            bidder = seat_of.get(c.get("bidder")) if c.__class__ is dict else None  # type: ignore[arg-type]
            if bidder is None:
                return None
            contract = bidder, c.get("bid")
        return dealer, None if bids is None else tuple(bids), contract

    def _feed_exchange(self, batch: QuickBatch, mapped: bool = False) -> bool:
        """``feed`` for a batch of ten-point hands with an exchange: each hand
        of full detail (the deal and discards of every player, their draws or
        the kitty, trump, the tricks, the dead cards where there are some), or
        play-level (trump and the tricks, and the dead cards or not, none of the
        other places: what each seat holds is what it plays); any other is replayed."""
        table = self.out.table
        assert table is not None
        players = table.players
        n = len(players)
        index_of = NOTATION_INDEX.__getitem__  # (a text that is no card raises: see ``feed``)
        add = batch.add_exchange_hand  # type: ignore[attr-defined]
        for h in self.rec["hands"]:
            if not _known_keys(h, _EXCHANGE_KEYS):
                return False
            auction = self._auction_of(h)
            tricks, suit = h.get("tricks"), h.get("trump")
            if auction is None:
                return False
            if tricks is None and _TALLY_KEYS.isdisjoint(h):  # a tally: no cards, scored from its points
                if not self._feed_points(batch, auction, h):
                    return False
                continue
            if tricks.__class__ is not list or suit is None:
                return False
            read = self._leads_of(tricks, mapped)
            if read is None:
                return False
            tricks, leads = read
            trump = parse_suit(suit)
            if trump is None:
                return False
            dead, kitty = h.get("dead"), h.get("kitty")
            if dead is not None and dead.__class__ is not list:
                return False
            places: list[Any] = []  # play-level: none of them recorded (the dead cards may be)
            if not _PLACES.isdisjoint(h):
                places = [h.get(key) for key in ("deal", "discards", "draws")]
                if places[2] is None:
                    del places[2]  # (no draws: a cut-down's kitty, or replayed)
                if (kitty is not None and kitty.__class__ is not list) or not all([_by_player(m, n) for m in places]):
                    return False
            try:
                dealt, discards, *draws = ([list(map(m.__getitem__, players)) for m in places] if places
                                           else (None, None))
                partner = h.get("partner")
                if partner is not None:
                    partner = self._partner_of(partner)
                    if partner is None:
                        return False
                if not add(*auction, trump, dealt, dead, discards, draws[0] if draws else None, kitty, tricks,
                           index_of, partner, leads):
                    return not mapped and self._again(batch, tricks)
            except (KeyError, TypeError):  # a name that is no player's, a text that is no card or can't be one
                return not mapped and self._again(batch, tricks)
        return True

    def _feed_points(self, batch: QuickBatch, auction: tuple[int, tuple[object, ...] | None,
                                                             tuple[int, object] | None], h: dict[str, Any]) -> bool:
        """A ten-point tally hand ``h`` to the batch: the points each unit took,
        as ``tally`` reads them (``x-`` keys left out; a name that is no unit's,
        or a count that is no whole number: replayed), and its call of partners
        and trump, if recorded."""
        points, partner, trump = h.get("points"), h.get("partner"), h.get("trump")
        if points.__class__ is not dict:
            return False  # (no points: nothing to score the hand from; the full replay says)
        if partner is not None:  # (a called partner: the trump, if recorded, is what the cards are held to)
            trump = None if trump is None else parse_suit(trump)
            partner = self._partner_of(partner)
            if partner is None or (trump is None and "trump" in h):
                return False
            try:
                partner = list(map(NOTATION_INDEX.get, partner[0], repeat(-1))), partner[1]
            except TypeError:  # a card that can't be one (a list): the full replay says
                return False
        table = self.out.table
        assert table is not None
        taken = [0] * len(table.unit_names)
        unit_at = self.unit_at
        for name, n in points.items():  # type: ignore[attr-defined]
            if name.startswith("x-"):
                continue
            u = unit_at.get(name, -1)
            if u < 0 or n.__class__ is not int:
                return False
            taken[u] = n
        if partner is None:
            return batch.add_tally(*auction, taken)
        return batch.add_tally(*auction, taken, partner, trump)  # type: ignore[call-arg]

    def _partner_of(self, partner: object) -> tuple[list[object], list[int] | None] | None:
        """A hand's ``partner`` as the quick pass takes it, as ``partner`` reads
        it: the cards called and the seats of the partners recorded (``None``:
        none recorded); ``None`` when a name is no player's (R413: replayed)."""
        if partner.__class__ is not dict:
            return None
        p: dict[str, Any] = partner  # type: ignore[assignment]
        cards = p["cards"] if "cards" in p else [p["card"]] if "card" in p else []
        names = p.get("players", [p["player"]] if "player" in p else None)
        if cards.__class__ is not list or (names is not None and names.__class__ is not list):
            return None
        if names is None:
            return cards, None
        seats = [self.seat_of.get(name) for name in names]
        return None if None in seats else (cards, seats)  # type: ignore[return-value]

    def _feed_tally(self, batch: QuickBatch, dealer: int, calls: tuple[object, ...] | None,
                    contract: tuple[int, object] | None, points: object) -> bool:
        """A tally hand of Auction Pitch to the batch: who took each award, by
        unit, as ``tally`` reads it (a name that is no unit's: replayed, R413)."""
        if points.__class__ is not dict:
            return False  # (no points: nothing to score the hand from; the full replay says)
        try:
            taken_by = list(map(self.unit_at.get, map(points.get, AWARDS), repeat(-2)))  # type: ignore[attr-defined]
        except TypeError:  # a name that can't be one (a list): the full replay says
            return False
        return -2 not in taken_by and batch.add_tally(dealer, calls, contract, taken_by)

    def accept(self, verdict: GameVerdict) -> bool:
        """Take the quick pass's verdict of a clean game if every claim of the
        record agrees with it, by the full replay's comparison (``claims``,
        ``finish``: ``compare_claims``), so that the two paths can't judge a
        claim apart (the totals and winner set; the hands replayed in full
        when read); False: replay the game in full, which reports."""
        table = self.out.table
        assert table is not None
        names = list(table.unit_names)  # (a list, as _agrees compares)
        taken = verdict.points
        for i, (h, delta, totals, taken_by) in enumerate(zip(self.rec["hands"], verdict.deltas,
                                                             verdict.totals_after, verdict.taken_by,
                                                             strict=True)):
            if "score" in h and not _agrees(h["score"], names, delta):
                return False
            if "totals" in h and not _agrees(h["totals"], names, totals):
                return False
            if "points" in h and "tricks" in h:  # (a tally's points are what it is scored from: no claim)
                points = h["points"]
                if points.__class__ is not dict:
                    return False
                if taken is not None:  # ten-point: the points each unit took, as ``claims`` compares them
                    claim, derived = without_extensions(points), dict(zip(names, taken[i], strict=True))
                else:
                    claim = claimed_awards(points)
                    derived = {kind: None if u < 0 else names[u] for kind, u in zip(AWARDS, taken_by, strict=True)}
                if compare_claims(claim, derived):
                    return False
        out = self.out
        out.totals = verdict.totals
        out.winner = None if verdict.winner is None else names[verdict.winner]
        out.winner_hand = verdict.won_after
        res = self.rec.get("result")
        if isinstance(res, dict) and (
                ("winner" in res and res["winner"] != out.winner) or
                ("scores" in res and compare_claims(res["scores"], dict(zip(names, verdict.totals, strict=True))))):
            return False
        rec = self.rec
        out._replay = lambda: Driver(rec, ()).run()
        out._scores = lambda: verdict.scores(table.unit_of)
        return True

    # --- names ---------------------------------------------------------
    def seat(self, name: object, at: str) -> int | None:
        """The seat of a player named at ``at`` (None, reported: no such player)."""
        seat = self.seat_of.get(name) if isinstance(name, str) else None
        if seat is None:
            players = self.out.table.players  # type: ignore[union-attr]
            self.bad("R413", None, f"{quote(name)} is not one of the players "
                     f"({', '.join(map(short, players))}){did_you_mean(name, players)}", at)
        return seat

    def unit(self, name: object, at: str) -> int | None:
        """The scoring unit (player or team) named at ``at`` (None, reported: none)."""
        table = self.out.table
        assert table is not None
        unit = table.unit_index(name) if isinstance(name, str) else None
        if unit is None:
            what = "teams" if table.profile.has_teams else "players"
            self.bad("R413", None, f"{quote(name)} is not one of the {what} "
                     f"({', '.join(map(short, table.unit_names))}){did_you_mean(name, table.unit_names)}", at)
        return unit

    def cards(self, texts: list[Any], at: str) -> Cards:
        """Parse a list of cards found at ``at`` (a hot path: one dict look-up
        per card, in C; a card's own pointer is made only if it is reported)."""
        try:
            parsed = list(map(NOTATION_INDEX.get, texts))
        except TypeError:  # a value that can't be a key (the schema said so)
            parsed = [None] * len(texts)
        if None not in parsed:
            return Cards(parsed, at)  # type: ignore[arg-type]
        kept: list[int] = []
        for j, (t, c) in enumerate(zip(texts, parsed, strict=True)):
            if c is None or t.__class__ is not str:
                self.bad("R401", "CARD-3", f"{quote(t)} is not a card", f"{at}/{j}")
            else:
                kept.append(j)
        return Cards(parsed, at).keep(kept)  # type: ignore[arg-type]

    def by_player(self, h: dict[str, Any], key: str, at: str) -> Iterator[tuple[int, Cards]]:
        """The card lists of a hand's mapping by player (``deal``, ``discards``,
        ``draws``) with the seat of each player; ``x-`` extension keys left out,
        a name that is no player reported (R413)."""
        player_key = self.player_key
        for name, cs in (h.get(key) or {}).items():
            found = player_key.get(name)
            if found is not None:
                yield found[0], self.cards(cs, f"{at}/{key}/{found[1]}")
            elif not name.startswith("x-"):
                self.seat(name, f"{at}/{key}/{esc(name)}")  # no such player: reported (R413)

    # --- one hand --------------------------------------------------------
    def hand(self, h: dict[str, Any], at: str) -> None:
        """Feed one hand of the record to the engine."""
        before = len(self.v)
        dealer = self.seat(h.get("dealer"), at + "/dealer")
        if dealer is None:
            self.game.end_hand(None)
            return
        hs, problems = self.game.begin_hand(dealer, at)
        self.v.extend(self.tidy(problems))
        result = self.play(h, hs, at)
        found = hs.violations
        if self.misseated(problems, found) and any(v.code == "R403" for v in found):
            # A wrong dealer or a broken auction seats the play wrongly: every
            # card then looks played by the wrong player. That is the error
            # already reported, not a new one (one error in, one diagnostic
            # out). The play is judged as the seating that explains it best
            # sees it, so an independent error (a card nobody held, a suit not
            # followed) is still reported, naming the player who made it.
            better = self.seated_otherwise(h, hs, at)
            if better is not None:
                found = [v for v in found if v.code in _AUCTION] + [v for v in better if v.code not in _AUCTION]
        self.v.extend(self.tidy(found))
        self.game.end_hand(result)
        broken_here = any(v.code.startswith("R") and v.code != "R412" for v in self.v[before:])
        self.broken = self.broken or broken_here
        if result is not None:
            self.claims(h, hs, result, at, broken_here)

    @staticmethod
    def misseated(problems: list[Violation], found: list[Violation]) -> bool:
        """True when the hand's seats rest on a reported mistake: a wrong
        dealer (R405) or a call the auction does not allow (R404), which set
        who bids what, so who is the bidder, so who leads and plays each card."""
        return any(v.code == "R405" for v in problems) or any(v.code == "R404" for v in found)

    def seated_otherwise(self, h: dict[str, Any], hs: HandState, at: str) -> list[Violation] | None:
        """The findings of the hand replayed with the other dealer (so other
        seats for the calls, the bidder and the play) that leaves the fewest
        cards played by a player who didn't hold them (R403), when that is
        fewer than ``hs`` left; else ``None``. The trial replays leave nothing
        else behind (what the feed reports during them is dropped)."""
        def held(found: list[Violation]) -> int:
            return sum(v.code == "R403" for v in found)

        mark = len(self.v)
        best, fewest = None, held(hs.violations)
        try:
            for dealer in range(len(self.game.table.players)):
                if dealer == hs.dealer:
                    continue
                trial = HandState(self.game.table, dealer, hs.number, at)
                self.play(h, trial, at)
                if held(trial.violations) < fewest:
                    best, fewest = trial.violations, held(trial.violations)
                if fewest == 0:
                    break
            return best
        finally:
            del self.v[mark:]

    def play(self, h: dict[str, Any], hs: HandState, at: str) -> HandResult | None:
        """Feed one hand's calls, cards and tally to ``hs`` and finish it: the
        engine's findings stay in ``hs.violations``, the feed's own (a name
        that is no player's) go to the record's."""
        fam = hs.fam
        if "bids" in h:
            for j, b in enumerate(h["bids"]):
                hs.call(None if isinstance(b, str) else b, f"{at}/bids/{j}")
            hs.close_auction(at + "/bids")
        if "contract" in h:
            c = h["contract"]
            bidder = self.seat(c.get("bidder"), at + "/contract/bidder")
            if bidder is not None:
                hs.set_contract(bidder, c["bid"], at + "/contract")
        if "bids" not in h and "contract" not in h:
            self.bad("R414", fam.rule("contract"), "the hand has neither 'bids' nor 'contract': "
                     "it can't be scored", at)
        for s, cards in self.by_player(h, "deal", at):
            hs.deal(s, cards)
        if "kitty" in h:
            hs.set_kitty(self.cards(h["kitty"], at + "/kitty"))
        if "dead" in h:
            hs.set_dead(self.cards(h["dead"], at + "/dead"))
        if "trump" in h:
            suit = parse_suit(h["trump"])
            if suit is not None:
                hs.name_trump(suit, at + "/trump")
        partner = h.get("partner")
        if partner is not None or hs.p.calls_partner:
            self.partner(hs, partner or {}, at)
        for key, step in (("discards", hs.discard), ("draws", hs.draw)):
            for s, cards in self.by_player(h, key, at):
                step(s, cards)
        for k, trick in enumerate(h.get("tricks") or ()):
            tat = f"{at}/tricks/{k}"
            if trick.__class__ is dict:
                lead = trick.get("lead")
                lead_seat = self.seat(lead, tat + "/lead") if lead is not None else None
                hs.play_trick(self.cards(trick.get("cards") or [], tat + "/cards"), tat, lead_seat,
                              tat + "/lead")
            else:
                hs.play_trick(self.cards(trick, tat), tat)
        if "points" in h:
            self.tally(hs, h["points"], at + "/points")
        return hs.finish()

    def partner(self, hs: HandState, partner: dict[str, Any], at: str) -> None:
        """Feed a hand's recorded partner call (ten-point, called partner)."""
        pat = at + "/partner"
        if "cards" in partner:
            cards = self.cards(partner["cards"], pat + "/cards")
        elif "card" in partner:
            cards = self.cards([partner["card"]], pat + "/card")
            cards.single = True
        else:
            cards = Cards([], pat)
        claim: list[int] | None = None
        names = partner.get("players", [partner["player"]] if "player" in partner else None)
        claim_at = pat + ("/players" if "players" in partner else "/player")
        if names is not None:
            seats = [self.seat(n, claim_at) for n in names]
            claim = [s for s in seats if s is not None]
        hs.call_partner(cards, claim, pat, claim_at if names is not None else pat)

    def tally(self, hs: HandState, points: dict[str, Any], at: str) -> None:
        """Feed a tally hand: the points taken, recorded without cards."""
        if hs.fam.scores_awards:
            awards: dict[str, int | None] = {}
            for kind in AWARDS:
                name = points.get(kind)
                awards[kind] = None if name is None else self.unit(name, f"{at}/{kind}")
            hs.set_tally(awards, None, at)
        else:
            table = self.out.table
            assert table is not None
            taken = [0] * len(table.unit_names)
            for name, n in points.items():
                if name.startswith("x-"):
                    continue
                u = self.unit(name, f"{at}/{esc(name)}")
                if u is not None:
                    taken[u] = n
            hs.set_tally(None, taken, at)

    # --- claims --------------------------------------------------------
    def claims(self, h: dict[str, Any], hs: HandState, r: HandResult, at: str, broken: bool) -> None:
        """Compare what the hand records (points, score, totals, ...) with the engine's result."""
        table = self.out.table
        assert table is not None
        names = table.unit_names
        if "totals" in h and self.game.known and not self.broken:
            self.compare("C503", h["totals"], dict(zip(names, self.game.totals, strict=True)),
                         at + "/totals", "running totals", r.number)
        if broken:
            return  # this hand's points and score would only echo the broken rule
        if "points" in h and r.level != "tally":
            if not hs.fam.scores_awards:
                derived: dict[str, Any] = dict(zip(names, r.taken, strict=True))
                claimed = without_extensions(h["points"])
            else:
                derived = {k: (None if a.unit is None else names[a.unit]) for k, a in r.awards.items()}
                claimed = claimed_awards(h["points"])
            self.compare("C501", claimed, derived, at + "/points", "points taken", r.number)
        if "score" in h:
            self.compare("C502", h["score"], dict(zip(names, r.delta, strict=True)),
                         at + "/score", "score change", r.number)

    def compare(self, code: str, claimed: dict[str, Any], derived: dict[str, Any], at: str,
                what: str, hand: int | None) -> None:
        """Report every key where a claim disagrees with the derivation
        (``compare_claims``: a missing or extra name is a disagreement too;
        the claim's ``x-`` extension keys are left out)."""
        for dis in compare_claims(claimed, derived):
            key, c, d = dis.key, dis.claimed, dis.derived
            where = f"{at}/{esc(key)}" if key in claimed else at
            prefix = f"hand {hand}: " if hand else ""
            if key not in derived:
                # A name the replay doesn't know is likely a misspelling of one it does.
                hint = did_you_mean(key, [k for k in derived if k not in claimed])
                text = f"{what} is recorded for {quote(key)}, who is not a player or team{hint}"
            elif key not in claimed:
                text = f"{what} of {key} is missing; the replay gives {_show(d)}"
            else:
                text = f"{what} of {key} is recorded as {_show(c)}, but the replay gives {_show(d)}"
            self.bad(code, None, prefix + text, where, key=key, claimed=c, derived=d)

    def finish(self) -> None:
        """End the game: the result and the hands after it are checked."""
        out, game = self.out, self.game
        table = out.table
        assert table is not None
        out._hands = game.hands
        out.totals = list(game.totals) if game.known else None
        out.winner = None if game.winner is None else table.unit_names[game.winner]
        out.winner_hand = game.won_after
        if game.won_after is not None:
            won = game.hands[game.won_after - 1]
            out._end = won.end if won is not None else None
        res = self.rec.get("result")
        if not isinstance(res, dict) or not game.known or self.skipped("/result") or self.broken:
            return
        if "winner" in res and res["winner"] != out.winner:
            self.bad("C504", None, f"the result names {_show(res['winner'], 'nobody (unfinished)')} "
                     f"as the winner, but the hands give {_show(out.winner, 'nobody yet (unfinished)')}",
                     "/result/winner", claimed=res["winner"], derived=out.winner)
        if "scores" in res:
            self.compare("C504", res["scores"],
                         dict(zip(table.unit_names, game.totals, strict=True)),
                         "/result/scores", "final score", None)


# The auction's own findings: kept as the recorded seats give them when the play
# is judged in another seating (``Driver.seated_otherwise``).
_AUCTION = frozenset({"R404"})

# The fields of a hand the quick pass reads (``notes`` and ``x-`` keys the
# engine never reads); a hand with any other (kitty, partner, …) is replayed in full.
_QUICK_KEYS = frozenset({"dealer", "deal", "bids", "contract", "trump", "tricks", "points", "score",
                         "totals", "notes"})
# ... and those of a ten-point hand (its exchange: discards, draws or the kitty; dead cards; a called partner).
_EXCHANGE_KEYS = _QUICK_KEYS | {"discards", "draws", "dead", "kitty", "partner"}
# The fields of a trick written with its leader (and ``x-`` keys), as the quick pass reads it.
_TRICK_KEYS = frozenset({"lead", "cards"})
# The places of a ten-point hand's cards before play: a hand with none of them is play-level
# (its dead cards, set aside face down, may be recorded or not).
_PLACES = frozenset({"deal", "discards", "draws", "kitty"})
# The places a ten-point tally has none of (with any, it is not a tally the quick pass reads).
_TALLY_KEYS = _PLACES | {"dead"}


def _known_keys(h: object, keys: frozenset[str]) -> bool:
    """True for a hand (a mapping) whose every field is one of ``keys`` or an ``x-`` extension."""
    return h.__class__ is dict and (keys.issuperset(h) or all(  # type: ignore[arg-type]
        k in keys or k.startswith("x-") for k in h))  # type: ignore[attr-defined]


def _by_player(m: object, n: int) -> bool:
    """Whether ``m`` is a mapping by player (a deal, the discards, the draws) of
    ``n`` entries besides ``x-`` extension keys, which ``by_player`` leaves out
    too. (The feed then reads each player's entry: a player missing raises, and
    with the count, no other key is there.)"""
    return m.__class__ is dict and (len(m) == n or len(m) - sum(  # type: ignore[arg-type]
        k.__class__ is str and k.startswith("x-") for k in m) == n)  # type: ignore[attr-defined]


def _agrees(claim: object, names: list[str], values: list[int]) -> bool:
    """Whether ``compare_claims`` finds the claim ``claim`` agrees with the
    values derived for ``names``. Read first as a record writes it, every name
    in table order (then its keys and values in order are the dict's equality,
    which ``compare_claims`` tests first), with no dict made per hand."""
    if claim.__class__ is dict and list(claim.values()) == values and list(claim) == names:  # type: ignore[call-overload]
        return True
    return not compare_claims(claim, dict(zip(names, values, strict=True)))  # type: ignore[arg-type]


def claimed_awards(points: dict[str, Any]) -> dict[str, Any]:
    """A hand's ``points`` as an Auction Pitch claim: who took each award
    (``None``: not awarded, or not written)."""
    return {k: points.get(k) for k in AWARDS}


def _show(value: object, none: str = "none") -> str:
    if value is None:
        return none
    if isinstance(value, str) and value in (MISSING, NOT_A_UNIT):
        return value
    return str(value) if isinstance(value, int) else quote(value)


def analyze(record: dict[str, Any], skip: Collection[str] = (),
            ignore: Collection[str] = (), quick: bool = False) -> GameAnalysis:
    """Replay ``record`` in the engine. ``skip``: pointers the schema rejected
    (a hand with one is not replayed); ``ignore``: fields the schema stage
    reported as fields the profile doesn't have (the rest of their hand is
    replayed without them). ``quick``: let the engine's quick pass decide a
    clean game (see ``analyze_many``)."""
    if quick and not skip and not ignore:
        found = analyze_many([record])[0]
        if found is not None:
            return found
    return Driver(record, skip, ignore).run()


def analyze_many(records: Sequence[dict[str, Any]]) -> list[GameAnalysis | None]:
    """The engine's quick pass over many records, each as loaded and valid by
    the schema with no field its profile lacks: for each, the analysis of a
    clean game (no violation; the totals and the winner; ``hands`` and ``end``
    replayed in full when first read), or ``None``: not known clean, replay it
    with ``analyze``. The same answers as ``analyze``, many times faster on a
    large batch: for a caller that needs the verdict, as ``pitch validate``."""
    from pitchcli.engine.quick_points import batch_class  # numpy: only for a batch

    out: list[GameAnalysis | None] = [None] * len(records)
    batches: dict[tuple[object, ...], QuickBatch] = {}
    fed: list[tuple[int, Driver, QuickBatch, int]] = []
    seated: Seated = {}  # (a batch's games sit at the same few tables; kept for the batch alone: memory flat)
    for i, rec in enumerate(records):
        d = Driver(rec, (), seated=seated)
        if not isinstance(rec.get("hands"), list) or not d.setup() or d.v:
            continue
        table = d.out.table
        assert table is not None
        kind = batch_class(table)  # (asked of each record: an equal profile may hold 6.0 for 6)
        if kind is None:
            continue
        key = (table.profile, table.seats, table.unit_of)
        batch = batches.get(key)
        if batch is None:
            batch = batches[key] = kind(table)
        batch.begin_game()
        if d.feed(batch):
            fed.append((i, d, batch, len(batch.games) - 1))
        else:
            batch.drop_game()
    verdicts = {id(b): b.decide() for b in batches.values()}
    for i, d, batch, g in fed:
        verdict = verdicts[id(batch)][g]
        if verdict is not None and d.accept(verdict):
            out[i] = d.out
    return out
