"""Every word the pictures show, in one place, from the catalogue.

Pictures carry few words: the seat roles, a deal's heading, the chart's axis. Names of
players and contracts come from elsewhere (the seats, :func:`bot.render.text.contract_name`).
A picture is drawn in its scene's language (:func:`drawn_in`), since it is drawn in a
worker thread, away from the caller's current language, and cached per scene.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Protocol, TypeVar

from bot import i18n
from bot.i18n import N_, _, ngettext

LABELS: dict[str, str] = {
    "deal": N_("Deal {number} of {deals}"),
    "choosing": N_("contract being chosen"),
    "dealer_chip": N_("D"),
    "last_trick": N_("Last trick"),
    "out": N_("out {place}"),
    "total": N_("total {total}"),
    "deal_over": N_("Deal over"),
    "doubled": N_("{a} × {b}"),
    "redoubled": N_("{a} ×× {b}"),
    "chart_title": N_("The match, deal by deal"),
    "after_doubling": N_("{score} after doubling"),
}
ORDINALS = (N_("1st"), N_("2nd"), N_("3rd"), N_("4th"))
"""Places for "out {place}" in Domino."""


def label(key: str, **values: object) -> str:
    """The words for ``key`` in the current language, with ``values`` filled in."""
    return _(LABELS[key], **values)


def tricks_label(count: int) -> str:
    return ngettext("{n} trick", "{n} tricks", count)


def cards_label(count: int) -> str:
    return ngettext("{n} card", "{n} cards", count)


def ordinal(place: int) -> str:
    return _(ORDINALS[place])


class Scene(Protocol):
    @property
    def language(self) -> str: ...


S = TypeVar("S", bound=Scene)


def drawn_in(draw: Callable[[S], bytes]) -> Callable[[S], bytes]:
    """Draw with the scene's ``language`` as the current one."""

    @wraps(draw)
    def in_language(scene: S) -> bytes:
        with i18n.using(scene.language):
            return draw(scene)

    return in_language


@lru_cache(maxsize=4096)
def signed(value: int) -> str:
    """A score with its sign, the minus a real one (U+2212), as pictures print it.

    Kept per value: a match's page writes some 270 of them for each reader (its scores
    and running totals), and the scores a match can have are few."""
    return "0" if value == 0 else f"{value:+d}".replace("-", "\u2212")
