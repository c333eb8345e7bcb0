"""The families' own commands (``adjudicate``, ``odds``) in the ``interboard`` command: listed from
the families' catalogs, so that ``interboard --help`` imports no family, and loaded with their
family's CLI module when one is run (or its own help is asked for)."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from ..games import catalogs
from ..games.protocol import ListedCommand


@cache
def registered(module: str) -> dict[str, Any]:
    """The commands a family's CLI module registers (its ``register(app)``), by name."""
    app = typer.Typer()
    importlib.import_module(module).register(app)
    return dict(typer.main.get_group(app).commands)


class FamilyCommand(TyperCommand):
    """A family's command as its catalog lists it: its name and its help's first paragraph, for
    the list of commands. Run, it is the command its family's CLI module registers."""

    def __init__(self, listed: ListedCommand, module: str) -> None:
        super().__init__(listed.name, help=listed.summary)
        self.module = module

    def loaded(self) -> Any:
        """The command itself (its family's CLI module imported)."""
        found = registered(self.module).get(self.name or "")
        if found is None:
            raise RuntimeError(f"{self.module} registers no command {self.name!r} (its catalog lists one)")
        return found

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        # The command's own context: parsing its arguments, its help and running it are the loaded
        # command's (the group runs ``ctx.command``, the loaded one).
        return self.loaded().make_context(info_name, args, parent=parent, **extra)


class Commands(TyperGroup):
    """The ``interboard`` command's commands: the generic ones, then every family's (listed from
    its catalog; a family whose catalog does not list its commands has its CLI module imported now),
    then the groups of commands (``scenario``), in the order the help lists them."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        groups = {name: cmd for name, cmd in self.commands.items() if isinstance(cmd, TyperGroup)}
        for name in groups:
            del self.commands[name]
        for listed in catalogs().values():
            if listed.cli is None:
                continue
            if listed.commands is None:
                self.commands.update(registered(listed.cli))
            else:
                for command in listed.commands:
                    self.commands[command.name] = FamilyCommand(command, listed.cli)
        self.commands.update(groups)
