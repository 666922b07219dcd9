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


def test_a_template_loaded_once_is_kept_by_name_and_reloaded_where_templates_are() -> None:
    files = {"base.html": "<b>{% block main %}{% endblock %}</b>", "page.html": ""}
    files["page.html"] = '{% extends "base.html" %}{% block main %}{{ x }}{% endblock %}'
    kept = PageEnvironment(loader=jinja2.DictLoader(files), autoescape=True, auto_reload=False)
    reloaded = PageEnvironment(loader=jinja2.DictLoader(files), auto_reload=True)
    page = kept.get_template("page.html")
    assert page.render(x="<1>") == "<b>&lt;1&gt;</b>"
    assert kept.get_template("page.html") is page
    assert kept.get_template("base.html", "page.html") is kept.get_template("base.html")
    assert reloaded.get_template("page.html").render(x=1) == "<b>1</b>"
    files["page.html"] = "changed"
    assert kept.get_template("page.html").render(x=1) == "<b>1</b>"
    assert reloaded.get_template("page.html").render() == "changed"
    with pytest.raises(jinja2.TemplateNotFound):
        kept.get_template("missing.html")
