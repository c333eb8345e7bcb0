"""Diplomacy positions drawn as SVG: read the drawing back and check what it says."""

from __future__ import annotations

import math
import random
import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from interboard.board import UnitKind, board_from_data
from interboard.games.diplomacy.drawing import render_position
from interboard.games.diplomacy.engine import step
from interboard.games.diplomacy.orders import DestroyLink, Link
from interboard.games.diplomacy.parse import parse_power_order
from interboard.games.diplomacy.record import position_from_json
from interboard.games.diplomacy.state import Phase, PhaseKind, Position, Season, Unit
from interboard.games.diplomacy.variants import VARIANTS, get_variant, twin_earths_3_rules
from interboard.render import render_board
from interboard.render.base import document, draw_spaces, make_frame

from .helpers import NS, Drawing, atoll_map, child, classes, expected_point, path_ends, point_of


def _orders(board, position: Position, lines: list[str]):  # type: ignore[no-untyped-def]
    out = []
    for line in lines:
        po = parse_power_order(board, line, position.phase.kind)
        assert po.power is not None
        out.append((po.power, po.order))
    return out


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_every_location_has_a_group_at_its_point_inside_its_board(variant_id: str) -> None:
    variant = get_variant(variant_id)
    board = variant.board
    drawing = Drawing.parse(render_position(board, variant.start()))
    groups = drawing.locations()
    width, height = drawing.view
    assert set(groups) == {loc.id for loc in board.locations}
    assert board.size is not None
    for loc in board.locations:
        group = groups[loc.id]
        x, y = point_of(group)
        assert (x, y) == pytest.approx(expected_point(board, drawing, loc.id), abs=0.06), loc.id
        ox, oy = drawing.board_origin(board.spaces[loc.space].board)
        assert ox <= x <= ox + board.size[0] and oy <= y <= oy + board.size[1], loc.id
        assert 0 <= x <= width and 0 <= y <= height
        title = group.find("{http://www.w3.org/2000/svg}title")
        assert title is not None and board.spaces[loc.space].name in (title.text or ""), loc.id
    # Every passable space is shaded by at least one cell of its own.
    for space in board.spaces:
        if space.at is not None and space.kind.value != "impassable":
            assert child(groups[space.id], "cell").get("d"), space.id


def test_land_coast_and_sea_are_told_apart() -> None:
    board = get_variant("standard").board
    groups = Drawing.parse(render_position(board, get_variant("standard").start())).locations()
    fills = {}
    for space_id, kind in (("BOH", "land"), ("PIC", "coast"), ("NTH", "sea")):
        assert kind in classes(groups[space_id])
        fills[kind] = child(groups[space_id], "cell").get("fill")
    assert len(set(fills.values())) == 3


def test_units_stand_at_their_locations_in_their_power_colour() -> None:
    variant = get_variant("standard")
    board = variant.board
    start = variant.start()
    drawing = Drawing.parse(render_position(board, start))
    units = drawing.units()
    assert len(units) == len(start.units) == 22
    for unit in start.units.values():
        loc_id = board.locations[unit.loc].id
        e = units[loc_id]
        assert e.get("data-power") == unit.power
        assert point_of(e) == pytest.approx(expected_point(board, drawing, loc_id), abs=0.06)
        shape = "army-shape" if unit.kind is UnitKind.ARMY else "fleet-shape"
        other = "fleet-shape" if unit.kind is UnitKind.ARMY else "army-shape"
        assert child(e, shape).get("fill") == board.power_by_id[unit.power].colour
        assert not [x for x in e.iter() if other in classes(x)]


