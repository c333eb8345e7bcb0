"""The e-mail waiting to be sent, in the database (issue 43, point 5): it was a queue in memory,
lost when the server stopped before sending it.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | Sequence[str] | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "mail_outbox",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=True),
        sa.Column("ref", sa.Integer(), nullable=True),
        sa.Column("to_address", sa.String(length=254), nullable=True),
        sa.Column("subject", sa.Text(), nullable=True),
        sa.Column("body", sa.Text(), nullable=True),
        sa.Column("queued_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_mail_outbox")),
    )
    op.create_index("ix_mail_outbox_kind_id", "mail_outbox", ["kind", "id"])


def downgrade() -> None:
    op.drop_index("ix_mail_outbox_kind_id", table_name="mail_outbox")
    op.drop_table("mail_outbox")
