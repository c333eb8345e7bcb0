"""Accounts over HTTP: sign up, in and out, seats bound to an account and got back from another
browser, and the e-mail notices, received by a local SMTP server (aiosmtpd).

The API tests run on each database of the ``db_url`` fixture (SQLite, and PostgreSQL where available).
"""

from __future__ import annotations

import fnmatch
import re
import socket
import statistics
import threading
import time
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from interboard.service.accounts import common_passwords
from interboard.service.api import RateLimits, create_app
from interboard.service.clock import utcnow
from interboard.service.errors import Unauthorized
from interboard.service.games import NewGame
from interboard.service.http import SESSION_COOKIE
from interboard.service.mail import MailConfig
from interboard.service.models import AccountRow, GameRow, SeatRow

POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""Argon2id still, but cheap: the tests hash many passwords on a shared machine."""
PASSWORD = "correct horse battery"


def app_for(db_url: str, **kw: Any) -> Any:
    kw.setdefault("limits", RateLimits.off())
    kw.setdefault("sweep", None)
    return create_app(db_url, hasher=CHEAP, **kw)


@pytest.fixture
def app(db_url: str) -> Any:
    return app_for(db_url)


def browser(app: Any) -> TestClient:
    """A client of its own: its own cookies, as another browser would have."""
    return TestClient(app)


def sign_up(client: TestClient, name: str, email: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name, "password": PASSWORD}
    if email:
        body["email"] = email
    r = client.post("/api/accounts", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Clock:
    """The accounts' clock, moved by hand."""

    def __init__(self) -> None:
        self.now = utcnow()

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def sign_in(client: TestClient, name: str, password: str) -> Any:
    return client.post("/api/session", json={"name": name, "password": password})


def test_sign_up_in_and_out(app: Any) -> None:
    with browser(app) as anna, browser(app) as other:
        r = anna.post(
            "/api/accounts", json={"name": "Anna", "password": PASSWORD, "email": "anna@example.org"}
        )
        assert r.status_code == 201, r.text
        assert r.json()["name"] == "Anna" and r.json()["email"] == "anna@example.org"
        cookie = r.headers["set-cookie"]
        assert f"{SESSION_COOKIE}=" in cookie and "HttpOnly" in cookie and "SameSite=lax" in cookie
        token = r.json()["token"]
        # The pages' cookie and a script's bearer token are the same session.
        assert anna.get("/api/account").json() == {
            "name": "Anna",
            "email": "anna@example.org",
            "email_verified": False,  # confirmed by the link mailed to it (this server sends none)
            "notices": True,
        }
        assert other.get("/api/account", headers=auth(token)).json()["name"] == "Anna"
        assert other.get("/api/account").status_code == 401

        # The name is taken, in any case; the first account is untouched.
        r = other.post("/api/accounts", json={"name": "anna", "password": "another password"})
        assert r.status_code == 409 and "taken" in r.json()["error"]

        wrong = other.post("/api/session", json={"name": "Anna", "password": "not the password"})
        unknown = other.post("/api/session", json={"name": "Nobody", "password": PASSWORD})
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.json() == unknown.json() == {"error": "wrong name or password"}
        assert wrong.headers["www-authenticate"] == "Bearer"

        r = other.post("/api/session", json={"name": "ANNA", "password": PASSWORD})
        assert r.status_code == 200 and r.json()["name"] == "Anna"
        second = r.json()["token"]
        assert second != token and other.get("/api/account").json()["name"] == "Anna"

        # Signing out ends that session only, and clears the cookie.
        r = anna.delete("/api/session")
        assert r.status_code == 200 and f'{SESSION_COOKIE}=""' in r.headers["set-cookie"]
        assert anna.get("/api/account").status_code == 401
        assert anna.get("/api/account", headers=auth(token)).status_code == 401
        assert other.get("/api/account", headers=auth(second)).status_code == 200
        assert anna.delete("/api/session").status_code == 401  # no session left to end
        assert anna.delete("/api/session", headers=auth(token)).status_code == 401


def test_a_password_change_needs_the_current_one_and_ends_the_other_sessions(app: Any) -> None:
    with browser(app) as laptop, browser(app) as phone:
        sign_up(laptop, "Bea")
        assert phone.post("/api/session", json={"name": "Bea", "password": PASSWORD}).status_code == 200
        new = "a new and longer secret"
        wrong = laptop.put("/api/account/password", json={"current": "not it at all", "password": new})
        assert wrong.status_code == 401 and wrong.json() == {"error": "the current password is wrong"}
        short = laptop.put("/api/account/password", json={"current": PASSWORD, "password": "short"})
        assert short.status_code == 422
        assert phone.get("/api/account").status_code == 200  # nothing changed yet
        r = laptop.put("/api/account/password", json={"current": PASSWORD, "password": new})
        assert r.status_code == 200 and r.json() == {"sessions_ended": 1}
        assert laptop.get("/api/account").status_code == 200  # this session goes on
        assert phone.get("/api/account").status_code == 401  # the other one ended
        assert phone.post("/api/session", json={"name": "Bea", "password": PASSWORD}).status_code == 401
        assert phone.post("/api/session", json={"name": "Bea", "password": new}).status_code == 200
        anonymous = browser(app)
        assert (
            anonymous.put("/api/account/password", json={"current": new, "password": PASSWORD}).status_code
            == 401
        )


