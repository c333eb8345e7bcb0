"""MILA's maps converted to ``interboard-map/1`` (``interboard map import --format mila``).

Every map of the installed ``diplomacy`` package (the test extra installs it; its files are read
where pip put them, never copied here) converts, loads, has MILA's own adjacency for armies and
fleets, centres, homes and units, and draws; as the board of a one-board variant file it plays a
seeded random game through the conformance suite; the standard map agrees with the project's own;
a small map and a variant of it exercise the directives the installed maps do not use, against
MILA's reading of the same files; and bad files give errors that name the file and line.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from interboard.board import Board, UnitKind, board_from_data, load_board, load_packaged_board
from interboard.cli.main import app
from interboard.conformance import check_variant
from interboard.games import add_variant_file
from interboard.games.diplomacy.drawing import render_position
from interboard.games.diplomacy.mila_map import STEP, MilaMapConversion, MilaMapError, convert_mila_map
from interboard.games.diplomacy.state import starting_position
from interboard.games.diplomacy.variants import MAPS_PACKAGE

from ..conftest import in_ci

# The variants a test adds from files are forgotten after it.
pytestmark = pytest.mark.usefixtures("isolated_variants")

try:
    from diplomacy.engine import map as mila_engine_map

    import diplomacy
except ImportError:  # pragma: no cover - the test extra installs it
    reason = "MILA's diplomacy package is not installed (pip install -e '.[test]'): its maps are the input"
    if in_ci():
        pytest.fail(f"{reason}; it is required when CI is set", pytrace=False)
    pytest.skip(reason, allow_module_level=True)

MAPS = Path(diplomacy.__file__).parent / "maps"
MAP_FILES = sorted(MAPS.glob("*.map"))
WITH_SVG = {"standard", "ancmed", "modern", "pure"}
"""The maps with an SVG of their own; their variants (MAP standard) share it."""
runner = CliRunner()


@cache
def converted(path: Path) -> MilaMapConversion:
    return convert_mila_map(path)


@cache
def loaded(path: Path) -> Board:
    return board_from_data(converted(path).data, source=path.name)


@cache
def mila(name: str) -> Any:
    """MILA's own reading of a map (a package map's name, or a file's path). Without MILA's cache:
    the cache would work out every convoy route of a map it has not seen (minutes, written into
    the home folder)."""
    cached = mila_engine_map.MAP_CACHE.get(name)
    found = cached if cached is not None else mila_engine_map.Map(name, use_cache=False)
    assert not found.error, found.error
    return found


def test_the_installed_maps_are_all_there() -> None:
    names = {p.stem for p in MAP_FILES}
    assert {"standard", "ancmed", "modern", "pure", "world", "colonial", "empire", "known_world_901"} <= names
    assert len(MAP_FILES) >= 14


@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: p.stem)
def test_every_map_converts_and_loads(path: Path) -> None:
    board = loaded(path)
    m = mila(path.stem)
    data = converted(path).data
    assert board.id == path.stem and data["format"] == "interboard-map/1"
    assert "MILA" in board.source and path.name in board.source
    assert [p.id for p in board.powers] == m.powers
    assert {board.spaces[s].id for s in board.centres} == set(m.scs)
    for power in board.powers:
        assert {board.spaces[s].id for s in power.home_centres} == set(m.homes[power.id])
        units = {f"{k.value} {board.locations[loc].id}" for p, k, loc in board.start.units if p == power.id}
        assert units == set(m.units.get(power.id, []))
        owned = {board.spaces[s].id for s, owner in board.start.centres if owner == power.id}
        assert owned == set(m.centers[power.id])
    assert board.start.year == m.first_year
    assert board.victory_centres == (m.victory[0] if m.victory else len(m.scs) // 2 + 1)
    kinds = {"WATER": "sea", "LAND": "land", "COAST": "coast", "PORT": "coast", "SHUT": "impassable"}
    for loc in m.locs:
        if "/" not in loc:
            assert board.space(loc).kind.value == kinds[m.area_type(loc)], loc
    assert {s.id for s in board.spaces} == {loc.upper() for loc in m.locs if "/" not in loc}


def _same_adjacency(board: Board, m: Any) -> None:
    """Every ordered pair of MILA's locations: a move there is possible in MILA exactly when the
    converted board's adjacency allows it, for armies and for fleets."""
    locations = sorted({loc.upper() for loc in m.locs})
    differences = []
    for kind in (UnitKind.ARMY, UnitKind.FLEET):
        for a in locations:
            for b in locations:
                if a == b:
                    continue
                ours = (
                    a in board.location_by_id
                    and b in board.location_by_id
                    and board.adjacent(kind, board.location_by_id[a], board.location_by_id[b])
                )
                if ours != bool(m.abuts(kind.value, a, "-", b)):
                    differences.append(f"{kind.value} {a} - {b}: ours {ours}")
    assert not differences, differences[:10]


