"""Legal-order generation (``interboard.games.diplomacy.legal``) agrees with the adjudicator (``step``).

Whether the adjudicator refuses an order as illegal depends on the position and that order only, not
on the other orders given (an order is legal or not on its own). The completeness tests rely on this
to adjudicate one candidate order per unit in a single ``step``, and check the assumption on a sample
of single-order steps.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator

import pytest

from interboard.board import SpaceKind, UnitKind, load_packaged_board
from interboard.games.diplomacy import (
    Build,
    Convoy,
    Disband,
    Dislodged,
    Hold,
    Move,
    Order,
    OrderResult,
    Phase,
    PhaseKind,
    Position,
    Reason,
    Remove,
    Retreat,
    Rulebook,
    SupportHold,
    SupportMove,
    Unit,
    Waive,
    format_order,
    parse_order,
    parse_unit,
    starting_position,
    step,
)
from interboard.games.diplomacy.legal import PowerOptions, legal_orders, option_tree, random_orders

B = load_packaged_board("interboard.games.diplomacy.data.maps", "standard")
START = starting_position(B)
A, F = UnitKind.ARMY, UnitKind.FLEET
N_LOCS = len(B.locations)
E2000 = Rulebook.of("2000")


def _loc(ident: str) -> int:
    return B.location(ident).index


def _space(loc: int) -> int:
    return B.locations[loc].space


def _main(space: int) -> int:
    return B.location_by_id[B.spaces[space].id]


def _position(
    units: dict[str, list[str]],
    phase: str = "S1905M",
    centres: dict[str, list[str]] | None = None,
    dislodged: Iterable[Dislodged] = (),
) -> Position:
    placed = {}
    for power, texts in units.items():
        for text in texts:
            kind, loc = parse_unit(B, text)
            placed[_space(loc)] = Unit(power, kind, loc)
    owners = (
        dict(START.centres)
        if centres is None
        else {B.space(c).index: power for power, cs in centres.items() for c in cs}
    )
    return Position(Phase.parse(phase), placed, owners, tuple(dislodged))


def _texts(position: Position, loc: str) -> list[str]:
    unit_loc = _loc(loc)
    for opts in legal_orders(B, position).values():
        if unit_loc in opts.orders:
            return [format_order(B, o) for o in opts.orders[unit_loc]]
    raise KeyError(loc)


def _dests(position: Position, loc: str, via: bool = False) -> set[str]:
    return {
        t.split(" - ")[1].removesuffix(" VIA")
        for t in _texts(position, loc)
        if " - " in t and " S " not in t and " C " not in t and t.endswith(" VIA") == via
    }


def _all_orders(options: dict[str, PowerOptions]) -> Iterator[tuple[str, int, Order]]:
    for power, opts in options.items():
        for loc, orders in opts.orders.items():
            for order in orders:
                yield power, loc, order


def _result(results: Iterable[OrderResult], order: Order) -> OrderResult:
    return next(r for r in results if r.order == order)


# ====================================================================== (a) exact lists
def test_start_position_army_paris() -> None:
    assert _dests(START, "PAR") == {"BUR", "GAS", "PIC", "BRE"}
    assert _dests(START, "PAR", via=True) == set()
    assert sorted(_texts(START, "PAR")) == sorted(
        [
            "A PAR H",
            "A PAR - BRE",
            "A PAR - BUR",
            "A PAR - GAS",
            "A PAR - PIC",
            "A PAR S F BRE",
            "A PAR S A MAR - BUR",
            "A PAR S A MUN - BUR",
            "A PAR S F BRE - GAS",
            "A PAR S A MAR - GAS",
            "A PAR S F BRE - PIC",
        ]
    )


def test_start_position_fleets() -> None:
    assert _dests(START, "STP/SC") == {"BOT", "FIN", "LVN"}
    assert sorted(_texts(START, "STP/SC")) == sorted(
        [
            "F STP/SC H",
            "F STP/SC - BOT",
            "F STP/SC - FIN",
            "F STP/SC - LVN",
            "F STP/SC S A WAR - LVN",
            "F STP/SC S A MOS - LVN",
        ]
    )
    assert _dests(START, "LON") == {"ENG", "NTH", "WAL", "YOR"}
    assert _dests(START, "ANK") == {"ARM", "BLA", "CON"}
    # Supporting a fleet onto a split-coast province names the province.
    assert "A MOS S F STP/SC - LVN" in _texts(START, "MOS")


def test_start_position_everyone_acts_and_nobody_convoys() -> None:
    options = legal_orders(B, START)
    assert list(options) == [p.id for p in B.powers]
    assert sum(len(o.orders) for o in options.values()) == 22
    assert all(o.due == 0 and not o.can_waive for o in options.values())
    orders = [o for _, _, o in _all_orders(options)]
    assert not any(isinstance(o, Convoy) for o in orders)
    assert not any(isinstance(o, Move) and o.via_convoy for o in orders)
    assert sum(isinstance(o, Hold) for o in orders) == 22
    assert set(legal_orders(B, START, "ITALY")) == {"ITALY"}


def test_option_tree_is_plain_json_and_matches_the_lists() -> None:
    tree = option_tree(B, START)
    assert json.loads(json.dumps(tree)) == tree
    par = tree["FRANCE"]["orders"]["PAR"]
    assert par["hold"] == "A PAR H"
    assert par["move"] == {
        "BRE": "A PAR - BRE",
        "BUR": "A PAR - BUR",
        "GAS": "A PAR - GAS",
        "PIC": "A PAR - PIC",
    }
    assert par["support_hold"] == {"BRE": "A PAR S F BRE"}
    assert par["support_move"] == {
        "BRE": {"GAS": "A PAR S F BRE - GAS", "PIC": "A PAR S F BRE - PIC"},
        "MAR": {"BUR": "A PAR S A MAR - BUR", "GAS": "A PAR S A MAR - GAS"},
        "MUN": {"BUR": "A PAR S A MUN - BUR"},
    }
    assert tree["RUSSIA"]["orders"]["STP/SC"]["move"] == {
        "BOT": "F STP/SC - BOT",
        "FIN": "F STP/SC - FIN",
        "LVN": "F STP/SC - LVN",
    }
    # Every leaf parses back to the listed order.
    options = legal_orders(B, START)

    def leaves(node: object) -> Iterator[str]:
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for v in node.values():
                yield from leaves(v)

    for power, opts in options.items():
        texts = list(leaves(tree[power]["orders"]))
        listed = [o for orders in opts.orders.values() for o in orders]
        assert sorted(texts) == sorted(format_order(B, o) for o in listed)
        assert all(parse_order(B, t, PhaseKind.MOVEMENT) in listed for t in texts)


# Long chains of fleets at sea (one of nine fleets from the North Sea to the Ionian), a short one in
# the Baltic, the DATC 6.D.31 Black Sea, and fleets on coasts.
CONVOYS = _position(
    {
        "ENGLAND": ["F NTH", "F ENG", "A LON", "A YOR", "F NWG", "A EDI"],
        "FRANCE": ["A BRE", "F MAO", "A GAS", "F WES", "F LYO", "A MAR"],
        "GERMANY": ["A HOL", "F HEL", "A DEN", "F KIE"],
        "AUSTRIA": ["A RUM", "F GRE"],
        "TURKEY": ["F BLA", "A ARM", "A CON"],
        "RUSSIA": ["F BOT", "A FIN", "F STP/NC", "A SWE"],
        "ITALY": ["F TYS", "A TUN", "F ION"],
    }
)


def test_convoyed_moves_supports_and_convoys() -> None:
    pos = _position(
        {
            "ENGLAND": ["F NTH", "A YOR", "A LON", "F EDI"],
            "FRANCE": ["A BEL"],
            "AUSTRIA": ["A RUM"],
            "TURKEY": ["F BLA", "A ANK"],
            "RUSSIA": ["F BOT", "A FIN", "A SWE"],
        }
    )
    # Adjacent moves that a chain of fleets at sea could carry are listed both plain and via convoy.
    assert _dests(pos, "YOR") == {"EDI", "LON", "LVP", "WAL"}
    assert _dests(pos, "YOR", via=True) == {"EDI", "LON", "BEL", "HOL", "DEN", "NWY"}
    assert _dests(pos, "FIN", via=True) == {"SWE", "STP", "LVN"}
    # Convoys: every army on the North Sea's shores, to every other shore (18), whoever owns them.
    convoys = [t for t in _texts(pos, "NTH") if " C " in t]
    assert len(convoys) == 18
    assert "F NTH C A BEL - YOR" in convoys and "F NTH C A YOR - EDI" in convoys
    assert "F BOT C A SWE - LVN" in _texts(pos, "BOT")
    assert not any(" C " in t for t in _texts(pos, "EDI"))  # fleets on a coast never convoy
    # DATC 6.D.31: a fleet may not support a convoyed move whose only route runs through itself.
    assert "F NTH S A YOR - BEL" not in _texts(pos, "NTH")
    assert "F NTH S A LON - YOR" in _texts(pos, "NTH")
    assert "A RUM - ARM VIA" in _texts(pos, "RUM")
    assert "F BLA S A RUM - ARM" not in _texts(pos, "BLA")
    assert "A ANK S A RUM - ARM" in _texts(pos, "ANK")
    tree = option_tree(B, pos)["ENGLAND"]["orders"]
    via = ("EDI", "LON", "BEL", "HOL", "DEN", "NWY")
    assert tree["YOR"]["move_via"] == {d: f"A YOR - {d} VIA" for d in via}
    assert tree["NTH"]["convoy"] == {
        o: {d: f"F NTH C A {o} - {d}" for d in ("BEL", "DEN", "EDI", "HOL", "LON", "NWY", "YOR") if d != o}
        for o in ("BEL", "LON", "YOR")
    }


def test_split_coasts() -> None:
    pos = _position({"FRANCE": ["F MAO", "F GAS", "A MAR"], "TURKEY": ["F CON", "F AEG"]})
    assert {"SPA/NC", "SPA/SC"} <= _dests(pos, "MAO")
    assert "SPA" not in _dests(pos, "MAO")
    assert _dests(pos, "GAS") == {"BRE", "MAO", "SPA/NC"}
    assert "A MAR S F GAS - SPA" in _texts(pos, "MAR")
    assert "A MAR S F MAO - SPA" in _texts(pos, "MAR")
    assert {"BUL/EC", "BUL/SC"} <= _dests(pos, "CON")
    assert "F AEG S F CON - BUL" in _texts(pos, "AEG")


def test_missing_fleet_means_no_convoy_datc_6_d_32() -> None:
    pos = _position({"ENGLAND": ["A LVP", "F EDI"], "FRANCE": ["F LON"], "GERMANY": ["A YOR"]})
    assert _dests(pos, "YOR", via=True) == set()
    assert "HOL" not in _dests(pos, "YOR")


def test_retreat_phase() -> None:
    dis = Dislodged(Unit("FRANCE", A, _loc("PAR")), B.space("BUR").index, (_loc("GAS"), _loc("PIC")))
    pos = _position({"GERMANY": ["A PAR"]}, "F1901R", dislodged=[dis])
    options = legal_orders(B, pos)
    assert list(options) == ["FRANCE"]
    texts = [format_order(B, o) for o in options["FRANCE"].orders[_loc("PAR")]]
    assert texts == ["A PAR R GAS", "A PAR R PIC", "A PAR D"]
    tree = option_tree(B, pos)
    assert tree["FRANCE"]["orders"]["PAR"] == {
        "retreat": {"GAS": "A PAR R GAS", "PIC": "A PAR R PIC"},
        "disband": "A PAR D",
    }


def test_adjustment_builds_and_removals() -> None:
    pos = _position(
        {
            "FRANCE": ["A SPA", "A POR", "A BUR"],
            "RUSSIA": ["A SEV", "A UKR", "A WAR", "F BOT"],
            "ENGLAND": ["F LON", "F EDI", "A LVP"],
        },
        "W1901A",
        {
            "FRANCE": ["BRE", "MAR", "PAR", "SPA", "POR", "BEL"],
            "RUSSIA": ["STP", "MOS"],
            "ENGLAND": ["LON", "EDI", "LVP"],
        },
    )
    options = legal_orders(B, pos)
    assert set(options) == {"FRANCE", "RUSSIA"}
    france, russia = options["FRANCE"], options["RUSSIA"]
    assert france.due == 3 and france.can_waive
    builds = {
        B.locations[loc].id: [format_order(B, o) for o in orders] for loc, orders in france.orders.items()
    }
    assert builds == {"BRE": ["A BRE B", "F BRE B"], "MAR": ["A MAR B", "F MAR B"], "PAR": ["A PAR B"]}
    assert russia.due == -2 and not russia.can_waive
    assert sorted(format_order(B, o) for orders in russia.orders.values() for o in orders) == [
        "A SEV D",
        "A UKR D",
        "A WAR D",
        "F BOT D",
    ]
    tree = option_tree(B, pos)
    assert tree["FRANCE"]["due"] == 3 and tree["FRANCE"]["waive"] == "WAIVE"
    assert tree["FRANCE"]["orders"]["BRE"] == {"build": {"A": {"BRE": "A BRE B"}, "F": {"BRE": "F BRE B"}}}
    assert tree["RUSSIA"]["waive"] is None
    # Split coasts: a fleet is built on a coast.
    stp = _position({"RUSSIA": ["A MOS"]}, "W1901A", {"RUSSIA": ["STP", "MOS"]})
    assert [format_order(B, o) for o in legal_orders(B, stp)["RUSSIA"].orders[_loc("STP")]] == [
        "A STP B",
        "F STP/NC B",
        "F STP/SC B",
    ]


# ====================================================================== random play
_Played = tuple[Position, list[tuple[str, Order]], Position, tuple[OrderResult, ...]]


def _play(seed: int, phases: int) -> Iterator[_Played]:
    """Seeded random play: (position, orders, next position, results) for each phase."""
    rng = random.Random(seed)
    pos = START
    for _ in range(phases):
        orders = random_orders(B, pos, rng)
        out = step(B, pos, orders)
        yield pos, orders, out.position, out.results
        if out.winners:
            return
        pos = out.position


def _sample_positions(seed: int, phases: int, every: int) -> list[Position]:
    return [pos for i, (pos, *_) in enumerate(_play(seed, phases)) if i % every == 0]


# ====================================================================== (b) soundness
@pytest.mark.parametrize("seed", [1, 2])
def test_every_listed_order_alone_is_legal(seed: int) -> None:
    rulebooks = (Rulebook(), E2000)
    for n, pos in enumerate(_sample_positions(seed, 60, 3)):
        for power, _, order in _all_orders(legal_orders(B, pos)):
            res = step(B, pos, [(power, order)], rulebooks[n % 2]).results
            r = _result(res, order)
            assert r.reason is not Reason.ILLEGAL, (pos.phase, format_order(B, order), r.message)
        for power, opts in legal_orders(B, pos).items():
            if opts.can_waive:
                assert _result(step(B, pos, [(power, Waive())]).results, Waive()).succeeded


@pytest.mark.parametrize("seed", [1, 2])
def test_one_powers_orders_are_its_part_of_every_powers(seed: int) -> None:
    """The game master lists every seat's orders at once and hands each seat its part: that part
    must be what listing the seat alone gives, in every kind of phase."""
    kinds = set()
    for pos in [*_sample_positions(seed, 30, 1), *_retreat_and_adjustment_positions()[:20]]:
        every = legal_orders(B, pos)
        kinds.add(pos.phase.kind)
        for power in B.powers:
            alone = legal_orders(B, pos, power.id)
            assert alone.get(power.id) == every.get(power.id), (pos.phase, power.id)
    assert len(kinds) == 3  # movement, retreats and adjustments were all compared


# ====================================================================== (c) completeness
def _candidates(position: Position, unit: Unit, rng: random.Random) -> list[Order]:
    """Every hold, move (either way), support and convoy the unit could be ordered, over all locations.

    Supports of moves and convoys are enumerated for every origin location of an occupied province and
    a few empty ones (all empty origins are alike)."""
    loc, kind = unit.loc, unit.kind
    occupied = [x for x in range(N_LOCS) if _space(x) in position.units]
    empty = [x for x in range(N_LOCS) if _space(x) not in position.units]
    origins = occupied + rng.sample(empty, 3)
    other = A if kind is F else F
    out: list[Order] = [Hold(loc, kind), Hold(loc), Hold(loc, other), Move(loc, loc, kind)]
    out += [Move(loc, d, k, via) for d in range(N_LOCS) for via in (False, True) for k in (kind, None)]
    out += [Move(loc, d, other) for d in range(N_LOCS)]
    out += [SupportHold(loc, t, kind) for t in range(N_LOCS)]
    out += [SupportMove(loc, o, d, kind) for o in origins for d in range(N_LOCS)]
    out += [Convoy(loc, o, d, kind) for o in origins for d in range(N_LOCS)]
    return out


_Verdicts = dict[tuple[int, Order], OrderResult]


def _batch_verdicts(position: Position, candidates: dict[int, list[Order]]) -> _Verdicts:
    """Adjudicate one candidate per unit per step; results by (unit space, order)."""
    powers = {s: u.power for s, u in position.units.items()}
    out: dict[tuple[int, Order], OrderResult] = {}
    longest = max(len(c) for c in candidates.values())
    for k in range(longest):
        batch = [(s, c[k]) for s, c in candidates.items() if k < len(c)]
        results = step(B, position, [(powers[s], o) for s, o in batch]).results
        by_order = {r.order: r for r in results}
        for s, o in batch:
            out[s, o] = by_order[o]
    return out


class _Movement:
    """The test's own reading of what the legal list must hold, checked against the adjudicator."""

    def __init__(self, position: Position) -> None:
        self.pos = position
        self.options = legal_orders(B, position)
        self.listed: dict[int, set[Order]] = {}
        for opts in self.options.values():
            for loc, orders in opts.orders.items():
                assert len(set(orders)) == len(orders), "an order is listed twice"
                self.listed[_space(loc)] = set(orders)

    def unit(self, loc: int) -> Unit | None:
        return self.pos.units.get(_space(loc))

    def canonical(self, u: Unit, order: Order) -> Order | None:
        """The listed spelling of ``order``, or None if the order can never do anything."""
        here = _space(u.loc)
        if order.unit not in (None, u.kind):  # type: ignore[union-attr]
            return order  # the wrong kind of unit: never listed, must be illegal
        match order:
            case Hold():
                return Hold(u.loc, u.kind)
            case Move(_, dest, _, via):
                ds = _space(dest)
                if u.kind is F:
                    if via:
                        return order  # only armies are convoyed: never listed, must be illegal
                    coasts = B.spaces[ds].coasts
                    if coasts and B.locations[dest].coast is None:
                        reach = [c for c in coasts if c in B.fleet_adj[u.loc]]
                        dest = reach[0] if len(reach) == 1 else dest
                    return Move(u.loc, dest, F)
                by_land = any(_space(x) == ds for x in B.army_adj[u.loc])
                if B.spaces[ds].kind is SpaceKind.SEA:
                    return Move(u.loc, dest, A, via)  # never listed: must be illegal
                move = Move(u.loc, _main(ds), A, via or not by_land)
                if via and by_land and move not in self.listed[here]:
                    return None  # no chain of fleets could carry it
                return move
            case SupportHold(_, target):
                v = self.unit(target)
                return None if v is None else SupportHold(u.loc, v.loc, u.kind, v.kind)
            case SupportMove(_, origin, dest):
                m = self.unit(origin)
                if m is None:
                    return None
                ds = _space(dest)
                moves = [
                    x for x in self.listed[_space(m.loc)] if isinstance(x, Move) and _space(x.dest) == ds
                ]
                if B.locations[dest].coast is not None:
                    moves = [x for x in moves if x.dest == dest]
                if not moves:
                    return None
                return SupportMove(u.loc, m.loc, _main(ds), u.kind, m.kind)
            case Convoy(_, origin, dest):
                a = self.unit(origin)
                if a is None or a.kind is not A:
                    return None
                return Convoy(u.loc, a.loc, _main(_space(dest)), u.kind)
        raise AssertionError(order)


