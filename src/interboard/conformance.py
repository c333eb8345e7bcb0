"""The conformance suite every registered variant passes (as OpenSpiel checks every game).

:func:`check_variant` plays a seeded game of random legal actions through the family protocol
alone and checks, step by step, what every generic part of interboard relies on:

* a new game starts at a decision point, its state and view are JSON, the view keeps no secret;
* every action the family offers as legal is accepted by its check, and a malformed one is refused
  with a message;
* every legal action can be clicked: it is a text of the seat's option tree (:func:`check_offered`);
* results name their seat, action, outcome and message; a decision point's name never repeats;
* the game is deterministic: the same seed and the same submissions give the same states, and no
  call changes the state it is given;
* its record saves and loads mid-game and at the end, and replays to the same state;
* every position (the start and each one played from, with its orders and results) draws as SVG;
* every decision point written as a scenario position starts a game at the same decision point,
  with the same choices (:func:`check_position`);
* decisions always move on: an empty submission to any decision point is processed into another
  decision point or position, never into the same one again (:func:`check_liveness`).

A new family runs it before writing its own tests: ``check_variant("my_variant")``. It needs only
the standard library; the test suite adds a run through the HTTP API.
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .bots.random_player import random_submission
from .games import find_variant
from .games.protocol import Family, Processed, State
from .games.record import Match, replay

MALFORMED = "@@ not an action @@"
SECRET_KEYS = ("rng", "seed", "deck", "hands")
"""Keys a public view must not have: the generator's state or seed (they foretell the dice) and
hidden cards."""


class ConformanceError(AssertionError):
    """A variant breaks the protocol; the message says where."""


@dataclass
class Report:
    """What a conformance run saw."""

    variant: str
    steps: int = 0
    over: bool = False
    phases: list[str] = field(default_factory=list)
    drawings: int = 0
    actions: int = 0


def _fail(variant: str, where: str, problem: str) -> ConformanceError:
    return ConformanceError(f"{variant}: {where}: {problem}")


def _json(value: Any, variant: str, where: str) -> str:
    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError) as exc:
        raise _fail(variant, where, f"not JSON-ready ({exc})") from None


def _svg(text: str, variant: str, where: str) -> None:
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise _fail(variant, where, f"the drawing is not well-formed XML ({exc})") from None
    if root.tag != "{http://www.w3.org/2000/svg}svg":
        raise _fail(variant, where, f"the drawing's root is {root.tag}, not an SVG element")


Player = Callable[[Family, State, str, random.Random], list[str]]
"""Who plays a seat in the suite's game: (family, state, seat, generator) -> its submission."""