@pytest.mark.parametrize(
    "body",
    [
        {"name": "a", "password": PASSWORD},
        {"name": "x" * 33, "password": PASSWORD},
        {"name": "has space", "password": PASSWORD},
        {"name": "_under", "password": PASSWORD},
        {"name": "anna", "password": "short"},
        {"name": "anna", "password": "p" * 257},
        {"name": "anna", "password": "nul\x00inside"},
        {"name": "anna", "password": PASSWORD, "email": "no-at-sign"},
        {"name": "anna", "password": PASSWORD, "email": "a@b\r\nBcc: c@d"},
        {"name": "anna", "password": PASSWORD, "admin": True},
    ],
)
def test_bad_sign_ups_are_refused_in_the_error_shape(body: dict[str, Any], sqlite_url: str) -> None:
    with browser(app_for(sqlite_url)) as client:
        r = client.post("/api/accounts", json=body)
        assert r.status_code == 422, r.text
        assert r.json()["error"] == "malformed request" and r.json()["details"]


def test_seats_bound_to_the_account_are_listed_and_got_back(app: Any) -> None:
    with browser(app) as laptop, browser(app) as phone, browser(app) as stranger:
        sign_up(laptop, "anna")
        sign_up(stranger, "bob")
        game = laptop.post("/api/games", json={"title": "Anna's game"}).json()
        gid = game["game_id"]
        assert game["account"] == "anna"  # no seat given to a player here: nothing bound yet
        r = laptop.post(f"/api/games/{gid}/join", json={"seat": "FRANCE", "player": "Anna"})
        assert r.status_code == 201 and r.json()["account"] == "anna"
        old = r.json()["token"]
        r = stranger.post(f"/api/games/{gid}/join", json={"seat": "ENGLAND"})
        assert r.json()["account"] == "bob"
        # A join without a session binds nothing, and a token that is no session is ignored.
        r = phone.post(f"/api/games/{gid}/join", json={"seat": "ITALY"}, headers=auth(old))
        assert r.status_code == 201 and r.json()["account"] is None

        # Creating: a malformed Authorization is refused as anywhere else, a token that is no
        # session binds nothing.
        r = phone.post("/api/games", json={}, headers={"Authorization": "Basic YTpi"})
        assert r.status_code == 401 and r.json()["error"].startswith("Authorization must be")
        r = phone.post("/api/games", json={}, headers=auth(old))
        assert r.status_code == 201 and r.json()["account"] is None
        # A game created while signed in binds the seats given to players.
        made = laptop.post("/api/games", json={"seats": {"GERMANY": "Anna", "RUSSIA": "bot"}}).json()
        assert set(made["seat_tokens"]) == {"GERMANY"}

        # Another browser, nothing stored: sign in, list the games, get back into the seat.
        r = phone.post("/api/session", json={"name": "anna", "password": PASSWORD})
        assert r.status_code == 200
        mine = phone.get("/api/account/games").json()
        assert [(g["id"], g["seats"]) for g in mine] == [(made["game_id"], ["GERMANY"]), (gid, ["FRANCE"])]
        assert mine[1]["title"] == "Anna's game" and mine[1]["status"] == "forming"
        assert mine[1]["variant_title"] == "Standard Diplomacy" and mine[1]["family_title"] == "Diplomacy"
        r = phone.post(f"/api/account/games/{gid}/seats/FRANCE/token")
        assert r.status_code == 201 and r.json()["seat"] == "FRANCE"
        fresh = r.json()["token"]
        assert phone.get(f"/api/games/{gid}/seat", headers=auth(fresh)).json()["seat"]["seat"] == "FRANCE"
        # The seat's earlier token is revoked.
        assert laptop.get(f"/api/games/{gid}/seat", headers=auth(old)).status_code == 403

        # Not the account's seats: another's, an unbound one, one that is not there, no game.
        assert phone.post(f"/api/account/games/{gid}/seats/ENGLAND/token").status_code == 403
        assert phone.post(f"/api/account/games/{gid}/seats/ITALY/token").status_code == 403
        assert phone.post(f"/api/account/games/{gid}/seats/ATLANTIS/token").status_code == 404
        assert phone.post("/api/account/games/nogame/seats/FRANCE/token").status_code == 404
        assert stranger.post(f"/api/account/games/{gid}/seats/FRANCE/token").status_code == 403
        assert TestClient(app).post(f"/api/account/games/{gid}/seats/FRANCE/token").status_code == 401

        # Leaving the seat unbinds it: it is no longer the account's to get back.
        assert phone.post(f"/api/games/{gid}/leave", headers=auth(fresh)).status_code == 200
        assert [g["id"] for g in phone.get("/api/account/games").json()] == [made["game_id"]]
        assert phone.post(f"/api/account/games/{gid}/seats/FRANCE/token").status_code == 403


