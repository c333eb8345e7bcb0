"""Each variant's rules page opens with how to play it, in players' words (set-up, a turn, how to win,
how to order on the game page), and the decisions interboard takes follow under their own heading.
The players' pages cannot drift from the code unnoticed: every action they show is one the family
reads, and their tables of numbers are the data's."""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from interboard.games import variants
from interboard.games.protocol import VariantInfo
from interboard.service.api import RateLimits, create_app

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"

OPENING = {
    "set-up": ("Set-up", "The aim"),
    "a turn": ("A turn", "A year"),
    "how to win": ("How to win", "The aim"),
    "ordering": ("Ordering here",),
}
"""What the players' part of every rules page has, each as the headings that may say it (Diplomacy's
page, the model of the others, says the set-up and the victory under "The aim" and its turn is "A
year")."""

PLAYERS_HEADINGS = ("Set-up", "A turn", "Orders", "Combat", "How to win", "Ordering here")
"""The headings of the players' pages of Global War, Axis & Allies and the hex wargame, in order."""


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    db = tmp_path_factory.mktemp("rules") / "rules.sqlite"
    with TestClient(create_app(f"sqlite:///{db}", sweep=None, limits=RateLimits.off())) as c:
        yield c


def sections(page: str) -> list[tuple[str, str, list[str]]]:
    """The rule sections of a rules page: (page name, its title, the headings under it)."""
    out = []
    for name, body in re.findall(
        r"<section id='rules-([^']+)' class='rule-text'>(.*?)</section>", page, re.S
    ):
        title = re.search(r"<h3[^>]*>(.*?)</h3>", body, re.S)
        headings = [html.unescape(h).strip() for h in re.findall(r"<h4[^>]*>(.*?)</h4>", body, re.S)]
        out.append((name, html.unescape(title.group(1)) if title else "", headings))
    return out


@pytest.mark.parametrize("info", variants(), ids=lambda info: info.id)
def test_a_rules_page_opens_with_how_to_play_and_the_decisions_follow(
    client: TestClient, info: VariantInfo
) -> None:
    page = client.get(f"/rules/{info.id}")
    assert page.status_code == 200
    found = sections(page.text)
    assert [name for name, _, _ in found] == list(info.rules)
    name, title, headings = found[0]
    assert title.endswith("how the game is played"), f"{name}: the first page is not the players' page"
    for what, choices in OPENING.items():
        assert any(h in headings for h in choices), (
            f"{name} says nothing under {' or '.join(choices)} ({what})"
        )
    for later, later_title, _ in found[1:]:
        assert "the decisions interboard plays by" in later_title, f"{later}: {later_title!r}"


PLAYERS_PAGES = ("global-war-play", "axis-allies-play", "vernian-play")


@pytest.mark.parametrize("name", PLAYERS_PAGES)
def test_the_players_pages_share_their_headings_and_come_before_a_decisions_page(name: str) -> None:
    text = (RULES / f"{name}.md").read_text(encoding="utf-8")
    headings = [h for h in re.findall(r"^## (.+)$", text, re.M) if h in PLAYERS_HEADINGS]
    assert tuple(headings) == PLAYERS_HEADINGS
    named = [info for info in variants() if name in info.rules]
    assert named, f"no variant shows {name}"
    for info in named:
        assert info.rules[0] == name and len(info.rules) > 1, info.id


# ---------------------------------------------------------------------- the examples are read
Reader = Callable[[str], object]
"""Reads an action's text for one variant of a family, raising ``ValueError`` if it cannot."""


def _global_war() -> tuple[frozenset[str], list[Reader]]:
    from interboard.games.globalwar import MAPS, Rules, new_game, parse_action
    from interboard.games.globalwar.actions import VERBS

    # A team game on each map whose players hold three cards, so that every kind of action is read.
    states = [new_game(Rules(map=m, teams=True, auto_placement=True), 1) for m in MAPS]
    states = [replace(s, hands=tuple((0, 1, 2) for _ in s.hands)) for s in states]
    return frozenset(VERBS), [functools.partial(parse_action, s) for s in states]


