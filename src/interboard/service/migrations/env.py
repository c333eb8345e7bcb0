"""Alembic environment for the service's database.

Run through :func:`interboard.service.store.migrate`, which passes an open connection in
``config.attributes["connection"]`` (and holds the lock and transaction); otherwise the URL in
``sqlalchemy.url`` is used (see :func:`interboard.service.store.alembic_config`).
"""

from __future__ import annotations

from typing import Any, Literal

from alembic import context
from alembic.autogenerate.api import AutogenContext
from sqlalchemy import Connection

from interboard.service.models import Base, UTCDateTime
from interboard.service.store import create_store_engine

config = context.config
target_metadata = Base.metadata


def render_item(type_: str, obj: Any, autogen_context: AutogenContext) -> str | Literal[False]:
    """Autogenerate writes the package's column types as plain SQLAlchemy types."""
    if type_ == "type" and isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    return False


def run_offline() -> None:
    url = config.get_main_option("sqlalchemy.url")
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=url is not None and url.startswith("sqlite"),
        render_item=render_item,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_with(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        render_item=render_item,
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        run_with(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no connection in config.attributes and no sqlalchemy.url to connect to")
    engine = create_store_engine(url)
    try:
        with engine.connect() as conn:
            if conn.dialect.name == "sqlite":
                # As in store.migrate: a batch migration's DROP TABLE must not cascade.
                conn.exec_driver_sql("PRAGMA foreign_keys = OFF")
                conn.commit()
            run_with(conn)
            conn.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