def test_notices_can_be_turned_off_and_the_email_changed(app: Any) -> None:
    with browser(app) as client:
        sign_up(client, "anna", "anna@example.org")
        r = client.patch("/api/account", json={"notices": False})
        assert r.status_code == 200 and r.json() == {
            "name": "anna",
            "email": "anna@example.org",
            "email_verified": False,
            "notices": False,
        }
        r = client.patch("/api/account", json={"email": "new@example.org"})
        assert r.json() == {
            "name": "anna",
            "email": "new@example.org",
            "email_verified": False,
            "notices": False,
        }
        r = client.patch("/api/account", json={"email": None, "notices": True})
        assert r.json() == {"name": "anna", "email": None, "email_verified": False, "notices": True}
        assert client.patch("/api/account", json={"notices": "yes"}).status_code == 422
        assert TestClient(app).patch("/api/account", json={"notices": False}).status_code == 401


def test_sign_ins_and_sign_ups_are_rate_limited(sqlite_url: str) -> None:
    limits = RateLimits.off().but(sign_ins_per_minute=2, signups_per_hour=1)
    with browser(app_for(sqlite_url, limits=limits)) as client:
        sign_up(client, "anna")
        r = client.post("/api/accounts", json={"name": "bob", "password": PASSWORD})
        assert r.status_code == 429 and r.json()["details"][0]["limit"] == "accounts per address"
        for _ in range(2):
            assert (
                client.post("/api/session", json={"name": "anna", "password": "guess 1234"}).status_code
                == 401
            )
        r = client.post("/api/session", json={"name": "anna", "password": PASSWORD})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1


def test_a_body_that_is_not_json_is_a_400_on_the_account_routes(sqlite_url: str) -> None:
    """Issue 43, point 8: docs/server.md says 400 for a body that is not JSON; it is (not 422)."""
    headers = {"Content-Type": "application/json"}
    with browser(app_for(sqlite_url)) as client:
        for method, path in (("POST", "/api/accounts"), ("POST", "/api/session"), ("PATCH", "/api/account")):
            r = client.request(method, path, content=b'{"name": "anna",', headers=headers)
            assert r.status_code == 400, r.text
            assert r.json() == {
                "error": "the body is not JSON text in UTF-8",
                "details": [{"where": "body.16", "error": "JSON decode error"}],
            }
        r = client.post("/api/session", content=b'{"name": 5}', headers=headers)
        assert r.status_code == 422 and r.json()["error"] == "malformed request"


# ---------------------------------------------------------------------- guessing


def test_guesses_from_many_addresses_lock_the_name(sqlite_url: str) -> None:
    """Issue 43's case: the limit per address (10 a minute) let 4 addresses make 40 guesses in
    seconds, and the right password was then accepted at once. Failures are counted per name too:
    past 5 in a row the name is locked, for every address and whatever the password."""
    app = app_for(sqlite_url, limits=RateLimits.off().but(sign_ins_per_minute=10))
    with browser(app) as owner:
        sign_up(owner, "anna")
        refused = 0
        for k in range(4):
            with TestClient(app, client=(f"203.0.113.{k + 1}", 40000)) as guesser:
                for n in range(10):
                    r = sign_in(guesser, "anna", f"guess number {k}-{n}")
                    assert r.status_code in (401, 429), r.text
                    refused += r.status_code == 429
        assert refused >= 40 - 5  # the name locked at the fifth failure, and stayed locked
        with TestClient(app, client=("198.51.100.7", 40000)) as fifth:
            r = sign_in(fifth, "anna", PASSWORD)
            assert r.status_code == 429, r.text
            assert r.json()["details"] == [
                {"limit": "failed sign-ins of this name", "retry_after": int(r.headers["retry-after"])}
            ]
        # A lock ends no session: the owner, signed in, goes on.
        assert owner.get("/api/account").status_code == 200