def _movement_positions() -> list[Position]:
    played = _sample_positions(11, 40, 1)
    movement = [p for p in played if p.phase.kind is PhaseKind.MOVEMENT]

    def at_sea(p: Position) -> int:
        return sum(u.kind is F and B.spaces[s].kind is SpaceKind.SEA for s, u in p.units.items())

    return [START, CONVOYS, max(movement[-8:], key=at_sea)]


@pytest.mark.parametrize("which", range(3))
def test_movement_lists_are_complete(which: int) -> None:
    position = _movement_positions()[which]
    rng = random.Random(which)
    m = _Movement(position)
    candidates = {s: _candidates(position, u, rng) for s, u in position.units.items()}
    verdicts = _batch_verdicts(position, candidates)
    futile: dict[str, list[tuple[Unit, Order]]] = {}
    for s, orders in candidates.items():
        u = position.units[s]
        covered: set[Order] = set()
        for order in orders:
            r = verdicts[s, order]
            illegal = r.reason is Reason.ILLEGAL
            canon = m.canonical(u, order)
            text = f"{position.phase} {format_order(B, order)}: {r.reason} {r.message}"
            if canon is None:
                if not illegal:
                    futile.setdefault(type(order).__name__, []).append((u, order))
            else:
                assert (canon in m.listed[s]) == (not illegal), text
                if not illegal:
                    covered.add(canon)
        assert covered == m.listed[s], "listed orders not produced by any candidate"
    _check_single_steps_agree(position, candidates, verdicts, rng)
    _check_futile(position, m, futile, verdicts, rng)
    _check_listed_are_useful(position, m, rng)


