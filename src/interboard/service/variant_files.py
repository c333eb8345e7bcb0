"""Variants made from files on the server (``interboard serve --variants DIR``, docs/variants.md).

The files of the directory are offered in the lobby and ``GET /api/variants``. A game of one keeps
its variant's definition in the database (``variant_definitions``), written in the transaction that
makes the game, and every server process offers the kept definitions first when it starts: a game
goes on after a restart, with or without the file, and after the file changes. An id is one
definition: a file changed under an id that games were made with is refused, named in the log, and
the games keep the definition they were made with.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from sqlalchemy import Engine, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from ..games import add_variant, add_variant_file
from ..games.protocol import FamilyError, VariantInfo
from .models import VariantDefinitionRow

log = logging.getLogger("interboard.variants")


def keep_definition(session: Session, variant: str, family: str, definition: str) -> None:
    """Keep a file variant's definition, unless it is kept already (two games made at once each
    try: the first insert stands, the second does nothing)."""
    values = {"variant": variant, "family": family, "definition": definition}
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    session.execute(insert(VariantDefinitionRow).values(**values).on_conflict_do_nothing())


def offer_kept(engine: Engine) -> list[str]:
    """Offer, in this process, the file variants the database's games were made with; what could
    not be offered, said (a definition this version of interboard no longer reads)."""
    problems: list[str] = []
    with Session(engine) as session:
        kept = session.execute(select(VariantDefinitionRow.variant, VariantDefinitionRow.definition)).all()
    for variant, definition in kept:
        try:
            add_variant(json.loads(definition), f"the kept definition of {variant}")
        except FamilyError as exc:
            problems.append(str(exc))
    return problems


def offer_directory(directory: Path) -> tuple[list[VariantInfo], list[str]]:
    """Offer every variant file (``*.json``) of ``directory``, in name order: the variants offered,
    and each file that was not, with every error it has."""
    offered: list[VariantInfo] = []
    problems: list[str] = []
    for path in sorted(directory.glob("*.json")):
        try:
            offered.append(add_variant_file(path)[1])
        except FamilyError as exc:
            problems.append(f"{path}: not offered: {exc}")
    return offered, problems