def test_failed_sign_ins_lock_the_name_for_a_short_growing_while(db_url: str) -> None:
    app = app_for(db_url)
    clock = Clock()
    app.state.accounts.clock = clock
    with browser(app) as client:
        sign_up(client, "anna")
        for _ in range(4):
            assert sign_in(client, "anna", "wrong guess").status_code == 401
        assert sign_in(client, "anna", "wrong guess").status_code == 401  # the fifth locks for 1 s
        locked = sign_in(client, "anna", PASSWORD)
        assert locked.status_code == 429 and locked.headers["retry-after"] == "1"
        assert locked.json() == {
            "error": "too many failed sign-ins of this name: try again in 1 s",
            "details": [{"limit": "failed sign-ins of this name", "retry_after": 1}],
        }

        # An unknown name is counted, locked and answered the same: neither tells whether it exists.
        for _ in range(5):
            wrong = sign_in(client, "nobody", "wrong guess")
            assert wrong.status_code == 401 and wrong.json() == {"error": "wrong name or password"}
        unknown = sign_in(client, "nobody", PASSWORD)
        assert (unknown.status_code, unknown.headers["retry-after"]) == (429, "1")
        assert unknown.json() == locked.json()

        # Kept in the database: another process on it (or this one started again) sees the lock.
        other = app_for(db_url)
        other.state.accounts.clock = clock
        with browser(other) as elsewhere:
            assert sign_in(elsewhere, "ANNA", PASSWORD).status_code == 429

        # Each further failure doubles the lock: 2 s, 4 s, ... up to five minutes.
        clock.advance(1)
        assert sign_in(client, "anna", "wrong guess").status_code == 401
        clock.advance(1)
        assert sign_in(client, "anna", PASSWORD).headers["retry-after"] == "1"
        clock.advance(1)
        # The right password, once the lock is over, signs in, and the count starts again.
        assert sign_in(client, "anna", PASSWORD).status_code == 200
        for _ in range(4):
            assert sign_in(client, "anna", "wrong guess").status_code == 401
        assert sign_in(client, "anna", PASSWORD).status_code == 200

        waits = []
        for _ in range(16):
            r = sign_in(client, "somebody", "wrong guess")
            if r.status_code == 429:
                waits.append(int(r.headers["retry-after"]))
                clock.advance(waits[-1])
                r = sign_in(client, "somebody", "wrong guess")
            assert r.status_code == 401
        assert waits == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]

        # A name that fails no more for an hour is forgotten.
        assert sign_in(client, "somebody", "wrong guess").status_code == 429
        clock.advance(3601)
        for _ in range(4):
            assert sign_in(client, "somebody", "wrong guess").status_code == 401

        # A password given again (to change it, or to delete the account) is counted the same.
        for _ in range(5):
            r = client.put(
                "/api/account/password", json={"current": "wrong guess", "password": "new secret 42"}
            )
            assert r.status_code == 401
        assert sign_in(client, "anna", PASSWORD).status_code == 429


def test_an_unknown_name_takes_as_long_as_a_wrong_password(sqlite_url: str) -> None:
    """The decoy: an unknown name's password is checked against a hash as costly as a real one's."""
    costly = PasswordHasher(time_cost=2, memory_cost=16384, parallelism=1)
    app = create_app(sqlite_url, hasher=costly, limits=RateLimits.off(), sweep=None)
    with browser(app) as client:
        for name in ("anna", "bob"):
            sign_up(client, name)
        sign_in(client, "warm-up", "wrong guess")  # the decoy is made at the first unknown name
        wrong, unknown = [], []
        for k in range(4):
            for name, times in ((("anna", "bob")[k % 2], wrong), (f"ghost{k}", unknown)):
                started = time.perf_counter()
                assert sign_in(client, name, "wrong guess").status_code == 401
                times.append(time.perf_counter() - started)
        ratio = statistics.median(unknown) / statistics.median(wrong)
        assert 1 / 3 < ratio < 3, (wrong, unknown)  # without the decoy: a twentieth


def test_a_new_password_is_not_one_of_the_commonest_but_old_ones_still_sign_in(db_url: str) -> None:
    app = app_for(db_url)
    with browser(app) as client:
        for common in ("password123", "Qwertyuiop", " iloveyou1 ", "11111111", "Liverpool123"):
            r = client.post("/api/accounts", json={"name": "anna", "password": common})
            assert r.status_code == 422, (common, r.text)
            assert r.json() == {
                "error": "that password is one of the commonest, among the first anyone guessing tries:"
                " choose another",
                "details": [{"where": "body.password", "error": "one of the commonest passwords"}],
            }
        sign_up(client, "anna")
        r = client.put("/api/account/password", json={"current": PASSWORD, "password": "Password1"})
        assert r.status_code == 422 and r.json()["details"][0]["where"] == "body.password"
        assert sign_in(client, "anna", PASSWORD).status_code == 200  # unchanged

        # Accounts made before these rules (a short password, a common one) still sign in.
        with Session(app.state.accounts.engine) as s:
            for name, old in (("old", "abc"), ("older", "password")):
                s.add(
                    AccountRow(
                        name=name,
                        name_key=name,
                        password_hash=CHEAP.hash(old),
                        notices=True,
                        created_at=utcnow(),
                    )
                )
            s.commit()
        assert sign_in(client, "old", "abc").status_code == 200
        assert sign_in(client, "older", "password").status_code == 200


def test_the_common_passwords_ship_with_the_package() -> None:
    """The list is package data: read from the installed package, and named by the build's
    configuration, so that a wheel carries it."""
    assert "password123" in common_passwords() and 500 <= len(common_passwords()) <= 1000
    assert all(len(p) >= 8 for p in common_passwords())
    config = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["interboard.service"]
    assert any(fnmatch.fnmatch("data/common_passwords.txt", p) for p in patterns)


# ---------------------------------------------------------------------- deleting an account


