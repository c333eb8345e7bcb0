"""Reading facts back out of a rendered SVG: groups by location, units, order arrows, link curves."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from interboard.board import Board

NS = "{http://www.w3.org/2000/svg}"
Point = tuple[float, float]


def classes(e: ET.Element) -> set[str]:
    return set(e.get("class", "").split())


@dataclass
class Drawing:
    root: ET.Element

    @classmethod
    def parse(cls, text: str) -> Drawing:
        root = ET.fromstring(text)
        assert root.tag == f"{NS}svg"
        return cls(root)

    def all(self, css: str, tag: str | None = None) -> list[ET.Element]:
        """Every element with the class ``css`` (and the tag, if given)."""
        return [e for e in self.root.iter() if css in classes(e) and (tag is None or e.tag == f"{NS}{tag}")]

    @property
    def view(self) -> tuple[float, float]:
        _, _, w, h = (float(x) for x in self.root.get("viewBox", "").split())
        return w, h

    def locations(self) -> dict[str, ET.Element]:
        """Location id to its group (a space, or a split coast)."""
        out: dict[str, ET.Element] = {}
        for e in self.root.iter(f"{NS}g"):
            if classes(e) & {"space", "coast-loc"} and e.get("data-loc"):
                assert e.get("data-loc") not in out, f"two groups for {e.get('data-loc')}"
                out[e.get("data-loc", "")] = e
        return out

    def board_origin(self, name: str) -> Point:
        frames = [e for e in self.all("board-frame", "rect") if e.get("data-board") == name]
        assert len(frames) == 1, f"board {name} is drawn {len(frames)} times"
        return float(frames[0].get("x", "nan")), float(frames[0].get("y", "nan"))

    def units(self) -> dict[str, ET.Element]:
        out: dict[str, ET.Element] = {}
        for e in self.all("unit", "g"):
            if "dislodged" in classes(e) and e.get("data-loc") in out:
                continue
            out[e.get("data-loc", "")] = e
        return out

    def orders(self, css: str) -> list[ET.Element]:
        return [e for e in self.all("order", "g") if css in classes(e)]


def point_of(e: ET.Element) -> Point:
    return float(e.get("data-x", "nan")), float(e.get("data-y", "nan"))


def expected_point(board: Board, drawing: Drawing, loc_id: str) -> Point:
    """Where the map data says a location is: its ``at`` plus the origin of its board's frame."""
    loc = board.location(loc_id)
    assert loc.at is not None
    ox, oy = drawing.board_origin(board.spaces[loc.space].board)
    return ox + loc.at[0], oy + loc.at[1]


_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def path_ends(d: str) -> tuple[Point, Point]:
    """First and last point of a path's data (absolute commands only, as the renderer writes)."""
    nums = [float(x) for x in _NUMBER.findall(d)]
    return (nums[0], nums[1]), (nums[-2], nums[-1])


def child(e: ET.Element, css: str) -> ET.Element:
    found = [x for x in e.iter() if css in classes(x)]
    assert found, f"no '{css}' inside {e.get('class')} {e.attrib}"
    return found[0]


ISLAND = [[40, 40], [60, 40], [60, 60], [40, 60]]


def atoll_map() -> dict[str, Any]:
    """A map of one sea with one island space cut out of it (a hole), as map data."""
    return {
        "format": "interboard-map/1",
        "id": "atoll",
        "title": "Atoll",
        "drawing": {"width": 100, "height": 100},
        "spaces": [
            {
                "id": "SEA",
                "name": "Sea",
                "kind": "sea",
                "at": [20, 20],
                "outline": [[10, 10], [90, 10], [90, 90], [10, 90]],
                "holes": [ISLAND],
            },
            {"id": "ISL", "name": "Island", "kind": "coast", "at": [50, 50], "outline": ISLAND},
        ],
        "adjacency": {"army": [], "fleet": [["SEA", "ISL"]]},
    }
