"""A few helpers to write SVG text deterministically: numbers, attributes, elements, colours."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape, quoteattr

Point = tuple[float, float]
Attr = str | float | int | None

SVG_NS = "http://www.w3.org/2000/svg"


def num(v: float) -> str:
    """A coordinate with one decimal at most (``12``, ``12.5``): small files, same bytes every time."""
    text = f"{round(v, 1):.1f}"
    if text == "-0.0":
        return "0"
    return text[:-2] if text.endswith(".0") else text


def pt(p: Point) -> str:
    """``x y`` of a point, for path data."""
    return f"{num(p[0])} {num(p[1])}"


def attrs(values: Mapping[str, Attr]) -> str:
    """`` a="1" b="x"`` from a mapping, leaving out None values, in the mapping's order."""
    out = []
    for key, value in values.items():
        if value is None:
            continue
        text = num(value) if isinstance(value, float) else str(value)
        out.append(f" {key}={quoteattr(text)}")
    return "".join(out)


def el(tag: str, values: Mapping[str, Attr] | None = None, *children: str) -> str:
    """One element; children are already-written SVG text."""
    a = attrs(values or {})
    if not children:
        return f"<{tag}{a}/>"
    return f"<{tag}{a}>{''.join(children)}</{tag}>"


def text_el(values: Mapping[str, Attr], content: str) -> str:
    return f"<text{attrs(values)}>{escape(content)}</text>"


def title_el(content: str) -> str:
    return f"<title>{escape(content)}</title>"


def path_points(points: Sequence[Point], closed: bool = True) -> str:
    """Path data through ``points`` (``M x y L x y ... Z``)."""
    if not points:
        return ""
    head = f"M{num(points[0][0])} {num(points[0][1])}"
    rest = "".join(f"L{num(x)} {num(y)}" for x, y in points[1:])
    return head + rest + ("Z" if closed else "")


def mix(colour: str, other: str, amount: float) -> str:
    """``colour`` moved ``amount`` (0..1) of the way towards ``other``; both ``#rrggbb``."""
    a, b = _rgb(colour), _rgb(other)
    parts = (round(x + (y - x) * amount) for x, y in zip(a, b, strict=True))
    return "#" + "".join(f"{max(0, min(255, p)):02x}" for p in parts)


def _rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    if len(c) != 6:
        return (136, 136, 136)
    try:
        return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))
    except ValueError:
        return (136, 136, 136)


def text_colour_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = _rgb(colour)
    return "#111111" if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else "#ffffff"


def towards(p: Point, q: Point, distance: float) -> Point:
    """The point ``distance`` from ``p`` on the way to ``q`` (``p`` itself when they coincide)."""
    d = math.dist(p, q)
    if d < 1e-9:
        return p
    t = distance / d
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)


def normal(p: Point, q: Point) -> Point:
    """Unit vector perpendicular to ``p``->``q``, turned to the left of the direction of travel."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    d = math.hypot(dx, dy) or 1.0
    return (dy / d, -dx / d)


def arrowhead(tip: Point, back: Point, size: float) -> list[Point]:
    """Triangle of an arrow ending at ``tip`` and coming from the direction of ``back``."""
    dx, dy = tip[0] - back[0], tip[1] - back[1]
    d = math.hypot(dx, dy) or 1.0
    ux, uy = dx / d, dy / d
    bx, by = tip[0] - ux * size, tip[1] - uy * size
    w = size * 0.55
    return [tip, (bx - uy * w, by + ux * w), (bx + uy * w, by - ux * w)]