def check_variant(
    variant: str,
    seed: int = 1,
    max_steps: int = 80,
    draw_every: int = 1,
    player: Player | None = None,
) -> Report:
    """Run the suite on ``variant``: a game of at most ``max_steps`` decision points, played by the
    random legal player (or ``player``: a bot, to play a game to its end). Raises
    :class:`ConformanceError` at the first broken promise."""
    choose = player or random_submission
    fam, info = find_variant(variant)
    v = info.id
    match = Match.new(v, {}, seed)
    report = Report(v)
    if not info.seats:
        raise _fail(v, "variant", "no seats")
    _json(match.state, v, "new state")
    view = fam.view(match.state)
    _json(view, v, "view of the start")
    for key in SECRET_KEYS:
        if key in view:
            raise _fail(v, "view of the start", f"shows {key!r}, which no seat may see")
    _svg(fam.draw(v, view, {}, [], "start"), v, "drawing of the start")
    seats = fam.seats(match.state)
    if not set(seats) <= set(info.seats) or not seats:
        raise _fail(v, "seats", f"{seats} are not among the variant's seats {list(info.seats)}")
    rng = random.Random(seed)
    halfway: dict[str, Any] | None = None
    done: Processed | None = None
    while report.steps < max_steps:
        pending = fam.pending(match.state)
        if pending.over:
            report.over = True
            break
        where = f"step {report.steps} ({pending.phase})"
        if pending.phase in report.phases:
            raise _fail(v, where, "a decision point's name repeats")
        report.phases.append(pending.phase)
        if pending.kind not in fam.phase_kinds:
            raise _fail(v, where, f"kind {pending.kind!r} is not one of {fam.phase_kinds}")
        if not set(pending.seats) <= set(seats):
            raise _fail(v, where, f"seats {pending.seats} are not the game's")
        check_position(match, report.steps)
        previous = match.state
        snapshot = _json(previous, v, where)
        submissions = {}
        for seat in pending.seats:
            actions = choose(fam, match.state, seat, rng)
            problems = fam.check(match.state, seat, actions)
            if len(problems) != len(actions):
                raise _fail(v, where, f"check gave {len(problems)} answers for {len(actions)} actions")
            for action, problem in zip(actions, problems, strict=True):
                if problem is not None:
                    raise _fail(v, where, f"{seat}'s legal action {action!r} was refused: {problem}")
            refused = fam.check(match.state, seat, [MALFORMED])
            if not refused or not isinstance(refused[0], str) or not refused[0]:
                raise _fail(v, where, f"the malformed action {MALFORMED!r} was not refused with a message")
            submissions[seat] = actions
            report.actions += len(actions)
            check_offered(fam, previous, seat, f"{v}: {where}, {seat}")
        # What reads a state must leave it as it was: the server keeps a phase's state and reads it
        # for many requests.
        fam.view(previous)
        fam.alive(previous)
        fam.pending(previous)
        done = match.play(submissions)
        if _json(previous, v, where) != snapshot:
            raise _fail(
                v, where, "viewing, checking, listing or processing actions changed the state it was given"
            )
        _json(done.state, v, f"{where}: state after it")
        for result in done.results:
            missing = [k for k in ("power", "order", "succeeded") if k not in result]
            if missing:
                raise _fail(v, where, f"a result lacks {missing}: {result}")
        _json(done.results, v, f"{where}: results")
        if report.steps % draw_every == 0:
            _svg(fam.draw(v, done.position, submissions, done.results, pending.phase), v, f"{where}: drawing")
            report.drawings += 1
        report.steps += 1
        if report.steps == max_steps // 2:
            halfway = match.to_json()
    check_position(match, report.steps)  # the last position too: the end, or where the run stopped
    for label, record in (("mid-game", halfway), ("final", match.to_json())):
        if record is None:
            continue
        text = _json(record, v, f"{label} record")
        again = replay(json.loads(text), f"{v} {label} record")
        if label == "final" and _json(again.state, v, "replayed state") != _json(match.state, v, "state"):
            raise _fail(v, "replay", "the record replays to another state")
        if len(again.steps) != len(record["steps"]):
            raise _fail(
                v, "replay", f"the {label} record replays {len(again.steps)} of {len(record['steps'])} steps"
            )
    twin = Match.new(v, {}, seed)
    for step in match.steps:
        twin.play(step.submissions)
    if _json(twin.state, v, "twin") != _json(match.state, v, "state"):
        raise _fail(v, "determinism", "the same seed and submissions gave another state")
    final_view = fam.view(match.state)
    _svg(fam.draw(v, final_view, {}, [], "end"), v, "drawing of the end")
    if report.over and done is not None and fam.winners(match.state) != list(done.winners):
        raise _fail(v, "end", "the winners of the last step and of the state differ")
    return report


CLICKABLE = ("orders", "links", "waive")
"""The parts of an option tree whose texts a page offers as buttons or map clicks."""


def _texts(node: Any) -> set[str]:
    if isinstance(node, str):
        return {node}
    if isinstance(node, dict):
        return set().union(*map(_texts, node.values())) if node else set()
    if isinstance(node, list):
        return set().union(*map(_texts, node)) if node else set()
    return set()


def check_offered(fam: Family, state: State, seat: str, where: str) -> None:
    """Every action :meth:`Family.legal` lists for ``seat`` at ``state`` (before it chooses any) is
    a text of its option tree, so that a player clicking can give it: no front left unclickable
    because a list was cut short or a kind of action forgotten by the tree."""
    tree = fam.options(state, seat)
    offered = _texts({k: tree.get(k) for k in CLICKABLE})
    missing = [a for a in fam.legal(state, seat, ()).actions if a not in offered]
    if missing:
        more = f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        shown = ", ".join(map(repr, missing[:5])) + more
        raise ConformanceError(f"{where}: legal actions the option tree does not offer: {shown}")


