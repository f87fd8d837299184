"""pitch report's site as an organiser publishes it (issue 24): each numbered
defect of the issue has a test here that failed on the site before it.

The site is made from two nights of one event that both number their rounds
1 and 2 (the Winter Setback Open's rounds 1-2 played again a week later),
named by an absolute path as an organiser's script would. The pages are read
as HTML here; tests/render/test_site_browser.py renders them in Chromium.
"""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from pitchcli.cli import main
from pitchcli.render.chart import AXIS_INK, DASHES, MAX_LINE, PALETTE, chart_data, sparkline
from pitchcli.render.fragments import card_name
from pitchcli.render.summary import team_label
from pitchcli.views.game import GameView, HandView

ROOT = Path(__file__).resolve().parents[2]
WINTER = ROOT / "samples" / "tournament" / "winter-setback-open"
NIGHTS = ("2026-11-21", "2026-11-28")


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def two_nights(folder: Path) -> Path:
    """Rounds 1 and 2 of the Winter Setback Open on two nights: 8 games a night."""
    for night in NIGHTS:
        (folder / night).mkdir(parents=True)
        for r in ("round-1.yaml", "round-2.yaml"):
            text = (WINTER / r).read_text(encoding="utf-8").replace(f'date: "{NIGHTS[0]}"', f'date: "{night}"')
            text = text.replace("$schema=../../../", "$schema=../../../../")
            (folder / night / r).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return two_nights(tmp_path_factory.mktemp("organiser") / "club" / "records").resolve()


