"""Who signed in to the Activity: the SDK's sign-in code exchanged with Discord.

Inside Discord the Activity's page asks the Embedded App SDK to ``authorize``; Discord
answers with a one-time code. The page sends it here, and only Discord can say whose it
is: the code is exchanged for an access token with the application's secret (OAuth2's
authorization-code grant) and the token read back as ``/users/@me``. The token is then
dropped: the bot keeps no Discord session, only the person's id.

A code is spent once: one seen before is refused here, before Discord is asked again
(Discord refuses it too), so a code caught in transit opens nothing twice.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from enum import Enum

import aiohttp

from bot.settings import ActivitySettings

log = logging.getLogger(__name__)

CODE_SECONDS = 600.0
"""How long a spent code is remembered: Discord's codes live ten minutes at most."""
CODES_KEPT = 10_000
"""Spent codes remembered at most (the oldest forgotten first)."""
MAX_CODE = 200
"""Characters of a code at most (Discord's are about 30)."""
TIMEOUT = aiohttp.ClientTimeout(total=10)


class SignInFailure(Enum):
    """Why nobody was signed in."""

    REFUSED = "refused"
    """Discord refused the code (unknown, expired, made for another application)."""
    SPENT = "spent"
    """The code was used before."""
    UNREACHABLE = "unreachable"
    """Discord did not answer, or answered nonsense."""


class SignInFailed(Exception):
    def __init__(self, failure: SignInFailure) -> None:
        super().__init__(failure.value)
        self.failure = failure


class SpentCodes:
    """The codes already presented, each for :data:`CODE_SECONDS`."""

    def __init__(self) -> None:
        self._seen: OrderedDict[str, float] = OrderedDict()

    def spend(self, code: str) -> bool:
        """Record ``code`` as used; False if it was used before."""
        now = time.monotonic()
        while self._seen and (
            len(self._seen) >= CODES_KEPT or now - next(iter(self._seen.values())) > CODE_SECONDS
        ):
            self._seen.popitem(last=False)
        if code in self._seen:
            return False
        self._seen[code] = now
        return True


class DiscordSignIn:
    """Exchanges a code for the id of the person it was given to (see the module)."""

    def __init__(self, settings: ActivitySettings) -> None:
        self._settings = settings
        self._spent = SpentCodes()
        self._session: aiohttp.ClientSession | None = None

    async def user_id(self, code: str) -> int:
        """The Discord id of the person ``code`` was given to; :class:`SignInFailed`
        says why not."""
        if not code or len(code) > MAX_CODE or not code.isascii() or not code.isprintable():
            raise SignInFailed(SignInFailure.REFUSED)
        if not self._spent.spend(code):
            raise SignInFailed(SignInFailure.SPENT)
        try:
            token = await self._token(code)
            return await self._me(token)
        except (TimeoutError, aiohttp.ClientError, ValueError, KeyError, TypeError) as error:
            log.warning("the Activity's sign-in could not reach Discord: %s", error)
            raise SignInFailed(SignInFailure.UNREACHABLE) from None

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession(timeout=TIMEOUT)
        return self._session

    async def _token(self, code: str) -> str:
        form = {
            "client_id": str(self._settings.client_id),
            "client_secret": self._settings.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        url = f"{self._settings.api_url}/oauth2/token"
        async with self._http().post(url, data=form) as response:
            if response.status in (400, 401):  # invalid_grant, invalid_client
                raise SignInFailed(SignInFailure.REFUSED)
            response.raise_for_status()
            body = await response.json()
        token = body["access_token"]
        if not isinstance(token, str):
            raise TypeError("access_token is not a string")
        return token

    async def _me(self, token: str) -> int:
        url = f"{self._settings.api_url}/users/@me"
        headers = {"Authorization": f"Bearer {token}"}
        async with self._http().get(url, headers=headers) as response:
            if response.status == 401:
                raise SignInFailed(SignInFailure.REFUSED)
            response.raise_for_status()
            body = await response.json()
        user = body["id"]
        if not (isinstance(user, str) and user.isascii() and user.isdigit() and len(user) <= 20):
            raise ValueError("the user's id is not a snowflake")
        return int(user)
