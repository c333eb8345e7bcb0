"""Processing: the games whose phase is due, the deadlines' warnings, and a phase worked out by
its rules with nothing written, then claimed, written where the game is still at the version it
was worked out from."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from sqlalchemy import ColumnElement, func, or_, select, update

from ...games import family as get_family
from ..models import GameRow
from ..notices import Change, unix_time
from .core import SEAT_WRITE_ATTEMPTS, GameCore, NothingWritten, PhaseFacts, Reader, log
from .statements import (
    ADD_ORDERS,
    ADD_PHASE,
    ADVANCE_GAME,
    EXTEND_ONCE,
    ORDERS_OF_PHASE,
    SEATS_OF_GAME,
    UNREADY_PLAYERS,
    Head,
    SeatLine,
)


@dataclass(frozen=True)
class _Plan:
    """A due phase as read for processing (:meth:`GameService._plan`)."""

    head: Head
    phase: PhaseFacts
    acting: set[str]
    seats: dict[str, SeatLine]
    """The game's seats by name."""
    orders: dict[str, list[str]]
    """The acting seats' orders, the late bots' included."""
    late_bots: dict[str, list[str]]
    """Orders of named bots that had none yet for the phase (stored with the claim)."""
    all_ready: bool
    lag: float | None
    """Seconds past the deadline (``None``: not past one)."""


@dataclass(frozen=True)
class Outcome:
    """A phase worked out by its rules (:meth:`GameService.work_out`), not written yet."""

    game_id: str
    family: str
    index: int
    """The index of the phase worked out."""
    lag: float | None
    """Seconds past the deadline (``None``: not past one)."""
    advance: dict[str, Any]
    """The parameters of ``ADVANCE_GAME``: the game's next state, claimed at the version read."""
    played: dict[str, Any]
    """The row of the phase played (``ADD_PHASE``)."""
    bots_orders: list[dict[str, Any]]
    """Orders of named bots to store: late ones for this phase, and the next phase's."""
    change: Change


