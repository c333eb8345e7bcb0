"""The account's routes: sign up, sign in and out, the account's settings, its games and seats.

A session's token comes back in the body (for scripts: ``Authorization: Bearer``) and in an HttpOnly,
SameSite=Lax cookie (for the pages: their scripts never see it, and other sites' forms do not send
it). What they promise: ``docs/server.md``, "Accounts and notices".
"""

from __future__ import annotations

from typing import Annotated

from fastapi import FastAPI, Query, Request, Response
from fastapi import Path as FastAPIPath
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field

from .accounts import (
    EMAIL_MAX,
    EMAIL_PATTERN,
    NAME_PATTERN,
    PASSWORD_MAX,
    PASSWORD_MIN,
    SESSION_DAYS,
    UNCHANGED,
    VERIFY_DAYS,
    Account,
    AccountService,
)
from .games.views import titles
from .http import BODY_ERRORS, SESSION_COOKIE, TOKEN, GameId, SessionToken, errors
from .limits import Limiter, client_address
from .schemas import NO_NUL, Strict
from .web import _page

AccountName = Annotated[
    str,
    Field(
        min_length=2,
        max_length=32,
        pattern=NAME_PATTERN,
        description="2 to 32 letters, digits, '_', '.' or '-' (not first); case is not told apart",
    ),
]
Password = Annotated[
    str,
    Field(
        min_length=PASSWORD_MIN,
        max_length=PASSWORD_MAX,
        pattern=NO_NUL,
        description="8 to 256 characters, not one of the commonest passwords (422 saying so)",
    ),
]
GivenPassword = Annotated[
    str, Field(min_length=1, max_length=PASSWORD_MAX, pattern=NO_NUL, description="the password now")
]
Email = Annotated[str, Field(min_length=3, max_length=EMAIL_MAX, pattern=EMAIL_PATTERN)]
SeatPath = Annotated[str, FastAPIPath(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="a seat of the game")]


class SignUpBody(Strict):
    name: AccountName
    password: Password
    email: Email | None = Field(
        None, description="where notices go, once confirmed by the link mailed to it; omitted: none are sent"
    )


class SignInBody(Strict):
    name: str = Field(min_length=1, max_length=32, pattern=NO_NUL)
    password: str = Field(min_length=1, max_length=PASSWORD_MAX, pattern=NO_NUL)


class DeleteBody(Strict):
    password: GivenPassword


class AccountChangeBody(Strict):
    email: Email | None = Field(
        None,
        description="null: no e-mail (and so no notices); omitted: unchanged; a new one is unconfirmed"
        " until the link mailed to it is followed",
    )
    notices: bool | None = Field(None, description="whether e-mail notices are sent; omitted: unchanged")


class PasswordChangeBody(Strict):
    current: GivenPassword
    password: Password = Field(
        description="the new password: 8 to 256 characters, not one of the commonest (422 saying so)"
    )


class PasswordChangedBody(BaseModel):
    sessions_ended: int = Field(ge=0, le=2**31 - 1, description="the account's other sessions, ended")


class AccountBody(BaseModel):
    name: str
    email: str | None
    email_verified: bool = Field(
        description="whether the address is confirmed (its link followed): notices go only to one that is"
    )
    notices: bool


class DeletedBody(BaseModel):
    deleted: bool
    seats_left: int = Field(
        ge=0,
        le=2**31 - 1,
        description="the seats it held in games not over, now left as a player leaving leaves them",
    )


class VerificationBody(BaseModel):
    email: str = Field(description="where the confirmation message is being sent")


class SessionBody(AccountBody):
    token: str = Field(description="the session's token, for Authorization: Bearer (pages use the cookie)")


class MyGameBody(BaseModel):
    id: str
    title: str
    variant: str
    variant_title: str = Field(description="the variant's name for players")
    family_title: str = Field(description="its family's name for players (Axis & Allies, not axis_allies)")
    status: str
    phase: str
    deadline: str | None
    seats: list[str] = Field(description="the seats the account holds in the game")


class SeatTokenBody(BaseModel):
    seat: str
    token: str = Field(description="the seat's new token; its earlier one no longer works")


def _body(account: Account) -> AccountBody:
    return AccountBody(**account.to_json())


def _signed_in(request: Request, response: Response, account: Account, token: str) -> SessionBody:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=SESSION_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return SessionBody(**account.to_json(), token=token)