def test_split_coasts_have_their_own_points_and_fleets_stand_on_them() -> None:
    variant = get_variant("standard")
    board = variant.board
    drawing = Drawing.parse(render_position(board, variant.start()))
    groups = drawing.locations()
    for space in ("STP", "SPA", "BUL"):
        points = {point_of(groups[loc.id]) for loc in board.locations if loc.id.split("/")[0] == space}
        assert len(points) == 3, f"{space} and its two coasts must be drawn at three different points"
    # Russia's fleet starts on the south coast of St Petersburg: drawn there, not on the province.
    fleet = drawing.units()["STP/SC"]
    assert point_of(fleet) == point_of(groups["STP/SC"]) != point_of(groups["STP"])


def test_centre_markers_are_coloured_by_owner() -> None:
    variant = get_variant("standard")
    board = variant.board
    start = variant.start()
    centres = dict(start.centres)
    centres[board.space_by_id["PAR"]] = "GERMANY"  # an owner other than the home power
    del centres[board.space_by_id["MOS"]]  # an unowned home centre
    drawing = Drawing.parse(render_position(board, replace(start, centres=centres)))
    groups = {e.get("data-loc"): e for e in drawing.all("space-label", "g")}
    germany = board.power_by_id["GERMANY"].colour
    for space in board.spaces:
        if space.id not in board.location_by_id:
            continue  # impassable
        markers = [e for e in groups[space.id].iter() if "centre" in classes(e)]
        if not space.centre:
            assert not markers, space.id
            continue
        (marker,) = markers
        owner = centres.get(space.index)
        assert marker.get("data-owner") == (owner or "")
        ring = child(marker, "centre-ring").get("stroke")
        if owner:
            assert ring == board.power_by_id[owner].colour, space.id
        else:
            assert ring not in {p.colour for p in board.powers}, space.id
    assert child(child(groups["PAR"], "centre"), "centre-ring").get("stroke") == germany


def test_a_move_arrow_goes_from_the_unit_to_its_destination() -> None:
    variant = get_variant("standard")
    board = variant.board
    start = variant.start()
    orders = _orders(board, start, ["France: A Par - Bur", "England: F Lon - Nth", "Russia: F Stp/sc - Bot"])
    drawing = Drawing.parse(render_position(board, start, orders=orders))
    for origin, dest in (("PAR", "BUR"), ("LON", "NTH"), ("STP/SC", "BOT")):
        (arrow,) = [e for e in drawing.orders("move") if e.get("data-loc") == origin]
        assert arrow.get("data-dest") == dest
        start_pt, end_pt = path_ends(child(arrow, "order-line").get("d", ""))
        o, d = expected_point(board, drawing, origin), expected_point(board, drawing, dest)
        # The arrow leaves the unit and stops short of the destination's unit place.
        assert math.dist(start_pt, o) < 14 and math.dist(end_pt, d) < 16
        assert math.dist(start_pt, o) < math.dist(start_pt, d)
        assert not classes(arrow) & {"failed", "bounced"}


def test_bounced_moves_and_cut_supports_are_marked() -> None:
    variant = get_variant("standard")
    board = variant.board
    start = variant.start()
    orders = _orders(
        board,
        start,
        [
            "France: A Par - Bur",
            "Germany: A Mun - Bur",
            "England: F Lon - Nth",
            "Austria: A Vie - Gal",
            "Austria: A Bud S A Vie - Gal",
            "Russia: A War - Gal",
        ],
    )
    outcome = step(board, start, orders, variant.rulebook)
    drawing = Drawing.parse(render_position(board, start, results=outcome.results))
    moves = {e.get("data-loc"): e for e in drawing.orders("move")}
    for loc in ("PAR", "MUN", "WAR"):
        assert "bounced" in classes(moves[loc]), loc
        child(moves[loc], "bounce-mark")
    assert "failed" not in classes(moves["LON"]) and "failed" not in classes(moves["VIE"])
    assert not [e for e in moves["LON"].iter() if "bounce-mark" in classes(e)]
    (support,) = drawing.orders("supportmove")
    assert support.get("data-origin") == "VIE" and support.get("data-dest") == "GAL"
    assert "failed" not in classes(support)


