"""Every word the pictures show, in one place, so a translation has one table to fill.

Pictures carry few words: the seat roles, a deal's heading, the chart's axis. Names of
players and contracts come from elsewhere (the seats, :func:`~bot.engine.contract_name`).
"""

from __future__ import annotations

LABELS: dict[str, str] = {
    "deal": "Deal {number} of {deals}",
    "choosing": "contract being chosen",
    "dealer_chip": "D",
    "last_trick": "Last trick",
    "tricks": "{count} tricks",
    "trick": "1 trick",
    "cards": "{count} cards",
    "card": "1 card",
    "out": "out {place}",
    "total": "total {total}",
    "deal_over": "Deal over",
    "doubled": "{a} × {b}",
    "redoubled": "{a} ×× {b}",
    "chart_title": "The match, deal by deal",
}
ORDINALS = ("1st", "2nd", "3rd", "4th")
"""Places for "out {place}" in Domino."""


def label(key: str, **values: object) -> str:
    """The words for ``key`` with ``values`` filled in."""
    return LABELS[key].format(**values)


def count_label(singular: str, plural: str, count: int) -> str:
    """ "1 trick", "3 tricks": the singular key for one, else the plural with the count."""
    return label(singular) if count == 1 else label(plural, count=count)


def signed(value: int) -> str:
    """A score with its sign, the minus a real one (U+2212), as pictures print it."""
    return "0" if value == 0 else f"{value:+d}".replace("-", "\u2212")