def install(app: FastAPI, accounts: AccountService, limiter: Limiter) -> None:
    """Add the account's routes to the API."""

    async def current(token: str | None) -> Account:
        return await run_in_threadpool(accounts.account, token)

    # No OpenAPI links from a new session: a name signed up once is taken on every later try, so
    # a client (or the stateful fuzzer replaying a sequence) could not count on following them.
    @app.post(
        "/api/accounts",
        status_code=201,
        tags=["accounts"],
        responses=errors(409, *BODY_ERRORS),
    )
    async def sign_up(body: SignUpBody, request: Request, response: Response) -> SessionBody:
        """A new account, signed in (the session's token in the body and the cookie). 409 if the
        name is taken (in any case); 422 for one of the commonest passwords; 429 past the accounts
        an address may make in an hour. An e-mail given is sent a confirmation link, and gets
        notices once it is followed."""
        checks = limiter.account_checks(client_address(request.scope), "accounts per address")
        limiter.refuse(checks)
        account, token = await run_in_threadpool(accounts.sign_up, body.name, body.password, body.email)
        limiter.charge(checks)
        return _signed_in(request, response, account, token)

    @app.post(
        "/api/session",
        tags=["accounts"],
        responses=errors(401, *BODY_ERRORS),
    )
    async def sign_in(body: SignInBody, request: Request, response: Response) -> SessionBody:
        """A new session (its token in the body and the cookie). 401 for a wrong name or password,
        the same for both; 429 past the attempts an address may make in a minute, and while the
        name is locked after failed attempts (whatever the password; an unknown name alike)."""
        checks = limiter.account_checks(client_address(request.scope), "sign-ins per address")
        limiter.refuse(checks)
        limiter.charge(checks)  # every attempt counts, the failed ones above all
        account, token = await run_in_threadpool(accounts.sign_in, body.name, body.password)
        return _signed_in(request, response, account, token)

    @app.delete("/api/session", tags=["accounts"], responses=errors(401))
    async def sign_out(token: SessionToken, response: Response) -> dict[str, bool]:
        """End the session (the cookie is cleared too). 401 without a live session's token."""
        await run_in_threadpool(accounts.sign_out, token)
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return {"signed_out": True}

    @app.get("/api/account", tags=["accounts"], responses=errors(401))
    async def account(token: SessionToken) -> AccountBody:
        """The signed-in account."""
        return _body(await current(token))

    @app.patch("/api/account", tags=["accounts"], responses=errors(401, *BODY_ERRORS))
    async def change(body: AccountChangeBody, token: SessionToken) -> AccountBody:
        """Change the account's e-mail or turn its notices off (or on). A new address is
        unconfirmed (``email_verified`` false, no notices) until the link of the message sent to it
        is followed."""
        me = await current(token)
        email = body.email if "email" in body.model_fields_set else UNCHANGED
        return _body(await run_in_threadpool(accounts.update, me, email, body.notices))

    @app.put("/api/account/password", tags=["accounts"], responses=errors(401, *BODY_ERRORS))
    async def change_password(
        body: PasswordChangeBody, request: Request, token: SessionToken
    ) -> PasswordChangedBody:
        """A new password, the current one given again (401 if it is wrong, counted like a sign-in
        attempt, per address and per name); the account's other sessions end, this one goes on."""
        checks = limiter.account_checks(client_address(request.scope), "sign-ins per address")
        limiter.refuse(checks)
        limiter.charge(checks)
        ended = await run_in_threadpool(accounts.change_password, token, body.current, body.password)
        return PasswordChangedBody(sessions_ended=ended)

    @app.delete("/api/account", tags=["accounts"], responses=errors(401, *BODY_ERRORS))
    async def delete_account(
        body: DeleteBody, request: Request, response: Response, token: SessionToken
    ) -> DeletedBody:
        """Delete the account, its password given again (401 if it is wrong, counted like a
        sign-in attempt). Its sessions end; each seat it holds in a game not over is left as its
        player leaving would leave it (to a bot or open: the game's ``on_leave``); seats in finished
        games keep their player's name. The name is free again."""
        checks = limiter.account_checks(client_address(request.scope), "sign-ins per address")
        limiter.refuse(checks)
        limiter.charge(checks)
        left = await run_in_threadpool(accounts.delete, token, body.password)
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
        return DeletedBody(deleted=True, seats_left=left)

    @app.post(
        "/api/account/email/verification",
        status_code=202,
        tags=["accounts"],
        responses=errors(401, 409),
    )
    async def verify_again(token: SessionToken) -> VerificationBody:
        """Send the confirmation message again (its earlier link stops working): 409 without an
        address, with a confirmed one, or on a server that sends no e-mail; 429 within a minute
        of the last."""
        me = await current(token)
        return VerificationBody(email=await run_in_threadpool(accounts.verify_again, me))

    @app.get("/account/verify", response_class=HTMLResponse, include_in_schema=False)
    async def verify_page(token: Annotated[str, Query(max_length=400)] = "") -> HTMLResponse:
        """The confirmation link's page: the address is confirmed by following it (once)."""
        address = await run_in_threadpool(accounts.verify_email, token) if TOKEN.fullmatch(token) else None
        if address is None:
            text = (
                "This link does not confirm any address: it was followed already, is more than"
                f" {VERIFY_DAYS} days old, or the account's address changed since. Sign in to have"
                " another sent."
            )
            return HTMLResponse(_page("verify", title="Not confirmed", message=text), status_code=404)
        text = f"{address} is confirmed: the account's notices are sent there."
        return HTMLResponse(_page("verify", title="Address confirmed", message=text))

    @app.get("/api/account/games", tags=["accounts"], responses=errors(401))
    async def my_games(token: SessionToken) -> list[MyGameBody]:
        """The games in which the account holds seats (joined, or created, while signed in), the
        newest first."""
        me = await current(token)
        out = []
        for game in await run_in_threadpool(accounts.my_games, me):
            family_title, variant_title = titles(game["variant"])
            out.append(MyGameBody(**game, family_title=family_title, variant_title=variant_title))
        return out

    @app.post(
        "/api/account/games/{game_id}/seats/{seat}/token",
        status_code=201,
        tags=["accounts"],
        responses=errors(401, 403, 404, 422),
    )
    async def seat_token(game_id: GameId, seat: SeatPath, token: SessionToken) -> SeatTokenBody:
        """A fresh token for a seat the account holds (403 if it holds no such seat): the way back
        into a seat from another browser. The seat's earlier token stops working."""
        me = await current(token)
        fresh = await run_in_threadpool(accounts.new_seat_token, me, game_id, seat)
        return SeatTokenBody(seat=seat, token=fresh)
