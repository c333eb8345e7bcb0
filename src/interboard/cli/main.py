"""The ``interboard`` command: one entry point to every layer.

The commands here know no family by name: they reach families through the registry
(:mod:`interboard.games`) and the protocol. A family adds its own commands (``adjudicate``,
``odds``) through its CLI module (``register(app)``), listed in its catalog so that the module is
imported only when one of them is run (``families.py``), may have its own local play
(``play(variant, args)``), and may read its own record formats (``REPLAYERS``, ``CONVERTERS``).
A family is loaded only by a command that uses it: ``interboard --help`` and ``interboard
variants`` load none.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from ..games import catalog, catalogs, find_variant
from ..games import family as get_family
from ..games.protocol import FamilyError, OptionValue
from .common import fail, family_cli, hooks, load_any_record, variant_or_file
from .families import Commands
from .maps import app as map_app
from .render import render as render_svg
from .scenario import app as scenario_app
from .selfplay import selfplay as selfplay_command
from .variant import app as variant_app

app = typer.Typer(
    cls=Commands,
    add_completion=False,
    no_args_is_help=True,
    help="interboard: a game master for linked boards.",
)


@app.command()
def variants(
    family: Annotated[str | None, typer.Option(help="Only this family's variants.")] = None,
    options: Annotated[bool, typer.Option("--options", help="List each variant's rule options.")] = False,
) -> None:
    """List the variants interboard can play, by family."""
    try:
        listed = [catalog(family)] if family is not None else list(catalogs().values())
    except FamilyError as exc:
        raise fail(str(exc)) from exc
    for fam in listed:
        if not fam.variants:
            continue
        typer.echo(f"{fam.title} ({fam.name}):")
        # The families' catalogs name the variants; their options are the families' own (loaded).
        infos = {info.id: info for info in get_family(fam.name).variants()} if options else {}
        for variant in fam.variants:
            typer.echo(f"  {variant.id:15} {variant.title}: {variant.description}")
            for opt in infos[variant.id].options if options else ():
                allowed = f" ({'|'.join(opt.choices)})" if opt.choices else ""
                typer.echo(f"  {'':15}   --option {opt.name}={_shown(opt.default)}{allowed}: {opt.help}")


def _shown(value: OptionValue) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# --help goes to the variant's own play (its family's options), not to this dispatcher.
@app.command(
    context_settings={"allow_extra_args": True, "ignore_unknown_options": True}, add_help_option=False
)
def play(
    ctx: typer.Context,
    variant: Annotated[str, typer.Argument(help="Variant to play (see 'interboard variants').")] = "standard",
) -> None:
    """Play a local game at one keyboard. Each family has its own options: see
    'interboard play VARIANT --help'."""
    args = list(ctx.args)
    if variant.startswith("-"):  # an option came first: the variant is the default one
        args, variant = [variant, *args], "standard"
    try:
        fam, info = find_variant(variant_or_file(variant))
    except FamilyError as exc:
        raise fail(str(exc)) from exc
    module = family_cli(fam)
    # A scenario starts through the protocol alone, which every family's game has.
    scenario_given = any(a == "--scenario" or a.startswith("--scenario=") for a in args)
    if module is not None and hasattr(module, "play") and not scenario_given:
        module.play(info.id, args)
        return
    from .play import run as play_generic

    play_generic(info.id, args)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A saved game.")],
    fmt: Annotated[
        str, typer.Option("--format", help="Format of the saved game: auto (its 'format' field), mila, ...")
    ] = "auto",
    option: Annotated[
        list[str] | None,
        typer.Option("--option", help="NAME=VALUE: a rule option for the replay (edition=2000)."),
    ] = None,
) -> None:
    """Replay a saved game phase by phase and report where it differs from the record."""
    from ..games.record import FORMAT as RECORD_FORMAT
    from ..games.record import RecordError
    from ..games.record import replay as replay_record

    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise fail(f"{file}: {exc}") from exc
    name = str(data.get("format", "")) if fmt == "auto" and isinstance(data, dict) else fmt
    if name == RECORD_FORMAT:
        if option:
            raise fail("an interboard-record/1 record keeps its own options")
        try:
            match = replay_record(data, str(file))
        except RecordError as exc:
            raise fail(str(exc)) from exc
        typer.echo(f"{len(match.steps)} steps replayed, 0 with differences")
        return
    replayers = hooks("REPLAYERS")
    if name not in replayers:
        known = ", ".join([RECORD_FORMAT, *replayers])
        raise fail(f"{file}: unknown record format {name!r} (formats: {known}; --format names one)")
    code = replayers[name](data, list(option or []), str(file))
    if code:
        raise typer.Exit(code)


@app.command("export")
def export_record(file: Annotated[Path, typer.Argument(help="A game record of any known format.")]) -> None:
    """Print a saved game as an interboard-record/1 (checks that it replays)."""
    typer.echo(json.dumps(load_any_record(file).to_json(), indent=1))


@app.command()
def bench(
    variant: Annotated[str, typer.Option(help="Variant to play.")] = "standard",
    games: Annotated[int, typer.Option(help="Random games to play.")] = 5,
    steps: Annotated[int, typer.Option(help="Decision points per game at most.")] = 100,
    seed: Annotated[int, typer.Option(help="Seed of the first game.")] = 1,
) -> None:
    """Time seeded random games through the family protocol: the legal-action generation of the
    generic random player, and the processing of each decision point.

    The adjudicator alone against MILA on recorded phases: bench/bench_adjudicate.py."""
    from ..bots.random_player import random_submission
    from ..games.record import Match

    try:
        fam, info = find_variant(variant)
    except FamilyError as exc:
        raise fail(str(exc)) from exc
    total = 0
    spent_process = 0.0
    started = time.perf_counter()
    for g in range(games):
        rng = random.Random(seed + g)
        match = Match.new(info.id, {}, seed + g)
        for _ in range(steps):
            pending = fam.pending(match.state)
            if pending.over:
                break
            submissions = {s: random_submission(fam, match.state, s, rng) for s in pending.seats}
            t0 = time.perf_counter()
            match.play(submissions)
            spent_process += time.perf_counter() - t0
            total += 1
    elapsed = time.perf_counter() - started
    typer.echo(
        f"{info.id}: {total} decision points in {elapsed:.2f} s: {total / elapsed:,.0f}/s with random "
        f"legal play, {total / spent_process:,.0f}/s processing alone"
    )


@app.command()
def serve(
    db: Annotated[
        str | None,
        typer.Option(help="Database URL (default: SQLite file interboard.sqlite, or $INTERBOARD_DB)."),
    ] = None,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    variants_dir: Annotated[
        Path | None,
        typer.Option(
            "--variants",
            envvar="INTERBOARD_VARIANTS",
            help="A directory of variant files to offer as well (docs/variants.md).",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            envvar="INTERBOARD_WORKERS",
            min=1,
            max=64,
            help="Server processes sharing the port (several use all cores; see docs/deploy.md).",
        ),
    ] = 1,
    worker_healthcheck_timeout: Annotated[
        int,
        typer.Option(
            envvar="INTERBOARD_WORKER_HEALTHCHECK_TIMEOUT",
            min=1,
            max=3600,
            help="With --workers: seconds a worker process may take to answer the supervisor's health"
            " check before it is killed and replaced; a starting worker answers only once it has"
            " loaded, slowly on a loaded machine.",
        ),
    ] = 60,
    sweep: Annotated[
        float,
        typer.Option(
            min=0.01,
            max=86400,
            help="Seconds between sweeps for phases a crash left due (deadlines are met on time without it).",
        ),
    ] = 60.0,
    access_log: Annotated[
        bool,
        typer.Option(
            "--access-log/--no-access-log",
            envvar="INTERBOARD_ACCESS_LOG",
            help="A JSON line a request on standard error (off: a proxy in front keeps its own).",
        ),
    ] = True,
    rate_limits: Annotated[
        bool,
        typer.Option(
            "--rate-limits/--no-rate-limits",
            envvar="INTERBOARD_RATE_LIMITS",
            help="Rate-limit clients (429 with Retry-After); off for tests and benchmarks.",
        ),
    ] = True,
    rate_limit: Annotated[
        str,
        typer.Option(
            envvar="INTERBOARD_RATE_LIMIT",
            help="Requests per client address: RATE[:BURST] a second, or off.",
        ),
    ] = "20:60",
    token_rate_limit: Annotated[
        str,
        typer.Option(
            envvar="INTERBOARD_TOKEN_RATE_LIMIT", help="Requests per bearer token: RATE[:BURST], or off."
        ),
    ] = "10:30",
    write_rate_limit: Annotated[
        str,
        typer.Option(
            envvar="INTERBOARD_WRITE_RATE_LIMIT",
            help="Writes (not GET) per address and per token, besides the above: RATE[:BURST], or off.",
        ),
    ] = "5:20",
    games_per_hour: Annotated[
        int,
        typer.Option(
            envvar="INTERBOARD_GAMES_PER_HOUR", min=0, help="Games created per address an hour (0: no limit)."
        ),
    ] = 20,
    bot_games_per_hour: Annotated[
        int,
        typer.Option(
            envvar="INTERBOARD_BOT_GAMES_PER_HOUR",
            min=0,
            help="All-bot games created per address an hour (0: no limit).",
        ),
    ] = 3,
    press_per_minute: Annotated[
        int,
        typer.Option(
            envvar="INTERBOARD_PRESS_PER_MINUTE",
            min=0,
            help="Press messages per seat a minute (0: no limit).",
        ),
    ] = 20,
    max_in_flight: Annotated[
        int,
        typer.Option(
            envvar="INTERBOARD_MAX_IN_FLIGHT",
            min=0,
            help="Requests served at once, each counted once its body is in; past it 503 at once"
            " (0: no limit).",
        ),
    ] = 64,
    max_connections_per_address: Annotated[
        int,
        typer.Option(
            envvar="INTERBOARD_MAX_CONNECTIONS_PER_ADDRESS",
            min=0,
            help="Requests under way at once per client address, a body still arriving counted"
            " (connections busy with one); past it 429 at once (0: no limit).",
        ),
    ] = 16,
    body_timeout: Annotated[
        float,
        typer.Option(
            envvar="INTERBOARD_BODY_TIMEOUT",
            min=0,
            max=3600,
            help="Seconds a request's body may go without a byte arriving, and the time it has in all"
            " besides a second for each --body-min-rate bytes; past it 408 (0: no limit; applies"
            " with --no-rate-limits too).",
        ),
    ] = 10.0,
    body_min_rate: Annotated[
        float,
        typer.Option(
            envvar="INTERBOARD_BODY_MIN_RATE",
            min=0,
            help="Bytes a second a request's body must come at, past --body-timeout (0: no floor).",
        ),
    ] = 500.0,
    streams_per_address: Annotated[
        int,
        typer.Option(
            envvar="INTERBOARD_STREAMS_PER_ADDRESS",
            min=0,
            help="Event streams open at once per address (0: no limit).",
        ),
    ] = 4,
    max_streams: Annotated[
        int,
        typer.Option(
            envvar="INTERBOARD_MAX_STREAMS", min=0, help="Event streams open at once in all (0: no limit)."
        ),
    ] = 256,
    signups_per_hour: Annotated[
        int,
        typer.Option(
            envvar="INTERBOARD_SIGNUPS_PER_HOUR",
            min=0,
            help="Accounts made per address an hour (0: no limit).",
        ),
    ] = 10,
    sign_ins_per_minute: Annotated[
        int,
        typer.Option(
            envvar="INTERBOARD_SIGN_INS_PER_MINUTE",
            min=0,
            help="Sign-in attempts per address a minute (0: no limit).",
        ),
    ] = 10,
    smtp_host: Annotated[
        str | None,
        typer.Option(
            envvar="INTERBOARD_SMTP_HOST",
            help="SMTP server for the accounts' e-mail notices (none: no notices).",
        ),
    ] = None,
    smtp_port: Annotated[int, typer.Option(envvar="INTERBOARD_SMTP_PORT", min=1, max=65535)] = 25,
    smtp_starttls: Annotated[
        bool,
        typer.Option("--smtp-starttls", envvar="INTERBOARD_SMTP_STARTTLS", help="Use STARTTLS."),
    ] = False,
    smtp_user: Annotated[
        str | None,
        typer.Option(
            envvar="INTERBOARD_SMTP_USER",
            help="Sign in to the SMTP server as this user (password: $INTERBOARD_SMTP_PASSWORD).",
        ),
    ] = None,
    mail_from: Annotated[
        str, typer.Option(envvar="INTERBOARD_MAIL_FROM", help="The notices' From address.")
    ] = "interboard@localhost",
    warn_before: Annotated[
        int,
        typer.Option(
            envvar="INTERBOARD_WARN_BEFORE",
            min=0,
            max=30 * 86400,
            help="Seconds before a deadline that its warning is mailed (0: no warnings).",
        ),
    ] = 3600,
    public_url: Annotated[
        str,
        typer.Option(
            envvar="INTERBOARD_PUBLIC_URL",
            help="The server's address as players reach it, for links in the notices.",
        ),
    ] = "",
) -> None:
    """Run the game master: the HTTP API (and its web pages) over a database.

    The rate limits are kept in the process: several server processes each keep their own."""
    try:
        import uvicorn
        from sqlalchemy.exc import SQLAlchemyError

        from ..service.api import ENVIRONMENT, create_app, serving_config, settle_for_serving
        from ..service.coalesce import PROTOCOL
        from ..service.http import BodyTimeout
        from ..service.limits import Rate, RateLimits
        from ..service.mail import MailConfig
        from ..service.observe import log_config, metrics_shared_by_workers
        from ..service.store import default_url, open_store
        from ..service.variant_files import offer_directory, offer_kept
        from ..service.workers import CannotListen
        from ..service.workers import run as run_workers
    except ImportError as exc:
        raise fail(
            f"the server needs its extra: pip install 'interboard[server]' ({exc.name} is missing)"
        ) from exc
    url = db or default_url()
    limits = RateLimits.off()
    if rate_limits:
        try:
            limits = RateLimits(
                address=Rate.parse(rate_limit),
                token=Rate.parse(token_rate_limit),
                writes=Rate.parse(write_rate_limit),
                games_per_hour=games_per_hour or None,
                bot_games_per_hour=bot_games_per_hour or None,
                press_per_minute=press_per_minute or None,
                in_flight=max_in_flight or None,
                connections_per_address=max_connections_per_address or None,
                streams_per_address=streams_per_address or None,
                streams=max_streams or None,
                signups_per_hour=signups_per_hour or None,
                sign_ins_per_minute=sign_ins_per_minute or None,
            )
        except ValueError as exc:
            raise fail(str(exc)) from exc
    waits = BodyTimeout(body_timeout, body_min_rate or None) if body_timeout else None
    mail = None
    if smtp_host:
        # The password only from the environment: a command line is seen by every user of the machine.
        mail = MailConfig(
            host=smtp_host,
            port=smtp_port,
            sender=mail_from,
            starttls=smtp_starttls,
            user=smtp_user,
            password=os.environ.get("INTERBOARD_SMTP_PASSWORD"),
            warn_before_s=float(warn_before),
            public_url=public_url,
        )
    if variants_dir is not None and not variants_dir.is_dir():
        raise fail(f"--variants: {variants_dir} is not a directory")
    kind = url.split("://", 1)[0]
    try:
        if variants_dir is not None:
            # Said once, here, before any worker starts: the games' kept variants come first, so a
            # changed file under a kept id is the one refused.
            store = open_store(url)
            problems = offer_kept(store)
            store.dispose()
            offered, more = offer_directory(variants_dir)
            for problem in [*problems, *more]:
                typer.secho(f"warning: {problem}", fg=typer.colors.YELLOW, err=True)
            named = ", ".join(info.id for info in offered) or "none"
            typer.echo(f"variant files offered from {variants_dir}: {named}")
        if workers == 1:
            application: Any = create_app(
                url,
                sweep=sweep,
                limits=limits,
                mail=mail,
                access_log=sys.stderr if access_log else None,
                body_timeout=waits,  # the directory's files are offered in this process already
            )
            settle_for_serving()
        else:
            # Each worker process makes its app from the environment; the database is opened (and
            # migrated) here first, so that a wrong URL is said once, before any worker starts.
            open_store(url).dispose()
            os.environ[ENVIRONMENT] = serving_config(
                url, sweep, limits, mail, access_log, waits, variants_dir
            )
            application = "interboard.service.api:app_from_environment"
    except ValueError as exc:
        raise fail(str(exc)) from exc
    except SQLAlchemyError as exc:
        # The driver's own words (host, port, what refused); the URL is not repeated: it may hold
        # a password.
        raise fail(f"cannot open the {kind} database: {getattr(exc, 'orig', None) or exc}") from exc
    processes = f", {workers} processes" if workers > 1 else ""
    notices = f", e-mail notices through {smtp_host}:{smtp_port}" if mail else ""
    typer.echo(f"interboard serving on http://{host}:{port} with {kind} database{processes}{notices}")
    # JSON lines on standard error, each with its request's id; the request lines are the app's
    # own (route template, duration: AccessLog), so uvicorn's access log is off. No "Server" header:
    # it tells a client nothing it needs, an attacker the software, and costs about 1 % of a
    # seat's view in uvicorn's header handling (docs/server.md).
    options: dict[str, Any] = {
        "http": PROTOCOL,
        "log_config": log_config(),
        "access_log": False,
        "server_header": False,
    }
    if workers == 1:
        uvicorn.run(application, host=host, port=port, **options)
    else:
        # uvicorn's own 5 s killed replacement workers still loading on a loaded machine, again
        # and again, leaving the port to the others (docs/server.md, "Several processes").
        options["timeout_worker_healthcheck"] = worker_healthcheck_timeout
        try:
            with metrics_shared_by_workers():
                run_workers(application, host=host, port=port, workers=workers, **options)
        except CannotListen as exc:
            raise fail(str(exc)) from exc


app.command("render")(render_svg)
app.add_typer(scenario_app, name="scenario")
app.add_typer(variant_app, name="variant")
app.add_typer(map_app, name="map")
app.command("selfplay")(selfplay_command)


def main() -> None:
    app()


if __name__ == "__main__":
    main()