def _axis_allies() -> tuple[frozenset[str], list[Reader]]:
    from interboard.games.axis_allies.actions import parse_action
    from interboard.games.axis_allies.gamedata import GAMES, game_data

    verbs = {"buy", "convert", "transfer", "move", "raid", "place", "lose", "kamikaze", "press", "retreat"}
    return frozenset(verbs | {"submerge"}), [functools.partial(parse_action, game_data(g)) for g in GAMES]


def _hexwar() -> tuple[frozenset[str], list[Reader]]:
    from interboard.games.hexwar.actions import USAGE, parse_action
    from interboard.games.hexwar.gamedata import VARIANTS, game_data

    return frozenset(USAGE), [functools.partial(parse_action, game_data(v)) for v in VARIANTS]


READERS = {"global-war-play": _global_war, "axis-allies-play": _axis_allies, "vernian-play": _hexwar}


def examples(name: str, verbs: frozenset[str]) -> list[str]:
    """The code spans of a page that start with one of its family's verbs (a span may run over a line
    end, which Markdown reads as a space)."""
    text = (RULES / f"{name}.md").read_text(encoding="utf-8")
    spans = [" ".join(span.split()) for span in re.findall(r"`([^`]+)`", text)]
    return [span for span in spans if span.split()[0].lower() in verbs]


def reads(readers: list[Reader], text: str) -> str | None:
    """``None`` if a variant of the family reads ``text`` (an example may belong to one board: a
    Pacific purse, a Europe sea), else why the last one refused it."""
    why = "no variant"
    for read in readers:
        try:
            read(text)
            return None
        except ValueError as exc:
            why = str(exc)
    return why


@pytest.mark.parametrize("name", PLAYERS_PAGES)
def test_every_action_a_players_page_shows_is_one_the_family_reads(name: str) -> None:
    verbs, readers = READERS[name]()
    found = examples(name, verbs)
    assert len(found) >= 10, f"{name}: too few examples found ({found})"
    refused = {text: why for text in found if (why := reads(readers, text)) is not None}
    assert not refused


# ---------------------------------------------------------------------- the tables are the data's
def table(name: str, first: str) -> tuple[list[str], list[list[str]]]:
    """The Markdown table of a page whose header starts with ``first``: its header and rows, as cells."""

    def cells(line: str) -> list[str]:
        return [cell.strip() for cell in line.strip().strip("|").split("|")]

    lines = (RULES / f"{name}.md").read_text(encoding="utf-8").splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(f"| {first} |"))
    rows = []
    for line in lines[start + 2 :]:  # after the header and its |---| line
        if not line.startswith("|"):
            break
        rows.append(cells(line))
    return cells(lines[start]), rows


def test_the_axis_allies_unit_table_is_the_unit_data() -> None:
    from interboard.games.axis_allies.gamedata import GAMES, game_data

    def number(cell: str) -> int:
        return 0 if cell == "–" else int(cell)

    header, rows = table("axis-allies-play", "unit")
    assert header[:5] == ["unit", "cost", "attack", "defence", "move"]
    shown = {row[0]: tuple(number(c) for c in row[1:5]) for row in rows}
    bought = set()
    for game in GAMES:
        for unit in game_data(game).units.values():
            if unit.cost is None:
                continue  # airfields and harbours: on the board, never bought
            bought.add(unit.name)
            values = (unit.cost, unit.attack, unit.defence, unit.movement)
            assert shown.get(unit.name) == values, f"{game}: {unit.name} is {values}"
    assert set(shown) == bought


def test_the_hex_wargame_combat_table_is_the_data() -> None:
    from interboard.games.hexwar.gamedata import VARIANTS, game_data

    header, rows = table("vernian-play", "die")
    for variant in VARIANTS:
        data = game_data(variant)
        assert header[1:] == list(data.column_names)
        assert {int(row[0]): row[1:] for row in rows} == {
            die: [str(r) for r in row] for die, row in data.results.items()
        }
        assert str(data.below_first) == "a2 d0"  # the page: below 1:2 the attacker loses 2 steps


def test_a_rules_pages_headings_can_be_linked_to(client: TestClient) -> None:
    """Each heading has an id, so the game page links straight to a part (the combat table)."""
    page = client.get("/rules/vernian_wwi").text
    assert "<h4 id='rules-vernian-play-combat'>Combat</h4>" in page
    ids = re.findall(r" id='([^']+)'", page)
    assert len(ids) == len(set(ids)), "an id is used twice"