@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: p.stem)
def test_adjacency_is_milas(path: Path) -> None:
    _same_adjacency(loaded(path), mila(path.stem))


def test_the_standard_map_agrees_with_the_projects() -> None:
    ours = converted(MAPS / "standard.map").data
    shipped = json.loads(resources.files(MAPS_PACKAGE).joinpath("standard.json").read_text(encoding="utf-8"))
    keys = ("id", "name", "kind", "centre", "coasts")
    assert [{k: s.get(k) for k in keys} for s in ours["spaces"]] == [
        {k: s.get(k) for k in keys} for s in sorted(shipped["spaces"], key=lambda s: s["id"])
    ]
    for kind in ("army", "fleet"):
        assert {tuple(p) for p in ours["adjacency"][kind]} == {
            tuple(sorted(p)) for p in shipped["adjacency"][kind]
        }, kind
    assert [(p["id"], p["name"], p["adjective"], sorted(p["home_centres"])) for p in ours["powers"]] == [
        (p["id"], p["name"], p["adjective"], sorted(p["home_centres"])) for p in shipped["powers"]
    ]
    assert ours["start"]["units"] == shipped["start"]["units"]
    assert ours["start"]["year"] == shipped["start"]["year"]
    assert ours["victory_centres"] == shipped["victory_centres"]
    project = load_packaged_board(MAPS_PACKAGE, "standard")
    assert loaded(MAPS / "standard.map").army_adj == project.army_adj
    assert loaded(MAPS / "standard.map").fleet_adj == project.fleet_adj


@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: p.stem)
def test_positions_come_from_the_svg_or_a_layout(path: Path) -> None:
    conversion = converted(path)
    board = loaded(path)
    root = mila(path.stem).root_map
    if root in WITH_SVG:
        assert conversion.positions == f"{root}.svg"
    else:
        assert conversion.positions == "layout"
    assert board.size is not None and max(board.size) <= 1000.0 * 1.5
    points = {s.id: s.at for s in board.spaces if s.at is not None}
    assert set(points) >= {s.id for s in board.spaces if s.kind.value != "impassable"}
    closest = min(math.dist(p, q) for a, p in points.items() for b, q in points.items() if a < b)
    assert closest > (2.0 if conversion.positions != "layout" else 0.5 * STEP)
    # Neighbours are drawn near each other: on average less than half as far apart as the others.
    ids = sorted(points)
    adjacent = {(board.spaces[a].id, board.spaces[b].id) for a, b in _adjacent_spaces(board)}
    near: list[float] = []
    far: list[float] = []
    for k, a in enumerate(ids):
        for b in ids[k + 1 :]:
            side = near if (a, b) in adjacent or (b, a) in adjacent else far
            side.append(math.dist(points[a], points[b]))
    if far:  # pure: every two spaces are neighbours
        assert sum(near) / len(near) < 0.5 * sum(far) / len(far)


def _adjacent_spaces(board: Board) -> set[tuple[int, int]]:
    pairs = set()
    for table in (board.army_adj, board.fleet_adj):
        for loc, others in enumerate(table):
            for other in others:
                a, b = board.locations[loc].space, board.locations[other].space
                pairs.add((min(a, b), max(a, b)))
    return pairs