def test_dislodged_unit_and_cut_support_are_marked() -> None:
    board = get_variant("standard").board
    position = position_from_json(
        board,
        {
            "phase": "S1901M",
            "units": {"FRANCE": ["A BUR", "A BEL"], "GERMANY": ["A MUN", "A RUH", "A KIE", "A HOL"]},
            "centres": {},
        },
    )
    orders = _orders(
        board,
        position,
        [
            "Germany: A Mun - Bur",
            "Germany: A Ruh S A Mun - Bur",
            "Germany: A Kie - Ruh",
            "France: A Bur H",
            "France: A Bel S A Bur",
            "Germany: A Hol - Bel",
        ],
    )
    outcome = step(board, position, orders)
    drawing = Drawing.parse(render_position(board, position, results=outcome.results))
    units = drawing.units()
    assert "dislodged" in classes(units["BUR"])
    assert "dislodged" not in classes(units["MUN"])
    (support_hold,) = drawing.orders("supporthold")
    assert {"failed", "cut"} <= classes(support_hold)
    child(support_hold, "cut-mark")


def _te3_position() -> tuple[Position, dict[str, tuple[str, str]]]:
    board = get_variant("twin_earths_3").board
    links = {"MUN-Y": ("MUN-Y", "HOL-Z"), "MAO-Y": ("MAO-Y", "MAO-Z"), "NAF-Y": ("NAF-Y", "GRE-Z")}
    position = position_from_json(
        board,
        {
            "phase": "W1901A",
            "units": {"GERMANY-Y": ["A MUN-Y"], "FRANCE-Y": ["F MAO-Y"], "ENGLAND-Z": ["F NTH-Z"]},
            "centres": {
                "GERMANY-Y": ["MUN-Y", "BER-Y", "KIE-Y"],
                "GERMANY-Z": ["MUN-Z", "BER-Z", "KIE-Z"],
                "ENGLAND-Z": ["LON-Z", "EDI-Z", "LVP-Z"],
            },
            "links": [list(pair) for pair in links.values()],
            "cuts": [["BUR-Z", "MUN-Z"]],
        },
    )
    return position, links


def test_links_are_drawn_between_their_ends_on_their_boards() -> None:
    variant = get_variant("twin_earths_3")
    board = variant.board
    position, links = _te3_position()
    drawing = Drawing.parse(render_position(board, position))
    drawn = drawing.all("link", "g")
    assert len(drawn) == len(position.links) == 3
    for e in drawn:
        a, b = e.get("data-a", ""), e.get("data-b", "")
        assert (a, b) in links.values()
        ends = path_ends(child(e, "link-line").get("d", ""))
        expected = {expected_point(board, drawing, a), expected_point(board, drawing, b)}
        assert {tuple(round(v, 1) for v in p) for p in ends} == {
            tuple(round(v, 1) for v in p) for p in expected
        }
        assert not classes(e) & {"new", "destroyed"}
    # Each end lies on a different board: the curve crosses the gap between the frames.
    assert drawing.board_origin("Y")[0] < drawing.board_origin("Z")[0]
    (cut,) = drawing.all("cut", "g")
    assert {cut.get("data-a"), cut.get("data-b")} == {"BUR-Z", "MUN-Z"}