@pytest.fixture(scope="module")
def site(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    r = run("report", str(corpus), "-o", str(out))  # an absolute path, as a script names it
    assert r.exit_code == 0, r.output
    return out


def html_files(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in sorted(site.rglob("*.html"))}


EVENT = "winter-setback-open/index.html"


# --- 1 and 2: tables a keyboard and a screen reader can use ------------------------------


def test_every_table_has_a_caption_and_every_header_a_scope(site: Path) -> None:
    for name, html in html_files(site).items():
        tables = re.findall(r"<table\b.*?</table>", html, re.S)
        assert tables, name
        for t in tables:
            assert re.search(r"<table[^>]*>\s*<caption>[^<\s]", t), (name, t[:120])
        for th in re.findall(r"<th\b[^>]*>.*?</th>", html, re.S):
            assert re.match(r'<th\b[^>]*\bscope="(col|row)"', th), (name, th)
            assert re.sub(r"<[^>]*>", "", th).strip(), (name, th)  # no empty header


def test_no_table_head_is_sticky_inside_its_scrolling_box() -> None:
    """Defect 1: the sticky header sat inside the scrolling box and scrolled away with it."""
    css = (ROOT / "pitchcli" / "templates" / "style.css").read_text(encoding="utf-8")
    rules = re.findall(r"([^{}]+)\{([^}]*)\}", css)
    assert rules
    sticky = [sel.strip() for sel, body in rules if re.search(r"position:\s*sticky", body)
              and re.search(r"\b(th|thead)\b", sel)]
    assert sticky == []


def test_scrolling_boxes_can_be_reached_by_keyboard(site: Path) -> None:
    for name, html in html_files(site).items():
        for box in re.findall(r'<[a-z]+ class="scroll"[^>]*>', html):
            assert 'tabindex="0"' in box and re.search(r'aria-label="[^"]+"', box), (name, box)


def test_links_to_games_say_which_game(site: Path) -> None:
    html = (site / EVENT).read_text(encoding="utf-8")
    for table in re.findall(r"<table class=\"round\">.*?</table>", html, re.S):
        links = re.findall(r'<a href="game-\d+\.html">([^<]*)</a>', table)
        assert len(links) == 4 and len(set(links)) == 4, links  # "Table 1" .. "Table 4", not "game" x4
        assert all(t.startswith("Table ") for t in links)


# --- 3: rounds by night ------------------------------------------------------------------


def test_summarize_by_round_keeps_two_nights_round_1_apart(corpus: Path) -> None:
    doc = json.loads(run("summarize", "--by", "round", "--format", "json", str(corpus)).stdout)
    (ev,) = doc["events"]
    assert [(r["date"], r["round"]) for r in ev["rounds"]] == [
        (NIGHTS[0], "1"), (NIGHTS[0], "2"), (NIGHTS[1], "1"), (NIGHTS[1], "2")]
    games = [sum(p["games"] for p in r["players"]) for r in ev["rounds"]]
    assert games == sorted(set(games))  # every round adds games: none is merged into another
    first = json.loads(run("summarize", "--format", "json", str(corpus / NIGHTS[0] / "round-1.yaml")).stdout)
    assert ev["rounds"][0]["players"] == first["events"][0]["players"]
    text = run("summarize", "--by", "round", str(corpus)).stdout
    assert f"Players after round 1 of {NIGHTS[1]}" in text
    csv_rows = run("summarize", "--by", "round", "--format", "csv", str(corpus)).stdout.splitlines()
    assert list(dict.fromkeys(tuple(r.split(",")[:2]) for r in csv_rows[1:])) == [
        ("1", NIGHTS[0]), ("2", NIGHTS[0]), ("1", NIGHTS[1]), ("2", NIGHTS[1])]


def test_event_page_lists_nights_with_their_rounds(site: Path) -> None:
    html = (site / EVENT).read_text(encoding="utf-8")
    assert re.findall(r'<h2 id="night-\d+">([^<]*)</h2>', html) == list(NIGHTS)
    captions = re.findall(r'<table class="round">\s*<caption>([^<]*)</caption>', html)
    assert captions == [f"Round {r} of {n}" for n in NIGHTS for r in (1, 2)]
    for table in re.findall(r"<table class=\"round\">.*?</table>", html, re.S):
        numbers = re.findall(r">Table (\d+)</a>", table)
        assert sorted(numbers) == ["1", "2", "3", "4"]  # no table twice in a round


# --- 4: titles ----------------------------------------------------------------------------


def test_every_page_has_a_title_of_its_own(site: Path) -> None:
    titles = {name: re.search(r"<title>([^<]*)</title>", html).group(1) for name, html in html_files(site).items()}
    repeated = {t: n for t, n in Counter(titles.values()).items() if n > 1}
    assert not repeated
    assert all(len(t) <= 70 for t in titles.values())


# --- 5: page weight: standings after each night, not each round ------------------------------


def test_event_page_has_the_standings_after_each_night(site: Path, corpus: Path) -> None:
    html = (site / EVENT).read_text(encoding="utf-8")
    blocks = re.findall(r"<details>\s*<summary>After ([^<]*)</summary>(.*?)</details>", html, re.S)
    assert [n for n, _ in blocks] == list(NIGHTS)  # two nights, not four rounds
    final = json.loads(run("summarize", "--format", "json", str(corpus)).stdout)["events"][0]["players"]
    last = re.findall(r'<th class="name" scope="row"><a href="[^"]*">([^<]*)</a></th>', blocks[-1][1])
    assert last == [p["name"] for p in final]


def test_the_site_is_in_folders(site: Path) -> None:
    names = sorted(p.name for p in site.iterdir() if p.name != ".pitch-report.json")  # (report's manifest)
    assert names == ["index.html", "players", "ratings.html", "winter-setback-open"]
    assert len(list((site / "winter-setback-open").glob("game-*.html"))) == 16


# --- 6: the organiser's paths ------------------------------------------------------------------


def test_no_page_shows_where_the_organiser_keeps_the_records(site: Path, corpus: Path) -> None:
    for name, html in html_files(site).items():
        assert str(corpus.parent) not in html, name
    game = (site / "winter-setback-open" / "game-1.html").read_text(encoding="utf-8")
    assert f"<code>{NIGHTS[0]}/round-1.yaml</code>" in game


# --- 7: the chart -----------------------------------------------------------------------------------


def _luminance(colour: str) -> float:
    rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast(a: str, b: str = "#ffffff") -> float:
    """WCAG's contrast ratio of two #rrggbb colours."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_chart_colours_stand_out_on_white() -> None:
    assert min(contrast(c) for c in PALETTE) >= 3.0  # WCAG 1.4.11: graphics
    assert contrast(AXIS_INK) >= 4.5  # text
    assert len(set(DASHES)) == len(DASHES) == len(PALETTE)  # no line told by colour alone


def long_game(hands: int = 105, partners: bool = False) -> GameView:
    units = ["Ann", "Ben", "Cal"]
    steps = [HandView(n, "Ann", True, totals={"Ann": n % 7, "Ben": n % 7 if partners else n % 5, "Cal": n // 9})
             for n in range(1, hands + 1)]
    return GameView("g.yaml", 0, None, None, None, None, None, "auction", units, units, {}, 21, steps,
                    dict(steps[-1].totals or {}), None, None)


def test_partners_lines_that_coincide_are_told_apart() -> None:
    data = chart_data(long_game(12, partners=True))
    ann, ben, cal = data["series"]
    assert ben.totals == ann.totals and ben.same_as == "Ann" and cal.same_as is None
    assert len({s.dash for s in data["series"]}) == 3


def test_sparkline_fits_an_80_column_terminal() -> None:
    lines = sparkline(long_game()).splitlines()
    assert max(len(ln) for ln in lines) <= MAX_LINE
    assert "(" in lines[-1] and "of 106 totals shown" in lines[-1]


# --- 8: words -------------------------------------------------------------------------------------


def test_a_team_seated_in_both_orders_is_one_name() -> None:
    assert team_label("Ray & Vic", ("Ray", "Vic"), {"Ray & Vic", "Vic & Ray"}) == "Ray & Vic"
    assert team_label("Ray & Vic", ("Ray", "Vic"), {"Aces", "Vic & Ray"}) == "Aces (Ray & Vic)"


def test_called_cards_are_named_as_the_cards_say() -> None:
    assert card_name("LJ") == "Little joker" and card_name("BJ") == "Big joker"
    assert card_name("2S") == "2 of spades" and card_name("QH") == "Queen of hearts"


def test_team_standings_of_a_site(tmp_path: Path) -> None:
    games = tmp_path / "g.jsonl"
    assert run("simulate", "--variant", "auction-partners", "--games", "2", "--seed", "3", "--format", "jsonl",
               "-o", str(games)).exit_code == 0
    lines = games.read_text().splitlines()
    lines[1] = lines[1].replace("Ann & Cal", "Cal & Ann")  # the record names the pair the other way round
    records = [json.loads(line) for line in lines]
    for r in records:
        r["event"] = "Pairs"
    games.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert run("report", str(games), "-o", str(tmp_path / "site")).exit_code == 0
    html = (tmp_path / "site" / "pairs" / "index.html").read_text(encoding="utf-8")
    teams = re.search(r"<caption>Teams</caption>.*?</table>", html, re.S).group()
    assert "Ann &amp; Cal</th>" in teams and "Cal &amp; Ann" not in teams


# --- player pages --------------------------------------------------------------------------------------


def test_a_page_per_player_linked_from_every_name(site: Path, corpus: Path) -> None:
    final = json.loads(run("summarize", "--format", "json", str(corpus)).stdout)["events"][0]["players"]
    ratings = json.loads(run("ratings", "--format", "json", str(corpus)).stdout)
    index = (site / "index.html").read_text(encoding="utf-8")
    for p in final:
        page = site / "players" / f"{p['name'].lower()}.html"
        html = page.read_text(encoding="utf-8")
        assert f'href="players/{page.name}"' in index
        rows = re.findall(r'<table class="games">.*?</table>', html, re.S)[0].count("<tr>") - 1
        assert rows == p["games"]
        assert html.count('<span class="tag made">won</span>') == p["wins"]
        rated = next(r for r in ratings["players"] if r["name"] == p["name"])
        assert f"rating {rated['ordinal']:.2f}" in html
        assert '<svg class="rating-chart"' in html and "Head to head" in html


def test_game_pages_link_previous_next_and_the_rounds_other_tables(site: Path) -> None:
    html = (site / "winter-setback-open" / "game-2.html").read_text(encoding="utf-8")
    assert '<a rel="prev" href="game-1.html">' in html and '<a rel="next" href="game-3.html">' in html
    mates = re.findall(r'<a href="(game-\d+\.html)">Table \d</a>', html)
    assert mates == ["game-1.html", "game-3.html", "game-4.html"]


def test_rebuilding_gives_the_same_bytes(site: Path, corpus: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    assert run("report", str(corpus), "-o", str(again)).exit_code == 0
    assert html_files(again) == html_files(site)


def test_the_corpus_is_left_as_it_was(corpus: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy"
    shutil.copytree(corpus, copy)
    run("report", str(corpus), "-o", str(tmp_path / "s"))
    assert {p.name: p.read_bytes() for p in corpus.rglob("*.yaml")} == {p.name: p.read_bytes()
                                                                       for p in copy.rglob("*.yaml")}


# --- the deal as a hand diagram ------------------------------------------------------------


def _diagram(page: str, hand: int) -> dict[str, dict[str, list[str]]]:
    """Hand ``hand``'s diagram on a game page: each box's name -> label -> the cards' notations."""
    m = re.search(rf'<ul class="deal" aria-labelledby="hand-{hand}-deal">(.*?)</ul>', page, re.S)
    assert m, f"hand {hand} has no diagram"
    out: dict[str, dict[str, list[str]]] = {}
    for box in re.findall(r'<li class="seat[^"]*">(.*?)</li>', m.group(1), re.S):
        name = re.sub(r"<[^>]+>", "", re.search(r'<p class="seat-name">(.*?)</p>', box, re.S).group(1)).strip()
        out[name] = {}
        for held in re.findall(r'<p class="held">(.*?)</p>', box, re.S):
            label = re.search(r'<span class="held-label">([^<]*)</span>', held)
            out[name][label.group(1) if label else ""] = re.findall(r'class="card[^"]*" title="([^"]+)"', held)
    return out


@pytest.fixture(scope="module")
def deal_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The samples' full-detail, cut-down, play-level and tally games."""
    out = tmp_path_factory.mktemp("deals")
    r = run("report", *(str(ROOT / "samples" / s) for s in
                        ("auction-full.yaml", "ten-point.yaml", "ten-point-5.yaml", "auction-play.yaml",
                         "auction-tally.yaml")), "-o", str(out / "site"))
    assert r.exit_code == 0, r.output
    return out / "site"


def _page(site: Path, sample: str) -> str:
    """The one game page of the record ``sample``."""
    (page,) = [t for t in (p.read_text("utf-8") for p in site.glob("*/game-*.html")) if f"<code>{sample}</code>" in t]
    return page


def test_a_game_page_shows_each_hands_deal_as_a_diagram(deal_site: Path) -> None:
    page = _page(deal_site, "auction-full.yaml")
    d = _diagram(page, 1)
    assert list(d) == ["Ann", "Ben", "Cal dealer bidder", "Dot"]  # one box per player, seat order, the dealer said
    # each box suit by suit (spades, hearts, diamonds, clubs), from the ace down, as a hand diagram shows it
    assert d["Ann"] == {"Dealt": ["KS", "QS", "10H", "3H", "9D", "4D"]}
    assert d["Cal dealer bidder"] == {"Dealt": ["10S", "8H", "JD", "AC", "8C", "2C"]}
    assert page.index('aria-labelledby="hand-1-deal"') < page.index("Tricks of hand 1")  # the tricks below
    assert 'title="Little joker"' not in page and ">Little joker<" not in page  # no joker in Auction
    hands = len(re.findall(r'<section class="hand" id=', page))
    assert len(re.findall(r'<ul class="deal"', page)) == hands  # every hand


def test_ten_point_diagrams_show_the_exchange_and_the_kitty(deal_site: Path) -> None:
    refill = _diagram(_page(deal_site, "ten-point.yaml"), 1)
    assert refill["Ben dealer"]["Discarded"] == ["KS", "QS", "8S", "KH", "4H", "2H", "QD", "2D"]
    assert refill["Cal"]["Drew"] == ["AD", "6D", "3C"]
    assert refill["Ann"]["Dealt"] == ["9S", "5S", "JH", "8H", "6H", "9D", "7D", "5D", "4D"]
    cut = _diagram(_page(deal_site, "ten-point-5.yaml"), 1)
    (kitty,) = [k for k in cut if k.startswith("The kitty")]
    assert cut[kitty] == {"": ["8S", "AH", "8H", "9C"]}
    assert cut["Eve bidder"]["Discarded"] == ["AH", "8H", "7H", "3H", "JD", "6D", "KC", "9C"]


def test_every_box_lists_jokers_then_suit_by_suit_from_the_ace_down(deal_site: Path) -> None:
    ranks = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]

    def key(title: str) -> tuple[int, int]:
        if title.endswith("joker"):
            return (-1, 0 if title.startswith("Big") else 1)
        return ("SHDC".index(title[-1]), ranks.index(title[:-1]))

    seen_joker = False
    for sample in ("auction-full.yaml", "ten-point.yaml", "ten-point-5.yaml"):
        page = _page(deal_site, sample)
        for n in range(1, len(re.findall(r'<section class="hand" id=', page)) + 1):
            for box in _diagram(page, n).values():
                for cards in box.values():
                    assert cards == sorted(cards, key=key), (sample, n, cards)
                    seen_joker |= any(c.endswith("joker") for c in cards)
    assert seen_joker  # the jokers' place was looked at


def test_records_without_a_deal_say_so(deal_site: Path) -> None:
    for sample, why in (("auction-play.yaml", "the record gives the play"), ("auction-tally.yaml", "a tally")):
        page = _page(deal_site, sample)
        assert '<ul class="deal"' not in page
        assert page.count(f"The deal: not recorded ({why}") == len(re.findall(r'<section class="hand" id=', page))
