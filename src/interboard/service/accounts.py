"""Accounts: sign up, sign in and out, the seats an account holds, its e-mail notices, its deletion.

A password is kept as an Argon2id hash (argon2-cffi's ``PasswordHasher``: memory-hard, salted, its
parameters in the hash, so that they can be raised later and old hashes rehashed at the next sign
in). Hashing costs tens of megabytes and a good part of a second of a core, so only
:data:`HASHING_AT_ONCE` run at once, whatever the number of requests. A session is a random token
like a seat's, kept only as its SHA-256 (``security.py``), and ends after :data:`SESSION_DAYS`.

Guessing is slowed per name, besides the rate limits per address (``limits.py``): every password
check against a name is counted in the database before it is made (``sign_in_failures``), and past
:data:`FREE_FAILURES` in a row the name is locked for a while that doubles with each further failure,
up to :data:`LOCK_MAX_S` (429 with Retry-After, whatever the password). An unknown name is counted
and locked the same way and answered the same (its password checked against a decoy hash), so
neither the answer, nor its time, nor a lock tells whether the account exists. A new password must
not be one of the commonest (``data/common_passwords.txt``).

A seat joined (or a game created) while signed in is bound to the account: the account lists it and
may get a fresh token for it (the seat's earlier token stops working), so a player who cleared the
browser, or moved to another, gets back in.

An e-mail address is kept unconfirmed until the link mailed to it is followed; notices go only to a
confirmed address (:class:`AccountNotices`).
"""

from __future__ import annotations

import functools
import logging
import math
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Engine, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from ..games import family as get_family
from .clock import utcnow
from .errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from .limits import TooManyRequests
from .mail import Job, Mailer, Notice
from .models import (
    AccountRow,
    GameRow,
    MessageRow,
    OutboxRow,
    PhaseRow,
    SeatRow,
    SessionRow,
    SignInFailureRow,
)
from .security import hash_token, new_token

if TYPE_CHECKING:
    from .games import GameService

log = logging.getLogger(__name__)

NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{1,31}$"
"""An account's name: 2 to 32 letters, digits, '_', '.', '-' (not first). Case is kept but not
told apart: 'Anna' and 'anna' are one name."""
NAME_MAX = 32
PASSWORD_MIN = 8
PASSWORD_MAX = 256
"""Bounded, so that a megabyte's password is not hashed."""
EMAIL_MAX = 254
EMAIL_PATTERN = r"^[^@ \t\n\r\x00]{1,64}@[^@ \t\n\r\x00]{1,189}$"
"""An address, loosely (the mail server is the judge); no whitespace, so no header can be added."""
SESSION_DAYS = 30
HASHING_AT_ONCE = 2
MY_GAMES_MAX = 200

FREE_FAILURES = 5
"""Password checks of a name that may fail in a row before the name locks."""
LOCK_FIRST_S = 1.0
"""The first lock's length (at the :data:`FREE_FAILURES`-th failure); each further failure doubles it."""
LOCK_MAX_S = 300.0
"""The longest lock: past this a guesser gets one try every five minutes, and a player locked out by
someone else's guesses waits at most this long after they stop. A lock ends no session."""
FAILURES_FORGOTTEN_S = 3600.0
"""A name with no failure for this long starts again from none."""
CHECKED = "failed sign-ins of this name"
"""What a lock is called in its 429 (``details[0].limit``)."""
VERIFY_DAYS = 7
"""How long a confirmation link works."""
VERIFY_AGAIN_S = 60
"""How soon another confirmation message may be asked for (429 before)."""
COMMON_PASSWORDS = files("interboard.service") / "data" / "common_passwords.txt"


@functools.cache
def common_passwords() -> frozenset[str]:
    """The commonest passwords, in lower case (read once)."""
    lines = COMMON_PASSWORDS.read_text(encoding="utf-8").splitlines()
    return frozenset(line.strip().lower() for line in lines if line.strip() and not line.startswith("#"))


def check_new_password(password: str) -> None:
    """422 for a password that is one of the commonest (in any case, spaces around it aside): the
    first guesses of anyone guessing. Only new passwords are checked: an old one still signs in."""
    if password.strip().lower() in common_passwords():
        raise Invalid(
            "that password is one of the commonest, among the first anyone guessing tries: choose another",
            [{"where": "body.password", "error": "one of the commonest passwords"}],
        )


@dataclass(frozen=True)
class Account:
    id: int
    name: str
    email: str | None
    notices: bool
    email_verified: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "email": self.email,
            "email_verified": self.email_verified,
            "notices": self.notices,
        }


