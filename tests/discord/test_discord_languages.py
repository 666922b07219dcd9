"""Dutch and English through the fake Discord: private replies speak the language of the
person who caused them (``locale``), channel posts the table's (the server's setting,
else ``guild_locale``, or the table's own option), and the synced commands carry Dutch.

The pseudo-locale test plays a whole match with every Dutch string marked ``⟦...⟧`` and
checks that nothing the bot sent has a word outside the marks: every text comes from
the catalogue."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot import i18n
from bot.app import command_digest
from bot.engine import Play
from bot.tables import Refusal
from bot.ui.replies import worded
from tests.discord.discord_harness import Harness, act_by_buttons, seat_state, show_hand
from tests.discord.language_helpers import Pseudo, texts_of, unmarked

SEED = 7
"""Seeds the table service's deals in the follow-suit test (any seed does)."""


def _group(h: Harness, name: str) -> dict[str, Any]:
    return next(c for c in h.fake.commands if c["name"] == name)


def _option(spec: dict[str, Any], name: str) -> dict[str, Any]:
    return next(o for o in spec["options"] if o["name"] == name)


async def _start_with_computers(h: Harness, host, **options: Any) -> None:  # type: ignore[no-untyped-def]
    await h.slash(host, "new", **options)
    await h.slash(host, "start")
    await h.idle()


async def _play_one_card(h: Harness, user) -> None:  # type: ignore[no-untyped-def]
    """Play by buttons until ``user`` has played a card (a trick line may follow)."""
    for _ in range(10):
        view, _turn = seat_state(h, user)
        if view.my_turn:
            before = view.phase
            await act_by_buttons(h, user)
            if before.name == "PLAYING":
                return
        await h.idle()
    raise AssertionError("never got to play a card")


async def test_a_dutch_player_in_an_english_server_reads_dutch_privately_and_english_posts(
    harness,
):
    h = harness
    ann = h.user("Ann", locale="nl")
    opened = await h.slash(ann, "new")
    assert "Bonken table" in opened.text  # the lobby is posted for the channel: English
    again = await h.slash(ann, "new")
    assert again.ephemeral and again.text == "⚠️ dit kanaal heeft al een Bonkentafel"
    rules = await h.slash(ann, "rules", contract="kingjacks")
    assert rules.text.startswith("**Heren en boeren**: -20 per heer en -10 per boer")
    await h.slash(ann, "start")
    await h.idle()
    hand = await show_hand(h, ann)
    assert "Potje 1 ·" in hand.text and "je zit" in hand.text
    bob = h.user("Bob")  # an English user at the same table's channel
    refused = await h.slash(bob, "hand")
    assert refused.text == "⚠️ you are not seated at this table"
    await _play_one_card(h, ann)
    await h.idle()
    posts = h.posts_text()
    assert "Deal 1 of 11" in posts and "Potje" not in posts


async def test_a_dutch_server_posts_in_dutch_to_an_english_player(harness):
    h = harness
    h.fake.guild_locale = "nl"
    ann = h.user("Ann")  # English
    opened = await h.slash(ann, "new")
    assert "Bonkentafel" in opened.text
    joined = await h.slash(ann, "join")
    assert joined.text == "⚠️ you are already seated at this table"
    await h.slash(ann, "start")
    await h.idle()
    hand = await show_hand(h, ann)
    assert "Deal 1 ·" in hand.text and "you are" in hand.text
    await _play_one_card(h, ann)
    await h.idle()
    posts = h.posts_text()
    assert "Potje 1 van 11" in posts and "Deler " in posts


async def test_the_follow_suit_refusal_names_the_suit_led_in_the_players_language(harness):
    """The engine refuses a card by its reason; the front end says which suit was led,
    in the player's words (the hand's buttons never offer the card: asked directly).

    The deals are seeded, so the match (computers and Ann's first-choice moves alike)
    reaches the same position every run: Ann to follow a suit she holds, with another."""
    h = harness
    ann = h.user("Ann", locale="nl")
    h.parts.service.lobby._rng.seed(SEED)
    await _start_with_computers(h, ann)
    for _ in range(400):
        view, _turn = seat_state(h, ann)
        if view.my_turn and view.trick:
            led = view.trick[0][1].suit
            wrong = [c for c in view.hand if c.suit is not led]
            if wrong and any(c.suit is led for c in view.hand):
                break
        if view.my_turn:
            await act_by_buttons(h, ann)
        await h.idle()
    else:
        raise AssertionError("no position where Ann could fail to follow suit")
    table = h.table()
    with pytest.raises(Refusal) as refused:
        await h.parts.service.act(table.table_id, ann.id, None, Play(wrong[0]))
    noun = {"CLUBS": "klaveren", "DIAMONDS": "ruiten", "HEARTS": "harten", "SPADES": "schoppen"}
    with i18n.using("nl"):
        said = worded(refused.value, table)
    assert said == f"je moet bekennen: je hebt nog een {noun[led.name]}"
    with i18n.using("en-GB"):
        assert worded(refused.value, table) == f"you must follow suit: you hold a {led.noun}"


