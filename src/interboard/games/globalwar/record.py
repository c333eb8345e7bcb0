"""Global War game records: versioned JSON (``interboard-globalwar/1``), saved, loaded and replayed.

A record holds the rules, the seed, the players' names, every action with its text and its results
(every die rolled) and the state reached. Countries are written by map id (``ALA``), players as
``P1``..``P6``. Loading replays the actions from the seeded deal and checks that each step gives
the recorded results and the last the recorded state, so a record cannot silently disagree with
the rules. Never pickle.
"""

from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any

from . import actions as act
from . import results as res
from .errors import GlobalWarError
from .game import Match
from .rules import Rules
from .state import GameState, PendingMove, Phase, player_id, player_index

FORMAT = "interboard-globalwar/1"

COUNTRY_FIELDS = {"country", "source", "target", "own", "partners", "bonus_country"}
PLAYER_FIELDS = {"player", "by", "to", "from_player", "owner", "to_player", "partner"}
ACTION_KINDS: dict[str, type[act.Action]] = {
    "place": act.Place,
    "deploy": act.Deploy,
    "trade": act.TradeCards,
    "attack": act.Attack,
    "move_in": act.MoveIn,
    "end_attack": act.EndAttack,
    "fortify": act.Fortify,
    "exchange": act.Exchange,
    "give": act.Give,
    "give_continent": act.GiveContinent,
    "end_turn": act.EndTurn,
    "surrender": act.Surrender,
}
KIND_OF_ACTION = {cls: kind for kind, cls in ACTION_KINDS.items()}


class RecordError(ValueError):
    """A Global War record that cannot be read or does not replay; the message says where."""


def _snake(name: str) -> str:
    return "".join("_" + ch.lower() if ch.isupper() else ch for ch in name).lstrip("_")


def _value_to_json(state: GameState, name: str, value: Any) -> Any:
    ids = [sp.id for sp in state.world.board.spaces]
    if value is None:
        return None
    if name in COUNTRY_FIELDS:
        return ids[value]
    if name == "countries":
        return [ids[c] for c in value]
    if name in PLAYER_FIELDS:
        return player_id(value)
    if name == "winners":
        return [player_id(p) for p in value]
    if name == "continent":
        return state.world.continents[value][0]
    if isinstance(value, tuple):
        return list(value)
    return value


def action_to_json(state: GameState, action: act.Action) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": KIND_OF_ACTION[type(action)]}
    for f in fields(action):
        out[f.name] = _value_to_json(state, f.name, getattr(action, f.name))
    return out


def event_to_json(state: GameState, event: res.Event) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": _snake(type(event).__name__)}
    for f in fields(event):
        out[f.name] = _value_to_json(state, f.name, getattr(event, f.name))
    return out


def action_from_json(state: GameState, data: Any, where: str = "action") -> act.Action:
    if not isinstance(data, dict) or data.get("kind") not in ACTION_KINDS:
        raise RecordError(f"{where}: an action is an object whose kind is one of {sorted(ACTION_KINDS)}")
    cls = ACTION_KINDS[data["kind"]]
    values: dict[str, Any] = {}
    space_by_id = state.world.board.space_by_id
    continents = [c[0] for c in state.world.continents]
    for f in fields(cls):
        raw = data.get(f.name)
        if f.name in COUNTRY_FIELDS:
            if not isinstance(raw, str) or raw.upper() not in space_by_id:
                raise RecordError(f"{where}: {f.name}: unknown country {raw!r}")
            values[f.name] = space_by_id[raw.upper()]
        elif f.name in PLAYER_FIELDS:
            index = player_index(state.rules, str(raw))
            if index is None:
                raise RecordError(f"{where}: {f.name}: unknown player {raw!r}")
            values[f.name] = index
        elif f.name == "continent":
            if raw not in continents:
                raise RecordError(f"{where}: unknown continent {raw!r} (continents: {', '.join(continents)})")
            values[f.name] = continents.index(raw)
        elif f.name == "cards":
            if not isinstance(raw, list) or not all(isinstance(x, int) for x in raw):
                raise RecordError(f"{where}: cards must be a list of card numbers")
            values[f.name] = tuple(raw)
        elif f.name == "dice" and raw is None:
            values[f.name] = None
        else:
            if not isinstance(raw, int) or isinstance(raw, bool):
                raise RecordError(f"{where}: {f.name} must be a whole number")
            values[f.name] = raw
    return cls(**values)


def state_to_json(state: GameState) -> dict[str, Any]:
    ids = [sp.id for sp in state.world.board.spaces]
    players = [player_id(p) for p in range(state.players)]
    pending = state.pending
    return {
        "phase": state.phase.value,
        "current": player_id(state.current),
        "turn": state.turn,
        "owner": {ids[c]: player_id(p) for c, p in enumerate(state.owner)},
        "armies": {ids[c]: n for c, n in enumerate(state.armies)},
        "hands": {players[p]: list(h) for p, h in enumerate(state.hands)},
        "deck": list(state.deck),
        "discard": list(state.discard),
        "sets_traded": state.sets_traded,
        "to_place": {players[p]: n for p, n in enumerate(state.to_place)},
        "pool": state.pool,
        "captured": state.captured,
        "pending": None
        if pending is None
        else {
            "source": ids[pending.source],
            "target": ids[pending.target],
            "minimum": pending.minimum,
            "maximum": pending.maximum,
        },
        "fortified_from": sorted(ids[c] for c in state.fortified_from),
        "fortify_chosen": state.fortify_chosen,
        "out": [players[p] for p, gone in enumerate(state.out) if gone],
        "rng": f"{state.rng:016x}",
        "winners": [players[p] for p in state.winners],
    }