def test_the_svg_positions_are_the_maps_geography() -> None:
    board = loaded(MAPS / "standard.map")

    def at(space: str) -> tuple[float, float]:
        point = board.space(space).at
        assert point is not None
        return point

    west_to_east = ["BRE", "PAR", "MUN", "WAR", "MOS"]
    assert [at(s)[0] for s in west_to_east] == sorted(at(s)[0] for s in west_to_east)
    north_to_south = ["NWY", "DEN", "KIE", "MUN", "VEN", "ROM", "NAP"]
    assert [at(s)[1] for s in north_to_south] == sorted(at(s)[1] for s in north_to_south)
    spain = board.space("SPA")
    north, south = (board.locations[loc].at for loc in spain.coasts)
    assert north is not None and south is not None and north[1] < south[1]


def test_the_layout_is_the_same_every_time() -> None:
    again = convert_mila_map(MAPS / "world.map")
    assert again.data == converted(MAPS / "world.map").data


@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: p.stem)
def test_every_map_draws(path: Path) -> None:
    board = loaded(path)
    svg = render_position(board, starting_position(board))
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    missing = [s.id for s in board.spaces if s.at is not None and f'data-space="{s.id}"' not in svg]
    assert not missing
    assert svg.count('class="unit') >= len(board.start.units) > 0


def variant_file_of(path: Path, folder: Path, vid: str) -> Path:
    """A one-board variant file (``interboard-variant/1``) in ``folder`` whose board is the map at
    ``path`` converted and written beside it, as a designer would make one."""
    conversion = converted(path)
    (folder / f"{path.stem}.json").write_text(json.dumps(conversion.data, indent=1), encoding="utf-8")
    variant = folder / f"{vid}.json"
    definition = {
        "format": "interboard-variant/1",
        "family": "diplomacy",
        "id": vid,
        "title": f"{conversion.data['title']} (converted from MILA's {path.name})",
        "boards": [{"file": f"{path.stem}.json"}],
    }
    variant.write_text(json.dumps(definition, indent=1), encoding="utf-8")
    return variant


SUITE_STEPS = 6
"""Decision points of each map's conformance game: two game years or so, enough to move, build and
retreat, and cheap (the suite draws the start, the end and every step it is told to)."""


@pytest.mark.parametrize("path", MAP_FILES, ids=lambda p: p.stem)
def test_every_map_plays_a_seeded_random_game_through_the_conformance_suite(
    path: Path, tmp_path: Path
) -> None:
    """A one-board variant file on the converted map is added as a designer adds one, and passes
    the suite every registered variant passes (legal orders accepted, records replay, positions
    draw and restart as scenarios...). Each map has a variant id of its own: a process keeps the
    variants added to it."""
    vid = f"mila_{path.stem}"
    _, info = add_variant_file(variant_file_of(path, tmp_path, vid))
    assert info.id == vid and list(info.seats) == [p.id for p in loaded(path).powers]
    report = check_variant(vid, seed=20, max_steps=SUITE_STEPS, draw_every=SUITE_STEPS)
    assert report.steps == SUITE_STEPS and not report.over
    first = loaded(path).start.year
    assert report.phases[:2] == [f"S{first}M", f"F{first}M"]
    assert report.actions > 0 and report.drawings == 1


# ---------------------------------------------------------------------------------------------
# A small map and a variant of it: the directives the installed maps do not use, against MILA
# ---------------------------------------------------------------------------------------------