def _check_single_steps_agree(
    position: Position,
    candidates: dict[int, list[Order]],
    verdicts: dict[tuple[int, Order], OrderResult],
    rng: random.Random,
) -> None:
    pairs = [(s, o) for s, orders in candidates.items() for o in orders]
    for s, o in rng.sample(pairs, 150):
        alone = _result(step(B, position, [(position.units[s].power, o)]).results, o)
        assert (alone.reason is Reason.ILLEGAL) == (verdicts[s, o].reason is Reason.ILLEGAL)


def _all_convoying(position: Position, origin: int, dest: int) -> list[tuple[str, Convoy]]:
    """Every fleet at sea ordered to convoy the army from origin to dest."""
    return [
        (u.power, Convoy(u.loc, origin, dest, F))
        for s, u in position.units.items()
        if u.kind is F and B.spaces[s].kind is SpaceKind.SEA
    ]


def _check_futile(
    position: Position,
    m: _Movement,
    futile: dict[str, list[tuple[Unit, Order]]],
    verdicts: dict[tuple[int, Order], OrderResult],
    rng: random.Random,
) -> None:
    """Orders the adjudicator accepts but the lists leave out never have an effect."""
    for items in futile.values():
        for u, order in rng.sample(items, min(40, len(items))):
            text = f"{position.phase} {format_order(B, order)}"
            nobody = isinstance(order, SupportMove | Convoy) and m.unit(order.origin) is None
            if isinstance(order, SupportHold) or nobody:
                assert verdicts[_space(u.loc), order].reason is Reason.VOID, text
            elif isinstance(order, SupportMove):
                # Void whatever the named unit is ordered into that province.
                mover = m.unit(order.origin)
                assert mover is not None
                for d in (x for x in range(N_LOCS) if _space(x) == _space(order.dest)):
                    for via in (False, True):
                        move = Move(mover.loc, d, mover.kind, via)
                        res = step(B, position, [(u.power, order), (mover.power, move)]).results
                        assert (
                            _result(res, order).reason is Reason.VOID
                            or _result(res, move).reason is Reason.ILLEGAL
                        ), (text, format_order(B, move))
            elif isinstance(order, Convoy):
                assert verdicts[_space(u.loc), order].reason is Reason.VOID, text  # convoys a fleet
            elif isinstance(order, Move):
                # No chain of fleets at sea can carry it: it fails (2023) or is the plain move (2000).
                helpers = _all_convoying(position, u.loc, order.dest)
                res = step(B, position, [(u.power, order), *helpers]).results
                assert _result(res, order).reason is Reason.NO_CONVOY, text
                plain = Move(u.loc, order.dest, u.kind)
                via_2000 = _result(step(B, position, [(u.power, order)], E2000).results, order)
                plain_2000 = _result(step(B, position, [(u.power, plain)], E2000).results, plain)
                assert via_2000.succeeded == plain_2000.succeeded, text
            else:
                raise AssertionError(f"unexpected futile order {text}")


