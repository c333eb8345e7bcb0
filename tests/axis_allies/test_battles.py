"""Battles through the family protocol: the decision points they ask, and the rules that hold
whatever the dice (the dice come from the seed, and every roll is in the results)."""

from __future__ import annotations

from typing import Any

from interboard.games.axis_allies.family import FAMILY

from .harness import build, state_of


def game(**case: Any) -> dict[str, Any]:
    case.setdefault("game", "aa_europe_1999")
    return state_of(build(case))


def play(state: dict[str, Any], seat: str, actions: list[str]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    assert FAMILY.check(state, seat, actions) == [None] * len(actions)
    done = FAMILY.process(state, {seat: actions})
    return done.state, done.results


def dice(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [d for r in results for d in r.get("dice", [])]


def test_aa_guns_fire_once_at_each_attacking_aircraft() -> None:
    for seed in range(1, 8):
        state = game(
            power="UK", phase="combat_move", seed=seed,
            units=["UK 2 fighter United Kingdom", "UK 1 bomber United Kingdom", "GERMANY 3 infantry France",
                   "GERMANY 1 aa_gun France"],
        )  # fmt: skip
        state, results = play(state, "UK", ["move 2 fighter, 1 bomber from United Kingdom to France"])
        rolls = dice(results)
        aa = [d for d in rolls if d["stage"] == "aa"]
        assert len(aa) == 1 and aa[0]["values"] == [1, 1, 1] and len(aa[0]["dice"]) == 3
        assert all(d["round"] == 1 for d in aa)
        assert aa[0]["hits"] == sum(1 for x in aa[0]["dice"] if x == 1)


def test_the_defender_chooses_casualties_among_kinds_and_defaults_at_the_deadline() -> None:
    for seed in range(1, 30):
        state = game(
            power="GERMANY", phase="combat_move", seed=seed,
            units=["GERMANY 6 armour Poland", "USSR 2 infantry East Poland", "USSR 1 artillery East Poland"],
        )  # fmt: skip
        state, _results = play(state, "GERMANY", ["move 6 armour from Poland to East Poland"])
        pending = FAMILY.pending(state)
        if pending.kind == "decision" and "USSR" in pending.seats:
            assert pending.turn == "GERMANY"
            assert pending.prompts["USSR"].startswith("take ")
            options = FAMILY.legal(state, "USSR", []).actions
            assert options and all(o.startswith("lose ") for o in options)
            done = FAMILY.process(state, {})  # the deadline passes
            assert any(r["power"] == "USSR" and r.get("default") for r in done.results)
            return
    raise AssertionError("no seed made the defender choose")


def test_the_attacker_may_retreat_to_where_it_came_from() -> None:
    for seed in range(1, 40):
        state = game(
            power="GERMANY", phase="combat_move", seed=seed,
            units=["GERMANY 3 infantry Poland", "USSR 3 infantry East Poland"],
        )  # fmt: skip
        state, _ = play(state, "GERMANY", ["move 3 infantry from Poland to East Poland"])
        for _ in range(6):
            pending = FAMILY.pending(state)
            if pending.kind != "decision":
                break
            seat = pending.seats[0]
            choices = FAMILY.legal(state, seat, []).actions
            if "retreat to Poland" in choices:
                state, results = play(state, seat, ["retreat to Poland"])
                left = [u for u in state["units"] if u["p"] == "GERMANY"]
                assert left and all(u["at"] == "POLAND" for u in left)
                assert any("retreats from East Poland to Poland" in str(r.get("message")) for r in results)
                return
            state, _ = play(state, seat, [choices[0]])
    raise AssertionError("no seed offered a retreat")


def test_units_landed_from_the_sea_are_offered_no_retreat() -> None:
    state = game(
        power="UK", phase="combat_move", seed=3,
        units=["UK 1 transport English Channel", "UK 2 infantry English Channel",
               "UK 1 fighter United Kingdom", "GERMANY 4 infantry France"],
    )  # fmt: skip
    state, _ = play(
        state,
        "UK",
        ["move 2 infantry from English Channel to France", "move 1 fighter from United Kingdom to France"],
    )
    for _ in range(8):
        pending = FAMILY.pending(state)
        if pending.kind != "decision":
            break
        seat = pending.seats[0]
        choices = FAMILY.legal(state, seat, []).actions
        assert not any(c.startswith("retreat to English Channel") for c in choices)
        state, _ = play(state, seat, [choices[0]])


def test_fighters_against_a_lone_submarine_end_in_a_stalemate() -> None:
    state = game(
        power="UK", phase="combat_move",
        units=["UK 2 fighter United Kingdom", "GERMANY 1 submarine North Sea"],
    )  # fmt: skip
    state, results = play(state, "UK", ["move 2 fighter from United Kingdom to North Sea"])
    assert any("neither side can hit the other" in str(r.get("message")) for r in results)
    assert not dice(results)


def test_sea_battles_are_fought_before_land_battles() -> None:
    state = game(
        power="UK", phase="combat_move", seed=5,
        units=["UK 1 battleship North Sea", "UK 1 destroyer North Sea", "UK 2 fighter Norway",
               "GERMANY 1 transport Danish Sea", "GERMANY 1 infantry Denmark"], owner={"NORWAY": "UK"},
    )  # fmt: skip
    state, results = play(
        state,
        "UK",
        [
            "move 1 battleship, 1 destroyer from North Sea to Danish Sea",
            "move 2 fighter from Norway to Denmark",
        ],
    )
    battles = [str(r["message"]) for r in results if str(r.get("message", "")).startswith("battle in")]
    assert battles[0].startswith("battle in Danish Sea")


def test_a_strategic_bombing_raid_costs_at_most_the_territorys_value() -> None:
    for seed in range(1, 10):
        state = game(
            power="UK", phase="combat_move", seed=seed, ipcs={"GERMANY": 40},
            units=["UK 3 bomber United Kingdom", "GERMANY 1 factory Germany", "GERMANY 1 infantry Germany"],
        )  # fmt: skip
        state, results = play(state, "UK", ["raid 3 bomber from United Kingdom to Germany"])
        bombing = [d for d in dice(results) if d["stage"] == "bombing"]
        if not bombing:
            continue  # every bomber fell to the AA gun... there is none here, so this cannot happen
        lost = 40 - state["ipcs"]["GERMANY"]
        assert lost == min(sum(bombing[0]["dice"]), 6)
        assert all(
            u["t"] != "infantry" or u["p"] != "GERMANY" or u["at"] == "GERMANY" for u in state["units"]
        )
        return
    raise AssertionError("no raid was flown")


def test_bomber_raids_meet_the_aa_gun() -> None:
    state = game(
        power="UK", phase="combat_move", seed=2, ipcs={"GERMANY": 40},
        units=["UK 4 bomber United Kingdom", "GERMANY 1 factory Germany", "GERMANY 1 aa_gun Germany"],
    )  # fmt: skip
    state, results = play(state, "UK", ["raid 4 bomber from United Kingdom to Germany"])
    aa = [d for d in dice(results) if d["stage"] == "AA fire"]
    assert len(aa) == 1 and len(aa[0]["dice"]) == 4
    bombing = [d for d in dice(results) if d["stage"] == "bombing"]
    assert len(bombing[0]["dice"]) == 4 - aa[0]["hits"] if bombing else aa[0]["hits"] == 4


def test_damaged_battleships_are_repaired_at_the_end_of_their_owners_turn() -> None:
    state = game(
        power="UK", phase="place",
        units=["UK 1 battleship North Sea"],
    )  # fmt: skip
    state["units"][0]["dmg"] = 1
    state, _ = play(state, "UK", [])
    assert all(u.get("dmg", 0) == 0 for u in state["units"])


def test_kamikaze_tokens_strike_allied_ships_in_the_kamikaze_zones() -> None:
    state = game(
        game="aa_pacific_2001", power="USA", phase="combat_move", seed=4,
        units=["USA 2 battleship Sea Zone 35", "USA 1 destroyer Sea Zone 36", "JAPAN 1 infantry Japan"],
    )  # fmt: skip
    state, _ = play(state, "USA", [])
    pending = FAMILY.pending(state)
    assert pending.seats == ("JAPAN",) and pending.kind == "decision" and pending.turn == "USA"
    offered = FAMILY.legal(state, "JAPAN", []).actions
    assert (
        "kamikaze 1 battleship at Sea Zone 35" in offered and "kamikaze 1 destroyer at Sea Zone 36" in offered
    )
    problems = FAMILY.check(state, "JAPAN", ["kamikaze 3 battleship at Sea Zone 35"])
    assert problems[0] is not None and "one token a ship" in problems[0]
    state, results = play(
        state, "JAPAN", ["kamikaze 2 battleship at Sea Zone 35", "kamikaze 1 destroyer at Sea Zone 36"]
    )
    strikes = [d for d in dice(results) if d["stage"] == "kamikaze"]
    assert len(strikes) == 3 and state["extra"]["kamikaze"]["JAPAN"] == 3
    assert all(d["hits"] == (d["dice"][0] <= 2) for d in strikes)


def test_no_kamikaze_is_asked_outside_the_zones_or_without_tokens() -> None:
    state = game(
        game="aa_pacific_2001", power="USA", phase="combat_move",
        units=["USA 1 battleship Sea Zone 5", "JAPAN 1 infantry Japan"],
    )  # fmt: skip
    state, _ = play(state, "USA", [])
    assert FAMILY.pending(state).kind == "turn"
    state = game(
        game="aa_pacific_2001", power="USA", phase="combat_move", markers={"kamikaze": {"JAPAN": 0}},
        units=["USA 1 battleship Sea Zone 35", "JAPAN 1 infantry Japan"],
    )  # fmt: skip
    state, _ = play(state, "USA", [])
    assert FAMILY.pending(state).kind == "turn"


def test_defending_submarines_may_submerge() -> None:
    for seed in range(1, 40):
        state = game(
            power="UK", phase="combat_move", seed=seed,
            units=["UK 1 destroyer North Sea", "GERMANY 2 submarine Danish Sea",
                   "GERMANY 1 transport Danish Sea"],
        )  # fmt: skip
        state, _ = play(state, "UK", ["move 1 destroyer from North Sea to Danish Sea"])
        for _ in range(6):
            pending = FAMILY.pending(state)
            if pending.kind != "decision":
                break
            if "GERMANY" in pending.seats and "submerge" in pending.prompts["GERMANY"]:
                assert set(FAMILY.legal(state, "GERMANY", []).actions) == {"press on", "submerge"}
                done = FAMILY.process(state, {"GERMANY": ["submerge"], "UK": ["press on"]})
                subs = [u for u in done.state["units"] if u["t"] == "submarine"]
                assert subs and all(u.get("sub") for u in subs)
                assert any("the defending submarines submerge" in str(r.get("message")) for r in done.results)
                return
            seat = pending.seats[0]
            state, _ = play(state, seat, [FAMILY.legal(state, seat, []).actions[0]])
    raise AssertionError("no seed left the defender's submarines to choose")


def test_submerged_submarines_surface_at_their_owners_turn() -> None:
    state = game(power="GERMANY", phase="purchase", units=["GERMANY 1 submarine Danish Sea"])
    state["units"][0]["sub"] = True
    state["turn"] = 3  # the USA's turn ends; Germany's begins
    state["phase"] = "place"
    state, _ = play(state, "USA", [])
    assert not state["units"][0].get("sub")


def test_an_amphibious_assault_waits_on_the_sea_battle() -> None:
    landed = stayed = 0
    for seed in range(1, 25):
        state = game(
            power="UK", phase="combat_move", seed=seed,
            units=["UK 1 transport English Channel", "UK 2 infantry English Channel",
                   "UK 1 destroyer English Channel", "GERMANY 1 destroyer English Channel",
                   "GERMANY 1 infantry France"],
        )  # fmt: skip
        state, results = play(state, "UK", ["move 2 infantry from English Channel to France"])
        for _ in range(12):
            pending = FAMILY.pending(state)
            if pending.kind != "decision":
                break
            done = FAMILY.process(state, {})  # every choice at its default: press on, cheapest losses
            state, results = done.state, results + done.results
        battles = [str(r["message"]) for r in results if str(r.get("message", "")).startswith("battle in")]
        assert battles[0].startswith("battle in English Channel")  # the sea battle comes first
        german_ships = [u for u in state["units"] if u["p"] == "GERMANY" and u["t"] == "destroyer"]
        uk_in_france = [u for u in state["units"] if u["p"] == "UK" and u["at"] == "FRANCE"]
        messages = " | ".join(str(r.get("message")) for r in results)
        if german_ships:
            assert not uk_in_france and "lands in France" not in messages
            stayed += 1
        elif "lands in France" in messages:
            landed += 1
    assert landed and stayed  # both outcomes were seen over the seeds
