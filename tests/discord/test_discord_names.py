"""Names people chose (display names, season names) are shown as written, never as
Markdown: a heading, a masked link or ``@everyone`` in a name does not render or ping,
wherever the bot posts it (embeds, trick and score lines, standings, refusals).
Embed footers, button labels and autocomplete choices are plain text in Discord and
show the name as it is."""

from __future__ import annotations

from typing import Any

from discord.utils import escape_markdown, escape_mentions

from tests.discord.discord_harness import Interaction, play_until

HOSTILE = "# [x](http://e.vil) @everyone"
"""A display name (at most 32 characters) that would be a heading, a masked link and a
ping if it were posted as Markdown."""
SEASON = "**Loud** [win](http://e.vil) @here"


def literal(text: str) -> str:
    return escape_mentions(escape_markdown(text))


def _rendered(data: dict[str, Any]) -> list[str]:
    """What Discord renders as Markdown in a message: the content, and each embed's
    title, description and fields (not the footer, which is plain text)."""
    texts = [data.get("content") or ""]
    for embed in data.get("embeds") or []:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        for field in embed.get("fields") or []:
            texts += [field["name"], field["value"]]
    return [text for text in texts if text]


def _answer(interaction: Interaction) -> list[str]:
    return [text for call in interaction.answers for text in _rendered(_data(call.body))]


def _data(body: Any) -> dict[str, Any]:
    if isinstance(body, dict) and "type" in body and "data" in body:
        return body["data"] or {}
    return body if isinstance(body, dict) else {}


def _assert_shown_literally(texts: list[str], raw: str) -> None:
    joined = "\n".join(texts)
    shown = literal(raw)  # a "#" makes a heading only at a line's start: escaped only there
    assert shown in joined or shown.replace("\\#", "#", 1) in joined, "the name is shown"
    assert raw not in joined, "the name is shown as Markdown"
    assert "@everyone" not in joined and "@here" not in joined


async def test_a_hostile_display_name_is_shown_literally_at_the_table(harness):
    h = harness
    ann, mal = h.user("Ann"), h.user(HOSTILE)
    await h.slash(ann, "new")
    await h.slash(mal, "join")
    await h.slash(ann, "start")
    # A refusal that names the player whose turn it is.
    await play_until(h, mal, lambda view: True, others=(ann,))
    refused = await h.slash(ann, "pass")
    assert refused.ephemeral
    _assert_shown_literally(_answer(refused), HOSTILE)
    # Mal leaves: the computer playing the seat keeps the name, in every channel post.
    await h.slash(mal, "leave")

    def channel_texts() -> list[str]:
        return [text for message in h.fake.channel_posts() for text in _rendered(message)]

    # Until a trick has been posted (a first deal of Domino posts none).
    await play_until(
        h, ann, lambda view: any(post.startswith("Trick ") for post in channel_texts())
    )
    posts = channel_texts()
    _assert_shown_literally(posts, HOSTILE)
    assert any(f"{literal(HOSTILE)} left; a computer plays" in post for post in posts)
    assert any(post.startswith("Trick ") and literal(HOSTILE) in post for post in posts)


async def test_a_hostile_season_name_is_shown_literally(harness):
    h = harness
    admin = h.user("Admin", admin=True)
    started = await _season_start(h, admin, SEASON)
    assert not started.ephemeral
    _assert_shown_literally(_answer(started), SEASON)
    board = await h.slash(h.user("Ann"), "leaderboard")
    _assert_shown_literally(_answer(board), SEASON)
    nobody = await h.slash(h.user(HOSTILE), "stats")
    _assert_shown_literally(_answer(nobody), SEASON)
    unknown = await h.slash(h.user("Ann"), "leaderboard", season=SEASON + "!")
    assert unknown.ephemeral
    _assert_shown_literally(_answer(unknown), SEASON)
    ended = await _season_command(h, admin, "end")
    _assert_shown_literally(_answer(ended), SEASON)


async def _season_start(h, user, name: str) -> Interaction:
    return await _season_command(h, user, "start", name=name)


async def _season_command(h, user, sub: str, **options: Any) -> Interaction:
    group = next(c for c in h.fake.commands if c["name"] == "bonken-admin")
    season = next(o for o in group["options"] if o["name"] == "season")
    spec = next(o for o in season["options"] if o["name"] == sub)
    types = {o["name"]: o["type"] for o in spec.get("options", [])}
    inner = [{"name": k, "type": types[k], "value": v} for k, v in options.items()]
    data = {
        "id": group["id"],
        "name": "bonken-admin",
        "type": 1,
        "options": [
            {"name": "season", "type": 2, "options": [{"name": sub, "type": 1, "options": inner}]}
        ],
    }
    return await h.dispatch(h.fake.interaction_payload(2, user, data))