def _check_listed_are_useful(position: Position, m: _Movement, rng: random.Random) -> None:
    """Listed supports and convoys take effect when the unit they name does its part."""
    items = [(power, loc, o) for power, loc, o in _all_orders(m.options) if not isinstance(o, Hold)]
    for power, _, order in rng.sample(items, min(150, len(items))):
        text = format_order(B, order)
        match order:
            case SupportHold():
                r = _result(step(B, position, [(power, order)]).results, order)
                assert r.reason is not Reason.VOID, text
            case SupportMove(_, origin, dest):
                mover = m.unit(origin)
                assert mover is not None
                move = next(
                    x
                    for x in m.listed[_space(origin)]
                    if isinstance(x, Move) and _space(x.dest) == _space(dest)
                )
                res = step(B, position, [(power, order), (mover.power, move)]).results
                assert _result(res, order).reason not in (Reason.VOID, Reason.ILLEGAL), text
            case Convoy(_, origin, dest):
                army = m.unit(origin)
                assert army is not None
                move = Move(army.loc, dest, A, True)
                others = [(p, c) for p, c in _all_convoying(position, origin, dest) if c.loc != order.loc]
                chain = [(power, order), *others]
                res = step(B, position, [(army.power, move), *chain]).results
                assert _result(res, order).reason not in (Reason.VOID, Reason.ILLEGAL), text
                assert _result(res, move).reason is not Reason.NO_CONVOY, text
            case Move(_, dest, _, True):
                res = step(B, position, [(power, order), *_all_convoying(position, order.loc, dest)]).results
                assert _result(res, order).reason is not Reason.NO_CONVOY, text