def test_links_made_and_destroyed_in_a_winter_are_styled_apart() -> None:
    variant = get_variant("twin_earths_3")
    position, _ = _te3_position()
    board = variant.board_for(position)
    orders = _orders(
        board,
        position,
        [
            "Germany-Y: DESTROY Mao-Y Mao-Z",
            "England-Z: LINK Eng-Z Eng-Y",
            "Germany-Z: DESTROY Bel-Z Hol-Z",  # with optional rule 2: cuts a printed adjacency
        ],
    )
    outcome = step(board, position, orders, twin_earths_3_rules(cut_printed=True))
    assert [r.succeeded for r in outcome.results if isinstance(r.order, Link | DestroyLink)] == [True] * 3
    drawing = Drawing.parse(render_position(variant.board, position, results=outcome.results))
    by_ends = {(e.get("data-a"), e.get("data-b")): e for e in drawing.all("link", "g")}
    assert "destroyed" in classes(by_ends[("MAO-Y", "MAO-Z")])
    child(by_ends[("MAO-Y", "MAO-Z")], "destroyed-mark")
    made = [e for e in by_ends.values() if "new" in classes(e)]
    assert [{e.get("data-a"), e.get("data-b")} for e in made] == [{"ENG-Y", "ENG-Z"}]
    assert "new" not in classes(by_ends[("MUN-Y", "HOL-Z")])
    cuts = {frozenset((e.get("data-a"), e.get("data-b"))): e for e in drawing.all("cut", "g")}
    assert "new" in classes(cuts[frozenset(("BEL-Z", "HOL-Z"))])
    assert "new" not in classes(cuts[frozenset(("BUR-Z", "MUN-Z"))])
    # The next position, drawn on its own, shows the made link and not the destroyed one.
    after = Drawing.parse(render_position(variant.board, outcome.position))
    ends = {frozenset((e.get("data-a"), e.get("data-b"))) for e in after.all("link", "g")}
    assert frozenset(("ENG-Y", "ENG-Z")) in ends and frozenset(("MAO-Y", "MAO-Z")) not in ends


def test_twin_earths_boards_are_labelled_and_twins_joined_visibly() -> None:
    for variant_id, names in (("twin_earths_1", ["I", "II"]), ("twin_earths_3", ["Y", "Z"])):
        variant = get_variant(variant_id)
        drawing = Drawing.parse(render_position(variant.board, variant.start()))
        labels = [e.text for e in drawing.all("board-label", "text")]
        assert labels == [f"Board {n}" for n in names]
        notes = drawing.all("note", "text")
        # Only Twin Earths I joins every space to its twin.
        assert bool(notes) == (variant_id == "twin_earths_1")


def test_hyperspace_links_on_one_board() -> None:
    variant = get_variant("hyperspace_2")
    board = variant.board
    position = replace(
        variant.start(),
        links=((board.location_by_id["LON"], board.location_by_id["PAR"]),),
        cuts=frozenset({(board.space_by_id["BUR"], board.space_by_id["PAR"])}),
    )
    drawing = Drawing.parse(render_position(board, position))
    (link,) = drawing.all("link", "g")
    ends = path_ends(child(link, "link-line").get("d", ""))
    assert {tuple(map(round, p)) for p in ends} == {
        tuple(map(round, expected_point(board, drawing, x))) for x in ("LON", "PAR")
    }
    assert len(drawing.all("cut", "g")) == 1


def test_legend_shows_every_power_colour() -> None:
    for variant_id in sorted(VARIANTS):
        variant = get_variant(variant_id)
        drawing = Drawing.parse(render_position(variant.board, variant.start()))
        fills = {child(e, "power").find("*") is not None for e in drawing.all("power", "g")}
        assert fills
        legend_colours = {
            x.get("fill")
            for e in drawing.all("power", "g")
            for x in e.iter()
            if x.get("fill", "").startswith("#")
        }
        assert {p.colour for p in variant.board.powers} <= legend_colours


def test_output_is_deterministic_standalone_and_without_scripts() -> None:
    variant = get_variant("twin_earths_3")
    position, _ = _te3_position()
    board = variant.board_for(position)
    orders = _orders(board, position, ["England-Z: LINK Eng-Z Eng-Y", "Germany-Y: Build F Kie-Y"])
    outcome = step(board, position, orders, variant.rulebook)
    first = render_position(variant.board, position, results=outcome.results, title="T")
    second = render_position(variant.board, position, results=outcome.results, title="T")
    assert first == second
    assert first.startswith('<svg xmlns="http://www.w3.org/2000/svg" viewBox=')
    assert "<script" not in first and " on" not in first.replace(" one", "")
    # Several maps can share one page: the only ids are the twin powers' hatch patterns, drawn the
    # same in every map (a reference finds the same stripes whichever map's pattern it reaches).
    ids = re.findall(r'<(\w+) id="([^"]+)"', first)
    assert ids and all(tag == "pattern" and ident.startswith("hatch-") for tag, ident in ids)