SMALL = """\
# A small map: a port, a province with split coasts, army-only and fleet-only borders, a SHUT space
BEGIN SPRING 1950 MOVEMENT

ALPHA (ALPHAN) AAA BBB
A AAA
F BBB

BETA (BETAN:B) CCC DDD
A CCC
F DDD/NC

GAMMA (GAMMAN) EEE
A EEE

UNOWNED FFF GGG

Aaa Land = aaa
Bbb Port = bbb
Ccc Coast = ccc
Ddd Split = ddd dee ddd+split dd?
Ddd Split (north coast) = ddd/nc ddd(nc)
Ddd Split (south coast) = ddd/sc
Eee Land = eee
Fff Coast = fff
Ggg Coast = ggg
North Water = nwa
South Water = swa
The Wall = wal

LAND  AAA    ABUTS BBB CCC EEE WAL
PORT  BBB    ABUTS AAA CCC NWA SWA
COAST CCC    ABUTS AAA BBB ddd DDD/NC NWA Fff
COAST ddd    ABUTS CCC EEE FFF GGG NWA SWA
COAST DDD/NC ABUTS CCC FFF NWA
COAST DDD/SC ABUTS GGG SWA
LAND  EEE    ABUTS AAA ddd ggg WAL
COAST FFF    ABUTS ddd DDD/NC NWA ggg Ccc
COAST GGG    ABUTS DDD/SC ddd SWA eee fff
WATER NWA    ABUTS BBB CCC DDD/NC FFF
WATER SWA    ABUTS BBB DDD/SC GGG
SHUT  WAL    ABUTS AAA EEE
"""

VARIANT = """\
# The small map without Gamma and Ggg, its port closed to the south
MAP small
UNPLAYED GAMMA
DROP GGG
AMEND AAA ABUTS -WAL
AMEND BBB ABUTS -SWA
AMEND SWA ABUTS -BBB

ALPHA
OWNS AAA BBB FFF
HOME AAA
A CCC

BETA (BETAN) -DDD EEE
"""


