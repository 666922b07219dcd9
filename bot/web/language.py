"""The language a page speaks: ``?lang=`` if given, else the reader's ``Accept-Language``."""

from __future__ import annotations

from bot import i18n

MAX_HEADER = 512
"""Longer ``Accept-Language`` headers are read only this far (a browser's is short)."""


def page_language(query_lang: str | None, accept_language: str | None) -> str:
    """``query_lang`` (already checked to be a language of the bot) wins; otherwise the
    first language of the bot in ``Accept-Language`` by its weight; else English."""
    if query_lang is not None:
        return query_lang
    best, best_weight = i18n.DEFAULT, 0.0
    for part in (accept_language or "")[:MAX_HEADER].split(","):
        tag, _sep, params = part.strip().partition(";")
        weight = _weight(params)
        base = tag.strip().split("-")[0].lower()
        if base in i18n.LANGUAGES and weight > best_weight:
            best, best_weight = base, weight
    return best


def _weight(params: str) -> float:
    """The ``q=`` of a language range: 1 when absent, 0 when unreadable."""
    for param in params.split(";"):
        key, _sep, value = param.strip().partition("=")
        if key.strip() == "q":
            try:
                weight = float(value)
            except ValueError:
                return 0.0
            return weight if 0.0 <= weight <= 1.0 else 0.0
    return 1.0
