"""E-mail addresses confirmed before any notice is sent to them (issue 43, point 4).

Whether an account's address was confirmed, and the confirmation link's token (its hash). The
addresses given before were never confirmed: each is kept unconfirmed, gets no notices until its
link is followed, and is sent one confirmation message (queued here, sent once the server runs
with an SMTP server).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | Sequence[str] | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # SQLite rebuilds the accounts table for the unique constraint; PostgreSQL alters it in place.
    with op.batch_alter_table("accounts") as batch:
        batch.add_column(sa.Column("email_verified", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("email_token_hash", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("email_token_expires", sa.DateTime(timezone=True), nullable=True))
        batch.create_unique_constraint(op.f("uq_accounts_email_token_hash"), ["email_token_hash"])
    op.execute(
        "INSERT INTO mail_outbox (kind, ref, to_address, queued_at)"
        " SELECT 'verify', id, email, CURRENT_TIMESTAMP FROM accounts WHERE email IS NOT NULL"
        " ORDER BY id"
    )


def downgrade() -> None:
    op.execute("DELETE FROM mail_outbox WHERE kind = 'verify'")
    with op.batch_alter_table("accounts") as batch:
        batch.drop_constraint(op.f("uq_accounts_email_token_hash"), type_="unique")
        batch.drop_column("email_token_expires")
        batch.drop_column("email_token_hash")
        batch.drop_column("email_verified")
