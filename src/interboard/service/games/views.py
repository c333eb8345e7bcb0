"""What a game looks like: its public view, a seat's view, its legal-action tree, messages and
history. The views of a version are read once and kept (a seat's view at nearly every version)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic_core import to_json
from sqlalchemy import ColumnElement, cast, exists, func, or_, select
from sqlalchemy.dialects.postgresql import JSONB

from ...games import family as get_family
from ...games import find_variant
from ...games.protocol import FamilyError
from ..errors import NotFound
from ..models import GameRow, MessageRow, PhaseRow
from .core import GameCore, Reader, Snapshot
from .statements import SEAT_LINE_WIDTH, SEATS_AT_VERSION, SEATS_OF_GAME, Head, SeatLine


def titles(variant: str, family: str | None = None) -> tuple[str, str]:
    """The names players know a game's family and variant by (``Axis & Allies``, ``Axis & Allies
    Europe (1999)``): the family's and the variant's ``title``. A variant no longer registered keeps
    its ids (``family`` given: that one for its family)."""
    try:
        fam, info = find_variant(variant)
    except FamilyError:
        return family or variant, variant
    return fam.title, info.title


class Views(GameCore):
    """What the games look like to their players and to everyone (part of :class:`~.GameService`)."""

    def list_games(self) -> list[dict[str, Any]]:
        with self._tx() as s:
            rows = s.scalars(select(GameRow).order_by(GameRow.created_at.desc()).limit(200))
            return [self._summary(s, g) for g in rows]

    def _summary(
        self, s: Reader, g: GameRow | Head, seats: Sequence[SeatLine] | None = None
    ) -> dict[str, Any]:
        """The game's public summary; ``seats``: its seats' lines, if read already."""
        if seats is None:
            seats = SEATS_OF_GAME.all(s, {"game_id": g.id})
        deadline = g.deadline
        family_title, variant_title = titles(g.variant, g.family)
        return {
            "id": g.id,
            "title": g.title,
            "family": g.family,
            "family_title": family_title,
            "variant": g.variant,
            "variant_title": variant_title,
            "status": g.status,
            "phase": g.phase,
            "phase_index": g.phase_index,
            "version": g.version,
            "deadline": deadline.isoformat() if deadline else None,
            "press": g.settings.get("press"),
            "options": g.settings.get("options", {}),
            "seats": [
                {
                    "seat": r.seat,
                    "kind": r.kind,
                    "player": r.player,
                    "ready": r.ready if g.status == "active" else False,
                }
                for r in seats
            ],
            "result": g.result,
        }

    def public_view(self, game_id: str) -> dict[str, Any]:
        return self._read(lambda s: dict(self._snapshot(s, self._head(s, game_id)).public))

    def _snapshot(self, s: Reader, head: Head) -> Snapshot:
        """The public view and the phase's orders at the head's version, read once a version."""

        def read() -> Snapshot:
            phase = self._phase(s, head)
            rows = SEATS_AT_VERSION.all(s, {"game_id": head.id, "phase_index": head.phase_index})
            out = self._summary(s, head, [SeatLine(*row[:SEAT_LINE_WIDTH]) for row in rows])
            out["position"] = phase.position
            out["acting"] = list(phase.acting) if head.status == "active" else []
            out["pending"] = phase.pending
            out["seed_chosen"] = bool(head.settings.get("seed_chosen", False))
            orders = {row.seat: list(row.orders) for row in rows if row.orders is not None}
            out["submitted"] = sorted(orders)  # who has ordered, never what
            return Snapshot(out, orders, (rows[0].last_message if rows else None) or 0)

        return self._versions.get((head.id, head.version), read)

    def seat_view(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The public view with the seat's own orders and messages, all keyed by the game's version
        read first, so a view never pairs one phase with another's orders."""
        return self._read(lambda s: self._seat_view(s, game_id, token))

    def _seat_view(self, s: Reader, game_id: str, token: str | None) -> dict[str, Any]:
        snapshot, own, messages = self._seat_parts(s, game_id, token)
        return {**snapshot.public, "seat": own, "messages": messages}

    def seat_view_json(self, game_id: str, token: str | None) -> bytes:
        """:meth:`seat_view` as JSON: the same bytes as the view encoded whole, but the public part,
        the most of it, is encoded once a version rather than once a request."""
        return self._read(lambda s: self._seat_view_json(s, game_id, token))

    def _seat_view_json(self, s: Reader, game_id: str, token: str | None) -> bytes:
        snapshot, own, messages = self._seat_parts(s, game_id, token)
        public = snapshot.public_json  # an object, so it ends in "}": the seat's part goes before it
        return b"".join((public[:-1], b',"seat":', to_json(own), b',"messages":', to_json(messages), b"}"))

    def _seat_parts(
        self, s: Reader, game_id: str, token: str | None
    ) -> tuple[Snapshot, dict[str, Any], list[dict[str, Any]]]:
        """A seat's view in its parts: the game's snapshot, the seat's own part, its messages."""
        head, seat = self._head_and_seat(s, game_id, token)
        snapshot = self._snapshot(s, head)
        own = {
            "seat": seat.seat,
            "player": seat.player,
            "ready": seat.ready,
            "draw_vote": seat.draw_vote,
            "orders": snapshot.orders.get(seat.seat, []),
        }
        messages = (
            []  # the game has none (a game without press never has)
            if snapshot.last_message == 0
            else self._letters.get(
                (game_id, snapshot.last_message, seat.seat), lambda: self._messages(s, game_id, seat.seat)
            )
        )
        return snapshot, own, messages

    def options(self, game_id: str, token: str | None) -> dict[str, Any]:
        return self._read(lambda s: self._options(s, game_id, token))

    def _options(self, s: Reader, game_id: str, token: str | None) -> dict[str, Any]:
        head, seat = self._head_and_seat(s, game_id, token)
        if head.status != "active":
            return {}
        saved = tuple(self._snapshot(s, head).orders.get(seat.seat, ()))
        state = self._phase(s, head).state
        family = get_family(head.family)

        def tree() -> dict[str, Any]:
            try:
                return family.options(state, seat.seat, list(saved))
            except (ValueError, KeyError):  # saved orders that no longer apply: the plain tree
                return family.options(state, seat.seat)

        return self._trees.get((game_id, head.phase_index, seat.seat, saved), tree, standalone=True)

    def messages(self, game_id: str, token: str | None) -> list[dict[str, Any]]:
        with self._tx() as s:
            self._game(s, game_id)
            seat = self._seat_by_token(s, game_id, token)
            return self._messages(s, game_id, seat.seat)

    def _messages(self, s: Reader, game_id: str, seat: str) -> list[dict[str, Any]]:
        """The messages the seat may read, chosen by the database (a game's press can be long)."""
        visible = or_(MessageRow.recipients.is_(None), MessageRow.sender == seat, self._addressed_to(seat))
        columns = (MessageRow.id, MessageRow.phase, MessageRow.sender, MessageRow.recipients)
        rows = s.execute(
            select(*columns, MessageRow.body, MessageRow.sent_at)
            .where(MessageRow.game_id == game_id, visible)
            .order_by(MessageRow.id)
        )
        return [
            {
                "id": m.id,
                "phase": m.phase,
                "from": m.sender,
                "to": m.recipients,
                "body": m.body,
                "sent_at": m.sent_at.isoformat(),
            }
            for m in rows
        ]

    def _addressed_to(self, seat: str) -> ColumnElement[bool]:
        """Whether a message's recipients (a JSON list) name ``seat``, in the database's own terms."""
        if self.engine.dialect.name == "postgresql":
            return cast(MessageRow.recipients, JSONB).contains([seat])
        each = func.json_each(MessageRow.recipients).table_valued("value").alias("recipient")
        return exists(select(each.c.value).where(each.c.value == seat))

    def history(self, game_id: str, offset: int = 0, limit: int | None = None) -> list[dict[str, Any]]:
        """The played phases from index ``offset`` on (0: the first), at most ``limit`` (``None``:
        every one), in order."""
        with self._tx() as s:
            self._game(s, game_id)
            query = (
                select(PhaseRow)
                .where(PhaseRow.game_id == game_id, PhaseRow.phase_index >= offset)
                .order_by(PhaseRow.phase_index)
                .limit(limit)
            )
            return [{"index": r.phase_index, "phase": r.phase, **r.record} for r in s.scalars(query)]

    def played_phase(self, game_id: str, index: int) -> dict[str, Any]:
        """Phase ``index`` of the history (0 = the first), as :meth:`history` gives it."""
        with self._tx() as s:
            game = self._game(s, game_id)
            row = s.scalars(
                select(PhaseRow).where(PhaseRow.game_id == game_id, PhaseRow.phase_index == index)
            ).first()
            if row is None:
                played = game.phase_index  # phases processed so far
                raise NotFound(f"phase {index} has not been played (the history has {played} phases)")
            return {"index": row.phase_index, "phase": row.phase, **row.record}

    def version(self, game_id: str) -> int:
        return int(self.headline(game_id)["version"])

    def headline(self, game_id: str) -> dict[str, Any]:
        """The game's version, phase and status, read without its state (an event stream's look)."""
        with self._tx() as s:
            row = s.execute(
                select(GameRow.version, GameRow.phase, GameRow.status).where(GameRow.id == game_id)
            ).first()
            if row is None:
                raise NotFound(f"no game {game_id!r}")
            return {"version": row.version, "phase": row.phase, "status": row.status}
