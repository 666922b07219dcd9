"""The one error the table service raises for a request it will not carry out."""

from __future__ import annotations


class Refusal(Exception):
    """A polite refusal: the message is for the person who asked, and nothing changed."""
