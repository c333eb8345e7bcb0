"""The definitions of the variants made from files (issue 45, point 3): a game of one keeps its
variant's definition here, so that it goes on (and replays) after the file changes or the server
starts without it.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | Sequence[str] | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "variant_definitions",
        sa.Column("variant", sa.String(length=64), nullable=False),
        sa.Column("family", sa.String(length=32), nullable=False),
        sa.Column("definition", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("variant", name=op.f("pk_variant_definitions")),
    )


def downgrade() -> None:
    op.drop_table("variant_definitions")
