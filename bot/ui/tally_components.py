"""A scoresheet's buttons and menus as ``DynamicItem``s, and its result form's submit.

Each carries its tally, the sheet's version and a draft (:mod:`bot.ui.tally_ids`); its
click runs in the guard, as every other button's (:class:`~bot.ui.front.Guarded`). A
modal is not a component discord.py rebuilds from its custom_id, so
:func:`submit_counts` is called for every modal submit (the cog's listener) and answers
the ones that are a scoresheet's: a form filled in before a restart is taken after it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Protocol

import discord

from bot.i18n import N_, _

from .front import Guarded, picked, run_guarded
from .tally_ids import BUTTONS, MENUS, MODAL_ID, Ref, template

Interaction = discord.Interaction[Any]
Option = tuple[str, str]
"""A menu option: its value and its label."""


class TallyControls(Protocol):
    """What a scoresheet's buttons, menus and form ask of its controller."""

    async def button(self, interaction: Interaction, ref: Ref, op: str) -> None: ...

    async def pick(
        self, interaction: Interaction, ref: Ref, op: str, values: list[str]
    ) -> None: ...

    async def counts(self, interaction: Interaction, ref: Ref, values: dict[str, str]) -> None: ...


class TallyFront(Protocol):
    """The part of the bot a scoresheet's controls use."""

    @property
    def tally(self) -> TallyControls: ...


class TallyButton(Guarded[discord.ui.Button[Any]], template=template(BUTTONS)):
    LABELS: ClassVar[dict[str, str]] = {
        "pass": N_("No doubles"),
        "dok": N_("Yes, each of them held one"),
        "res": N_("Enter the result"),
        "undo": N_("Undo"),
        "cancel": N_("Cancel the sheet"),
        "cancelok": N_("Yes, cancel it"),
        "chart": N_("Chart"),
    }
    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "pass": discord.ButtonStyle.secondary,
        "dok": discord.ButtonStyle.primary,
        "res": discord.ButtonStyle.primary,
        "undo": discord.ButtonStyle.secondary,
        "cancel": discord.ButtonStyle.danger,
        "cancelok": discord.ButtonStyle.danger,
        "chart": discord.ButtonStyle.secondary,
    }
    EMOJI: ClassVar[dict[str, str]] = {"undo": "↩️", "chart": "📈"}

    def __init__(self, ref: Ref, op: str, *, label: str = "", row: int | None = None) -> None:
        self.ref, self.op = ref, op
        super().__init__(
            discord.ui.Button(
                label=(label or _(self.LABELS[op]))[:80],
                style=self.STYLES[op],
                emoji=self.EMOJI.get(op),
                custom_id=ref.custom_id(op),
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TallyButton:
        return cls(Ref.parsed(match), match["op"])

    async def clicked(self, interaction: Interaction, front: TallyFront) -> None:
        await front.tally.button(interaction, self.ref, self.op)


class TallySelect(Guarded[discord.ui.Select[Any]], template=template(MENUS)):
    PLACEHOLDERS: ClassVar[dict[str, str]] = {
        "con": N_("The contract chosen"),
        "dbl": N_("Who doubled whom (pick every double and redouble)"),
        "one": N_("Who took it?"),
        "fix": N_("Correct an earlier deal"),
    }

    def __init__(
        self,
        ref: Ref,
        op: str,
        options: Sequence[Option] = (),
        *,
        placeholder: str = "",
        row: int | None = None,
    ) -> None:
        self.ref, self.op = ref, op
        # Rebuilt from a click, the options do not matter: the click carries its values.
        choices = [discord.SelectOption(label=label[:100], value=value) for value, label in options]
        choices = choices or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(
                placeholder=(placeholder or _(self.PLACEHOLDERS[op]))[:150],
                options=choices,
                max_values=len(choices) if op == "dbl" else 1,
                custom_id=ref.custom_id(op),
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TallySelect:
        return cls(Ref.parsed(match), match["op"])

    async def clicked(self, interaction: Interaction, front: TallyFront) -> None:
        await front.tally.pick(interaction, self.ref, self.op, picked(interaction))


def modal_values(data: Mapping[str, Any]) -> dict[str, str]:
    """A submitted modal's text inputs by their custom_id."""
    values: dict[str, str] = {}
    for row in data.get("components") or []:
        inner = row.get("components") or ([row["component"]] if "component" in row else [])
        for component in inner:
            if "custom_id" in component:
                values[str(component["custom_id"])] = str(component.get("value") or "")
    return values


async def submit_counts(interaction: Interaction) -> None:
    """Answer a scoresheet's result form (any other modal is left to its owner)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    data: Mapping[str, Any] = interaction.data or {}
    match = MODAL_ID.fullmatch(str(data.get("custom_id") or ""))
    if match is None:
        return
    ref, values = Ref.parsed(match), modal_values(data)

    async def counted(front: TallyFront) -> None:
        await front.tally.counts(interaction, ref, values)

    await run_guarded(interaction, counted)


ITEMS = (TallyButton, TallySelect)
"""A scoresheet's buttons and menus, for the bot to register."""
