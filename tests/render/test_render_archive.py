"""The finished-match service's refusals in words: every reason has its sentence, named
with the match it is about, in either language."""

from __future__ import annotations

import pytest

from bot import i18n
from bot.archive import ArchiveReason, ArchiveRefusal
from bot.render.archive import SENTENCES, refusal_text


def test_every_reason_has_its_sentence() -> None:
    assert set(SENTENCES) == set(ArchiveReason)


@pytest.mark.parametrize("language", ["en", "nl"])
def test_a_refusal_names_its_match_and_how_far_it_is(language: str) -> None:
    in_play = ArchiveRefusal("", ArchiveReason.IN_PLAY, match_id=12, deal=3, deals=11)
    unknown = ArchiveRefusal("", ArchiveReason.UNKNOWN, typed="#99x")
    with i18n.using(language):
        playing, missing = refusal_text(in_play), refusal_text(unknown)
        every = [refusal_text(ArchiveRefusal("", reason, match_id=5)) for reason in ArchiveReason]
    assert all(word in playing for word in ("12", "3", "11"))
    assert "#99x" in missing
    assert all(text and "{" not in text for text in every)


def test_the_words_are_dutch_for_a_dutch_reader() -> None:
    refusal = ArchiveRefusal("", ArchiveReason.CANCELLED, match_id=7)
    with i18n.using("nl"):
        dutch = refusal_text(refusal)
    assert dutch != refusal_text(refusal)
    assert "partij 7" in dutch