def test_render_board_fills_and_badges_any_map() -> None:
    board = board_from_data(
        {
            "format": "interboard-map/1",
            "id": "tiny",
            "title": "Tiny",
            "drawing": {"width": 300, "height": 200},
            "spaces": [
                {"id": "A", "name": "Alpha", "kind": "land", "at": [60, 60]},
                {"id": "B", "name": "Beta", "kind": "land", "at": [200, 70]},
                {"id": "S", "name": "Sea", "kind": "sea", "at": [150, 160]},
            ],
            "adjacency": {"army": [["A", "B"]], "fleet": []},
        }
    )
    drawing = Drawing.parse(
        render_board(board, fills={0: "#ff0000"}, labels={0: "7", 1: "12"}, title="Tiny map")
    )
    groups = drawing.locations()
    assert child(groups["A"], "cell").get("fill") == "#ff0000"
    assert child(groups["B"], "cell").get("fill") != "#ff0000"
    badges = {
        e.get("data-loc"): "".join(child(e, "badge").itertext())
        for e in drawing.all("space-label", "g")
        if e.get("data-loc") != "S"
    }
    assert badges == {"A": "7", "B": "12"}
    # A and S touch without being adjacent: the border between them is drawn as a wall.
    assert drawing.all("wall")


def test_render_board_draws_every_shipped_map_with_a_drawing() -> None:
    from ..shipped import load_map, shipped_maps

    for package, name in shipped_maps():
        board = load_map(package, name)
        if board.size is None:
            continue
        fills = {s.index: "#123456" for s in board.spaces if s.at is not None}
        drawing = Drawing.parse(render_board(board, fills=fills, labels={s: "1" for s in fills}))
        groups = drawing.locations()
        for space in board.spaces:
            if space.at is not None and space.id in board.location_by_id:
                assert child(groups[space.id], "cell").get("fill") == "#123456", (name, space.id)


def test_retreat_phase_draws_dislodged_units_and_retreats() -> None:
    variant = get_variant("standard")
    board = variant.board
    position = position_from_json(
        board,
        {
            "phase": "S1901R",
            "units": {"GERMANY": ["A BUR"]},
            "centres": {},
            "dislodged": [
                {"power": "FRANCE", "unit": "A BUR", "attacker_from": "MUN", "retreats": ["PAR", "GAS"]}
            ],
        },
    )
    assert position.phase == Phase(1901, Season.SPRING, PhaseKind.RETREATS)
    orders = _orders(board, position, ["France: A Bur R Par"])
    drawing = Drawing.parse(render_position(board, position, orders=orders))
    dislodged = [e for e in drawing.all("unit", "g") if "dislodged" in classes(e)]
    assert [(e.get("data-loc"), e.get("data-power")) for e in dislodged] == [("BUR", "FRANCE")]
    (retreat,) = drawing.orders("retreat")
    assert retreat.get("data-dest") == "PAR"
    assert Unit("GERMANY", UnitKind.ARMY, board.location_by_id["BUR"]) in position.units.values()