def _retreat_and_adjustment_positions() -> list[Position]:
    out: list[Position] = []
    for seed in (3, 4, 5):
        for pos, *_ in _play(seed, 80):
            if pos.phase.kind is not PhaseKind.MOVEMENT:
                out.append(pos)
    return out


def test_retreat_and_adjustment_lists_are_complete() -> None:
    positions = _retreat_and_adjustment_positions()
    assert any(p.phase.kind is PhaseKind.RETREATS for p in positions)
    assert any(p.phase.kind is PhaseKind.ADJUSTMENTS for p in positions)
    for pos in positions[:40]:
        options = legal_orders(B, pos)
        listed = {(p, o) for p, _, o in _all_orders(options)}
        if pos.phase.kind is PhaseKind.RETREATS:
            assert set(options) == {d.unit.power for d in pos.dislodged}
            for d in pos.dislodged:
                u = d.unit
                cands: list[Order] = [Disband(u.loc, u.kind), Disband(u.loc)]
                cands += [Retreat(u.loc, x, k) for x in range(N_LOCS) for k in (u.kind, None)]
                for order in cands:
                    r = _result(step(B, pos, [(u.power, order)]).results, order)
                    member = (u.power, _canonical_retreat(d, order)) in listed
                    assert member == (r.reason is not Reason.ILLEGAL), (pos.phase, format_order(B, order))
        else:
            for power in (p.id for p in B.powers):
                due = options[power].due if power in options else 0
                cands = [Build(x, k) for x in range(N_LOCS) for k in UnitKind]
                cands += [Remove(u.loc, k) for u in pos.units_of(power) for k in (u.kind, None)]
                cands += [Remove(x) for x in range(N_LOCS) if _space(x) in pos.units]
                cands.append(Waive())
                for order in cands:
                    r = _result(step(B, pos, [(power, order)]).results, order)
                    canon = order
                    if isinstance(order, Remove) and _space(order.loc) in pos.units:
                        v = pos.units[_space(order.loc)]
                        canon = Remove(v.loc, v.kind) if order.unit in (None, v.kind) else order
                    member = (power, canon) in listed or (isinstance(order, Waive) and due > 0)
                    assert member == (r.reason is not Reason.ILLEGAL), (
                        pos.phase,
                        power,
                        format_order(B, order),
                    )


