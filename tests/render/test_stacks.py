"""On the Axis & Allies boards, the rows a space's pieces and marks are drawn in (its stack) keep off
the names written near them: measured on the drawn SVG of each board's opening position."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from interboard.games import family

from .helpers import NS, Drawing, classes

BOX = tuple[float, float, float, float]
_TRANSLATE = re.compile(r"translate\((-?[\d.]+),(-?[\d.]+)\)")


def _names(drawing: Drawing) -> dict[str, BOX]:
    """Each space's name, as a box estimated from its text: letters 0.58 em wide, a line from 0.7 em
    above its baseline to 0.15 below (a little inside the drawing's own estimate)."""
    out = {}
    for group in drawing.all("space-label", "g"):
        text = next(e for e in group.iter(f"{NS}text") if "label" in classes(e))
        size, x, y = (float(text.get(k) or "nan") for k in ("font-size", "x", "y"))
        spans = text.findall(f"{NS}tspan")
        lines = [s.text or "" for s in spans] if spans else [text.text or ""]
        half = 0.29 * size * max(len(line) for line in lines)
        top, bottom = (
            (y - 0.7 * size, y + 0.15 * size) if len(lines) == 1 else (y - 1.2 * size, y + 0.65 * size)
        )
        out[group.get("data-space", "")] = (x - half, top, x + half, bottom)
    return out


def _rows(drawing: Drawing) -> dict[str, list[BOX]]:
    """Each space's stack rows (their rounded rectangles), placed where the drawing puts them."""
    out: dict[str, list[BOX]] = {}
    for group in drawing.all("space-label", "g"):
        for mark in group.findall(f"{NS}g"):
            if "mark" not in classes(mark):
                continue
            mx, my = (float(v) for v in _TRANSLATE.search(mark.get("transform", "")).groups())  # type: ignore[union-attr]
            for placed in mark.findall(f"{NS}g"):
                px, py = (float(v) for v in _TRANSLATE.search(placed.get("transform", "")).groups())  # type: ignore[union-attr]
                rect = next(placed.iter(f"{NS}rect"))
                x, y, w, h = (float(rect.get(k) or "nan") for k in ("x", "y", "width", "height"))
                out.setdefault(group.get("data-space", ""), []).append(
                    (mx + px + x, my + py + y, mx + px + x + w, my + py + y + h)
                )
    return out


def _overlap(a: BOX, b: BOX) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


@pytest.mark.parametrize("variant", ["aa_europe_1999", "aa_pacific_2001"])
def test_stacks_keep_off_the_names_near_them(variant: str) -> None:
    fam = family("axis_allies")
    state = fam.new_state(variant, {}, 1)
    drawing = Drawing.parse(fam.draw(variant, fam.view(state), {}, [], variant))
    names, rows = _names(drawing), _rows(drawing)
    assert len(rows) > 40, "the opening position has pieces on many spaces"
    covered = sorted(
        (space, other)
        for space, boxes in rows.items()
        for other, name in names.items()
        if any(_overlap(row, name) > 4.0 for row in boxes)
    )
    # A crowded corner may leave a row touching a neighbour's name, never its own space's.
    assert [pair for pair in covered if pair[0] == pair[1]] == []
    assert len(covered) <= len(rows) // 20, f"stacks over names: {covered}"


def test_the_rows_are_found_in_the_drawing() -> None:
    """The measure above reads real rows: a stack drawn on its point covers its own name when the
    name is written over the point."""
    drawing = Drawing(
        ET.fromstring(
            f'<svg xmlns="{NS[1:-1]}"><g class="space-label" data-space="A">'
            '<text class="label" x="10" y="10" font-size="10">Abc</text>'
            '<g class="mark" transform="translate(10,7)"><g transform="translate(0,0)">'
            '<rect x="-10" y="-7" width="20" height="14"/></g></g></g></svg>'
        )
    )
    assert _rows(drawing) == {"A": [(0.0, 0.0, 20.0, 14.0)]}
    assert _overlap(_rows(drawing)["A"][0], _names(drawing)["A"]) > 4.0