def _write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("name", ["small", "variant"])
def test_a_small_map_and_its_variant_read_as_mila_reads_them(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write(tmp_path, "small.map", SMALL)
    path = _write(tmp_path, "variant.map", VARIANT) if name == "variant" else tmp_path / "small.map"
    monkeypatch.chdir(tmp_path)  # MILA reads a MAP line's file from the current folder
    m = mila(str(path))
    conversion = convert_mila_map(path)
    board = board_from_data(conversion.data, source=path.name)
    _same_adjacency(board, m)
    assert [p.id for p in board.powers] == m.powers
    assert {board.spaces[s].id for s in board.centres} == set(m.scs)
    for power in board.powers:
        assert [board.spaces[s].id for s in power.home_centres] == m.homes[power.id]
        units = {f"{k.value} {board.locations[loc].id}" for p, k, loc in board.start.units if p == power.id}
        assert units == set(m.units.get(power.id, []))
        owned = {board.spaces[s].id for s, owner in board.start.centres if owner == power.id}
        assert owned == set(m.centers[power.id])
    assert board.start.year == 1950
    assert conversion.positions == "layout"
    assert "ports converted as coasts (their fleets do not convoy): BBB" in conversion.notes
    split = board.space("DDD")
    assert (split.name, split.aliases, [board.locations[c].id for c in split.coasts]) == (
        "Ddd Split",
        ("dee",),
        ["DDD/NC", "DDD/SC"],
    )
    if name == "variant":
        assert conversion.data["source"].startswith("Converted from MILA's map variant.map, small.map ")
        assert "GGG" not in board.space_by_id and board.power_by_id["BETA"].adjective == "Betan"


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------


def _error_of(tmp_path: Path, text: str, name: str = "bad.map") -> str:
    with pytest.raises(MilaMapError) as caught:
        convert_mila_map(_write(tmp_path, name, text))
    return str(caught.value)


def _line_of(text: str, wanted: str) -> int:
    return next(k for k, line in enumerate(text.splitlines(), start=1) if line.startswith(wanted))


def test_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(MilaMapError, match=r"^none\.map: no such map file"):
        convert_mila_map(tmp_path / "none.map")
    text = "MAP nowhere\n"
    assert _error_of(tmp_path, text) == "bad.map:1: MAP nowhere: there is no nowhere.map beside bad.map"


def test_included_files(tmp_path: Path) -> None:
    _write(tmp_path, "small.map", SMALL)
    _write(tmp_path, "more.map", "DELTA (DELTAN) GGG\nA GGG\n")
    both = convert_mila_map(_write(tmp_path, "both.map", "USE small more\n")).data
    assert [p["id"] for p in both["powers"]] == ["ALPHA", "BETA", "DELTA", "GAMMA"]
    assert both["start"]["units"]["DELTA"] == ["A GGG"]
    assert _error_of(tmp_path, "USE small\nMAP small\n") == "bad.map:2: small.map is read a second time"
    assert _error_of(tmp_path, "# itself\nUSE bad\n") == "bad.map:2: bad.map is read a second time"


def test_an_unknown_directive(tmp_path: Path) -> None:
    text = SMALL.replace("UNOWNED FFF GGG", "UNOWNED FFF GGG\nFROBNICATE 3:4")
    message = _error_of(tmp_path, text)
    assert message.startswith(f"bad.map:{_line_of(text, 'FROBNICATE')}: unknown directive 'FROBNICATE'")
    # One whose words could be provinces is read as a power line, as MILA reads it, and refused then.
    text = SMALL.replace("UNOWNED FFF GGG", "UNOWNED FFF GGG\nSEASONS SPRING FALL")
    message = _error_of(tmp_path, text)
    assert message.startswith(f"bad.map:{_line_of(text, 'SEASONS')}: unknown directive 'SEASONS'?")
    assert "SPRING is not a province" in message


def test_a_province_used_but_not_defined(tmp_path: Path) -> None:
    text = SMALL.replace("LAND  EEE    ABUTS AAA ddd ggg WAL", "LAND  EEE    ABUTS AAA ddd ggg WAL XYZ")
    assert _error_of(tmp_path, text) == (
        f"bad.map:{_line_of(text, 'LAND  EEE')}: XYZ is not a province of the map: no LAND, WATER, "
        "COAST, PORT or SHUT line defines it"
    )
    text = SMALL.replace("\nA EEE\n", "\nA XYZ\n")
    assert _error_of(tmp_path, text) == f"bad.map:{_line_of(text, 'A XYZ')}: XYZ is not a province of the map"
    text = SMALL.replace("UNOWNED FFF GGG", "UNOWNED FFF GGG XYZ")
    assert _error_of(tmp_path, text).startswith(f"bad.map:{_line_of(text, 'UNOWNED')}: the centre XYZ is not")
    text = SMALL + "Xyz Land = xyz\n"
    assert _error_of(tmp_path, text).startswith(f"bad.map:{_line_of(text, 'Xyz')}: XYZ is named but no")


@pytest.mark.parametrize(
    ("old", "new", "at", "problem"),
    [
        (
            "COAST FFF    ABUTS ddd DDD/NC NWA ggg Ccc",
            "COAST FFF    ABUTS ddd DDD/NC NWA ggg",
            "COAST CCC",
            "a fleet may move from CCC to FFF but not back: interboard's adjacency goes both ways "
            "(list CCC among FFF's neighbours)",
        ),
        ("F DDD/NC", "F DDD", "F DDD", "a fleet in DDD stands on one of its coasts: DDD/NC or DDD/SC"),
        ("A AAA", "A NWA", "A NWA", "an army cannot stand at NWA (WATER)"),
        (
            "BEGIN SPRING 1950 MOVEMENT",
            "BEGIN FALL 1950 MOVEMENT",
            "BEGIN",
            "the map begins in FALL MOVEMENT: the project's games open with a Spring movement",
        ),
        (
            "LAND  EEE    ABUTS",
            "LAND  EEE    BORDERS",
            "LAND  EEE",
            "ABUTS should follow the place's name, not 'BORDERS'",
        ),
        (
            "BETA (BETAN:B) CCC DDD",
            "BETA (BETAN:B) CCC DDD AAA",
            "BETA",
            "AAA is a home centre of both ALPHA and BETA: interboard gives a centre one home power at most",
        ),
        ("A CCC", "A CCC\nUNPLAYED DELTA", "UNPLAYED", "UNPLAYED: no power DELTA has been declared"),
    ],
)
def test_other_errors_name_the_file_and_line(
    tmp_path: Path, old: str, new: str, at: str, problem: str
) -> None:
    assert old in SMALL
    text = SMALL.replace(old, new)
    assert _error_of(tmp_path, text) == f"bad.map:{_line_of(text, at)}: {problem}"


def test_an_svg_that_misses_spaces_is_refused_when_named(tmp_path: Path) -> None:
    with pytest.raises(MilaMapError, match=r"^pure\.svg: no unit place \(<jdipNS:PROVINCE>\) for 68 spaces"):
        convert_mila_map(MAPS / "standard.map", MAPS / "svg" / "pure.svg")
    broken = _write(tmp_path, "broken.svg", "<svg><jdipNS:PROVINCE")
    with pytest.raises(MilaMapError, match=r"^broken\.svg: not an SVG file"):
        convert_mila_map(MAPS / "pure.map", broken)


# ---------------------------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------------------------


def test_the_command_writes_a_map_the_loader_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "out" / "modern.json"
    target.parent.mkdir()
    out = runner.invoke(
        app, ["map", "import", "--format", "mila", str(MAPS / "modern.map"), "-o", str(target)]
    )
    assert out.exit_code == 0, out.output
    assert f"wrote {target}: Modern, 141 spaces, 10 powers" in out.stdout
    assert "note: drawing positions from modern.svg" in out.output
    assert load_board(target).space_by_id.keys() == loaded(MAPS / "modern.map").space_by_id.keys()

    monkeypatch.chdir(tmp_path)
    out = runner.invoke(app, ["map", "import", "--format", "mila", str(MAPS / "pure.map")])
    assert out.exit_code == 0, out.output
    assert len(load_board(tmp_path / "pure.json").spaces) == 7
    out = runner.invoke(app, ["map", "import", "--format", "mila", str(MAPS / "pure.map")])
    assert out.exit_code == 2 and "pure.json exists: name the file to write with -o" in out.output

    out = runner.invoke(app, ["map", "import", "--format", "mila", str(MAPS / "pure.map"), "-o", "-"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout) == converted(MAPS / "pure.map").data


def test_the_command_reports_errors_without_a_traceback(tmp_path: Path) -> None:
    bad = _write(tmp_path, "bad.map", SMALL.replace("\nA EEE\n", "\nA XYZ\n"))
    out = runner.invoke(app, ["map", "import", "--format", "mila", str(bad), "-o", "-"])
    assert out.exit_code == 1 and f"bad.map:{_line_of(SMALL, 'A EEE')}: XYZ is not a province" in out.output
    assert out.exception is None or isinstance(out.exception, SystemExit)
    out = runner.invoke(app, ["map", "import", "--format", "mila", str(tmp_path / "none.map")])
    assert out.exit_code == 2 and "none.map: no such file" in out.output
    out = runner.invoke(app, ["map", "import", "--format", "jdip", str(bad)])
    assert out.exit_code == 2 and "unknown map format 'jdip' (formats: mila)" in out.output
    assert "Traceback" not in out.output


def test_variant_check_passes_a_converted_maps_variant_file(tmp_path: Path) -> None:
    """The designer's path end to end: ``map import`` writes the board, a variant file names it, and
    ``interboard variant check`` reads the file and runs the conformance suite on it."""
    out = runner.invoke(
        app, ["map", "import", "--format", "mila", str(MAPS / "pure.map"), "-o", str(tmp_path / "pure.json")]
    )
    assert out.exit_code == 0, out.output
    variant = tmp_path / "mila_cli_pure.json"
    definition = {
        "format": "interboard-variant/1",
        "family": "diplomacy",
        "id": "mila_cli_pure",
        "title": "Pure, converted from MILA",
        "boards": [{"file": "pure.json"}],
        "victory": {"centres": 3},
    }
    variant.write_text(json.dumps(definition), encoding="utf-8")
    out = runner.invoke(app, ["variant", "check", str(variant), "--steps", "12"])
    assert out.exit_code == 0, out.output
    assert f"{variant}: mila_cli_pure, Pure, converted from MILA: 7 powers" in out.output
    assert "conformance: passed" in out.output
    # A file with an error is refused before any game is played, naming where the error is.
    definition["boards"] = [{"file": "impure.json"}]
    variant.write_text(json.dumps(definition), encoding="utf-8")
    out = runner.invoke(app, ["variant", "check", str(variant)])
    assert out.exit_code == 1 and "boards[0].file: 'impure.json' cannot be read" in out.output
    assert "conformance" not in out.output
