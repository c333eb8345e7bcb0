"""A seat found by its game and token in one index: every seat's request reads its seat so.

The index on the seats' game alone led each such read to the game's seats, each then read to
compare its token; the index on both leads to the seat. It serves the reads by game alone too (its
first column), so it replaces that one.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | Sequence[str] | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_index("ix_seats_game_id_token_hash", "seats", ["game_id", "token_hash"])
    op.drop_index("ix_seats_game_id", table_name="seats")


def downgrade() -> None:
    op.create_index("ix_seats_game_id", "seats", ["game_id"])
    op.drop_index("ix_seats_game_id_token_hash", table_name="seats")
