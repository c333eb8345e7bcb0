"""A game's life: the variants on offer, creating and joining a game, a seat's player leaving or
gone for good, bots taking seats, and the game master's start, pause, resume and extension."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ...bots.seats import bot_names, default_bot
from ...games import family as get_family
from ...games import find_variant, variants
from ...games import scenario as scenarios
from ...games.protocol import FamilyError
from ..errors import Conflict, Invalid, NotFound, StaleWrite
from ..models import GameRow, OrdersRow, SeatRow
from ..security import hash_token, new_token
from ..variant_files import keep_definition
from .core import SEAT_WRITE_ATTEMPTS, GameCore, binding
from .requests import BLANK, MAX_DEADLINE, MAX_NAME, MISSED_ORDERS, PRESS_RULES, NewGame, has_nul, name_key


def _same_name(name: str, seat: str) -> str:
    return (
        f"the name {name!r} is seat {seat}'s in this game already (names that differ only in case, "
        "in how their letters are encoded or in spaces are one name)"
    )


@dataclass
class Created:
    game_id: str
    gm_token: str
    seat_tokens: dict[str, str]
    open_seats: list[str] = field(default_factory=list)
    """The seats left open, for anyone to join."""


def default_title(variant_title: str) -> str:
    """A game's title when its creator gives none: the variant's, said as a game ("Standard
    Diplomacy game"; "the linked world game" is not made a "game game")."""
    return variant_title if variant_title.lower().endswith("game") else f"{variant_title} game"


class Lifecycle(GameCore):
    """A game's life, from its creation to its seats' comings and goings (part of :class:`~.GameService`)."""

    def variants(self, family: str | None = None) -> list[dict[str, Any]]:
        """Every variant (or a family's), with its family and the family's name for players
        (``family_title``), options, the bots its seats may be given (``bot:NAME``), the bot that
        takes a leaving player's seat (``default_bot``: the family's own, or null) and the phase
        kinds its deadlines are set for."""
        try:
            infos = variants(family)
        except FamilyError as exc:
            raise Invalid(str(exc)) from None
        out = []
        for info in infos:
            fam = get_family(info.family)
            out.append(
                info.to_json()
                | {
                    "family_title": fam.title,
                    "bots": bot_names(fam.name),
                    "default_bot": default_bot(fam.name),
                    "phase_kinds": list(fam.phase_kinds),
                }
            )
        return out

    def create(self, req: NewGame, account_id: int | None = None) -> Created:
        """A new game; the seats given to players are bound to ``account_id`` (its creator's), if any."""
        try:
            family, info = find_variant(req.variant)
        except FamilyError as exc:
            raise Invalid(str(exc)) from None
        if req.family is not None and req.family != family.name:
            raise Invalid(f"{info.id} is a {family.name} variant, not {req.family}")
        if req.press not in PRESS_RULES:
            raise Invalid(f"press must be one of {', '.join(PRESS_RULES)}")
        if req.missed_orders not in MISSED_ORDERS:
            raise Invalid(f"missed_orders must be one of {', '.join(MISSED_ORDERS)}")
        kinds = ", ".join(family.phase_kinds)
        for kind, seconds in req.deadlines.items():
            if kind not in family.phase_kinds or not 1 <= seconds <= MAX_DEADLINE:
                raise Invalid(f"deadline {kind!r}: a phase kind of {info.id} ({kinds}) and 1 s to 30 days")
        if req.seed is not None and not 0 <= req.seed < 2**63:
            raise Invalid("seed: a whole number from 0 to 2**63 - 1")
        chosen: scenarios.Scenario | None = None
        try:
            if req.scenario is not None:
                if has_nul(req.scenario):
                    raise Invalid("scenario: text may not contain NUL characters")
                chosen = scenarios.read(req.scenario, "scenario")
                if chosen.variant != info.id:
                    raise Invalid(f"scenario: it is of {chosen.variant}, not {info.id}")
                if req.options and req.scenario.get("options"):
                    raise Invalid("options: give them in the scenario or in the request, not in both")
            given_seed = req.seed if req.seed is not None else chosen.seed if chosen else None
            seed = given_seed if given_seed is not None else secrets.randbelow(2**63)
            options = info.check_options(req.options or (chosen.options if chosen else {}))
            if chosen is None:
                state = family.new_state(info.id, options, seed)
            else:
                state = scenarios.start_state(chosen, seed, options)
        except FamilyError as exc:
            where = "scenario: " if chosen is not None and not str(exc).startswith("scenario") else ""
            raise Invalid(f"{where}{exc}") from None
        seats = family.seats(state)
        unknown = set(req.seats) - set(seats)
        if unknown:
            raise Invalid(f"unknown seats {sorted(unknown)}; this variant has {', '.join(seats)}")
        named: dict[str, str] = {}
        """The players' names given so far (:func:`name_key`), each with its seat."""
        for seat, how in req.seats.items():
            if how.startswith("bot:"):
                self._bot_name(family.name, how, f"seat {seat}")
            elif how not in ("open", "bot"):
                self._check_name(how, f"seat {seat}")
                other = named.setdefault(name_key(how), seat)
                if other != seat:
                    raise Invalid(f"seat {seat}: {_same_name(how, other)}")
        on_leave = self._on_leave(family.name, req.on_leave)
        game_id = secrets.token_hex(8)
        gm_token = new_token()
        now = self.clock()
        seat_tokens: dict[str, str] = {}
        phase = family.pending(state).phase
        with binding(account_id), self._tx(write=True) as s:
            if info.definition is not None:
                # A variant made from a file: its definition is kept for its games (docs/variants.md).
                keep_definition(s, info.id, family.name, info.definition)
            s.add(
                GameRow(
                    id=game_id,
                    family=family.name,
                    variant=info.id,
                    title=req.title[:200] or default_title(info.title),
                    settings={
                        "options": options,
                        "seed_chosen": given_seed is not None,
                        **({"scenario": chosen.position} if chosen else {}),
                        "press": req.press,
                        "deadlines": req.deadlines,
                        "autostart": req.autostart,
                        "missed_orders": req.missed_orders,
                        "on_leave": on_leave,
                    },
                    status="forming",
                    state=state,
                    phase=phase,
                    phase_index=0,
                    version=0,
                    gm_token_hash=hash_token(gm_token),
                    created_at=now,
                )
            )
            for seat in seats:
                how = req.seats.get(seat, "open")
                if how in ("open", "bot"):
                    s.add(SeatRow(game_id=game_id, seat=seat, kind=how, ready=how == "bot"))
                elif how.startswith("bot:"):
                    s.add(SeatRow(game_id=game_id, seat=seat, kind="bot", player=how[4:], ready=True))
                else:
                    token = new_token()
                    seat_tokens[seat] = token
                    s.add(
                        SeatRow(
                            game_id=game_id,
                            seat=seat,
                            kind="player",
                            player=how,
                            token_hash=hash_token(token),
                            account_id=account_id,
                        )
                    )
            s.flush()
            self._maybe_autostart(s, self._game(s, game_id))
        open_seats = [seat for seat in seats if req.seats.get(seat, "open") == "open"]
        return Created(game_id, gm_token, seat_tokens, open_seats)

    @staticmethod
    def _check_name(name: str, where: str) -> None:
        if not name.strip(BLANK) or len(name) > MAX_NAME:
            raise Invalid(f"{where}: a player's name has 1 to {MAX_NAME} characters")

    def join(self, game_id: str, seat: str, player: str, account_id: int | None = None) -> str:
        """Take an open seat: its token. ``account_id``: the account the seat is bound to, if any."""
        if player:
            self._check_name(player, "player")
        with binding(account_id), self._tx(write=True) as s:
            game = self._game(s, game_id, lock=True)
            if game.status == "finished":
                raise Conflict("the game is over")
            seats = self._seats(s, game_id)
            row = next((r for r in seats if r.seat == seat), None)
            if row is None:
                raise NotFound(f"no seat {seat!r} in this game")
            if row.kind != "open":
                raise Conflict(f"seat {seat} is taken")
            key = name_key(player or seat)
            for other in seats:
                if other.kind == "player" and name_key(other.player) == key:
                    raise Conflict(_same_name(player or seat, other.seat))
            token = new_token()
            row.kind, row.player, row.token_hash = "player", player or seat, hash_token(token)
            row.account_id = account_id
            self._changed(s, game)
            s.flush()
            self._maybe_autostart(s, game)
            return token

    def _maybe_autostart(self, s: Session, game: GameRow) -> None:
        full = all(r.kind != "open" for r in self._seats(s, game.id))
        if game.status == "forming" and game.settings.get("autostart", True) and full:
            self._start(s, game)

    # ------------------------------------------------------------------ bots in seats
    def _bot_name(self, family: str, how: str, where: str) -> str:
        """The bot named by 'bot:NAME' ('bot' alone: the family's default bot), checked."""
        name = how[4:] if how.startswith("bot:") else default_bot(family) or ""
        known = bot_names(family)
        if name not in known:
            offered = ", ".join(f"bot:{b}" for b in known) or "none"
            raise Invalid(f"{where}: no bot {how!r} in the {family} family (bots: {offered})")
        return name

    def _on_leave(self, family: str, how: str) -> str:
        if how == "open" or (how == "bot" and default_bot(family) is None):
            return "open"
        if how == "bot" or how.startswith("bot:"):
            return f"bot:{self._bot_name(family, how, 'on_leave')}"
        raise Invalid("on_leave must be 'open', 'bot' or 'bot:NAME'")

    def _bots_order(
        self, s: Session, game_id: str, family_name: str, state: dict[str, Any], index: int
    ) -> None:
        """Named bots in the acting seats order now, through the checks a player's orders pass;
        a seat that already has orders for the phase keeps them."""
        family = get_family(family_name)
        acting = set(family.pending(state).seats)
        bots = [r for r in self._seats(s, game_id) if r.kind == "bot" and r.player and r.seat in acting]
        if not bots:
            return
        have = set(
            s.scalars(
                select(OrdersRow.seat).where(OrdersRow.game_id == game_id, OrdersRow.phase_index == index)
            )
        )
        for row in bots:
            if row.seat in have:
                continue
            orders = self._bot_orders(game_id, family_name, state, row.seat, row.player)
            s.add(
                OrdersRow(
                    game_id=game_id,
                    phase_index=index,
                    seat=row.seat,
                    orders=orders,
                    submitted_at=self.clock(),
                )
            )
        s.flush()

    def leave(self, game_id: str, token: str | None) -> str:
        """The seat's player leaves: the seat passes to a bot or opens (the game's ``on_leave``;
        always open before the start). The token no longer holds the seat. Returns the seat's new
        kind ('open' or 'bot:NAME')."""
        with self._tx(write=True) as s:
            game = self._game(s, game_id, lock=True)
            seat = self._seat_by_token(s, game_id, token)
            if game.status == "finished":
                raise Conflict("the game is over")
            return self._leave(s, game, seat)

    def _leave(self, s: Session, game: GameRow, seat: SeatRow) -> str:
        now = "open" if game.status == "forming" else game.settings.get("on_leave", "open")
        seat.token_hash, seat.draw_vote, seat.account_id = None, False, None
        if now == "open":
            seat.kind, seat.player, seat.ready = "open", "", False
        else:
            seat.kind, seat.player, seat.ready = "bot", now[4:], True
        s.flush()
        if now != "open" and game.status == "active":
            self._bots_order(s, game.id, game.family, game.state, game.phase_index)
        self._changed(s, game, due=self._processable(s, game))
        return str(now)

    def vacate(self, game_id: str, seat: str, token_hash: str) -> str | None:
        """The seat's player is gone for good (their account was deleted): the seat is left as
        :meth:`leave` leaves it, found by the hash of its token rather than the token. ``None``: the
        seat is no longer that player's (left, or got a fresh token, meanwhile), or the game is over
        or gone; nothing is changed then."""
        for attempt in range(SEAT_WRITE_ATTEMPTS):
            try:
                with self._tx(write=True) as s:
                    try:
                        game = self._game(s, game_id, lock=True)
                    except NotFound:
                        return None
                    row = s.scalars(
                        select(SeatRow).where(
                            SeatRow.game_id == game_id,
                            SeatRow.seat == seat,
                            SeatRow.token_hash == token_hash,
                            SeatRow.kind == "player",
                        )
                    ).first()
                    if row is None or game.status == "finished":
                        return None
                    return self._leave(s, game, row)
            except StaleWrite:  # the game changed meanwhile: look again
                if attempt == SEAT_WRITE_ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    def _start(self, s: Session, game: GameRow) -> None:
        game.status = "active"
        game.deadline = self._deadline_for(game)
        game.warned_phase = self._unwarned(game.phase_index, game.deadline)
        s.flush()
        self._bots_order(s, game.id, game.family, game.state, game.phase_index)
        self._changed(s, game, due=self._processable(s, game))

    def _deadline_for(self, game: GameRow) -> datetime | None:
        kind = get_family(game.family).pending(game.state).kind
        seconds = game.settings.get("deadlines", {}).get(kind)
        return self.clock() + timedelta(seconds=seconds) if seconds else None

    def start(self, game_id: str, gm_token: str | None) -> None:
        with self._tx(write=True) as s:
            game = self._game(s, game_id, lock=True)
            self._require_gm(game, gm_token)
            if game.status != "forming":
                raise Conflict(f"the game is {game.status}, not forming")
            self._start(s, game)

    def pause(self, game_id: str, gm_token: str | None) -> None:
        with self._tx(write=True) as s:
            game = self._game(s, game_id, lock=True)
            self._require_gm(game, gm_token)
            if game.status != "active":
                raise Conflict(f"the game is {game.status}, not active")
            deadline = game.deadline
            game.paused_left = (deadline - self.clock()).total_seconds() if deadline else None
            game.status, game.deadline = "paused", None
            self._changed(s, game)

    def resume(self, game_id: str, gm_token: str | None) -> None:
        with self._tx(write=True) as s:
            game = self._game(s, game_id, lock=True)
            self._require_gm(game, gm_token)
            if game.status != "paused":
                raise Conflict(f"the game is {game.status}, not paused")
            left = game.paused_left
            game.deadline = self.clock() + timedelta(seconds=max(left, 0)) if left is not None else None
            game.status, game.paused_left = "active", None
            self._changed(s, game, due=self._processable(s, game))

    def extend(self, game_id: str, gm_token: str | None, seconds: int) -> None:
        if not 1 <= seconds <= MAX_DEADLINE:
            raise Invalid("extend by 1 s to 30 days")
        with self._tx(write=True) as s:
            game = self._game(s, game_id, lock=True)
            self._require_gm(game, gm_token)
            if game.status != "active":
                raise Conflict(f"the game is {game.status}, not active")
            if game.deadline is None:
                # A deadline made here would process the phase when it passed, although no one
                # pressed Ready in a phase the game's settings say waits for everyone.
                raise Conflict("this phase has no deadline to extend: it waits until every seat is ready")
            game.deadline = game.deadline + timedelta(seconds=seconds)
            self._changed(s, game)

    def _processable(self, s: Session, game: GameRow) -> bool:
        """Whether the game's phase may be processed now with no one's request: active, and every
        acting seat ready or a bot."""
        if game.status != "active":
            return False
        acting = set(get_family(game.family).pending(game.state).seats)
        seats = [r for r in self._seats(s, game.id) if r.seat in acting]
        return bool(seats) and all(r.ready or r.kind == "bot" for r in seats)
