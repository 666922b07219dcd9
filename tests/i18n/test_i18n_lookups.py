"""A message's words are looked up in its language's catalogue once and then kept: the
same words as the catalogue's every time, per language and context, and forgotten when
a catalogue is replaced (a test's pseudo-locale)."""

from __future__ import annotations

import gettext

from bot import i18n
from bot.i18n.extract import CONTRACT


class Marked(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return f"[{message}]"

    def pgettext(self, context: str, message: str) -> str:
        return f"[{context}|{message}]"


def test_words_looked_up_again_are_the_catalogues_in_each_language_and_context() -> None:
    for _round in range(2):  # the second time from what was kept
        for language in i18n.LANGUAGES:
            catalogue = i18n.translations(language)
            with i18n.using(language):
                assert i18n._("Player") == catalogue.gettext("Player")
                words = catalogue.pgettext(CONTRACT, "Ducking")
                assert i18n.pgettext(CONTRACT, "Ducking") == words
                assert i18n._("{seat} bot", seat="X") == catalogue.gettext("{seat} bot").format(
                    seat="X"
                )
    with i18n.using("nl"):  # a context's words are its own, not the bare message's
        assert (i18n.pgettext(CONTRACT, "Ducking"), i18n._("Ducking")) == ("Bukken", "Ducking")
        assert i18n._("Player") == "Speler"
    with i18n.using("en"):
        assert (i18n.pgettext(CONTRACT, "Ducking"), i18n._("Player")) == ("Ducking", "Player")


def test_a_catalogue_installed_after_a_lookup_gives_its_own_words() -> None:
    with i18n.using("nl"):
        assert (i18n._("Player"), i18n.pgettext(CONTRACT, "Ducking")) == ("Speler", "Bukken")
        i18n.install("nl", Marked())
        try:
            assert i18n._("Player") == "[Player]"
            assert i18n.pgettext(CONTRACT, "Ducking") == f"[{CONTRACT}|Ducking]"
        finally:
            i18n.install("nl", None)
        assert (i18n._("Player"), i18n.pgettext(CONTRACT, "Ducking")) == ("Speler", "Bukken")
    with i18n.using("en"):
        assert i18n._("Player") == "Player"