def _account(row: AccountRow) -> Account:
    return Account(row.id, row.name, row.email, row.notices, bool(row.email_verified and row.email))


UNCHANGED: Any = object()
ENDED = "that session has ended (or never was): sign in again"


def lock_seconds(failures: int) -> float:
    """How long a name locks at its ``failures``-th failure in a row (0: not at all)."""
    if failures < FREE_FAILURES:
        return 0.0
    return min(LOCK_MAX_S, LOCK_FIRST_S * 2.0 ** min(failures - FREE_FAILURES, 32))


class AccountService:
    def __init__(
        self,
        engine: Engine,
        hasher: PasswordHasher | None = None,
        clock: Callable[[], datetime] = utcnow,
        mail: AccountNotices | None = None,
        games: GameService | None = None,
    ) -> None:
        self.engine = engine
        self.hasher = hasher or PasswordHasher()
        self.clock = clock
        self.mail = mail
        """Where confirmation messages are queued (``None``: the server sends no e-mail)."""
        self.games = games
        """Where a deleted account's seats are left (as their player leaving would)."""
        self._hashing = threading.BoundedSemaphore(HASHING_AT_ONCE)
        self._decoy: str | None = None
        """Verified against when the name is unknown, so that a sign in takes as long either way;
        made at the first need (an app is made in tests far more often than a name is unknown)."""

    @contextmanager
    def _tx(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    def _hash(self, password: str) -> str:
        with self._hashing:
            return self.hasher.hash(password)

    def _verify(self, stored: str, password: str) -> bool:
        with self._hashing:
            try:
                return self.hasher.verify(stored, password)
            except (VerificationError, InvalidHashError):
                return False

    def _new_session(self, s: Session, account_id: int) -> str:
        token = new_token()
        now = self.clock()
        s.add(
            SessionRow(
                account_id=account_id,
                token_hash=hash_token(token),
                created_at=now,
                expires_at=now + timedelta(days=SESSION_DAYS),
            )
        )
        return token

    # ------------------------------------------------------------------ guessing, slowed per name
    def _count_check(self, name: str) -> str:
        """Count a password check of ``name`` before it is made (so that checks made at once are
        counted at once), locking the name past :data:`FREE_FAILURES`; 429 while it is locked.
        Returns the name's key, for :meth:`_checked_right`."""
        key = name.lower()[:NAME_MAX]
        now = self.clock()
        forgotten = now - timedelta(seconds=FAILURES_FORGOTTEN_S)
        insert = (postgresql if self.engine.dialect.name == "postgresql" else sqlite).insert
        row: SignInFailureRow | None = None
        with self._tx() as s:
            # A write first: on SQLite it takes the database's write lock, so that two checks (of
            # any process) count one after the other; on PostgreSQL the row is locked below. The
            # row may be deleted between the two on PostgreSQL (a right password): then again.
            for _ in range(3):
                s.execute(
                    insert(SignInFailureRow)
                    .values(name_key=key, failures=0, failed_at=now, locked_until=None)
                    .on_conflict_do_nothing(index_elements=["name_key"])
                )
                row = s.scalars(
                    select(SignInFailureRow).where(SignInFailureRow.name_key == key).with_for_update()
                ).first()
                if row is not None:
                    break
            if row is None:  # other checks of the name, at this very moment: one at a time
                raise TooManyRequests(CHECKED, 1)
            if row.locked_until is not None and row.locked_until > now:
                wait = math.ceil((row.locked_until - now).total_seconds())
                raise TooManyRequests(CHECKED, max(1, wait))
            if row.failed_at < forgotten:
                row.failures = 0
            row.failures += 1
            row.failed_at = now
            lock = lock_seconds(row.failures)
            row.locked_until = now + timedelta(seconds=lock) if lock else None
        self._forget_old_failures(forgotten)
        return key

    def _forget_old_failures(self, before: datetime) -> None:
        """Delete the counts of names that failed no more since ``before`` (their locks are long
        over). Best effort: another process deleting the same rows at once may make PostgreSQL
        end one of the two (a deadlock), which is no reason to refuse a sign-in."""
        try:
            with self._tx() as s:
                s.execute(
                    delete(SignInFailureRow)
                    .where(SignInFailureRow.failed_at < before)
                    .execution_options(synchronize_session=False)
                )
        except DBAPIError as exc:
            log.info("sign-in failures: old counts were not deleted this time (%s)", type(exc).__name__)

    def _checked_right(self, s: Session, key: str) -> None:
        """The password was right: the name's failures are forgotten (in the caller's transaction)."""
        s.execute(
            delete(SignInFailureRow)
            .where(SignInFailureRow.name_key == key)
            .execution_options(synchronize_session=False)
        )

    # ------------------------------------------------------------------ signing up, in and out
    def sign_up(self, name: str, password: str, email: str | None) -> tuple[Account, str]:
        """A new account, signed in: the account and its session's token. 409 if the name is taken;
        422 for one of the commonest passwords. An e-mail is kept unconfirmed, and a confirmation
        message is queued for it."""
        check_new_password(password)
        key = name.lower()
        with self._tx() as s:  # a quick look first, so a taken name costs no hashing
            if s.scalar(select(AccountRow.id).where(AccountRow.name_key == key)) is not None:
                raise Conflict(f"the name {name!r} is taken")
        hashed = self._hash(password)
        try:
            with self._tx() as s:
                row = AccountRow(
                    name=name,
                    name_key=key,
                    email=email or None,
                    email_verified=False,
                    password_hash=hashed,
                    notices=True,
                    created_at=self.clock(),
                )
                s.add(row)
                s.flush()
                if row.email and self.mail is not None:
                    self.mail.verify(s, row.id, row.email)
                token = self._new_session(s, row.id)
                account = _account(row)
        except IntegrityError:  # taken meanwhile by another request
            raise Conflict(f"the name {name!r} is taken") from None
        if self.mail is not None and account.email:
            self.mail.wake()
        return account, token

    def sign_in(self, name: str, password: str) -> tuple[Account, str]:
        """A new session for the account; 401 for an unknown name or a wrong password alike, and
        429 alike while the name is locked (:meth:`_count_check`)."""
        key = self._count_check(name)
        with self._tx() as s:
            row = s.scalars(select(AccountRow).where(AccountRow.name_key == name.lower())).first()
        if row is None:
            if self._decoy is None:
                self._decoy = self._hash("not a password anyone has")
            self._verify(self._decoy, password)
            raise Unauthorized("wrong name or password")
        if not self._verify(row.password_hash, password):
            raise Unauthorized("wrong name or password")
        rehashed = self._hash(password) if self.hasher.check_needs_rehash(row.password_hash) else None
        with self._tx() as s:
            self._checked_right(s, key)
            if rehashed is not None:
                s.execute(update(AccountRow).where(AccountRow.id == row.id).values(password_hash=rehashed))
            s.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == row.id, SessionRow.expires_at <= self.clock()
                )
            )
            return _account(row), self._new_session(s, row.id)

    def sign_out(self, token: str | None) -> None:
        """End the session; 401 if there is no live one (as for any other route of a session's)."""
        self.account(token)
        with self._tx() as s:
            s.execute(delete(SessionRow).where(SessionRow.token_hash == hash_token(str(token))))

    def find(self, token: str | None) -> Account | None:
        """The account of a live session's token (``None``: no such session, or it ended)."""
        if not token:
            return None
        with self._tx() as s:
            row = s.execute(
                select(AccountRow)
                .join(SessionRow, SessionRow.account_id == AccountRow.id)
                .where(SessionRow.token_hash == hash_token(token), SessionRow.expires_at > self.clock())
            ).first()
            return None if row is None else _account(row[0])

    def account(self, token: str | None) -> Account:
        """:meth:`find`, or 401."""
        if not token:
            raise Unauthorized("sign in first (a session's cookie, or Authorization: Bearer <session token>)")
        found = self.find(token)
        if found is None:
            raise Unauthorized(ENDED)
        return found

    def update(self, account: Account, email: str | None = UNCHANGED, notices: bool | None = None) -> Account:
        """Change the account's e-mail (``None`` or empty: none) and whether it gets notices. A new
        address is kept unconfirmed, and a confirmation message is queued for it; the address it
        has already, given again, is left as it is (confirmed or not)."""
        values: dict[str, Any] = {}
        if notices is not None:
            values["notices"] = notices
        queued = False
        with self._tx() as s:
            row = s.get(AccountRow, account.id)
            if row is None:  # deleted meanwhile
                raise Unauthorized(ENDED)
            new = email or None
            if email is not UNCHANGED and new != row.email:
                values.update(
                    email=new, email_verified=False, email_token_hash=None, email_token_expires=None
                )
                if new is not None and self.mail is not None:
                    self.mail.verify(s, account.id, new)
                    queued = True
            if values:
                s.execute(update(AccountRow).where(AccountRow.id == account.id).values(**values))
                s.refresh(row)
            changed = _account(row)
        if queued and self.mail is not None:
            self.mail.wake()
        return changed

    def _check_password(self, account: Account, password: str) -> None:
        """The account's password given again (counted as a check of its name); 401 if wrong."""
        key = self._count_check(account.name)
        with self._tx() as s:
            stored = s.scalar(select(AccountRow.password_hash).where(AccountRow.id == account.id))
        if stored is None or not self._verify(stored, password):
            raise Unauthorized("the current password is wrong")
        with self._tx() as s:
            self._checked_right(s, key)

    def change_password(self, token: str | None, current: str, new: str) -> int:
        """Set a new password, the current one given again (401 if wrong); every other session of
        the account ends (a password changed because it leaked should lock the thief out). Returns
        how many sessions ended."""
        account = self.account(token)
        check_new_password(new)
        self._check_password(account, current)
        hashed = self._hash(new)
        with self._tx() as s:
            s.execute(update(AccountRow).where(AccountRow.id == account.id).values(password_hash=hashed))
            ended = s.execute(
                delete(SessionRow).where(
                    SessionRow.account_id == account.id, SessionRow.token_hash != hash_token(str(token))
                )
            )
            return int(ended.rowcount)  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ confirming the e-mail
    def verify_email(self, token: str) -> str | None:
        """Confirm the address whose link carries ``token``: the address, or ``None`` if no live
        link has that token (followed already, past :data:`VERIFY_DAYS`, or the address changed)."""
        with self._tx() as s:
            row = s.scalars(
                select(AccountRow).where(
                    AccountRow.email_token_hash == hash_token(token),
                    AccountRow.email_token_expires > self.clock(),
                    AccountRow.email.is_not(None),
                )
            ).first()
            if row is None:
                return None
            row.email_verified = True
            row.email_token_hash = None
            row.email_token_expires = None
            return row.email

    def verify_again(self, account: Account) -> str:
        """Queue another confirmation message for the account's address (the earlier link stops
        working once it is sent); 409 without an address or with a confirmed one, 429 within
        :data:`VERIFY_AGAIN_S` of the last, 409 if the server sends no e-mail."""
        if self.mail is None:
            raise Conflict("this server sends no e-mail")
        with self._tx() as s:
            row = s.get(AccountRow, account.id, with_for_update=True)
            if row is None:
                raise Unauthorized(ENDED)
            if row.email is None:
                raise Conflict("the account has no e-mail address to confirm")
            if row.email_verified:
                raise Conflict("the address is confirmed already")
            now = self.clock()
            pending = s.scalar(
                select(OutboxRow.id).where(OutboxRow.kind == "verify", OutboxRow.ref == account.id).limit(1)
            )
            if pending is not None:
                raise TooManyRequests("confirmation messages", VERIFY_AGAIN_S)
            if row.email_token_expires is not None:
                sent = row.email_token_expires - timedelta(days=VERIFY_DAYS)
                wait = VERIFY_AGAIN_S - (now - sent).total_seconds()
                if wait > 0:
                    raise TooManyRequests("confirmation messages", max(1, math.ceil(wait)))
            self.mail.verify(s, account.id, row.email)
            address = row.email
        self.mail.wake()
        return address

    # ------------------------------------------------------------------ deleting the account
    def delete(self, token: str | None, password: str) -> int:
        """Delete the account, its password given again (401 if wrong). Its sessions end first (so
        that no seat is bound to it meanwhile); each seat it holds in a game not over is then left
        as its player leaving would leave it (to a bot or open, the game's ``on_leave``; open before
        the start); then the account goes, and with it its name (free to sign up again). Seats in
        finished games keep their player's name, bound to no account. Returns the seats left."""
        account = self.account(token)
        self._check_password(account, password)
        with self._tx() as s:
            s.execute(delete(SessionRow).where(SessionRow.account_id == account.id))
        with self._tx() as s:
            held = s.execute(
                select(SeatRow.game_id, SeatRow.seat, SeatRow.token_hash)
                .join(GameRow, GameRow.id == SeatRow.game_id)
                .where(
                    SeatRow.account_id == account.id,
                    SeatRow.kind == "player",
                    GameRow.status != "finished",
                )
                .order_by(SeatRow.id)
            ).all()
        left = 0
        if self.games is not None:
            for game_id, seat, token_hash in held:
                if token_hash is not None and self.games.vacate(game_id, seat, token_hash) is not None:
                    left += 1
        with self._tx() as s:
            s.execute(delete(AccountRow).where(AccountRow.id == account.id))
            self._checked_right(s, account.name.lower())
        return left

    # ------------------------------------------------------------------ the account's seats
    def my_games(self, account: Account) -> list[dict[str, Any]]:
        """The games in which the account holds seats, the newest first, with its seats in each."""
        with self._tx() as s:
            rows = s.execute(
                select(
                    GameRow.id,
                    GameRow.title,
                    GameRow.variant,
                    GameRow.status,
                    GameRow.phase,
                    GameRow.deadline,
                    SeatRow.seat,
                )
                .join(SeatRow, SeatRow.game_id == GameRow.id)
                .where(SeatRow.account_id == account.id, SeatRow.kind == "player")
                .order_by(GameRow.created_at.desc(), GameRow.id, SeatRow.id)
            )
            games: dict[str, dict[str, Any]] = {}
            for game_id, title, variant, status, phase, deadline, seat in rows:
                game = games.get(game_id)
                if game is None:
                    if len(games) == MY_GAMES_MAX:
                        break
                    game = games[game_id] = {
                        "id": game_id,
                        "title": title,
                        "variant": variant,
                        "status": status,
                        "phase": phase,
                        "deadline": deadline.isoformat() if deadline else None,
                        "seats": [],
                    }
                game["seats"].append(seat)
            return list(games.values())

    def new_seat_token(self, account: Account, game_id: str, seat: str) -> str:
        """A fresh token for a seat the account holds; the seat's earlier token stops working."""
        token = new_token()
        with self._tx() as s:
            # One statement, so that a seat left meanwhile (no longer the account's) is not given one.
            changed = s.execute(
                update(SeatRow)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.seat == seat,
                    SeatRow.account_id == account.id,
                    SeatRow.kind == "player",
                )
                .values(token_hash=hash_token(token))
                .execution_options(synchronize_session=False)
            )
            if changed.rowcount == 1:  # type: ignore[attr-defined]
                return token
            if s.scalar(select(GameRow.id).where(GameRow.id == game_id)) is None:
                raise NotFound(f"no game {game_id!r}")
            if s.scalar(select(SeatRow.id).where(SeatRow.game_id == game_id, SeatRow.seat == seat)) is None:
                raise NotFound(f"no seat {seat!r} in this game")
            raise Forbidden(f"seat {seat} is not held by this account")