def test_an_island_is_drawn_within_its_radius_with_the_sea_around_it() -> None:
    from interboard.board import MapDataError
    from interboard.render.geometry import space_shapes

    data = {
        "format": "interboard-map/1",
        "id": "isles",
        "title": "Isles",
        "drawing": {"width": 400, "height": 300},
        "spaces": [
            {"id": "I", "name": "Island", "kind": "coast", "at": [100, 150], "radius": 20},
            {"id": "S", "name": "Sea", "kind": "sea", "at": [300, 150]},
            {"id": "L", "name": "Land", "kind": "land", "at": [100, 30]},
        ],
        "adjacency": {"army": [], "fleet": [["I", "S"]]},
    }
    board = board_from_data(data)
    shapes = space_shapes(board)
    (island,) = shapes.polygons[0]
    assert max(math.dist(p, (100, 150)) for p in island) <= 20 + 1e-6
    # Without the radius the island's cell would reach the frame: now only the sea shows there.
    assert all(not (e.a == 0 and e.b == 2) for e in shapes.edges)  # no wall drawn to the far land
    with pytest.raises(MapDataError, match=r"spaces\[0\] \(I\): radius must be a positive number"):
        board_from_data({**data, "spaces": [{**data["spaces"][0], "radius": -3}, *data["spaces"][1:]]})


def test_links_between_printed_boards_are_drawn_when_asked() -> None:
    from interboard.board import board_from_data
    from interboard.render import render_board

    from ..board.test_maps import _two_boards

    board = board_from_data(_two_boards(), source="pair.json")
    plain = render_board(board)
    linked = render_board(board, links=True)
    assert 'class="link"' not in plain
    assert linked.count('class="link"') == 1 and 'data-a="A" data-b="C"' in linked
    # The narrow strip is drawn at its own width beside the wide board.
    assert 'data-board="Cards" x="282"' in linked and 'width="40"' in linked


def test_the_legend_explains_passages_and_owner_letters_where_the_map_has_them() -> None:
    for variant_id in sorted(VARIANTS):
        variant = get_variant(variant_id)
        drawing = Drawing.parse(render_position(variant.board, variant.start()))
        texts = {"".join(t.itertext()) for t in drawing.root.iter() if t.tag.endswith("text")}
        passages = drawing.all("passage", "g")
        assert ("passage: its two ends are adjacent" in texts) == bool(passages), variant_id
        lettered = any(p.id.endswith(f"-{b}") for p in variant.board.powers for b in variant.board.boards)
        assert any(t.startswith("letter: the owner's home board") for t in texts) == lettered, variant_id