def _canonical_retreat(d: Dislodged, order: Order) -> Order:
    u = d.unit
    if isinstance(order, Disband):
        return Disband(u.loc, u.kind)
    assert isinstance(order, Retreat)
    if order.unit not in (None, u.kind):
        return order
    dest = order.dest
    if u.kind is A:
        return Retreat(u.loc, _main(_space(dest)), u.kind)  # an army's coast is ignored, as in moves
    if B.locations[dest].coast is None:
        coasts = [x for x in d.retreats if _space(x) == _space(dest)]
        if len(coasts) == 1:
            dest = coasts[0]
    return Retreat(u.loc, dest, u.kind)


# ====================================================================== (d) random games
@pytest.mark.parametrize("seed", [22, 23, 24])
def test_random_games_keep_the_invariants(seed: int) -> None:
    phases = 0
    kinds: set[PhaseKind] = set()
    for before, orders, after, results in _play(seed, 150):
        phases += 1
        kinds.add(before.phase.kind)
        assert not [r for r in results if r.reason is Reason.ILLEGAL]
        options = legal_orders(B, before)
        if before.phase.kind is PhaseKind.MOVEMENT:
            assert len(orders) == len(before.units)
        elif before.phase.kind is PhaseKind.RETREATS:
            assert len(orders) == len(before.dislodged)
        else:
            assert len(orders) == sum(abs(o.due) for o in options.values())
            sites = [o.loc for _, o in orders if isinstance(o, Build)]
            assert len(set(sites)) == len(sites)
        for space, unit in after.units.items():
            assert _space(unit.loc) == space
            kind = B.spaces[space].kind
            assert kind is not (SpaceKind.SEA if unit.kind is A else SpaceKind.LAND)
            assert unit.kind is F or B.locations[unit.loc].coast is None
        for d in after.dislodged:
            assert all(_space(x) not in after.units for x in d.retreats)
        if after.phase.kind is PhaseKind.MOVEMENT and after.phase.season.value == "S":
            for p in B.powers:
                assert len(after.units_of(p.id)) <= len(after.centres_of(p.id)), (after.phase, p.id)
    assert phases >= 60
    assert kinds == set(PhaseKind)