async def test_the_table_option_and_the_server_setting_choose_the_posts_language(harness):
    h = harness
    ann = h.user("Ann")
    admin = h.user("Root", admin=True)
    await h.slash(ann, "new", language="nl")
    assert h.table().settings.language == "nl"
    await h.slash(ann, "cancel")
    await h.idle()
    shown = await h.admin(admin, "settings", language="nl")
    assert shown.ephemeral and "Language of the tables' posts: **Nederlands**" in shown.text
    opened = await h.slash(ann, "new")
    assert h.table().settings.language == "nl"
    assert "Bonkentafel" in opened.text


async def test_the_synced_commands_carry_dutch_names_and_descriptions(harness):
    h = harness
    bonken = _group(h, "bonken")
    assert bonken["description_localizations"]["nl"] == "Speel Bonken, het Nederlandse slagenspel"
    new = _option(bonken, "new")
    assert new["name_localizations"]["nl"] == "nieuw"
    assert _option(new, "turn_seconds")["name_localizations"]["nl"] == "beurttijd"
    level = _option(new, "computer_level")
    assert {c["value"]: c["name_localizations"]["nl"] for c in level["choices"]} == {
        "easy": "makkelijk",
        "normal": "normaal",
        "hard": "moeilijk",
    }
    contracts = _option(_option(bonken, "rules"), "contract")["choices"]
    names = {c["value"]: c.get("name_localizations", {}).get("nl", c["name"]) for c in contracts}
    assert names["ducking"] == "Bukken" and names["trump-notrump"] == "Zonder troef"
    admin = _group(h, "bonken-admin")
    assert _option(admin, "settings")["name_localizations"]["nl"] == "instellingen"


async def test_a_catalogue_change_changes_the_command_hash_so_the_commands_sync_again(harness):
    h = harness
    before = await command_digest(h.bot.tree, None)
    assert await command_digest(h.bot.tree, None) == before
    i18n.install("nl", Pseudo())
    try:
        assert await command_digest(h.bot.tree, None) != before
    finally:
        i18n.install("nl", None)


# -- the pseudo-locale: every text the bot sends comes from the catalogue -----------------


async def _time_out_twice(h: Harness, user) -> bool:  # type: ignore[no-untyped-def]
    """``user``'s turn runs out twice (what the timer task does), so a computer plays
    the seat, then the player comes back."""
    for _ in range(2):
        await h.idle()
        _view, turn = seat_state(h, user)
        assert await h.parts.service.expire_turn(h.table().table_id, turn)
    await h.idle()
    await h.slash(user, "back")
    return True


@pytest.fixture
async def pseudo(harness):
    """The harness with Dutch replaced by the pseudo-locale (after the commands synced:
    marked command names are not valid Discord names)."""
    i18n.install("nl", Pseudo())
    try:
        yield harness
    finally:
        i18n.install("nl", None)


TWELVE_HOUSE = {
    "variant": "twelve",
    "heart_lead": "broken",
    "first_lead": "dealer",
    "domino_doubling": "ace_or_two",
    "domino_aces": "either",
    "must_trump": "overtrump",
}


@pytest.mark.parametrize("rules", [{}, TWELVE_HOUSE], ids=["standard", "twelve-house-rules"])
async def test_every_text_of_a_whole_match_comes_from_the_catalogue(pseudo, rules):
    h = pseudo
    h.fake.guild_locale = "nl"
    ann = h.user("Ann", locale="nl")
    admin = h.user("Root", admin=True, locale="nl")
    await h.slash(ann, "help")
    await h.slash(ann, "rules")
    for contract in ("ducking", "hearts", "kingjacks", "domino", "trump-spades", "trump-notrump"):
        await h.slash(ann, "rules", contract=contract)
    await h.slash(ann, "hand")  # no table: a refusal with a command in it
    await h.slash(ann, "new", turn_seconds=30, **rules)
    await h.slash(ann, "rules")  # the table's own rules, its house rules
    await h.slash(ann, "rules", contract="seventhirteenth")
    await h.slash(ann, "new")  # refused: the channel has a table
    await h.slash(ann, "addbot", level="easy")
    await h.admin(admin, "settings")
    await h.slash(ann, "start")
    await h.idle()
    await h.slash(ann, "scores")  # refused: nothing scored yet
    waited = False
    while h.table() is not None:
        view, _turn = seat_state(h, ann)
        if view.my_turn and view.deal_number == 3 and not waited:
            waited = await _time_out_twice(h, ann)  # reminders, timeouts, away, and back
            continue
        if view.my_turn:
            if view.phase.name == "DOUBLING" and view.deal_number == 1:
                await h.autocomplete(ann, "double", "player")
            await act_by_buttons(h, ann)
            if view.deal_number == 2 and view.phase.name == "PLAYING":
                await h.slash(ann, "scores")
        await h.idle()
    await h.slash(ann, "record")
    await h.slash(ann, "leaderboard")
    await h.slash(ann, "stats")
    await h.idle()
    names = {"Ann", "Root", "Season 1"}  # people's names and the season's stored name
    leaks = []
    for call in h.fake.calls:
        if "/commands" in call.path:
            continue
        for text in texts_of(call.body):
            left = unmarked(text, names)
            if re.search(r"[^\W\d_]{2,}", left):
                leaks.append((text, left.strip()))
    assert not leaks, "\n".join(f"{left!r} in {text!r}" for text, left in leaks)
    assert any("⟦Trick 1:" in t for c in h.fake.calls for t in texts_of(c.body))