def test_a_map_with_outlines_is_drawn_as_them_with_its_sea_lines_and_legend() -> None:
    """Any map whose spaces have outlines (no family involved): each space its polygon with the
    caller's hover text and data, the region outlined and named, the sea named, a sea line across the
    wrapping edge in two pieces, and the caller's legend entries with the sea line's."""
    from interboard.render.base import LegendItem

    board = board_from_data(
        {
            "format": "interboard-map/1",
            "id": "ring",
            "title": "Ring",
            "drawing": {
                "width": 200,
                "height": 100,
                "wrap": True,
                "seas": [{"name": "Mid Sea", "at": [100, 80]}],
                "sea_lines": [["W", "E"]],
            },
            "spaces": [
                {
                    "id": "W",
                    "name": "West",
                    "kind": "land",
                    "at": [20, 50],
                    "outline": [[5, 30], [40, 30], [40, 70], [5, 70]],
                },
                {
                    "id": "M",
                    "name": "Middle",
                    "kind": "land",
                    "at": [55, 50],
                    "outline": [[40, 30], [70, 30], [70, 70], [40, 70]],
                },
                {
                    "id": "E",
                    "name": "East",
                    "kind": "land",
                    "at": [180, 50],
                    "outline": [[165, 30], [195, 30], [195, 70], [165, 70]],
                },
            ],
            "adjacency": {"army": [["W", "M"], ["W", "E"]], "fleet": []},
            "regions": [{"id": "R", "name": "Landmass", "spaces": ["W", "M"], "bonus": 2, "at": [40, 20]}],
        }
    )
    legend_item = LegendItem('<rect width="5" height="5"/>', "Ada's colour", "legend-item mine")
    svg = render_board(
        board,
        fills={0: "#ff0000"},
        labels={0: "3"},
        titles={0: "West: Ada"},
        data={0: {"data-owner": "Ada", "data-colour": "#aa0000"}},
        legend=[legend_item],
    )
    drawing = Drawing.parse(svg)
    groups = drawing.locations()
    assert set(groups) == {"W", "M", "E"}
    west = groups["W"]
    assert (west.get("data-owner"), west.get("data-colour")) == ("Ada", "#aa0000")
    assert "".join(west.itertext()) == "West: Ada" and child(west, "cell").get("fill") == "#ff0000"
    assert child(west, "cell").get("d") == "M17 76L52 76L52 116L17 116Z"  # the outline, moved into the frame
    assert "".join(child(groups["M"], "cell").itertext()) == "" and "Middle" in "".join(
        groups["M"].itertext()
    )
    # The badge takes the caller's colour; the region's outline leaves out the border W-M.
    badge_rect = drawing.all("badge", "g")[0].find("{http://www.w3.org/2000/svg}rect")
    assert badge_rect is not None and badge_rect.get("fill") == "#aa0000"
    (outline,) = drawing.all("region-outline", "path")
    assert "M52 76L52 116" not in outline.get("d", "") and outline.get("d", "").count("M") == 6
    assert ["".join(e.itertext()) for e in drawing.all("region-name")] == ["Landmass (bonus 2)"]
    assert ["".join(e.itertext()) for e in drawing.all("sea-name")] == ["Mid Sea"]
    (line,) = drawing.all("sea-line", "g")
    assert (line.get("data-a"), line.get("data-b")) == ("W", "E")
    assert len(line.findall("{http://www.w3.org/2000/svg}path")) == 2  # round the edge, not across the map
    texts = ["".join(e.itertext()) for e in drawing.all("legend-item")]
    assert texts[0] == "Ada's colour" and "adjacent" in texts[1]


def test_links_take_their_makers_colour_and_twin_powers_read_apart() -> None:
    """A link is drawn in the colour of the power that made it (and says so on hover); a twin power
    (Germany-Z beside Germany-Y) is a darker shade, its centres hatched, each named in the legend."""
    variant = get_variant("twin_earths_3")
    position, _ = _te3_position()
    position = replace(position, link_makers=("GERMANY-Y", "", "GERMANY-Z"))
    drawing = Drawing.parse(render_position(variant.board, position))
    by_ends = {(e.get("data-a"), e.get("data-b")): e for e in drawing.all("link", "g")}
    germany = variant.board.power_by_id["GERMANY-Y"].colour
    made_by_y, unknown, made_by_z = (
        by_ends[("MUN-Y", "HOL-Z")],
        by_ends[("MAO-Y", "MAO-Z")],
        by_ends[("NAF-Y", "GRE-Z")],
    )
    assert child(made_by_y, "link-line").get("stroke") == germany
    assert made_by_y.get("data-maker") == "GERMANY-Y" and "made by Germany-Y" in (
        made_by_y.findtext(f"{NS}title") or ""
    )
    darker = child(made_by_z, "link-line").get("stroke")
    assert darker not in (germany, None) and _luminance(darker or "") < _luminance(germany)
    assert unknown.get("data-maker") is None and "made by" not in (unknown.findtext(f"{NS}title") or "")
    # Germany-Z's centres are hatched with a pattern of its own; Germany-Y's are a flat tint.
    fills = {e.get("data-space"): child(e, "cell").get("fill", "") for e in drawing.all("space", "g")}
    assert fills["MUN-Z"] == "url(#hatch-GERMANY-Z)" and not fills["MUN-Y"].startswith("url(")
    assert drawing.root.find(f".//{NS}pattern[@id='hatch-GERMANY-Z']") is not None
    legend = [e.findtext(f"{NS}text") or "" for e in drawing.all("power", "g")]
    assert any(t.startswith("Germany-Y") for t in legend) and any(
        t.startswith("Germany-Z (darker") for t in legend
    )