class Processing(GameCore):
    """Processing the games' phases (part of :class:`~.GameService`)."""

    def due_games(self, everything: bool = False) -> list[str]:
        """Active games whose deadline has passed; with ``everything``, also those without a
        deadline (they move on when every seat is ready: a ready request processes at once, and a
        phase of bots alone is announced as due; a sweep catches what a crash left between)."""
        with self._tx() as s:
            passed = GameRow.deadline <= self.clock()
            stmt = select(GameRow.id, GameRow.version).where(
                GameRow.status == "active", or_(GameRow.deadline.is_(None), passed) if everything else passed
            )
            return [game_id for game_id, version in s.execute(stmt) if self._waiting.get(game_id) != version]

    def next_deadline(self) -> datetime | None:
        """The earliest deadline of an active game (``None``: none has one)."""
        with self._tx() as s:
            return s.scalar(select(func.min(GameRow.deadline)).where(GameRow.status == "active"))

    def next_warning(self) -> datetime | None:
        """When the next deadline warning is due (``None``: none is, or there are no notices)."""
        lead = self.mail.warn_before if self.mail is not None else None
        if lead is None:
            return None
        with self._tx() as s:
            earliest = s.scalar(select(func.min(GameRow.deadline)).where(*self._unwarned_games()))
            return None if earliest is None else earliest - timedelta(seconds=lead)

    def _unwarned_games(self) -> list[ColumnElement[bool]]:
        """Active games whose phase's deadline is still to come and has not been warned of."""
        return [
            GameRow.status == "active",
            GameRow.deadline > self.clock(),
            or_(GameRow.warned_phase.is_(None), GameRow.warned_phase != GameRow.phase_index),
        ]

    def warn_deadlines(self) -> list[str]:
        """Warn the seats of each game whose deadline is nearer than the lead, once a phase: the
        update that marks the phase warned claims the warning, so one process (of any) sends it."""
        lead = self.mail.warn_before if self.mail is not None else None
        if lead is None or self.mail is None:
            return []
        warned = []
        with self._tx() as s:
            near = GameRow.deadline <= self.clock() + timedelta(seconds=lead)
            rows = s.execute(
                select(GameRow.id, GameRow.phase_index).where(*self._unwarned_games(), near)
            ).all()
        for game_id, index in rows:
            with self._tx(write=True) as s:
                claimed = s.execute(
                    update(GameRow)
                    .where(
                        GameRow.id == game_id,
                        GameRow.phase_index == index,
                        or_(GameRow.warned_phase.is_(None), GameRow.warned_phase != index),
                    )
                    .values(warned_phase=index)
                    .execution_options(synchronize_session=False)
                )
                if claimed.rowcount == 1:  # type: ignore[attr-defined]
                    self.mail.deadline(s, game_id, index)
            if claimed.rowcount == 1:  # type: ignore[attr-defined]
                warned.append(game_id)
        if warned:
            self.mail.wake()
        return warned

    def process_due(self, everything: bool = True, also: Iterable[str] = ()) -> list[str]:
        """Process every game whose phase is due (see :meth:`due_games`), and try the games in
        ``also``; a game that fails is logged and skipped."""
        done = []
        for game_id in dict.fromkeys([*self.due_games(everything), *also]):
            try:
                if self.try_process(game_id):
                    done.append(game_id)
            except Exception:
                log.exception("processing game %s failed", game_id)
        return done

    def try_process(self, game_id: str, force: bool = False) -> bool:
        """Process the game's current phase if it is due (deadline passed, or every acting seat
        ready). Returns whether this call processed it; safe to call from any number of processes."""
        if not force and not self._read(lambda conn: self._may_be_due_now(conn, game_id)):
            return False
        return self._try_process(game_id, force)

    def _may_be_due_now(self, conn: Reader, game_id: str) -> bool:
        head = self._head(conn, game_id)
        due = self._may_be_due(conn, head)
        if not due and head.deadline is None:
            self._waiting[game_id] = head.version  # as :meth:`_process` notes it, for the sweeps
        return due

    def _try_process(self, game_id: str, force: bool) -> bool:
        """Work the due phase out, then claim the game with it; again if a seat's write came
        between (the claim found the version changed), unless the game moved on meanwhile."""
        index: int | None = None
        for _ in range(SEAT_WRITE_ATTEMPTS):
            outcome = self.work_out(game_id, force)
            if outcome is None or (index is not None and outcome.index != index):
                return False  # not due, or another processor moved the game on
            index = outcome.index
            if self.claim(outcome):
                return True
        return False

    def _may_be_due(self, conn: Reader, head: Head) -> bool:
        """Whether the game's phase may be due, read without working anything out, so that a Ready
        that leaves others to wait for costs one read. It says no only where :meth:`work_out` would:
        the seat whose Ready completes the phase reads after its own write, in its transaction or
        after it."""
        if head.status != "active":
            return False
        if head.deadline is not None and head.deadline <= self.clock():
            return True
        acting = set(self._phase(conn, head).acting)
        seats = [r for r in SEATS_OF_GAME.all(conn, {"game_id": head.id}) if r.seat in acting]
        if any(r.kind == "bot" and r.player for r in seats):
            return True  # a named bot given the seat mid-phase orders when the phase is worked out
        return all(r.ready or r.kind == "bot" for r in seats)

    def work_out(self, game_id: str, force: bool = False) -> Outcome | None:
        """The game's due phase worked out by its rules from what is stored now, with nothing
        written: :meth:`claim` writes it. ``None`` if the phase is not due (or the 'wait' policy
        extended its deadline instead). Holds no lock and no transaction while the rules work.
        ``force``: due or not (tests, a game master's tools)."""
        for _ in range(SEAT_WRITE_ATTEMPTS):
            plan = self._read(lambda conn: self._plan(conn, game_id, force))
            if plan is None:
                return None
            if not (force or plan.all_ready) and plan.head.settings.get("missed_orders") == "wait":
                waited = self._wait_once(plan)
                if waited is None:
                    continue  # the game changed since it was read
                if waited:
                    return None
            return self._outcome(self._with_late_bots(plan))
        return None

    def _plan(self, conn: Reader, game_id: str, force: bool) -> _Plan | None:
        """What processing the game now would use, read (the phase's state is kept); ``None`` if
        its phase is not due."""
        head = self._head(conn, game_id)
        if head.status != "active":
            return None
        phase = self._phase(conn, head)
        acting = set(phase.acting)
        seats = {r.seat: r for r in SEATS_OF_GAME.all(conn, {"game_id": game_id})}
        all_ready = all(seats[p].ready or seats[p].kind == "bot" for p in acting if p in seats)
        now = self.clock()
        passed = head.deadline is not None and head.deadline <= now
        if not (force or all_ready or passed):
            if head.deadline is None:
                self._waiting[game_id] = head.version
            return None
        rows = ORDERS_OF_PHASE.all(conn, {"game_id": game_id, "phase_index": head.phase_index})
        orders = {seat: list(given) for seat, given in rows if seat in acting}
        lag = (now - head.deadline).total_seconds() if passed and head.deadline is not None else None
        return _Plan(head, phase, acting, seats, orders, {}, all_ready, lag)

    def _with_late_bots(self, plan: _Plan) -> _Plan:
        """The plan with the orders of named bots that have none yet for the phase (a seat given
        to a bot mid-phase), worked out now (after the read: a bot may think a while)."""
        seats, head = plan.seats, plan.head
        late = {
            p: self._bot_orders(head.id, head.family, plan.phase.state, p, seats[p].player)
            for p in sorted(plan.acting)
            if p in seats and seats[p].kind == "bot" and seats[p].player and p not in plan.orders
        }
        return replace(plan, orders={**plan.orders, **late}, late_bots=late) if late else plan

    def _outcome(self, plan: _Plan) -> Outcome:
        """Process the planned phase by its rules: what the claim will write."""
        head = plan.head
        family = get_family(head.family)
        done = family.process(plan.phase.state, plan.orders)
        upcoming = family.pending(done.state)
        finished = bool(done.winners) or upcoming.over
        seconds = head.settings.get("deadlines", {}).get(upcoming.kind)
        now = self.clock()
        deadline = now + timedelta(seconds=seconds) if seconds and not finished else None
        index = head.phase_index
        next_bots = (
            {}
            if finished
            else {
                p: self._bot_orders(head.id, head.family, done.state, p, plan.seats[p].player)
                for p in upcoming.seats
                if p in plan.seats and plan.seats[p].kind == "bot" and plan.seats[p].player
            }
        )
        # A phase that only bots act in is processable at once: the scheduler is told to.
        only_bots = bool(upcoming.seats) and all(
            p in plan.seats and plan.seats[p].kind == "bot" for p in upcoming.seats
        )
        status = "finished" if finished else "active"
        return Outcome(
            game_id=head.id,
            family=head.family,
            index=index,
            lag=plan.lag,
            advance={
                "game_id": head.id,
                "seen": head.version,
                "bumped": head.version + 1,
                "new_state": done.state,
                "next_phase": upcoming.phase,
                "next_index": index + 1,
                "new_status": status,
                "new_deadline": deadline,
                "new_result": {"winners": done.winners} if finished else None,
                "warned": self._unwarned(index + 1, deadline),
            },
            played={
                "game_id": head.id,
                "phase_index": index,
                "phase": done.phase,
                "record": {"position": done.position, "orders": plan.orders, "results": done.results},
                "processed_at": now,
            },
            bots_orders=[
                {"in_game": head.id, "index": i, "seat_name": p, "given": o, "at": now}
                for i, by_seat in ((index, plan.late_bots), (index + 1, next_bots))
                for p, o in by_seat.items()
            ],
            change=Change(
                head.id,
                head.version + 1,
                upcoming.phase,
                status,
                unix_time(deadline),
                only_bots and not finished,
            ),
        )

    def claim(self, outcome: Outcome, at_once: bool = False) -> bool:
        """Write a worked-out phase where the game's version is still the one it was worked out
        from; whether it was (else nothing is written: a seat wrote meanwhile, or another processor
        moved the game on). ``at_once`` (SQLite, the event loop): :class:`WouldWait` rather than
        wait for a lock."""
        try:
            with self._write_tx(at_once) as conn:
                if ADVANCE_GAME.run(conn, outcome.advance) != 1:
                    raise NothingWritten()
                conn.execute(ADD_PHASE, outcome.played)
                UNREADY_PLAYERS.run(conn, {"in_game": outcome.game_id})
                if outcome.bots_orders:
                    ADD_ORDERS.run_many(conn, outcome.bots_orders)
                if self.mail is not None:  # queued with the phase: sent if (and only if) it commits
                    self.mail.processed(conn, outcome.game_id, outcome.index)
                self.notices.in_transaction(conn, [outcome.change])
        except NothingWritten:
            return False
        self._after_commit(partial(self._claimed, outcome))
        return True

    def _claimed(self, outcome: Outcome) -> None:
        """What follows the commit of a claimed phase."""
        self.notices.committed([outcome.change])
        game_id = outcome.game_id
        self._waiting.pop(game_id, None)  # it moved on: what a sweep knew of it is old
        if self.mail is not None:
            self.mail.wake()
        lag = outcome.lag
        log.info(
            "processed a phase of game %s (%s)",
            game_id,
            outcome.family,
            extra={"game_id": game_id, "lag_s": None if lag is None else round(lag, 3)},
        )
        self.on_processed(outcome.family, lag)

    def _wait_once(self, plan: _Plan) -> bool | None:
        """The 'wait' policy: extend a passed deadline once per phase while a player has no orders.
        Whether it did (then the phase is not processed now); ``None``: the game changed since it
        was read."""
        head = plan.head
        if head.settings.get("waited") == head.phase_index:
            return False
        seats = plan.seats
        missing = [
            p for p in plan.acting if p not in plan.orders and p in seats and seats[p].kind == "player"
        ]
        if not missing:
            return False
        seconds = head.settings.get("deadlines", {}).get(plan.phase.pending["kind"], 0)
        deadline = self.clock() + timedelta(seconds=seconds)
        change = Change(head.id, head.version + 1, head.phase, head.status, unix_time(deadline))
        with self._write_tx() as conn:
            extended = EXTEND_ONCE.run(
                conn,
                {
                    "game_id": head.id,
                    "seen": head.version,
                    "bumped": head.version + 1,
                    "new_settings": {**head.settings, "waited": head.phase_index},
                    "new_deadline": deadline,
                },
            )
            if extended != 1:
                conn.rollback()
                return None
            self.notices.in_transaction(conn, [change])
        self.notices.committed([change])
        return True
