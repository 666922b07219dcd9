"""The score keeper's Discord side: ``/bonken tally new``, and every click on a sheet.

Each click is one request to the :class:`~bot.tally.TallyService`, which checks it by
the engine's rules and stores it before it answers; only then is the click answered (the
sheet edited in place, or a private reply). Nothing is kept here between clicks: the
controls carry their tally, the sheet's version and any draft (:mod:`.tally_ids`), so a
restart loses nothing. What follows the answer (the sheet edited from a private reply, a
change announced in the sheet's thread, the final standings with the chart and the
record) is sent after it, so every click is answered at once.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

import discord

from bot import i18n
from bot.engine import Choose, Contract, DominoDoubling
from bot.engine.tally import Correct, DealEntry, Doubles, Entry, Result, Undo, questions
from bot.i18n import _
from bot.render import tally as words
from bot.render.text import contract_name
from bot.store import TablePlace, TallySeat
from bot.store.tables import TableStore
from bot.tally import TallyRefusal, TallyService, TallyView

from .lobby import NEEDED, PERMISSION_NAMES, can_thread, language_refusal
from .replies import UIRefusal, is_admin, literal
from .rules_options import chosen_rules
from .tally_components import TallyButton
from .tally_feed import TallyFeed, chart_of, summary_text
from .tally_ids import PAIRS, Draft, Ref
from .tally_sheet import (
    SHEET,
    SUMMARY,
    correction_controls,
    counts_modal,
    sheet_controls,
    sheet_embed,
)
from .threads import THREAD, Threads, named_thread

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]
T = TypeVar("T")
GUEST_NAME = 32
"""The longest name a guest may be given (as a Discord display name)."""
SEATS = 4


def seats_of(members: Sequence[Any | None], guests: Sequence[str | None]) -> list[TallySeat]:
    """The four seats from the command's options (a member or a guest's name per seat, in
    the order they sit); a polite refusal naming the seat that is wrong."""
    seats = []
    for seat, (member, guest) in enumerate(zip(members, guests, strict=True), start=1):
        name = (guest or "").strip()
        if (member is None) == (not name):
            raise UIRefusal(
                _("seat {seat}: name one member or one guest, not both or neither", seat=seat)
            )
        if member is not None and member.bot:
            raise UIRefusal(_("seat {seat}: a bot cannot play with real cards", seat=seat))
        if member is not None:
            seats.append(TallySeat(seat=seat - 1, name=member.display_name, user_id=member.id))
        elif len(name) > GUEST_NAME:
            raise UIRefusal(
                _("seat {seat}: a guest's name has at most {n} characters", seat=seat, n=GUEST_NAME)
            )
        else:
            seats.append(TallySeat(seat=seat - 1, name=name, user_id=None))
    return seats


class TallyController:
    def __init__(
        self,
        service: TallyService,
        tables: TableStore,
        threads: Threads,
        channel: Callable[[int], discord.PartialMessageable],
        feed: TallyFeed,
    ) -> None:
        """``tables``: the server's defaults; ``threads``: opens a sheet's thread;
        ``channel``: a channel or thread to post in, by its id; ``feed``: the sheets'
        thread posts."""
        self.service = service
        self.tables = tables
        self.threads = threads
        self.channel = channel
        self.feed = feed

    # -- opening ------------------------------------------------------------------------

    async def open(
        self,
        interaction: Interaction,
        members: Sequence[Any | None],
        guests: Sequence[str | None],
        rules: Mapping[str, str | None],
        language: str | None,
    ) -> None:
        """Open a scoresheet for four players at a real table, by the server's defaults
        and the rules chosen (as ``/bonken new``), in a thread of its own where the
        server plays in threads."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise UIRefusal(_("Bonken is played in a server's text channel"))
        missing = [p for p in NEEDED if not getattr(interaction.app_permissions, p)]
        if missing:
            names = ", ".join(_(PERMISSION_NAMES[p]) for p in missing)
            raise UIRefusal(
                _("I need these permissions in this channel first: {names}", names=names)
            )
        if language is not None and language not in i18n.LANGUAGES:
            raise UIRefusal(language_refusal())
        seats = seats_of(members, guests)
        guild = await self.tables.guild_settings(interaction.guild_id)
        defaults = guild.table_defaults
        view = await self._call(
            None,
            self.service.open(
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                seats,
                rules=chosen_rules(defaults.rules, rules),
                language=language or guild.language or i18n.language_of(interaction.guild_locale),
                images=defaults.images,
            ),
        )
        await self.feed.opened(view.tally_id)
        threaded = guild.place is TablePlace.THREAD and can_thread(interaction)
        with i18n.using(view.language):
            controls = sheet_controls(view)
            assert controls is not None  # a sheet opens open
            if not threaded:
                await interaction.response.send_message(embed=sheet_embed(view), view=controls)
                message = await interaction.original_response()
                await self.service.remember_message(view.tally_id, SHEET, message.id)
                return
            await interaction.response.send_message(summary_text(view))
            summary = await interaction.original_response()
            await self.service.remember_message(view.tally_id, SUMMARY, summary.id)
            name = named_thread(_("Scoresheet"), view.names)
            thread = await self.threads.open(interaction.channel_id, summary.id, name)
            where = interaction.channel_id if thread is None else thread
            if thread is not None:
                await self.service.remember_message(view.tally_id, THREAD, thread)
            sheet = await self.channel(where).send(embed=sheet_embed(view), view=controls)
            await self.service.remember_message(view.tally_id, SHEET, sheet.id)

    # -- the controls -------------------------------------------------------------------

    async def button(self, interaction: Interaction, ref: Ref, op: str) -> None:
        """A sheet's button (:data:`~.tally_ids.BUTTONS`), or one of a private step."""
        user = interaction.user.id
        if op == "pass":
            await self._doubles(interaction, ref, frozenset(), word=False)
        elif op == "dok":
            await self._doubles(interaction, ref, ref.draft.pairs, word=True)
        elif op == "res":
            await self._ask_counts(interaction, ref)
        elif op == "undo":
            await self._enter(interaction, ref, Undo())
        elif op == "cancel":
            if not is_admin(interaction):  # (an admin may cancel any sheet)
                await self._may_enter(interaction, ref)
            controls = discord.ui.View(timeout=None)
            controls.add_item(TallyButton(ref, "cancelok"))
            await _private(
                interaction,
                _("Cancel this scoresheet? Nothing of it will count, for anyone."),
                controls,
            )
        elif op == "cancelok":
            call = self.service.cancel(
                ref.tally_id, user, ref.version, is_admin=is_admin(interaction)
            )
            view = await self._call(ref.tally_id, call)
            await self._shown(interaction, view, _("The scoresheet is cancelled."))
        elif op == "chart":
            await self._chart(interaction, ref)

    async def pick(self, interaction: Interaction, ref: Ref, op: str, values: list[str]) -> None:
        """A pick in a sheet's menu (:data:`~.tally_ids.MENUS`), or in a private step's."""
        if op == "con":
            if ref.draft.correcting:
                await self._correct_contract(interaction, ref, values[0])
            else:
                await self._enter(interaction, ref, Choose(values[0]))
        elif op == "dbl":
            pairs = frozenset(_number(v, len(PAIRS)) for v in values)
            await self._doubles(interaction, ref, pairs, word=False)
        elif op == "one":
            await self._seats_answered(interaction, ref, values[0])
        elif op == "fix":
            await self._start_correction(interaction, ref, _number(values[0], 100))

    async def counts(self, interaction: Interaction, ref: Ref, values: Mapping[str, str]) -> None:
        """The result form: four counts for the deal's first or second count question."""
        view = await self._may_enter(interaction, ref)
        contract, number = self._deal_of(view, ref)
        asked = [q for q in questions(contract) if q.counts]
        index = 1 if ref.draft.counts else 0
        if index >= len(asked):
            raise UIRefusal(_("this deal asks no more counts"))
        question = asked[index]
        counts = tuple(_count(view.names[s], values.get(f"c{s}", "")) for s in range(SEATS))
        if index + 1 < len(asked):
            check = self.service.check_answer(
                ref.tally_id,
                interaction.user.id,
                ref.version,
                number=number,
                contract=contract.id,
                key=question.key,
                answer=counts,
            )
            await self._call(ref.tally_id, check)
            following = Ref(ref.tally_id, ref.version, ref.draft.with_(counts=counts))
            controls = discord.ui.View(timeout=None)
            what = words.counted(asked[index + 1].key)
            label = _("Enter the {what}", what=what)
            controls.add_item(TallyButton(following, "res", label=label))
            said = literal(words.answer_text(question, counts, view.names))
            await _private(interaction, f"✓ {said}\n" + _("Now the {what}.", what=what), controls)
            return
        answers: dict[str, Sequence[int] | int] = {question.key: counts}
        if index:
            answers[asked[0].key] = ref.draft.counts
        await self._result(interaction, ref, view, Result.of(answers))

    # -- the steps ----------------------------------------------------------------------

    async def _ask_counts(self, interaction: Interaction, ref: Ref) -> None:
        view = await self._may_enter(interaction, ref)
        contract, number = self._deal_of(view, ref)
        asked = [q for q in questions(contract) if q.counts]
        index = 1 if ref.draft.counts else 0
        if index >= len(asked):
            raise UIRefusal(_("this deal asks no more counts"))
        await interaction.response.send_modal(counts_modal(view, ref, asked[index], number))

    async def _doubles(
        self, interaction: Interaction, ref: Ref, pairs: frozenset[int], *, word: bool
    ) -> None:
        view = await self._may_enter(interaction, ref)
        contract, _deal = self._deal_of(view, ref)
        draft = ref.draft.with_(pairs=pairs)
        needs_word = view.rules.domino_doubling is DominoDoubling.ACE_OR_TWO and contract.domino
        if needs_word and pairs and not word:
            controls = discord.ui.View(timeout=None)
            controls.add_item(TallyButton(Ref(ref.tally_id, ref.version, draft), "dok"))
            doublers = sorted({PAIRS[i][0] for i in pairs})
            names = ", ".join(literal(view.names[s]) for s in doublers)
            await _private(
                interaction,
                _(
                    "In Domino only a player holding an ace or a 2 may double. "
                    "Did each of {names} hold one?",
                    names=names,
                ),
                controls,
            )
            return
        if ref.draft.correcting:
            following = Ref(ref.tally_id, ref.version, draft.with_(doubled=True, word=word))
            await self._correction_step(interaction, view, following)
            return
        assert view.current is not None  # _deal_of refused a sheet not asking the doubles
        entry = Doubles.named(view.current.doubling_order, draft.named, confirmed=word)
        await self._enter(interaction, ref, entry)

    async def _seats_answered(self, interaction: Interaction, ref: Ref, value: str) -> None:
        view = await self._may_enter(interaction, ref)
        contract, _deal = self._deal_of(view, ref)
        asked = [q for q in questions(contract) if not q.counts]
        parts = value.split(".")
        if len(parts) != len(asked) or not asked:
            raise UIRefusal(_("that answer does not fit this deal; use the newest sheet"))
        seats = [_number(part, SEATS) for part in parts]
        answers = {q.key: seat for q, seat in zip(asked, seats, strict=True)}
        await self._result(interaction, ref, view, Result.of(answers))

    async def _result(
        self, interaction: Interaction, ref: Ref, view: TallyView, result: Result
    ) -> None:
        draft = ref.draft
        if not draft.correcting:
            await self._enter(interaction, ref, result)
            return
        deal = view.deals[draft.deal - 1]
        doubles = Doubles.named(deal.doubling_order, draft.named, confirmed=draft.word)
        entry = Correct(draft.deal, DealEntry(draft.contract, doubles, result))
        await self._enter(interaction, ref, entry)

    async def _start_correction(self, interaction: Interaction, ref: Ref, number: int) -> None:
        view = await self._may_enter(interaction, ref)
        if number not in range(1, len(view.deals) + 1):
            raise UIRefusal(_("deal {number} is not complete", number=number))
        await self._correction_step(
            interaction, view, Ref(ref.tally_id, ref.version, Draft(number))
        )

    async def _correct_contract(self, interaction: Interaction, ref: Ref, contract: str) -> None:
        view = await self._may_enter(interaction, ref)
        number = ref.draft.deal
        if number not in range(1, len(view.deals) + 1):
            raise UIRefusal(_("deal {number} is not complete", number=number))
        allowed = await self.service.contracts_for(ref.tally_id, number)
        if contract not in allowed:
            deal = view.deals[number - 1]
            chosen = (
                contract_name(view.rules.by_id[contract])
                if contract in view.rules.by_id
                else contract
            )
            raise UIRefusal(
                _(
                    "deal {number}: {name} may not choose {contract}",
                    number=number,
                    name=literal(view.names[deal.chooser]),
                    contract=chosen,
                )
            )
        following = Ref(ref.tally_id, ref.version, ref.draft.with_(contract=contract))
        await self._correction_step(interaction, view, following)

    async def _correction_step(self, interaction: Interaction, view: TallyView, ref: Ref) -> None:
        contracts = (
            await self.service.contracts_for(ref.tally_id, ref.draft.deal)
            if not ref.draft.contract
            else []
        )
        text, controls = correction_controls(view, ref.draft, contracts)
        await _private(interaction, text, controls)

    async def _may_enter(self, interaction: Interaction, ref: Ref) -> TallyView:
        """The tally, if the clicker may enter on this version of its sheet."""
        call = self.service.may_enter(ref.tally_id, interaction.user.id, ref.version)
        return await self._call(ref.tally_id, call)

    def _deal_of(self, view: TallyView, ref: Ref) -> tuple[Contract, int]:
        """The contract and number of the deal a control is about: the one being entered
        (its contract in), or the corrected one (its contract in the draft)."""
        draft = ref.draft
        if draft.correcting:
            if (
                draft.deal not in range(1, len(view.deals) + 1)
                or draft.contract not in view.rules.by_id
            ):
                raise UIRefusal(_("that correction no longer fits the sheet; start it again"))
            return view.rules.by_id[draft.contract], draft.deal
        if view.current is None:
            raise UIRefusal(_("that is not what the sheet asks now"))
        return view.current.contract, view.number

    # -- entering and showing -----------------------------------------------------------

    async def _enter(self, interaction: Interaction, ref: Ref, entry: Entry) -> None:
        view = await self._call(
            ref.tally_id,
            self.service.enter(ref.tally_id, interaction.user.id, ref.version, entry),
        )
        note = _("Entered.")
        if isinstance(entry, Correct):
            note = _("Deal {number} corrected.", number=entry.number)
        elif isinstance(entry, Undo):
            note = _("Taken back.")
        await self._shown(interaction, view, note)

    async def _shown(self, interaction: Interaction, view: TallyView, note: str) -> None:
        """Answer the click with the sheet as it now is (edited in place when the click
        was on it; else a private note, and the sheet edited after), then post what the
        sheet's thread has not been told yet (:class:`~.tally_feed.TallyFeed`)."""
        sheet = view.messages.get(SHEET)
        message = interaction.message
        on_sheet = message is not None and sheet is not None and message.id == sheet
        with i18n.using(view.language):
            embed, controls = sheet_embed(view), sheet_controls(view)
        if on_sheet:
            await interaction.response.edit_message(embed=embed, view=controls)
        else:
            await _private(interaction, note, None)
            await self._edit_sheet(view, embed, controls)
        await self.feed.catch_up(view.tally_id)

    async def _edit_sheet(
        self, view: TallyView, embed: discord.Embed, controls: discord.ui.View | None
    ) -> None:
        sheet = view.messages.get(SHEET)
        if sheet is None:
            return
        try:
            message = self.channel(self._where(view)).get_partial_message(sheet)
            await message.edit(embed=embed, view=controls)
        except discord.HTTPException as error:  # the sheet is stored; the next click shows it
            log.warning("tally %s: editing the sheet failed: %s", view.tally_id, error)

    async def _chart(self, interaction: Interaction, ref: Ref) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        view = await self._call(ref.tally_id, self.service.view(ref.tally_id))
        with i18n.using(view.language):  # (the chart's words are the sheet's)
            chart = await chart_of(view)
        if chart is None:
            await interaction.followup.send(_("There is no chart yet."), ephemeral=True)
            return
        await interaction.followup.send(file=chart, ephemeral=True)

    @staticmethod
    def _where(view: TallyView) -> int:
        return view.messages.get(THREAD) or view.channel_id

    async def _call(self, tally_id: int | None, call: Awaitable[T]) -> T:
        """The service's answer, its refusal worded for the person who asked (with the
        tally's names)."""
        try:
            return await call
        except TallyRefusal as refusal:
            view = None
            if tally_id is not None:
                with contextlib.suppress(TallyRefusal):
                    view = await self.service.view(tally_id)
            raise UIRefusal(words.refusal_text(refusal, view)) from None


def _number(value: str, below: int) -> int:
    if not value.isdigit() or int(value) >= below:
        raise UIRefusal(_("that answer does not fit this deal; use the newest sheet"))
    return int(value)


def _count(name: str, value: str) -> int:
    text = value.strip()
    try:
        return int(text)
    except ValueError:
        raise UIRefusal(
            _("{name}: {value} is not a number", name=literal(name), value=repr(text))
        ) from None


async def _private(interaction: Interaction, text: str, controls: discord.ui.View | None) -> None:
    """A private answer: the private message the click was on is edited (a correction's
    steps), else a new one is sent."""
    message = interaction.message
    if message is not None and message.flags.ephemeral:
        await interaction.response.edit_message(content=text, embed=None, view=controls)
    elif controls is None:
        await interaction.response.send_message(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, view=controls, ephemeral=True)
