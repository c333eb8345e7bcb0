"""What a seat does: its orders, its Ready (which processes the phase when it is the last one),
its vote for a draw and its press. The frequent ones (orders, Ready) are written on a plain
connection, and on SQLite may be done at once on the event loop."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.orm import Session

from ...games import family as get_family
from ..cache import NotKept, without_rules
from ..errors import Conflict, Forbidden, Invalid, NotFound, StaleWrite, Unauthorized
from ..models import GameRow, MessageRow
from ..notices import Change, unix_time
from .core import SEAT_WRITE_ATTEMPTS, LostRace, Reader, T
from .processing import Processing
from .requests import BLANK, MAX_MESSAGE, MAX_ORDERS
from .statements import ADD_ORDERS, BUMP_VERSION, REPLACE_ORDERS, SET_READY, Head


class SeatActions(Processing):
    """What a seat does (part of :class:`~.GameService`); a Ready may process the phase."""

    def submit(self, game_id: str, token: str | None, phase: str, orders: list[str]) -> list[dict[str, Any]]:
        """Replace a seat's orders for the current phase. All or nothing: if any order is refused,
        none is stored and :class:`Invalid` lists what is wrong with each."""
        return self._submit(game_id, token, phase, orders)

    def _submit(
        self, game_id: str, token: str | None, phase: str, orders: list[str], at_once: bool = False
    ) -> list[dict[str, Any]]:
        if len(orders) > MAX_ORDERS:
            raise Invalid(f"at most {MAX_ORDERS} orders")
        # Checked before the write, without its lock: the verdicts depend only on the phase, and
        # the write stores them only if the game is still in the phase they were given in.
        checked_in = self._read(lambda conn: self._check_orders(conn, game_id, token, phase, orders))

        def write(conn: Connection, game: Head, seat: Any) -> list[dict[str, Any]]:
            if game.status != "active":
                raise Conflict(f"the game is {game.status}: no orders now")
            if phase != game.phase or game.phase_index != checked_in:
                raise Conflict(f"these orders are for {phase}, but the game is in {game.phase}")
            report = [{"order": o, "ok": True, "error": None} for o in orders]
            now = self.clock()
            given = {
                "in_game": game_id,
                "index": game.phase_index,
                "seat_name": seat.seat,
                "given": orders,
                "at": now,
            }
            if REPLACE_ORDERS.run(conn, given) == 0:
                ADD_ORDERS.run(conn, given)
            return report

        return self._quick_seat_write(game_id, token, write, at_once)

    def _check_orders(
        self, conn: Reader, game_id: str, token: str | None, phase: str, orders: list[str]
    ) -> int:
        """Check a seat's orders for the game's phase (:class:`Invalid` if any is refused, with each
        order's verdict); the index of the phase they were checked in."""
        game, seat = self._head_and_seat(conn, game_id, token)
        if game.status != "active":
            raise Conflict(f"the game is {game.status}: no orders now")
        if phase != game.phase:
            raise Conflict(f"these orders are for {phase}, but the game is in {game.phase}")
        phase_facts = self._phase(conn, game)
        if seat.seat not in phase_facts.acting:
            raise Conflict(f"{seat.seat} has nothing to order in {game.phase}")
        family = get_family(game.family)
        checks = self._verdicts.get(
            (game_id, game.phase_index, seat.seat, tuple(orders)),
            lambda: family.check(phase_facts.state, seat.seat, orders),
        )
        if any(err is not None for err in checks):
            report = [
                {"order": o, "ok": err is None, "error": err} for o, err in zip(orders, checks, strict=True)
            ]
            raise Invalid("some orders were refused; none was stored", report)
        return game.phase_index

    def submit_at_once(
        self, game_id: str, token: str | None, phase: str, orders: list[str]
    ) -> list[dict[str, Any]] | None:
        """:meth:`submit` if it can be done at once (as :meth:`set_ready_at_once`). The rules check
        the orders here: one seat's orders for one phase, bounded by :data:`MAX_ORDERS` (their
        verdicts are kept, for the write tried again)."""
        try:
            with without_rules():
                return self._submit(game_id, token, phase, orders, at_once=True)
        except NotKept:
            return None

    def set_ready(self, game_id: str, token: str | None, phase: str, ready: bool) -> None:
        """Mark the seat ready (or not) for ``phase``, which must be the current one: a ready meant
        for a phase already processed (a retry, a double click) must not count for the next."""
        self._set_ready(game_id, token, phase, ready)

    def ready(self, game_id: str, token: str | None, phase: str, ready: bool) -> bool:
        """:meth:`set_ready`, then process the phase if that made it due (the last seat to get
        ready); returns whether this call processed it. What a Ready request does."""
        return self._set_ready(game_id, token, phase, ready) and self._try_process(game_id, False)

    def _set_ready(
        self, game_id: str, token: str | None, phase: str, ready: bool, at_once: bool = False
    ) -> bool:
        """:meth:`set_ready`; returns whether the phase may be due now (:meth:`_may_be_due`, read in
        the write's transaction, which sees every commit before it and none after)."""

        def write(conn: Connection, game: Head, seat: Any) -> bool:
            if game.status != "active":
                raise Conflict(f"the game is {game.status}")
            if phase != game.phase:
                raise Conflict(f"this is for {phase}, but the game is in {game.phase}")
            SET_READY.run(conn, {"in_game": game_id, "seat_name": seat.seat, "is_ready": ready})
            return self._may_be_due(conn, game)

        return self._quick_seat_write(game_id, token, write, at_once)

    def set_ready_at_once(self, game_id: str, token: str | None, phase: str, ready: bool) -> bool | None:
        """:meth:`set_ready` if it can be done at once, on SQLite, for the event loop: returns
        whether the phase may be due now (then work it out and :meth:`claim` it); ``None`` if the
        rules have to describe the phase first (then call :meth:`ready` in a worker thread);
        :class:`WouldWait` if a lock is held (the process's writer lock, the file's): nothing was
        written, try again in a moment."""
        try:
            with without_rules():
                return self._set_ready(game_id, token, phase, ready, at_once=True)
        except NotKept:
            return None

    def _quick_seat_write(
        self,
        game_id: str,
        token: str | None,
        write: Callable[[Connection, Head, Any], T],
        at_once: bool = False,
    ) -> T:
        """The seats' frequent writes (orders, ready) on a plain connection, as :meth:`_seat_write`
        does them with an ORM session (which costs more than the statements): on the game's head
        (locked on PostgreSQL), then the version bumped where it is still the one read; a write that
        lost that race runs again, unless the phase moved on meanwhile. ``at_once`` (SQLite): raise
        :class:`WouldWait` rather than wait for a lock."""
        if not token:
            raise Unauthorized("this needs a seat's token (Authorization: Bearer <token>)")
        phases_seen: set[int] = set()

        def attempt() -> tuple[T, Change]:
            with self._write_tx(at_once) as conn:
                game, seat = self._head_and_seat(conn, game_id, token, lock=True)
                phases_seen.add(game.phase_index)
                if len(phases_seen) > 1:
                    raise Conflict(f"the phase was processed meanwhile; it is now {game.phase}")
                out = write(conn, game, seat)
                bumped = BUMP_VERSION.run(
                    conn, {"game_id": game_id, "seen": game.version, "bumped": game.version + 1}
                )
                if bumped != 1:  # another process wrote first: nothing of this is kept
                    raise LostRace()
                change = Change(game_id, game.version + 1, game.phase, game.status, unix_time(game.deadline))
                self.notices.in_transaction(conn, [change])
                return out, change

        for _ in range(SEAT_WRITE_ATTEMPTS):
            try:
                out, change = attempt()
            except LostRace:
                continue
            self._after_commit(partial(self.notices.committed, [change]))
            return out
        raise StaleWrite("the game changed meanwhile (a phase may have been processed): reload and retry")

    def vote_draw(self, game_id: str, token: str | None, phase: str, vote: bool) -> None:
        """A seat's vote for a draw, given in ``phase`` (refused once the phase has moved on)."""

        def write(s: Session, game: GameRow) -> None:
            seat = self._seat_by_token(s, game_id, token)
            if game.status not in ("active", "paused"):
                raise Conflict(f"the game is {game.status}")
            if phase != game.phase:
                raise Conflict(f"this is for {phase}, but the game is in {game.phase}")
            seat.draw_vote = vote
            self._changed(s, game)
            alive = self._alive(game)
            voters = [r for r in self._seats(s, game_id) if r.seat in alive and r.kind == "player"]
            if voters and all(r.draw_vote for r in voters):
                game.status, game.deadline = "finished", None
                game.result = {"draw": sorted(alive)}

        self._seat_write(game_id, write)

    def _alive(self, game: GameRow) -> set[str]:
        return set(get_family(game.family).alive(game.state))

    def send_message(self, game_id: str, token: str | None, to: list[str] | None, body: str) -> int:
        if not body.strip(BLANK) or len(body) > MAX_MESSAGE:
            raise Invalid(f"a message has 1 to {MAX_MESSAGE} characters")

        def write(s: Session, game: GameRow) -> int:
            seat = self._seat_by_token(s, game_id, token)
            if game.status == "finished":
                raise Conflict("the game is over: no more press")
            press = game.settings.get("press", "full")
            if press == "none":
                raise Forbidden("this game has no press")
            if to is not None:
                if press == "broadcast":
                    raise Forbidden("this game allows only messages to everyone")
                seats = set(get_family(game.family).seats(game.state))
                if not to:
                    raise Invalid("name at least one recipient")
                bad = [x for x in to if x not in seats]
                if bad:  # as for an unknown seat at join: the game has no such seat
                    raise NotFound(f"no seats {bad} in this game")
            row = MessageRow(
                game_id=game_id,
                phase=game.phase,
                sender=seat.seat,
                recipients=sorted(set(to)) if to is not None else None,
                body=body,
                sent_at=self.clock(),
            )
            s.add(row)
            self._changed(s, game)
            s.flush()
            if self.mail is not None:  # queued with the message: sent if (and only if) it commits
                self.mail.press(s, game_id, row.id)
            return row.id

        sent = self._seat_write(game_id, write)
        if self.mail is not None:
            self.mail.wake()
        return sent
