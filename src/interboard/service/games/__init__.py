"""The game service: a game's lifecycle and every change a request can make, each in one
transaction, and what the games look like.

:class:`GameService` is one object in parts, each a module of this package: :mod:`.lifecycle`
(creating and joining games, seats changing hands, the game master's controls), :mod:`.seats` (a
seat's orders, Ready, draw vote and press), :mod:`.processing` (due phases worked out and claimed)
and :mod:`.views` (what a game looks like), on :mod:`.core` (the state they share, transactions,
the reads every request makes) and :mod:`.statements` (the statements they run). What a request may
ask is in :mod:`.requests`; the errors they raise in :mod:`interboard.service.errors`.
"""

from __future__ import annotations

from .lifecycle import Created, Lifecycle
from .requests import NewGame
from .seats import SeatActions
from .views import Views

__all__ = ["Created", "GameService", "NewGame"]


class GameService(Lifecycle, SeatActions, Views):
    """Every game of one database, for any number of threads (and, sharing the database, of
    processes): the parts' methods on one object, which holds their shared state
    (:class:`~.core.GameCore`)."""