def check_scenarios(variant: str, seed: int = 1, max_steps: int = 80) -> int:
    """Play a seeded game of random legal actions and check each of its decision points with
    :func:`check_position`. Returns the decision points checked."""
    fam, info = find_variant(variant)
    match = Match.new(info.id, {}, seed)
    rng = random.Random(seed)
    checked = 0
    while checked < max_steps:
        check_position(match, checked)
        checked += 1
        if match.over:
            break
        pending = fam.pending(match.state)
        match.play({s: random_submission(fam, match.state, s, rng) for s in pending.seats})
    return checked


def check_position(match: Match, k: int) -> None:
    """Write ``match``'s decision point ``k`` as a scenario position and start a game from it: the
    same position and view (numbering aside), the same seats and kind of decision, and (at every
    tenth) the same legal choices for every seat."""
    fam, v = match.family, match.info.id
    pending = fam.pending(match.state)
    where = f"decision point {k} ({pending.phase})"
    position = fam.position(match.state)
    text = _json(position, v, f"{where}: scenario position")
    try:
        # As a scenario file keeps it: in its own order (a battle asks its seats in order).
        started = fam.scenario(v, match.options, match.seed, json.loads(json.dumps(position)))
    except Exception as exc:
        raise _fail(v, where, f"its scenario position does not start a game: {exc}") from None
    same_view = _canonical(fam.view(started)) == _canonical(fam.view(match.state))
    if _json(fam.position(started), v, where) != text or not same_view:
        raise _fail(v, where, "a game started from its scenario position is at another position")
    now = fam.pending(started)
    if (pending.seats, pending.kind, pending.over) != (now.seats, now.kind, now.over):
        raise _fail(
            v, where, f"a game started from its scenario position asks {now.seats}, not {pending.seats}"
        )
    if k % 10 == 0:
        for seat in pending.seats:
            if fam.legal(match.state, seat, []) != fam.legal(started, seat, []):
                raise _fail(v, where, f"{seat} has other choices in a game started from its position")


BOOKKEEPING = ("steps", "next_id", "id", "aboard")
"""Keys of a view that number things rather than say where they are (decision points, unit ids and
what refers to them): a game started from a scenario may number them afresh."""


def _canonical(value: Any) -> Any:
    """A view without its bookkeeping, its lists in a fixed order."""
    if isinstance(value, dict):
        return {k: _canonical(v) for k, v in value.items() if k not in BOOKKEEPING}
    if isinstance(value, list):
        return sorted((_canonical(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    return value


def check_liveness(variant: str, seed: int = 1, max_steps: int = 80, player: Player | None = None) -> int:
    """Play a seeded game (random legal actions, or ``player``) and, at every decision point, process
    an empty submission from every deciding seat on the side: it must be accepted or defaulted and
    lead on, to another decision or another position (a decision that may not end empty gets the
    family's default, or the game would ask it again for ever). Returns the decision points tried."""
    choose = player or random_submission
    fam, info = find_variant(variant)
    v = info.id
    match = Match.new(v, {}, seed)
    rng = random.Random(seed)
    tried = 0
    while tried < max_steps and not match.over:
        pending = fam.pending(match.state)
        where = f"step {tried} ({pending.phase})"
        before = _json(fam.position(match.state), v, where)
        try:
            done = fam.process(match.state, {seat: [] for seat in pending.seats})
        except Exception as exc:
            raise _fail(v, where, f"an empty submission was not processed: {exc!r}") from None
        after = fam.pending(done.state)
        same_question = (after.seats, after.kind, dict(after.prompts)) == (
            pending.seats,
            pending.kind,
            dict(pending.prompts),
        )
        if same_question and _json(fam.position(done.state), v, where) == before:
            raise _fail(
                v, where, "an empty submission leads back to the same decision: the game never moves on"
            )
        tried += 1
        match.play({seat: choose(fam, match.state, seat, rng) for seat in pending.seats})
    return tried
