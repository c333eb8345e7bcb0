"""The registry and the protocol with a family installed from outside (an entry point): it is listed,
passes the conformance suite, and the game master runs it, including a decision asked of a seat that
is not the turn's owner, with its own deadline and its default."""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest
import typer
from sqlalchemy import Engine

import interboard.games as registry
from interboard.conformance import check_variant
from interboard.games import (
    BUILTIN,
    CATALOGS,
    catalog,
    catalogs,
    families,
    family,
    find_variant,
    listed_variant,
)
from interboard.games.protocol import FamilyError
from interboard.service.games import GameService, NewGame


@pytest.fixture
def duel(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The duel family of tests/duel_family.py, installed as a package would install it."""
    point = EntryPoint(name="duel", value="tests.duel_family:FAMILY", group=registry.ENTRY_POINT_GROUP)

    def entry_points(group: str) -> list[EntryPoint]:
        return [point] if group == registry.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(registry, "entry_points", entry_points)
    forget_what_the_registry_found()
    yield
    forget_what_the_registry_found()


def forget_what_the_registry_found() -> None:
    for found in (
        registry._targets,
        registry._family,
        registry.families,
        registry.catalogs,
        registry._listed_index,
        registry._variant_index,
        registry._found,
    ):
        found.cache_clear()


def test_builtin_families_and_an_unknown_one() -> None:
    assert list(families()) == ["diplomacy", "globalwar", "axis_allies", "hexwar"] == list(BUILTIN)
    with pytest.raises(
        FamilyError, match=r"unknown family .chess. \(families: diplomacy, globalwar, axis_allies, hexwar\)"
    ):
        family("chess")
    fam, info = find_variant("Twin-Earths-3")
    assert (fam.name, info.id) == ("diplomacy", "twin_earths_3")
    listed, variant = listed_variant("Twin-Earths-3")
    assert (listed.name, variant.id) == ("diplomacy", "twin_earths_3")
    with pytest.raises(FamilyError, match=r"unknown family .chess. \(families: diplomacy, globalwar"):
        catalog("chess")
    with pytest.raises(FamilyError, match=r"unknown variant 'diplomacy' \('diplomacy' is a family.*standard"):
        listed_variant("diplomacy")


@pytest.mark.parametrize("name", list(BUILTIN))
def test_a_builtin_familys_catalog_lists_what_the_family_offers(name: str) -> None:
    """The catalog is read instead of the family by ``interboard variants`` and ``--help`` and to
    find a variant's family: its names, variants and commands are the family's own."""
    listed, fam = catalog(name), family(name)
    assert list(catalogs()) == list(BUILTIN) == list(CATALOGS)
    assert (listed.name, listed.title, listed.cli) == (fam.name, fam.title, fam.cli)
    # Variants added from files in this process (tests of variant files) are not the catalog's.
    offered = [(v.id, v.title, v.description) for v in fam.variants() if v.definition is None]
    assert [(v.id, v.title, v.description) for v in listed.variants] == offered
    module = importlib.import_module(fam.cli) if fam.cli else None
    registered = {}
    if module is not None and hasattr(module, "register"):
        app = typer.Typer()
        module.register(app)
        registered = {
            name: inspect.cleandoc(command.help or "").split("\n\n")[0].strip()
            for name, command in typer.main.get_group(app).commands.items()
        }
    assert listed.commands is not None
    assert {c.name: c.summary for c in listed.commands} == registered


@pytest.mark.parametrize("package", ["interboard.games.diplomacy", "interboard.games.globalwar"])
def test_a_family_package_loads_its_names_when_asked_for(package: str) -> None:
    """Its names are listed three times (``games/lazy.py``): imported for the type checker, in the
    table the interpreter loads them by, and in ``__all__``; the three agree, and each name is the
    object its module defines."""
    module = importlib.import_module(package)
    assert module.__file__ is not None
    tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
    checked = next(node for node in tree.body if isinstance(node, ast.If))
    typed = {alias.name for node in checked.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    call = next(node for node in ast.walk(checked) if isinstance(node, ast.Call))
    table = ast.literal_eval(call.args[1])
    loaded = {name for names in table.values() for name in names.split()}
    assert typed == loaded == set(module.__all__)
    for relative, names in table.items():
        defined = importlib.import_module(relative, package)
        for name in names.split():
            assert getattr(module, name) is getattr(defined, name)


@pytest.mark.usefixtures("duel")
def test_an_installed_family_is_listed_and_passes_the_conformance_suite() -> None:
    assert list(families()) == [*BUILTIN, "duel"]
    fam, info = find_variant("duel")
    assert fam.name == "duel" and info.seats == ("A", "B")
    listed = catalogs()["duel"]  # read from the family itself, which keeps no catalog
    assert (listed.title, [v.id for v in listed.variants], listed.commands) == (
        "Duel (a test family)",
        ["duel"],
        (),
    )
    report = check_variant("duel", seed=2, max_steps=200)
    assert report.over and report.steps > 4


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


@pytest.mark.usefixtures("duel")
def test_a_defenders_decision_reaches_it_and_defaults_at_its_deadline(store: Engine) -> None:
    clock = Clock()
    service = GameService(store, clock)
    created = service.create(
        NewGame(
            variant="duel", seed=9, seats={"A": "Ann", "B": "Bob"}, deadlines={"turn": 600, "decision": 60}
        )
    )
    gid, tokens = created.game_id, created.seat_tokens
    view = service.public_view(gid)
    # The names players know it by: the family's and the variant's own titles, nothing else asked.
    assert (view["family_title"], view["variant_title"]) == ("Duel (a test family)", "Duel")
    assert view["acting"] == ["A"] and view["pending"]["kind"] == "turn" and view["pending"]["turn"] == "A"
    assert datetime.fromisoformat(view["deadline"]) == clock.now + timedelta(seconds=600)
    assert service.submit(gid, tokens["A"], view["phase"], ["attack 3"])[0]["ok"]
    service.set_ready(gid, tokens["A"], view["phase"], True)
    assert service.try_process(gid)

    # The defender, whose turn it is not, is asked; its deadline is the decision's.
    view = service.public_view(gid)
    assert (
        view["acting"] == ["B"] and view["pending"]["turn"] == "A" and view["pending"]["kind"] == "decision"
    )
    assert view["pending"]["prompts"] == {"B": "A attacks with 3 dice: block or dodge"}
    assert datetime.fromisoformat(view["deadline"]) == clock.now + timedelta(seconds=60)
    assert "rng" not in view["position"]
    history = service.history(gid)
    assert "dice" not in history[0]["results"][0]  # no die is thrown before the defender decides

    clock.now += timedelta(seconds=61)
    assert service.process_due() == [gid]
    last = service.history(gid)[-1]
    (result,) = last["results"]
    assert result["power"] == "B" and result["order"] == "block" and result["default"] is True
    assert len(result["dice"]) == 3  # rolled once, when the decision was processed, and kept
    assert service.public_view(gid)["acting"] == ["B"]  # B's own turn to attack now


@pytest.mark.usefixtures("duel")
def test_the_same_seed_gives_the_same_dice(store: Engine) -> None:
    service = GameService(store, Clock())
    rolls = []
    for _ in range(2):
        created = service.create(NewGame(variant="duel", seed=4, seats={"A": "bot:brave", "B": "bot:brave"}))
        for _ in range(2):
            service.try_process(created.game_id)
        rolls.append(service.history(created.game_id)[1]["results"][0]["dice"])
        assert service.public_view(created.game_id)["seed_chosen"] is True
    assert rolls[0] == rolls[1]


def test_every_variant_names_rule_pages_that_exist() -> None:
    from interboard.games import variants

    pages = Path(__file__).resolve().parents[1] / "docs" / "rules"
    for info in variants():
        assert info.rules, f"{info.id} names no rule page"
        for name in info.rules:
            assert (pages / f"{name}.md").is_file(), f"{info.id}: no docs/rules/{name}.md"
