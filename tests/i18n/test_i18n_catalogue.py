"""The catalogues: Dutch has every message of the template, translated, with the same
placeholders and plural forms; the template is what the code says today; the words the
players use for the contracts and the cards."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po

from bot import i18n
from bot.engine import CONTRACTS, Card
from bot.render import text
from bot.render.reasons import SENTENCES, reasons

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = i18n.LOCALES / "bonken.pot"
EXTRACT = ["pybabel", "-q", "extract", "-F", str(ROOT / "babel.cfg"), "-k", "N_", "-k", "NP_:1c,2"]
EXTRACT += ["--no-location"]
"""``pybabel extract`` as ``docs/translating.md`` runs it."""
PLACEHOLDER = re.compile(r"\{(\w*)[^{}]*\}")


def _catalogue(path: Path):  # type: ignore[no-untyped-def]
    with path.open("rb") as po:
        return read_po(po)


def _key(message) -> tuple[str | None, str]:  # type: ignore[no-untyped-def]
    msgid = message.id[0] if isinstance(message.id, tuple) else message.id
    return message.context, msgid


def _placeholders(string: str) -> set[str]:
    return set(PLACEHOLDER.findall(string))


def test_dutch_has_every_message_of_the_template_translated_with_the_same_placeholders():
    template = _catalogue(TEMPLATE)
    dutch = {_key(m): m for m in _catalogue(i18n.LOCALES / "nl/LC_MESSAGES/bonken.po") if m.id}
    assert len(template) > 300
    for message in template:
        if not message.id:
            continue
        key = _key(message)
        assert key in dutch, f"nl lacks {key}"
        translated = dutch[key]
        assert not translated.fuzzy, f"nl {key} is fuzzy"
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = (
            translated.string if isinstance(translated.string, tuple) else (translated.string,)
        )
        assert len(strings) == len(ids), f"nl {key} has {len(strings)} forms"
        for string in strings:
            assert string.strip(), f"nl {key} is empty"
            assert _placeholders(string) == _placeholders(ids[-1]), f"nl {key}: {string!r}"


def test_the_template_holds_exactly_what_the_code_says(tmp_path):
    """Re-extracting the code gives the committed template: no string added in the code
    is missing from the catalogue, none is left that the code no longer says."""
    fresh = tmp_path / "fresh.pot"
    CommandLineInterface().run([*EXTRACT, "-o", str(fresh), str(ROOT)])
    assert {_key(m) for m in _catalogue(fresh)} == {_key(m) for m in _catalogue(TEMPLATE)}


def test_every_refusal_reason_has_its_sentence():
    assert set(reasons()) <= set(SENTENCES)


def test_the_contracts_and_cards_by_the_names_dutch_players_use():
    with i18n.using("nl"):
        names = {cid: text.contract_name(cid) for cid in CONTRACTS}
        assert names == {
            "ducking": "Bukken",
            "hearts": "Hartenjagen",
            "kingjacks": "Heren en boeren",
            "queens": "Vrouwen",
            "kingofhearts": "Hartenheer",
            "lasttrick": "Laatste slag",
            "domino": "Domino",
            "trump-clubs": "Klaveren",
            "trump-diamonds": "Ruiten",
            "trump-hearts": "Harten",
            "trump-spades": "Schoppen",
            "trump-notrump": "Zonder troef",
        }
        # The house rules' contract, ahead of its branch: translated by its English name.
        assert i18n.pgettext("contract", "7th and 13th trick") == "Zevende en dertiende slag"
        assert text.cards_text([Card.parse("JC"), Card.parse("QH"), Card.parse("KS")]) == "B♣ V♥ H♠"
        assert text.tricks(1) == "1 slag" and text.tricks(2) == "2 slagen"
    assert text.contract_name("ducking") == "Ducking" and text.tricks(2) == "2 tricks"


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        ("nl", "nl"),
        ("en-GB", "en"),
        ("en-US", "en"),
        ("fr", "en"),
        ("nl_NL.UTF-8", "nl"),
        (None, "en"),
    ],
)
def test_a_discord_or_system_locale_picks_the_bots_language(locale, language):
    assert i18n.language_of(locale) == language


def test_no_message_hides_inside_an_f_string_where_extraction_cannot_see_it():
    """``f"{_('doubled')}"`` is one string token to Babel's extractor: its message never
    reaches the catalogue, so the Dutch reader gets English. Call ``_`` outside."""
    import io
    import re
    import tokenize
    from pathlib import Path

    hidden = re.compile(r"""\{[^{}]*\b(?:_|ngettext|pgettext)\(\s*['"]""")
    found = []
    root = Path(__file__).resolve().parents[2]
    for path in [*root.glob("bot/**/*.py"), *root.glob("cogs/**/*.py")]:
        tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        for token in tokens:
            text = token.string
            is_f_string = token.type == tokenize.STRING and text.lstrip("rbuRBU")[:1] in "fF"
            if is_f_string and hidden.search(text):
                found.append(f"{path.relative_to(root)}:{token.start[0]}: {text[:60]}")
    assert not found, "\n".join(found)
