"""The request body of ``POST /api/games``, made from the registry: one schema per variant.

A request the schema accepts should be one the server can accept, so everything a variant decides
is in its own schema: its id (an enum of the registry's ids), its options (typed and bounded as the
variant declares them), its seats, the phase kinds its deadlines are for, and its family's bots.
The variants are told apart by ``variant`` (omitted: ``standard``).
"""

from __future__ import annotations

import unicodedata
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, Union

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Discriminator,
    Field,
    StrictBool,
    Tag,
    create_model,
    model_validator,
)

from ..bots.seats import bot_names
from ..games import family as get_family
from ..games import variants
from ..games.protocol import Option, VariantInfo
from .games.requests import MAX_DEADLINE, MISSED_ORDERS, PRESS_RULES, has_nul


class Strict(BaseModel):
    """A request body: unknown fields refused, no type coerced (0 is no false), no NUL in its text."""

    # Python's regex engine: the player name's pattern needs a lookahead.
    model_config = ConfigDict(extra="forbid", strict=True, regex_engine="python-re")
    nul_refused_by_fields: ClassVar[bool] = False
    """Whether each text field of the model has a pattern that refuses NUL: the fields refuse it
    before the whole body is looked at, so that look is skipped (a seat's frequent writes)."""

    @model_validator(mode="after")
    def _no_nul(self) -> Strict:
        # PostgreSQL cannot store NUL in text; refuse it everywhere rather than on one database.
        # A scenario is free-form JSON that its schema cannot bound: the service refuses its NULs.
        if not self.nul_refused_by_fields and has_nul(self.model_dump(exclude={"scenario"})):
            raise ValueError("text may not contain NUL characters")
        return self


def _whole(value: object) -> object:
    # JSON Schema's integer is any number without a fraction (306.0 too); strict mode wants an int.
    return int(value) if isinstance(value, float) and value.is_integer() else value


Whole = BeforeValidator(_whole)
"""On an int field: 306.0 is 306, as JSON Schema says, while "306" and true stay refused. It goes
after the field's bounds in ``Annotated``, or pydantic writes them into the schema untranslated."""
NO_NUL = r"^[^\x00]*$"
"""Text without NUL, which PostgreSQL cannot store: said in the schema, so clients know."""


UNSEEN = (
    "\u0000-\u001f\u007f-\u009f\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e"
    "\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb"
)
"""A regex character class body of the characters a name or title may not hold: controls (line
breaks among them), format characters (bidirectional overrides, zero-width spaces and joiners), line
and paragraph separators: Unicode categories Cc, Cf, Zl and Zp in the Basic Multilingual Plane, the
characters themselves (not escapes: every regular expression engine reads those alike), as written
out by ``unseen_characters`` (a test checks that they still agree). The few format characters beyond
it (tags, hieroglyph and musical formatting) are let through."""
UNSEEN_CATEGORIES = ("Cc", "Cf", "Zl", "Zp")


def unseen_characters() -> str:
    """:data:`UNSEEN` worked out from this Python's Unicode tables."""
    ranges: list[tuple[int, int]] = []
    for code in range(0x10000):
        if unicodedata.category(chr(code)) in UNSEEN_CATEGORIES:
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))

    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges)


SHOWN_TEXT = rf"^[^{UNSEEN}]*$"
"""Text a person reads as it is (a game's title): none of the characters that hide or reorder
what is shown, such as a right-to-left override (U+202E) or a zero-width space (U+200B), and no NUL
(a control)."""
PLAYER_NAME = rf"^(?!bot:)(?!\s*$)[^{UNSEEN}]*$"
"""A player's name: shown text, not empty or blank, not starting "bot:" (a seat's kind)."""
PLAYER_NAME_OR_EMPTY = rf"^(?!bot:)(?!\s+$)[^{UNSEEN}]*$"
"""A player's name, or nothing (at join: the seat's name is taken)."""


def nfc(limit: int) -> AfterValidator:
    """Text in Unicode's composed form (NFC: "é" one character, however it was typed), so that
    two names that look the same are the same; no longer than ``limit`` once composed."""

    def compose(text: str) -> str:
        composed = unicodedata.normalize("NFC", text)
        if len(composed) > limit:
            raise ValueError(f"at most {limit} characters once composed (NFC)")
        return composed

    return AfterValidator(compose)