class AccountNotices:
    """What the accounts are told by e-mail, queued in the database (``mail.py``): a job is queued in
    the transaction of the change it tells of, and turned into messages when the mail thread comes
    to it, reading who is to be told then.

    Told: the accounts with a confirmed e-mail and notices on that hold a seat concerned, each once
    however many seats it holds; never the sender of a message. A confirmation message goes to an
    address given to an account, whether confirmed or not (it is how it gets confirmed)."""

    def __init__(self, engine: Engine, mailer: Mailer) -> None:
        self.engine = engine
        self.mailer = mailer
        self.config = mailer.config
        self.warn_before = mailer.config.warn_before_s or None
        """Seconds before a deadline its warning goes out (``None``: no warnings)."""
        mailer.expand = self._expand

    # ------------------------------------------------------------------ queueing, in a transaction
    def processed(self, conn: Session | Connection, game_id: str, phase_index: int) -> None:
        """Phase ``phase_index`` of the game was processed: every seat's account is told."""
        self.mailer.queue(conn, "processed", game_id, phase_index)

    def press(self, conn: Session | Connection, game_id: str, message_id: int) -> None:
        """A message was sent: its recipients' accounts are told (with its text)."""
        self.mailer.queue(conn, "press", game_id, message_id)

    def deadline(self, conn: Session | Connection, game_id: str, phase_index: int) -> None:
        """The phase's deadline nears: the accounts of its acting seats not yet ready are told."""
        self.mailer.queue(conn, "deadline", game_id, phase_index)

    def verify(self, conn: Session | Connection, account_id: int, address: str) -> None:
        """A confirmation message for ``address``, sent only if it is still the account's then."""
        self.mailer.queue(conn, "verify", None, account_id, address)

    def wake(self) -> None:
        """After the commit of what was queued: the mail thread looks now."""
        self.mailer.wake()

    # ------------------------------------------------------------------ the jobs' messages
    def _expand(self, s: Session, job: Job) -> list[Notice]:
        if job.kind == "verify":
            return self._verify(s, job)
        if job.game_id is None or job.ref is None:
            return []
        if job.kind == "processed":
            return self._processed(s, job.game_id, job.ref)
        if job.kind == "press":
            return self._press(s, job.game_id, job.ref)
        if job.kind == "deadline":
            return self._deadline(s, job.game_id, job.ref)
        return []

    def _link(self, path: str) -> str:
        base = self.config.public_url.rstrip("/")
        return f"{base}{path}"

    def _told(
        self, s: Session, game_id: str, seats: Iterable[str] | None = None
    ) -> list[tuple[str, set[str]]]:
        """(address, the seats it holds among ``seats``; all the game's if ``None``)."""
        stmt = (
            select(AccountRow.id, AccountRow.email, SeatRow.seat)
            .join(SeatRow, SeatRow.account_id == AccountRow.id)
            .where(
                SeatRow.game_id == game_id,
                SeatRow.kind == "player",
                AccountRow.notices.is_(True),
                AccountRow.email.is_not(None),
                AccountRow.email_verified.is_(True),
            )
        )
        if seats is not None:
            stmt = stmt.where(SeatRow.seat.in_(list(seats)))
        told: dict[int, tuple[str, set[str]]] = {}
        for account_id, email, seat in s.execute(stmt):
            told.setdefault(account_id, (str(email), set()))[1].add(seat)
        return list(told.values())

    def _verify(self, s: Session, job: Job) -> list[Notice]:
        row = s.get(AccountRow, job.ref) if job.ref is not None else None
        if row is None or row.email is None or row.email != job.to_address or row.email_verified:
            return []  # the address changed (or was confirmed) since: nothing to confirm
        token = new_token()
        row.email_token_hash = hash_token(token)
        row.email_token_expires = utcnow() + timedelta(days=VERIFY_DAYS)
        link = self._link(f"/account/verify?token={token}")
        body = (
            f"This address was given for the interboard account {row.name}. To get the account's"
            f" notices here, confirm it by opening this link within {VERIFY_DAYS} days:\n\n{link}\n\n"
            "If it was not you, ignore this message: nothing more is sent to this address unless"
            " the link is opened.\n"
        )
        return [Notice(row.email, "Confirm your e-mail address for interboard", body)]

    def _processed(self, s: Session, game_id: str, phase_index: int) -> list[Notice]:
        game = s.get(GameRow, game_id)
        played = s.scalar(
            select(PhaseRow.phase).where(PhaseRow.game_id == game_id, PhaseRow.phase_index == phase_index)
        )
        if game is None or played is None:
            return []
        now = "The game is over." if game.status == "finished" else f"It is now {game.phase}."
        subject = f"{game.title}: {played} processed"
        link = self._link(f"/games/{game_id}")
        return [
            Notice(email, subject, f"{played} of {game.title} has been processed. {now}\n\n{link}\n")
            for email, _ in self._told(s, game_id)
        ]

    def _press(self, s: Session, game_id: str, message_id: int) -> list[Notice]:
        game = s.get(GameRow, game_id)
        message = s.get(MessageRow, message_id)
        if game is None or message is None:
            return []
        seats = None if message.recipients is None else [str(x) for x in message.recipients]
        senders = {email for email, held in self._told(s, game_id, [message.sender]) if held}
        to = "everyone" if seats is None else ", ".join(seats)
        subject = f"{game.title}: a message from {message.sender}"
        link = self._link(f"/games/{game_id}")
        body = f"{message.sender} to {to} ({message.phase}):\n\n{message.body}\n\n{link}\n"
        return [
            Notice(email, subject, body)
            for email, held in self._told(s, game_id, seats)
            if email not in senders and held - {message.sender}
        ]

    def _deadline(self, s: Session, game_id: str, phase_index: int) -> list[Notice]:
        game = s.get(GameRow, game_id)
        if game is None or game.phase_index != phase_index or game.deadline is None:
            return []
        acting = set(get_family(game.family).pending(game.state).seats)
        ready = set(
            s.scalars(select(SeatRow.seat).where(SeatRow.game_id == game_id, SeatRow.ready.is_(True)))
        )
        left = max(0, round((game.deadline - utcnow()).total_seconds() / 60))
        subject = f"{game.title}: {game.phase} ends in {left} min"
        body = (
            f"The deadline of {game.phase} in {game.title} is {game.deadline:%Y-%m-%d %H:%M} UTC,"
            f" in {left} minutes.\n\n{self._link(f'/games/{game_id}')}\n"
        )
        return [Notice(email, subject, body) for email, _ in self._told(s, game_id, acting - ready)]
