"""The live table's tokens: who a socket plays for, signed so nobody can pick a seat.

A seat token names (guild, table, user) and a spectator token (guild, table), each with
the HMAC of the web server's :class:`~bot.web.tokens.Signer` over them (its own kind, so
no page's token opens a table). Table ids are never reused, so a token is good exactly
while its table lives: once the table is gone the socket finds no table and says so.
A token altered by one character, or made for another table, does not check.

Shapes: ``<guild>.<table>.<user>.<mac>`` (a seat) and ``<guild>.<table>.<mac>`` (the
spectators'); ids are decimal, the mac is the signer's 22 characters.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.web.tokens import TOKEN_LENGTH, Signer

SEAT, WATCH = "live-seat", "live-watch"
MAX_TOKEN = 120
"""Characters of a token at most (three 20-digit ids, dots and the mac fit well)."""


@dataclass(frozen=True, slots=True)
class Ticket:
    """Who a checked token is for: a person at a table, or (``user_id`` None) anyone
    watching it."""

    guild_id: int
    table_id: int
    user_id: int | None


def seat_token(signer: Signer, guild_id: int, table_id: int, user_id: int) -> str:
    """The token that opens ``table_id`` for ``user_id`` (his seat's view, his moves)."""
    return f"{guild_id}.{table_id}.{user_id}.{signer.token(SEAT, guild_id, table_id, user_id)}"


def watch_token(signer: Signer, guild_id: int, table_id: int) -> str:
    """The token that opens ``table_id`` for a spectator (nobody's hand)."""
    return f"{guild_id}.{table_id}.{signer.token(WATCH, guild_id, table_id)}"


def read_ticket(signer: Signer, token: object) -> Ticket | None:
    """The ticket ``token`` carries, or None when it is not one the bot made."""
    if not isinstance(token, str) or len(token) > MAX_TOKEN or not token.isascii():
        return None
    *ids, mac = token.split(".")
    if len(ids) not in (2, 3) or len(mac) != TOKEN_LENGTH:
        return None
    if not all(part.isdigit() and len(part) <= 20 for part in ids):
        return None
    numbers = [int(part) for part in ids]
    if len(numbers) == 3:
        guild, table, user = numbers
        return Ticket(guild, table, user) if signer.valid(mac, SEAT, *numbers) else None
    guild, table = numbers
    return Ticket(guild, table, None) if signer.valid(mac, WATCH, *numbers) else None
