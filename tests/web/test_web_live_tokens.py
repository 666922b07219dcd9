"""The live table's tokens: a seat's and the spectators', and what does not check."""

from __future__ import annotations

from bot.web.links import MATCH
from bot.web.live.tokens import Ticket, read_ticket, seat_token, watch_token
from bot.web.tokens import Signer

SIGNER = Signer(b"k" * 32)
OTHER = Signer(b"o" * 32)


def test_a_seat_token_names_its_person_and_a_watch_token_nobody() -> None:
    assert read_ticket(SIGNER, seat_token(SIGNER, 1, 7, 101)) == Ticket(1, 7, 101)
    assert read_ticket(SIGNER, watch_token(SIGNER, 1, 7)) == Ticket(1, 7, None)


def test_an_altered_token_opens_nothing() -> None:
    token = seat_token(SIGNER, 1, 7, 101)
    for index, char in enumerate(token):
        altered = token[:index] + ("A" if char != "A" else "B") + token[index + 1 :]
        assert read_ticket(SIGNER, altered) is None, altered


def test_another_tables_or_persons_mac_and_another_secret_do_not_check() -> None:
    mac = seat_token(SIGNER, 1, 8, 101).rsplit(".", 1)[1]
    assert read_ticket(SIGNER, f"1.7.101.{mac}") is None  # table 8's on table 7
    other_person = seat_token(SIGNER, 1, 7, 102).rsplit(".", 1)[1]
    assert read_ticket(SIGNER, f"1.7.101.{other_person}") is None
    assert read_ticket(SIGNER, seat_token(OTHER, 1, 7, 101)) is None
    # a watch token's mac does not make a seat, nor a seat's a watch
    watch_mac = watch_token(SIGNER, 1, 7).rsplit(".", 1)[1]
    assert read_ticket(SIGNER, f"1.7.101.{watch_mac}") is None
    seat_mac = seat_token(SIGNER, 1, 7, 101).rsplit(".", 1)[1]
    assert read_ticket(SIGNER, f"1.7.{seat_mac}") is None


def test_a_pages_token_opens_no_table() -> None:
    page = SIGNER.token(MATCH, 1, 7)
    assert read_ticket(SIGNER, f"1.7.{page}") is None
    assert read_ticket(SIGNER, page) is None


def test_malformed_tokens_are_refused() -> None:
    mac = "A" * 22
    for token in (
        None,
        7,
        "",
        "...",
        f"1.2.3.4.{mac}",
        f"-1.2.{mac}",
        f"1.x.{mac}",
        "é" * 30,
        f"{'9' * 21}.2.{mac}",
        "1.2." + "A" * 500,
    ):
        assert read_ticket(SIGNER, token) is None, token
