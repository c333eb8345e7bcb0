"""The services' clock: what time it is, in UTC (tests give the services a clock of their own)."""

from __future__ import annotations

from datetime import UTC, datetime


def utcnow() -> datetime:
    return datetime.now(UTC)