@pytest.mark.parametrize("seed", [3])
def test_the_family_check_gives_the_adjudicators_verdict_on_listed_and_unlisted_orders(seed: int) -> None:
    """The family's order check takes a listed order without adjudicating it: its verdict, on
    listed orders and on others (void, impossible, another's unit), is still the adjudicator's."""
    from interboard.games import family
    from interboard.games.diplomacy.game import Game
    from interboard.games.diplomacy.record import game_to_json
    from interboard.games.diplomacy.variants import get_variant

    diplomacy, rng = family("diplomacy"), random.Random(seed)
    listed_seen = unlisted_seen = 0
    for n, pos in enumerate(_sample_positions(seed, 24, 4)):
        rulebook = (Rulebook(), E2000)[n % 2]
        state = game_to_json(Game(get_variant("standard"), rulebook, pos))
        options = legal_orders(B, pos)
        for power, opts in options.items():
            orders = [o for group in opts.orders.values() for o in group]
            listed_seen += len(orders)
            if pos.phase.kind is PhaseKind.MOVEMENT:
                unlisted = [o for u in pos.units.values() for o in _candidates(pos, u, rng)]
                unlisted = [o for o in rng.sample(unlisted, min(12, len(unlisted))) if o not in orders]
                unlisted_seen += len(unlisted)
                orders += unlisted
            for order in orders:
                verdict = diplomacy.check(state, power, [format_order(B, order)])[0]
                adjudicated = _result(step(B, pos, [(power, order)], rulebook).results, order)
                assert (verdict is None) == (adjudicated.reason is not Reason.ILLEGAL), (
                    pos.phase,
                    format_order(B, order),
                    verdict,
                )
    assert listed_seen > 500 and unlisted_seen > 50


