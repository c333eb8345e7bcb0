"""The service's database fixtures (SQLite, and PostgreSQL where available), for the bot-seat tests."""

from tests.service.conftest import db_url, pg_server, sqlite_url

__all__ = ["db_url", "pg_server", "sqlite_url"]
