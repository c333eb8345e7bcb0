"""The service's errors: a refused request (:class:`ServiceError`, with the HTTP status the API
answers with) and a write that gave way to another (:class:`WouldWait`). The game and account
services raise them; the API turns them into answers."""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A refused request; ``status`` is the HTTP status the API answers with."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(ServiceError):
    status = 404


class Unauthorized(ServiceError):
    """No token, or no well-formed one: the API answers 401 with ``WWW-Authenticate: Bearer``."""

    status = 401


class Forbidden(ServiceError):
    """A token that holds no right to this (another game's, a seat's where the GM's is needed)."""

    status = 403


class Conflict(ServiceError):
    status = 409


class StaleWrite(Conflict):
    """Another request changed the game between this one's read and its write; nothing was kept."""


class Unavailable(ServiceError):
    """The database does not answer (``/readyz``)."""

    status = 503


class MovedOn(ServiceError):
    """The game was processed between two reads of one request (read again)."""

    status = 409

    def __init__(self) -> None:
        super().__init__("the game moved on while it was read: try again")


class Invalid(ServiceError):
    status = 422

    def __init__(self, message: str, details: list[dict[str, Any]] | None = None) -> None:
        super().__init__(message)
        self.details = details or []


class WouldWait(Exception):
    """A write asked to be done at once would wait for a lock: nothing was written. Another
    thread or process is writing; try again in a moment."""