def state_from_json(rules: Rules, data: Any, where: str = "state") -> GameState:
    """Read a state written by :func:`state_to_json` (without replaying; the service trusts its own)."""
    from .maps import world

    w = world(rules.map)
    ids = [sp.id for sp in w.board.spaces]
    players = [player_id(p) for p in range(rules.players)]
    try:
        pending = data["pending"]
        return GameState(
            rules=rules,
            owner=tuple(players.index(data["owner"][c]) for c in ids),
            armies=tuple(int(data["armies"][c]) for c in ids),
            hands=tuple(tuple(int(x) for x in data["hands"][p]) for p in players),
            deck=tuple(int(x) for x in data["deck"]),
            discard=tuple(int(x) for x in data["discard"]),
            sets_traded=int(data["sets_traded"]),
            phase=Phase(data["phase"]),
            current=players.index(data["current"]),
            turn=int(data["turn"]),
            to_place=tuple(int(data["to_place"][p]) for p in players),
            pool=int(data["pool"]),
            captured=bool(data["captured"]),
            pending=None
            if pending is None
            else PendingMove(
                ids.index(pending["source"]),
                ids.index(pending["target"]),
                int(pending["minimum"]),
                int(pending["maximum"]),
            ),
            fortified_from=frozenset(ids.index(c) for c in data["fortified_from"]),
            fortify_chosen=bool(data["fortify_chosen"]),
            out=tuple(p in data["out"] for p in players),
            rng=int(data["rng"], 16),
            winners=tuple(players.index(p) for p in data["winners"]),
        )
    except (KeyError, ValueError, TypeError) as exc:
        raise RecordError(f"{where}: malformed state ({type(exc).__name__}: {exc})") from None


def match_to_json(match: Match) -> dict[str, Any]:
    state = match.state  # ids and names only: they do not change during a game
    log = [
        {
            "player": player_id(result.player),
            "text": text,
            "action": action_to_json(state, action),
            "events": [event_to_json(state, e) for e in result.events],
        }
        for (action, result), text in zip(match.log, match.texts, strict=True)
    ]
    return {
        "format": FORMAT,
        "rules": match.rules.to_json(),
        "seed": match.seed,
        "players": list(match.names),
        "actions": log,
        "state": state_to_json(match.state),
        "winners": list(match.winner_names),
    }


def _header(data: Any) -> tuple[Rules, int, tuple[str, ...]]:
    if not isinstance(data, dict):
        raise RecordError("a Global War record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, found {data.get('format')!r}")
    try:
        rules = Rules.from_json(data.get("rules", {}))
    except GlobalWarError as exc:
        raise RecordError(f"rules: {exc}") from None
    seed = data.get("seed")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RecordError("seed: must be a whole number")
    names = data.get("players")
    if (
        not isinstance(names, list)
        or len(names) != rules.players
        or not all(isinstance(n, str) for n in names)
    ):
        raise RecordError(f"players: must be a list of {rules.players} names")
    if not isinstance(data.get("actions"), list):
        raise RecordError("actions: must be a list")
    return rules, seed, tuple(names)


def replay(data: Any) -> tuple[Match, list[str]]:
    """Replay a record from its seeded deal: the game it gives, and where it differs from the record
    (a step whose results differ, or a final state that differs). Unplayable actions raise."""
    rules, seed, names = _header(data)
    match = Match.new(rules, seed, names)
    differences: list[str] = []
    for k, entry in enumerate(data["actions"]):
        where = f"actions[{k}]"
        if not isinstance(entry, dict):
            raise RecordError(f"{where}: must be an object")
        state = match.state
        action = action_from_json(state, entry.get("action"), where)
        try:
            result = match.play(action)
        except GlobalWarError as exc:
            raise RecordError(f"{where} ({entry.get('text', '')}): refused on replay: {exc}") from None
        events = [event_to_json(state, e) for e in result.events]
        if "events" in entry and entry["events"] != events:
            differences.append(f"{where} ({entry.get('text', '')}): results differ from the record")
    if "state" in data and data["state"] != state_to_json(match.state):
        differences.append("the state reached differs from the recorded state")
    return match, differences


def match_from_json(data: Any) -> Match:
    """Load a record by replaying it; a record that does not replay to itself is refused."""
    match, differences = replay(data)
    if differences:
        raise RecordError("; ".join(differences[:3]))
    return match


def save_match(match: Match, path: str | Path) -> None:
    Path(path).write_text(json.dumps(match_to_json(match), indent=1) + "\n", encoding="utf-8")


def load_match(path: str | Path) -> Match:
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise RecordError(f"{p}: cannot be read ({exc.strerror})") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{p}: not JSON (line {exc.lineno}: {exc.msg})") from None
    try:
        return match_from_json(data)
    except RecordError as exc:
        raise RecordError(f"{p}: {exc}") from None
