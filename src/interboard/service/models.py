"""Database tables (SQLAlchemy 2). The schema is created and changed by the Alembic migrations in
``interboard/service/migrations``; these classes must match them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    Dialect,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    TypeDecorator,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
"""Constraint names, so that later migrations can drop or alter constraints (SQLite's batch mode
needs named constraints to do so)."""


class UTCDateTime(TypeDecorator[datetime]):
    """An aware datetime, stored in UTC, read back aware in UTC on every database.

    Plain ``DateTime(timezone=True)`` drops the offset on SQLite (12:00+02:00 is stored as 12:00) and
    reads back naive datetimes, while PostgreSQL reads back aware ones. Naive datetimes are refused.
    """

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.utcoffset() is None:
            raise ValueError(f"naive datetime {value!r}: pass an aware one, e.g. datetime.now(UTC)")
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


NullableJSON = JSON(none_as_null=True)
"""JSON where Python ``None`` is SQL NULL (plain JSON stores an explicit ``None`` as the JSON text
``null``, so ``IS NULL`` would miss it)."""


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class GameRow(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    family: Mapped[str] = mapped_column(String(32))
    variant: Mapped[str] = mapped_column(String(64))
    title: Mapped[str] = mapped_column(String(200), default="")
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Options, press rule, deadlines per phase kind, missed-order policy."""
    status: Mapped[str] = mapped_column(String(16), index=True)
    """forming, active, paused, finished"""
    state: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The family's game record (for Diplomacy an ``interboard-game/1`` record)."""
    phase: Mapped[str] = mapped_column(String(64), default="")
    phase_index: Mapped[int] = mapped_column(Integer, default=0)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True, index=True)
    paused_left: Mapped[float | None] = mapped_column(nullable=True)
    """Seconds that were left before the deadline when the game was paused."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    """Bumped by every change; a phase is processed only by the update that moves it on."""
    gm_token_hash: Mapped[str] = mapped_column(String(64))
    # Every ORM update of a game checks the version it read, so a change made from a stale read
    # (say, orders stored while another process moved the game on) fails instead of landing.
    __mapper_args__ = {"version_id_col": version, "version_id_generator": False}  # noqa: RUF012
    result: Mapped[dict[str, Any] | None] = mapped_column(NullableJSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    warned_phase: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The phase index whose deadline warning has gone out (or was not wanted): one per phase, claimed
    by the update that sets it, so that one process sends it."""


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (
        UniqueConstraint("game_id", "seat"),
        # A seat's request reads its seat by game and token (the index serves reads by game too).
        Index("ix_seats_game_id_token_hash", "game_id", "token_hash"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[str] = mapped_column(String(32))
    kind: Mapped[str] = mapped_column(String(16))
    """open, player, bot"""
    player: Mapped[str] = mapped_column(String(100), default="")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    ready: Mapped[bool] = mapped_column(Boolean, default=False)
    draw_vote: Mapped[bool] = mapped_column(Boolean, default=False)
    account_id: Mapped[int | None] = mapped_column(
        ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True, index=True
    )
    """The account whose player holds the seat (joined while signed in), if any."""


class OrdersRow(Base):
    """A seat's orders for the current phase (replaced on each submission)."""

    __tablename__ = "orders"
    __table_args__ = (UniqueConstraint("game_id", "phase_index", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase_index: Mapped[int] = mapped_column(Integer)
    seat: Mapped[str] = mapped_column(String(32))
    orders: Mapped[list[Any]] = mapped_column(JSON)
    submitted_at: Mapped[datetime] = mapped_column(UTCDateTime())


class PhaseRow(Base):
    """One processed phase: what it started from, the orders, the results."""

    __tablename__ = "phases"
    __table_args__ = (UniqueConstraint("game_id", "phase_index"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase_index: Mapped[int] = mapped_column(Integer)
    phase: Mapped[str] = mapped_column(String(64))
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    processed_at: Mapped[datetime] = mapped_column(UTCDateTime())


class MessageRow(Base):
    __tablename__ = "messages"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    phase: Mapped[str] = mapped_column(String(64))
    sender: Mapped[str] = mapped_column(String(32))
    recipients: Mapped[list[Any] | None] = mapped_column(NullableJSON, nullable=True)
    """Seats that may read it; null for a broadcast."""
    body: Mapped[str] = mapped_column(Text)
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime())


class AccountRow(Base):
    """A player's account: a name, a password (its Argon2 hash), an optional e-mail for notices."""

    __tablename__ = "accounts"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(32))
    name_key: Mapped[str] = mapped_column(String(32), unique=True)
    """The name in lower case: names that differ only in case are one name."""
    email: Mapped[str | None] = mapped_column(String(254), nullable=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    notices: Mapped[bool] = mapped_column(Boolean, default=True)
    """Whether the account's e-mail gets notices (a phase processed, a deadline near, press)."""
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    email_verified: Mapped[bool] = mapped_column(Boolean, default=False)
    """Whether the address was confirmed (its link followed): only a confirmed one gets notices."""
    email_token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True)
    """The SHA-256 of the token of the confirmation link last sent to the address (null: none)."""
    email_token_expires: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)


class SessionRow(Base):
    """A signed-in session: its token is kept only as a hash, like the seats' tokens."""

    __tablename__ = "sessions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("accounts.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime())
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime())


class SignInFailureRow(Base):
    """Failed password checks against one name (an account's or not: an unknown name is counted
    the same, so a lock tells nothing of whether the account exists). Kept in the database, so
    that every server process, and one started again, sees the same count."""

    __tablename__ = "sign_in_failures"

    name_key: Mapped[str] = mapped_column(String(32), primary_key=True)
    """The name as tried, in lower case."""
    failures: Mapped[int] = mapped_column(Integer)
    """Checks counted since the last success (each is counted before it is made)."""
    failed_at: Mapped[datetime] = mapped_column(UTCDateTime())
    """When the last check was counted; a row untouched for long is forgotten."""
    locked_until: Mapped[datetime | None] = mapped_column(UTCDateTime(), nullable=True)
    """No check of the name is made before then (429 with Retry-After)."""


class OutboxRow(Base):
    """The e-mail waiting to be sent (``mail.py``): a job (``kind`` processed, press, deadline or
    verify), which the mail thread turns into messages when it comes to it, or a message ready to
    send (``kind`` mail). Queued in the transaction of the change it tells of, so it is lost
    neither with a process that stops before sending it nor by a change that is rolled back."""

    __tablename__ = "mail_outbox"
    __table_args__ = (Index("ix_mail_outbox_kind_id", "kind", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(16))
    game_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    ref: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The job's phase index, message id or account id."""
    to_address: Mapped[str | None] = mapped_column(String(254), nullable=True)
    """A message's address; a verify job's address (sent only if it is still the account's)."""
    subject: Mapped[str | None] = mapped_column(Text, nullable=True)
    body: Mapped[str | None] = mapped_column(Text, nullable=True)
    queued_at: Mapped[datetime] = mapped_column(UTCDateTime())


class VariantDefinitionRow(Base):
    """The definition of a variant made from a file (``docs/variants.md``), kept when its first game
    is made: a server started again, or without the file, offers it again for its games. One
    definition an id: a changed file takes a new id."""

    __tablename__ = "variant_definitions"

    variant: Mapped[str] = mapped_column(String(64), primary_key=True)
    family: Mapped[str] = mapped_column(String(32))
    definition: Mapped[str] = mapped_column(Text)
    """The definition as JSON text, its map files written in."""
