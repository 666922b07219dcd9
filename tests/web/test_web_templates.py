"""The pages' template environment: a dict's key read as ``row.name``, as Jinja reads it,
and everything else as Jinja has it (attributes, escaping, a missing name refused)."""

from __future__ import annotations

from dataclasses import dataclass

import jinja2
import pytest

from bot.web.app import PageEnvironment


@dataclass
class Seat:
    name: str


def test_a_dicts_keys_objects_attributes_escaped_and_a_missing_one_refused() -> None:
    env = PageEnvironment(autoescape=True, undefined=jinja2.StrictUndefined)
    template = env.from_string("{{ row.name }}|{{ seat.name }}|{{ row.items|length }}")
    row = {"name": "<Ann>", "items": [1, 2, 3]}  # a key named like a dict's method
    assert template.render(row=row, seat=Seat("Bob & Cas")) == "&lt;Ann&gt;|Bob &amp; Cas|3"
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ row.missing }}").render(row={"name": "Ann"})
    assert env.from_string("{{ row.keys()|join }}").render(row={"name": "Ann"}) == "name"
