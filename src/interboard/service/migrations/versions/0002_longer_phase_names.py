"""Longer phase names: a wargame's decision points are named by turn, side, phase and step
(``B2.Germany.airmobile_embarkation.812``), which outgrows 32 characters.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | Sequence[str] | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = (("games", "phase"), ("phases", "phase"), ("messages", "phase"))


def upgrade() -> None:
    for table, column in COLUMNS:
        with op.batch_alter_table(table) as batch:  # SQLite rebuilds the table; PostgreSQL alters it
            batch.alter_column(column, existing_type=sa.String(length=32), type_=sa.String(length=64))


def downgrade() -> None:
    for table, column in COLUMNS:
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, existing_type=sa.String(length=64), type_=sa.String(length=32))