def seat_kinds(client: TestClient, gid: str) -> dict[str, tuple[str, str]]:
    return {s["seat"]: (s["kind"], s["player"]) for s in client.get(f"/api/games/{gid}").json()["seats"]}


def delete_account(client: TestClient, password: str, **kw: Any) -> Any:
    return client.request("DELETE", "/api/account", json={"password": password}, **kw)


def test_an_account_is_deleted_with_its_password_and_its_seats_are_left(db_url: str) -> None:
    app = app_for(db_url)
    with browser(app) as laptop, browser(app) as phone, browser(app) as bob:
        sign_up(laptop, "anna")
        assert sign_in(phone, "anna", PASSWORD).status_code == 200
        sign_up(bob, "bob")
        # An active game (a bot takes a seat whose player leaves), a forming one (the seat opens),
        # a finished one (the seat keeps its player's name).
        seats = {p: "bot" for p in POWERS[2:]} | {"AUSTRIA": "Anna"}
        active = laptop.post("/api/games", json={"seats": seats}).json()
        assert bob.post(f"/api/games/{active['game_id']}/join", json={"seat": "ENGLAND"}).status_code == 201
        forming = laptop.post("/api/games", json={"seats": {"FRANCE": "Anna"}}).json()
        over = laptop.post("/api/games", json={"seats": {p: "bot" for p in POWERS[1:]} | {"AUSTRIA": "Anna"}})
        over_id = over.json()["game_id"]
        with Session(app.state.accounts.engine) as s:
            s.execute(update(GameRow).where(GameRow.id == over_id).values(status="finished"))
            s.commit()
        assert len(laptop.get("/api/account/games").json()) == 3

        assert delete_account(TestClient(app), PASSWORD).status_code == 401  # no session
        wrong = delete_account(laptop, "not the password")
        assert wrong.status_code == 401 and wrong.json() == {"error": "the current password is wrong"}
        assert laptop.get("/api/account").status_code == 200  # nothing changed

        r = delete_account(laptop, PASSWORD)
        assert r.status_code == 200 and r.json() == {"deleted": True, "seats_left": 2}
        assert f'{SESSION_COOKIE}=""' in r.headers["set-cookie"]
        # Every session ended; the name and password no longer sign in.
        assert laptop.get("/api/account").status_code == 401
        assert phone.get("/api/account").status_code == 401
        assert sign_in(phone, "anna", PASSWORD).status_code == 401

        # The seats: left as their player leaving leaves them; their tokens hold nothing.
        gid = active["game_id"]
        assert seat_kinds(bob, gid)["AUSTRIA"][0] == "bot"
        assert seat_kinds(bob, gid)["ENGLAND"] == ("player", "ENGLAND")  # another's seat is untouched
        assert (
            bob.get(f"/api/games/{gid}/seat", headers=auth(active["seat_tokens"]["AUSTRIA"])).status_code
            == 403
        )
        assert seat_kinds(bob, forming["game_id"])["FRANCE"] == ("open", "")
        assert seat_kinds(bob, over_id)["AUSTRIA"] == ("player", "Anna")
        with Session(app.state.accounts.engine) as s:
            assert s.scalars(select(SeatRow.account_id).where(SeatRow.game_id == over_id)).all() == [None] * 7

        # The name is free again, for a new account with nothing of the old one's.
        sign_up(phone, "anna")
        assert phone.get("/api/account/games").json() == []


def test_a_seat_is_not_bound_to_an_account_deleted_meanwhile(sqlite_url: str) -> None:
    """A join (or a creation) that read the session before the account was deleted: 401, as for an
    ended session, not a 500 from the seat's foreign key."""
    app = app_for(sqlite_url)
    with browser(app) as client:
        gid = client.post("/api/games", json={}).json()["game_id"]
        service = app.state.service
        with pytest.raises(Unauthorized):
            service.join(gid, "FRANCE", "Gone", account_id=12345)
        with pytest.raises(Unauthorized):
            service.create(NewGame(seats={"FRANCE": "Gone"}), account_id=12345)
        assert seat_kinds(client, gid)["FRANCE"] == ("open", "")


# ---------------------------------------------------------------------- e-mail notices


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Inbox:
    """What the test's SMTP server received: (envelope recipients, the message)."""

    mails: list[tuple[list[str], Message]] = field(default_factory=list)
    arrived: threading.Condition = field(default_factory=threading.Condition)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.arrived:
            self.mails.append((list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
            self.arrived.notify_all()
        return "250 OK"

    def wait_for(self, count: int, timeout: float = 10.0) -> list[tuple[list[str], Message]]:
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.mails) >= count, timeout)
            return list(self.mails)

    def wait_until(
        self, ready: Callable[[list[tuple[list[str], Message]]], bool], timeout: float = 10.0
    ) -> list[tuple[list[str], Message]]:
        with self.arrived:
            self.arrived.wait_for(lambda: ready(self.mails), timeout)
            return list(self.mails)

    def clear(self) -> None:
        with self.arrived:
            self.mails.clear()

    def subjects(self, to: str) -> list[str]:
        return [str(m["Subject"]) for rcpt, m in self.mails if rcpt == [to]]