SEED_MAX = 2**53 - 1
"""The largest seed: every client reads it exactly (JavaScript's numbers are exact to 2**53)."""
NAME_MAX = 100
"""The longest player name, at creation and at join alike (the database column's size)."""
PlayerName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=NAME_MAX,
        pattern=PLAYER_NAME,
        description="a player's name (not empty, not starting 'bot:', no control or format character)",
    ),
    nfc(NAME_MAX),
]
Title = Annotated[
    str,
    Field(max_length=200, pattern=SHOWN_TEXT, description="a game's title (no control or format character)"),
    nfc(200),
]
Seconds = Annotated[int, Field(ge=1, le=MAX_DEADLINE), Whole]
DEFAULT_VARIANT = "standard"


def _literal(values: tuple[str, ...] | list[str]) -> Any:
    return Literal[tuple(values)]


def _option_type(option: Option) -> Any:
    """The option's JSON type with its bounds; strict, as :meth:`Option.check` is (1 is no bool)."""
    if isinstance(option.default, bool):
        return StrictBool
    if isinstance(option.default, int):
        low = option.minimum if option.minimum is not None else -(2**31)
        high = option.maximum if option.maximum is not None else 2**31 - 1
        return Annotated[int, Field(ge=low, le=high), Whole]
    if option.choices:
        return _literal(option.choices)
    return Annotated[str, Field(max_length=100, pattern=NO_NUL)]


def _variant_body(info: VariantInfo) -> type:
    fam = get_family(info.family)
    bots = [f"bot:{b}" for b in bot_names(fam.name)]
    name = "".join(part.title() for part in info.id.split("_"))
    options = create_model(  # type: ignore[call-overload]
        f"{name}Options",
        __config__=ConfigDict(extra="forbid", strict=True),
        **{o.name: (_option_type(o), Field(o.default, description=o.help)) for o in info.options},
    )
    how = _literal(["open", "bot", *bots]) | PlayerName
    seat_name = _literal(info.seats)
    kind = _literal(fam.phase_kinds)
    variant_type = _literal([info.id])
    fields: dict[str, Any] = {
        "variant": (
            variant_type,
            Field(DEFAULT_VARIANT if info.id == DEFAULT_VARIANT else ..., description=info.title),
        ),
        "family": (_literal([fam.name]) | None, Field(None, description="optional: the variant's family")),
        "title": (Title, ""),
        "options": (options, Field(default_factory=options)),
        "seed": (
            Annotated[int, Field(ge=0, le=SEED_MAX), Whole] | None,
            Field(None, description="seeds the game's dice; omitted: drawn, unseen"),
        ),
        "press": (_literal(PRESS_RULES), "full"),
        "deadlines": (
            dict[kind, Seconds],  # type: ignore[valid-type]
            Field(default_factory=dict, description="seconds per phase kind; a kind without one waits"),
        ),
        "seats": (
            dict[seat_name, how],  # type: ignore[valid-type]
            Field(default_factory=dict, description="seat -> open | bot | bot:NAME | a player's name"),
        ),
        "scenario": (
            dict[str, Any] | None,
            Field(
                None,
                description="start from this interboard-scenario/1 (docs/scenarios.md); "
                "without 'variant', the game is of the scenario's variant",
            ),
        ),
        "autostart": (bool, True),
        "missed_orders": (_literal(MISSED_ORDERS), Field("default", description="default | wait")),
        "on_leave": (
            _literal(["bot", "open", *bots]),
            Field("bot", description="a leaving player's seat becomes: bot | bot:NAME | open"),
        ),
    }
    model: type = create_model(
        f"Create{name}",
        __base__=Strict,
        **fields,
    )
    return model


def create_game_body() -> Any:
    """The body of ``POST /api/games``: a union of one model per variant offered now (those made
    from files among them: an app made after they are added takes them)."""
    return _create_game_body(tuple(variants()))


def _tag(value: Any) -> str | None:
    if isinstance(value, dict):
        tag = value.get("variant", DEFAULT_VARIANT)
        return tag if isinstance(tag, str) else None
    return getattr(value, "variant", None)


@cache
def _create_game_body(infos: tuple[VariantInfo, ...]) -> Any:
    members = tuple(Annotated[_variant_body(info), Tag(info.id)] for info in infos)
    by_family: dict[str, list[str]] = {}
    for info in infos:
        by_family.setdefault(info.family, []).append(info.id)
    listed = "; ".join(f"{name}: {', '.join(ids)}" for name, ids in by_family.items())
    unknown = Discriminator(
        _tag,
        custom_error_type="unknown_variant",
        custom_error_message=f"unknown variant (variants: {listed})",
    )
    return Annotated[Union[members], unknown]  # noqa: UP007 - a union built from a tuple