def test_the_familys_tree_is_the_option_tree_and_shares_its_listing_with_the_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The family's tree for a seat is :func:`option_tree`'s, in every kind of phase, though built
    from the listing the seat's order check uses: the legal orders are listed once a phase, for
    every seat's tree and check."""
    from interboard.games import family
    from interboard.games.diplomacy import family as diplomacy_family
    from interboard.games.diplomacy import legal
    from interboard.games.diplomacy.game import Game
    from interboard.games.diplomacy.record import game_to_json
    from interboard.games.diplomacy.variants import get_variant

    diplomacy = family("diplomacy")
    listings: list[str | None] = []

    def counted(board: object, position: Position, power: str | None = None) -> dict[str, PowerOptions]:
        listings.append(power)
        return legal_orders(B, position, power)

    monkeypatch.setattr(diplomacy_family, "legal_orders", counted)
    monkeypatch.setattr(legal, "legal_orders", counted)
    kinds = set()
    for pos in [*_sample_positions(5, 12, 3), *_retreat_and_adjustment_positions()[:30]]:
        state = game_to_json(Game(get_variant("standard"), Rulebook(), pos))
        trees = option_tree(B, pos)
        listings.clear()
        for power, tree in trees.items():
            kinds.add(pos.phase.kind)
            given = diplomacy.options(state, power)
            assert {k: given[k] for k in ("due", "waive", "orders")} == tree, (pos.phase, power)
            diplomacy.check(state, power, [])
        assert listings == [None], pos.phase  # every seat's orders, listed at the first call
    assert kinds == set(PhaseKind)