def _names_crossed(drawing: Drawing, link: ET.Element) -> set[str]:
    """The spaces whose names (their text's box, estimated from its size: capitals about 0.6 em
    wide, from 0.7 em above the baseline to 0.1 below) a link's line runs over, but for its ends'."""
    numbers = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", child(link, "link-line").get("d", ""))]
    assert len(numbers) == 8, "a link is one cubic curve"
    (px, py), (ax, ay), (bx, by), (qx, qy) = zip(numbers[::2], numbers[1::2], strict=True)
    ends = {link.get("data-a", "").split("/")[0], link.get("data-b", "").split("/")[0]}
    boxes = []
    for group in drawing.all("space-label", "g"):
        if group.get("data-space") in ends:
            continue
        text = child(group, "label")
        size, x, y = (float(text.get(k) or "nan") for k in ("font-size", "x", "y"))
        half = 0.3 * size * len(text.text or "")
        boxes.append((group.get("data-space", ""), (x - half, y - 0.7 * size, x + half, y + 0.1 * size)))
    crossed = set()
    for i in range(1, 400):
        t = i / 400
        w = ((1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t**3)
        x = w[0] * px + w[1] * ax + w[2] * bx + w[3] * qx
        y = w[0] * py + w[1] * ay + w[2] * by + w[3] * qy
        crossed |= {space for space, (x0, y0, x1, y1) in boxes if x0 <= x <= x1 and y0 <= y <= y1}
    return crossed


@pytest.mark.parametrize(
    ("variant", "seed"), [("twin_earths_3", 1), ("twin_earths_3", 2), ("hyperspace_2", 3)]
)
def test_a_dozen_links_are_routed_around_the_names_they_pass(variant: str, seed: int) -> None:
    """Twelve links between places picked at random (between the two boards, for Twin Earths III)
    are drawn so that most cross no other space's name: drawn as plain curves, nine in twelve did."""
    board = get_variant(variant).board
    rng = random.Random(seed)
    places = [s.id for s in board.spaces if s.id in board.location_by_id]
    pairs: set[tuple[str, str]] = set()
    while len(pairs) < 12:
        a, b = rng.sample(places, 2)
        if variant != "twin_earths_3" or a[-1] != b[-1]:  # Twin Earths III: Y to Z
            pairs.add((a, b))
    position = position_from_json(
        board, {"phase": "W1901A", "units": {}, "centres": {}, "links": [list(p) for p in sorted(pairs)]}
    )
    drawing = Drawing.parse(render_position(board, position))
    links = drawing.all("link", "g")
    assert len(links) == 12
    crossing = {
        (e.get("data-a"), e.get("data-b")): names for e in links if (names := _names_crossed(drawing, e))
    }
    assert len(crossing) <= 3, f"links over other spaces' names: {crossing}"


def _luminance(colour: str) -> float:
    r, g, b = (int(colour[k : k + 2], 16) for k in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def test_a_sea_is_drawn_with_its_islands_cut_out_and_their_coasts() -> None:
    board = board_from_data(atoll_map())
    drawing = Drawing.parse(render_board(board))
    cells = {e.get("data-space"): child(e, "cell") for e in drawing.all("space", "g")}
    sea = cells["SEA"]
    assert sea.get("fill-rule") == "evenodd" and (sea.get("d") or "").count("M") == 2
    assert cells["ISL"].get("fill-rule") is None
    # Drawn as a board of its own (Diplomacy's renderer), the island's whole outline is coast.
    frame = make_frame(board)
    (coast,) = Drawing.parse(document(frame, "atoll", draw_spaces(frame, {}), frame.height)).all(
        "coastline", "path"
    )
    assert (coast.get("d") or "").count("M") == 1 and (coast.get("d") or "").count("L") == 4