CONFIRM = "Confirm your e-mail address for interboard"
LINK = re.compile(r"(?:https?://[^/\s]+)?(/account/verify\?token=[A-Za-z0-9_-]+)")


def body_of(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


def confirmation_link(inbox: Inbox, address: str, after: int = 0) -> str:
    """The path of the link in the (``after``+1)-th confirmation message sent to ``address``."""

    def confirmations(mails: list[tuple[list[str], Message]]) -> list[Message]:
        return [m for rcpt, m in mails if rcpt == [address] and str(m["Subject"]) == CONFIRM]

    found = confirmations(inbox.wait_until(lambda mails: len(confirmations(mails)) > after))
    assert len(found) > after, f"no confirmation message for {address}"
    match = LINK.search(body_of(found[after]))
    assert match is not None, body_of(found[after])
    return match.group(1)


def confirm(client: Any, inbox: Inbox, address: str) -> None:
    """Follow the link of the confirmation message sent to ``address``."""
    r = client.get(confirmation_link(inbox, address))
    assert r.status_code == 200 and f"{address} is confirmed" in r.text, r.text


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


def test_notices_by_email(db_url: str, smtp: tuple[Inbox, int]) -> None:
    inbox, port = smtp
    mail = MailConfig(host="127.0.0.1", port=port, sender="gm@example.org", public_url="https://play.example")
    app = app_for(db_url, mail=mail)
    with browser(app) as anna, browser(app) as bob, browser(app) as quiet, browser(app) as gm:
        assert anna.get("/api/server").json() == {"mail": True}  # the lobby offers the notices
        sign_up(anna, "anna", "anna@example.org")
        sign_up(bob, "bob", "bob@example.org")
        sign_up(quiet, "quiet", "quiet@example.org")
        for client, address in (
            (anna, "anna@example.org"),
            (bob, "bob@example.org"),
            (quiet, "quiet@example.org"),
        ):
            confirm(client, inbox, address)
        quiet.patch("/api/account", json={"notices": False})
        # An address not confirmed gets no notice, whatever it holds.
        sign_up(gm, "unconfirmed", "unconfirmed@example.org")
        confirmation_link(inbox, "unconfirmed@example.org")
        inbox.clear()
        gid = gm.post("/api/games", json={"title": "Notice me", "deadlines": {"movement": 7200}}).json()[
            "game_id"
        ]
        tokens = {}
        for seat, client in zip(POWERS, [anna, bob, quiet, gm, gm, gm, gm], strict=True):
            tokens[seat] = client.post(f"/api/games/{gid}/join", json={"seat": seat}).json()["token"]
        service = app.state.service

        # Press: the recipients' accounts, not the sender's, and not one with notices off.
        r = anna.post(
            f"/api/games/{gid}/messages",
            headers=auth(tokens["AUSTRIA"]),
            json={"to": ["ENGLAND", "FRANCE"], "body": "Shall we?"},
        )
        assert r.status_code == 201
        mails = inbox.wait_for(1)
        time.sleep(0.3)  # a second (wrong) notice would have arrived by now
        assert len(inbox.mails) == 1
        rcpt, message = mails[0]
        assert rcpt == ["bob@example.org"]
        assert message["Subject"] == "Notice me: a message from AUSTRIA"
        assert message["From"] == "gm@example.org"
        body = message.get_payload(decode=True).decode()
        assert "Shall we?" in body and f"https://play.example/games/{gid}" in body

        # The deadline nears: told once for the phase, by whichever look finds it first.
        service.clock = lambda: utcnow() + timedelta(hours=1, minutes=30)
        assert service.warn_deadlines() == [gid]
        assert service.warn_deadlines() == []
        inbox.wait_for(3)
        assert inbox.subjects("anna@example.org") == ["Notice me: S1901M ends in 120 min"] or inbox.subjects(
            "anna@example.org"
        ) == ["Notice me: S1901M ends in 119 min"]
        assert len(inbox.subjects("bob@example.org")) == 2
        service.clock = utcnow

        # The phase processed: every account with a seat and notices on.
        assert service.try_process(gid, force=True)
        inbox.wait_for(5)
        assert inbox.subjects("anna@example.org")[-1] == "Notice me: S1901M processed"
        assert inbox.subjects("bob@example.org")[-1] == "Notice me: S1901M processed"
        time.sleep(0.3)
        assert inbox.subjects("quiet@example.org") == []
        assert inbox.subjects("unconfirmed@example.org") == []
        assert len(inbox.mails) == 5


def test_the_scheduler_warns_before_a_deadline_and_a_dead_mail_server_breaks_nothing(
    sqlite_url: str, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp
    # Warned 2 s before a 4 s deadline: the scheduler wakes for it (no request does anything).
    mail = MailConfig(host="127.0.0.1", port=port, warn_before_s=2.0)
    app = app_for(sqlite_url, mail=mail, sweep=60.0)
    with browser(app) as anna:
        sign_up(anna, "anna", "anna@example.org")
        confirm(anna, inbox, "anna@example.org")
        inbox.clear()
        made = anna.post(
            "/api/games",
            json={
                "deadlines": {"movement": 4},
                "seats": {p: "bot" for p in POWERS[1:]} | {"AUSTRIA": "Anna"},
            },
        ).json()
        started = time.monotonic()
        mails = inbox.wait_for(1, timeout=15)
        assert "S1901M ends in" in str(mails[0][1]["Subject"]) and mails[0][0] == ["anna@example.org"]
        assert 1.0 <= time.monotonic() - started <= 4.0
        assert "S1901M processed" in str(inbox.wait_for(2, timeout=15)[1][1]["Subject"])

    # No mail server there: the requests and the processing go on; the failure is only logged.
    dead = MailConfig(host="127.0.0.1", port=free_port())
    app = app_for(sqlite_url, mail=dead)
    with browser(app) as anna:
        assert anna.post("/api/session", json={"name": "anna", "password": PASSWORD}).status_code == 200
        token = anna.post(f"/api/account/games/{made['game_id']}/seats/AUSTRIA/token").json()["token"]
        r = anna.post(f"/api/games/{made['game_id']}/messages", headers=auth(token), json={"body": "hello"})
        assert r.status_code == 201
        assert app.state.service.try_process(made["game_id"], force=True)


def test_serve_sends_notices_once_from_two_processes(tmp_path: Any, smtp: tuple[Inbox, int]) -> None:
    """``interboard serve --smtp-host ... --workers 2``: the options reach each worker, and a phase
    processed by either is told once."""
    from .test_server_process import NO_LIMITS, Servers

    inbox, port = smtp
    group = Servers(tmp_path)
    mail_args = ("--smtp-host", "127.0.0.1", "--smtp-port", str(port), "--mail-from", "gm@example.org")
    try:
        server = group.start(
            f"sqlite:///{tmp_path / 'serve.sqlite'}", args=(*NO_LIMITS, "--workers", "2", *mail_args)
        )
        with server.client() as client:
            r = client.post(
                "/api/accounts", json={"name": "anna", "password": PASSWORD, "email": "a@example.org"}
            )
            assert r.status_code == 201, r.text
            confirm(client, inbox, "a@example.org")
            inbox.clear()
            seats = {p: "bot" for p in POWERS[1:]} | {"AUSTRIA": "Anna"}
            r = client.post(
                "/api/games", json={"title": "Served", "seats": seats, "deadlines": {"movement": 1}}
            )
            assert r.status_code == 201 and r.json()["account"] == "anna"
            mails = inbox.wait_for(1, timeout=20)
            assert [(rcpt, str(m["Subject"]), str(m["From"])) for rcpt, m in mails[:1]] == [
                (["a@example.org"], "Served: S1901M processed", "gm@example.org")
            ]
            # F1901M also has a 1 s deadline: its notice comes, and still one a phase.
            mails = inbox.wait_for(2, timeout=20)
            time.sleep(0.5)
            subjects = [str(m["Subject"]) for _, m in inbox.mails]
            assert len(subjects) == len(set(subjects)), subjects
    finally:
        group.stop_all()


def test_an_address_is_confirmed_before_any_notice_is_sent_to_it(
    db_url: str, smtp: tuple[Inbox, int]
) -> None:
    inbox, port = smtp
    mail = MailConfig(host="127.0.0.1", port=port, public_url="https://play.example")
    app = app_for(db_url, mail=mail)
    clock = Clock()
    app.state.accounts.clock = clock
    with browser(app) as anna, browser(app) as gm, browser(app) as stranger:
        sign_up(anna, "anna", "anna@example.org")
        # One message, with a link; the address is not confirmed until it is followed.
        rcpt, message = inbox.wait_for(1)[0]
        assert rcpt == ["anna@example.org"] and message["Subject"] == CONFIRM
        assert "https://play.example/account/verify?token=" in body_of(message)
        assert anna.get("/api/account").json()["email_verified"] is False
        seats = {p: "bot" for p in POWERS[1:]} | {"AUSTRIA": "Anna"}
        gid = anna.post("/api/games", json={"seats": seats, "title": "Told"}).json()["game_id"]
        service = app.state.service
        assert service.try_process(gid, force=True)
        time.sleep(0.5)
        assert len(inbox.mails) == 1  # no notice to an address not confirmed

        # Followed (by anyone: the token is the proof), the address is confirmed; once.
        link = confirmation_link(inbox, "anna@example.org")
        page = stranger.get(link)
        assert page.status_code == 200 and "anna@example.org is confirmed" in page.text
        assert "text/html" in page.headers["content-type"]
        assert anna.get("/api/account").json()["email_verified"] is True
        again = stranger.get(link)
        assert again.status_code == 404 and "does not confirm any address" in again.text
        assert stranger.get("/account/verify?token=not-a-token!").status_code == 404
        assert stranger.get("/account/verify").status_code == 404
        assert service.try_process(gid, force=True)
        assert inbox.wait_for(2)[1][1]["Subject"] == "Told: F1901M processed"

        # The same address given again changes nothing; a new one is unconfirmed, and told once.
        r = anna.patch("/api/account", json={"email": "anna@example.org"})
        assert r.json()["email_verified"] is True
        r = anna.patch("/api/account", json={"email": "new@example.org"})
        assert r.json()["email"] == "new@example.org" and r.json()["email_verified"] is False
        first = confirmation_link(inbox, "new@example.org")
        # Asking for another message: not within a minute of the last.
        r = anna.post("/api/account/email/verification")
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        clock.advance(120)  # the accounts' clock; the link's was the real one
        r = anna.post("/api/account/email/verification")
        assert r.status_code == 202 and r.json() == {"email": "new@example.org"}
        second = confirmation_link(inbox, "new@example.org", after=1)
        assert stranger.get(first).status_code == 404  # the earlier link stopped working
        assert gm.get(second).status_code == 200
        assert anna.post("/api/account/email/verification").status_code == 409  # confirmed already
        assert TestClient(app).post("/api/account/email/verification").status_code == 401

        # A link is good for a week.
        anna.patch("/api/account", json={"email": "later@example.org"})
        late = confirmation_link(inbox, "later@example.org")
        clock.advance(8 * 86400)
        assert stranger.get(late).status_code == 404
        assert anna.patch("/api/account", json={"email": None}).json()["email_verified"] is False
        assert anna.post("/api/account/email/verification").status_code == 409  # no address
    assert inbox.subjects("new@example.org") == [CONFIRM, CONFIRM]


def test_a_server_without_mail_keeps_the_address_unconfirmed(sqlite_url: str) -> None:
    with browser(app_for(sqlite_url)) as client:
        sign_up(client, "anna", "anna@example.org")
        r = client.post("/api/account/email/verification")
        assert r.status_code == 409 and r.json() == {"error": "this server sends no e-mail"}


def test_queued_notices_are_sent_after_a_restart_each_once(db_url: str, smtp: tuple[Inbox, int]) -> None:
    """Issue 43, point 5: notices queued by a server that stopped before sending them are sent by
    the next one, each once, even with two processes sending at once."""
    inbox, port = smtp
    mail = MailConfig(host="127.0.0.1", port=port)
    first = app_for(db_url, mail=mail)
    with browser(first) as anna, browser(first) as bob:
        sign_up(anna, "anna", "anna@example.org")
        sign_up(bob, "bob", "bob@example.org")
        confirm(anna, inbox, "anna@example.org")
        confirm(bob, inbox, "bob@example.org")
        seats = {p: "bot" for p in POWERS[2:]} | {"AUSTRIA": "Anna", "ENGLAND": "open"}
        made = anna.post(
            "/api/games", json={"seats": seats, "title": "Kept", "deadlines": {"movement": 7200}}
        )
        gid, token = made.json()["game_id"], made.json()["seat_tokens"]["AUSTRIA"]
        assert bob.post(f"/api/games/{gid}/join", json={"seat": "ENGLAND"}).status_code == 201
    inbox.clear()

    # A server whose mail thread never runs (stopped before it sent anything): notices are queued.
    stopped = app_for(db_url, mail=mail)
    service = stopped.state.service
    assert service.try_process(gid, force=True)
    service.clock = lambda: utcnow() + timedelta(hours=1, minutes=30)
    assert service.warn_deadlines() == [gid]
    service.clock = utcnow
    client = TestClient(stopped)  # no lifespan: its mail thread is never started
    r = client.post(f"/api/games/{gid}/messages", headers=auth(token), json={"body": "Hi all"})
    assert r.status_code == 201
    time.sleep(0.5)
    assert inbox.mails == []
    assert stopped.state.mailer.waiting() == 3  # a message, a deadline, a phase processed
    service.engine.dispose()

    # Two servers start on the database (two processes): each notice is sent, once.
    expected = sorted(
        [
            (["bob@example.org"], "Kept: a message from AUSTRIA"),
            (["anna@example.org"], "Kept: F1901M ends in 120 min"),
            (["bob@example.org"], "Kept: F1901M ends in 120 min"),
            (["anna@example.org"], "Kept: S1901M processed"),
            (["bob@example.org"], "Kept: S1901M processed"),
        ]
    )
    second, third = app_for(db_url, mail=mail), app_for(db_url, mail=mail)
    with browser(second), browser(third):
        inbox.wait_for(5, timeout=20)
        time.sleep(0.5)  # a second copy would have come by now
        got = sorted((rcpt, str(m["Subject"]).replace("119 min", "120 min")) for rcpt, m in inbox.mails)
        assert got == expected
        assert second.state.mailer.waiting() == 0
        assert second.state.mailer.sent + third.state.mailer.sent == 5
