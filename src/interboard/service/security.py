"""Secret tokens for the game master and for each seat, stored only as hashes.

Tokens are 256 random bits, so a fast hash (SHA-256) is enough: there is nothing to brute-force
that a slow password hash would protect.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    return stored_hash is not None and hmac.compare_digest(hash_token(token), stored_hash)
