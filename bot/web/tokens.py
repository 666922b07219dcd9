"""Signed tokens: what opens a page, so an id alone opens nothing.

Every link the bot makes carries a token, an HMAC of the page's kind and ids under a
secret of the bot's own (made once and kept in the store beside the daily deals' secret,
:mod:`bot.store.facts`). A forged token, one altered by a character, or one made for
another page (another server's, another id) does not check, and the page answers as an
unknown one. A new secret (the fact deleted: the next start makes another) makes every
earlier link expire.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

from bot.store.facts import FactStore

SECRET = "web-secret"
"""The fact holding the pages' secret (hex)."""
TOKEN_BYTES = 16
"""128 bits of the HMAC: unguessable, and 22 characters in a link."""
TOKEN_LENGTH = 22


class Signer:
    """Makes and checks the tokens of pages under one secret."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def token(self, kind: str, *ids: object) -> str:
        """The token of the page ``kind`` of these ids (a server, a match...)."""
        message = "/".join((kind, *map(str, ids))).encode()
        # The one-shot digest: OpenSSL's HMAC in one call, several times as fast as an
        # HMAC object's (a page checks one token and makes one for each link it shows).
        digest = hmac.digest(self._secret, message, hashlib.sha256)[:TOKEN_BYTES]
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()

    def valid(self, token: str, kind: str, *ids: object) -> bool:
        """Whether ``token`` is the one this page's link carries (in constant time)."""
        if len(token) != TOKEN_LENGTH or not token.isascii():
            return False
        return hmac.compare_digest(token, self.token(kind, *ids))


async def load_signer(facts: FactStore) -> Signer:
    """The signer under the bot's secret, made and stored the first time (processes
    sharing a database share it: the first one's wins)."""
    secret = await facts.setdefault(SECRET, secrets.token_hex(32))
    return Signer(bytes.fromhex(secret))
