"""Playing through Discord: the private hand, card buttons, the contract and trump menus,
doubling, /bonken hand, choose, double, pass, back, and every refusal of a move."""

from __future__ import annotations

import copy

from bot.engine import CONTRACTS, Choose, Double, MatchPhase, Play
from tests.discord.discord_harness import (
    components,
    custom_ids,
    play_until,
    seat_state,
    show_hand,
)

NOT_SEATED = "you are not seated at this table"


async def start(h, *names):
    """A table hosted by the first name, the others joined, computers in the rest."""
    users = [h.user(name) for name in names]
    await h.slash(users[0], "new")
    for user in users[1:]:
        await h.slash(user, "join")
    await h.slash(users[0], "start")
    await h.idle()
    return users


def choosing(view):
    return view.phase is MatchPhase.CHOOSING


def doubling(view):
    return view.phase is MatchPhase.DOUBLING


def playing(view):
    return view.phase is MatchPhase.PLAYING


def cards_in(message):
    return [cid.rsplit(":", 1)[1] for cid in custom_ids(message) if cid.startswith("bonken:play:")]


def enabled_cards(message):
    return {
        c["custom_id"].rsplit(":", 1)[1]
        for c in components(message)
        if c["custom_id"].startswith("bonken:play:") and not c.get("disabled")
    }


async def test_show_my_hand_is_private_and_shows_only_your_cards(harness):
    h = harness
    ann, bob = await start(h, "Ann", "Bob")
    await play_until(h, ann, playing, others=(bob,))
    shown = await show_hand(h, ann)
    assert shown.callback_type == 4 and shown.ephemeral
    view, turn = seat_state(h, ann)
    message = h.hand_message(shown)
    assert "you are North" in message["content"]
    assert sorted(cards_in(message)) == sorted(card.code for card in view.hand)
    tid = h.table().table_id
    assert all(cid.startswith(f"bonken:play:{tid}:{turn}:") for cid in custom_ids(message))


async def test_card_buttons_are_enabled_exactly_when_the_engine_allows_the_card(harness):
    h = harness
    ann, bob = await start(h, "Ann", "Bob")
    await play_until(h, ann, playing, others=(bob,))
    view, _ = seat_state(h, ann)
    mine = h.hand_message(await show_hand(h, ann))
    legal = {a.card.code for a in view.legal if isinstance(a, Play)}
    assert enabled_cards(mine) == legal and legal
    assert "**Your turn**" in mine["content"]
    # Ann plays; while the table waits for Bob, none of Ann's cards can be pressed.
    await h.click(ann, sorted(custom_ids(mine, enabled_only=True))[0], message=mine)
    await h.idle()
    if seat_state(h, bob)[0].my_turn:
        theirs = h.hand_message(await show_hand(h, ann))
        assert enabled_cards(theirs) == set()
        assert "**Your turn**" not in theirs["content"]


async def test_a_played_card_updates_the_hand_in_place_and_it_lights_up_again(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    await play_until(h, ann, playing)
    shown = await show_hand(h, ann)
    message = h.hand_message(shown)
    before = len(cards_in(message))
    played = await h.click(ann, custom_ids(message, enabled_only=True)[0], message=message)
    assert played.callback_type == 7  # the hand message itself is updated
    await h.idle()
    view, turn = seat_state(h, ann)
    assert view.my_turn  # the computers have played on
    if playing(view):  # (unless that was the deal's last trick)
        # The computers played on; the same message was refreshed for the new turn.
        refreshed = h.fake.messages[int(message["id"])]
        assert len(cards_in(refreshed)) == before - 1
        assert enabled_cards(refreshed) == {a.card.code for a in view.legal if isinstance(a, Play)}
        assert all(f":{turn}:" in cid for cid in custom_ids(refreshed))
        # ...by editing it through the click's interaction token (an ephemeral message
        # cannot be edited any other way), unless the click's answer showed this turn
        # already (Ann took the trick and leads): a refresh is sent only for a change.
        refreshes = [c for c in played.answers if c.path.endswith("/messages/@original")]
        answered_now = all(f":{turn}:" in cid for cid in custom_ids(played.callback["data"]))
        assert bool(refreshes) != answered_now


async def test_hand_command_shows_the_same_private_hand(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    await h.idle()
    shown = await h.slash(ann, "hand")
    assert shown.callback_type == 4 and shown.ephemeral
    view, _ = seat_state(h, ann)
    content = h.hand_message(shown)["content"]
    assert f"Deal {view.deal_number}" in content and "you are North" in content


async def test_the_contract_menu_offers_what_the_engine_allows_and_trumps_leads_to_suits(
    harness,
):
    h = harness
    (ann,) = await start(h, "Ann")
    await play_until(
        h,
        ann,
        lambda v: (
            choosing(v)
            and any(
                isinstance(a, Choose) and CONTRACTS[a.contract].is_trump_option for a in v.legal
            )
        ),
    )
    view, turn = seat_state(h, ann)
    tid = h.table().table_id
    hand = h.hand_message(await show_hand(h, ann))
    menu = next(c for c in components(hand) if c["custom_id"] == f"bonken:choose:{tid}:{turn}")
    allowed = [a.contract for a in view.legal if isinstance(a, Choose)]
    negatives = [c for c in allowed if not CONTRACTS[c].is_trump_option]
    trumps = [c for c in allowed if CONTRACTS[c].is_trump_option]
    assert [o["value"] for o in menu["options"]] == [*negatives, "trumps"]
    assert menu["options"][-1]["label"] == "Trumps…"
    offered = await h.select(ann, menu["custom_id"], ["trumps"], message=hand)
    assert offered.callback_type == 7
    assert seat_state(h, ann)[1] == turn  # nothing chosen yet
    trump_menu = next(c for c in components(hand) if c["custom_id"].startswith("bonken:trump:"))
    assert trump_menu["custom_id"] == f"bonken:trump:{tid}:{turn}"
    assert [o["value"] for o in trump_menu["options"]] == trumps
    chosen = await h.select(ann, trump_menu["custom_id"], [trumps[0]], message=hand)
    assert chosen.callback_type == 7
    assert h.parts.service.record(tid, full=True)["deals"][-1]["contract"] == trumps[0]


async def test_a_negative_contract_from_the_menu(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    await play_until(
        h,
        ann,
        lambda v: (
            choosing(v)
            and any(
                isinstance(a, Choose) and not CONTRACTS[a.contract].is_trump_option for a in v.legal
            )
        ),
    )
    _, turn = seat_state(h, ann)
    tid = h.table().table_id
    hand = h.hand_message(await show_hand(h, ann))
    menu = next(c for c in components(hand) if c["custom_id"].startswith("bonken:choose:"))
    value = menu["options"][0]["value"]
    await h.select(ann, menu["custom_id"], [value], message=hand)
    assert h.parts.service.record(tid, full=True)["deals"][-1]["contract"] == value
    assert seat_state(h, ann)[1] > turn


async def test_choose_command_autocompletes_only_the_allowed_contracts(harness):
    h = harness
    ann, bob = await start(h, "Ann", "Bob")
    await play_until(h, ann, choosing, others=(bob,))
    view, _ = seat_state(h, ann)
    allowed = [a.contract for a in view.legal if isinstance(a, Choose)]
    choices = await h.autocomplete(ann, "choose", "contract")
    assert [c["value"] for c in choices] == allowed
    assert [c["name"] for c in choices] == [CONTRACTS[c].name for c in allowed]
    typed = CONTRACTS[allowed[0]].name[:4].lower()
    narrowed = await h.autocomplete(ann, "choose", "contract", contract=typed)
    assert allowed[0] in [c["value"] for c in narrowed]
    assert all(typed in c["name"].lower() for c in narrowed)
    assert await h.autocomplete(bob, "choose", "contract") == []  # not Bob's choice
    assert await h.autocomplete(h.user("Eve"), "choose", "contract") == []  # not seated
    chosen = await h.slash(ann, "choose", contract=allowed[0])
    assert chosen.ephemeral and chosen.text == f"You chose **{CONTRACTS[allowed[0]].name}**."


async def test_choose_refusals_not_your_turn_and_a_contract_already_used(harness):
    h = harness
    ann, bob = await start(h, "Ann", "Bob")
    await play_until(h, ann, choosing, others=(bob,))
    view, turn = seat_state(h, ann)
    refused = await h.slash(bob, "choose", contract="no-tricks")
    assert refused.ephemeral
    assert "it is not your turn; it is Ann's turn" in refused.text
    used = set(CONTRACTS) - {a.contract for a in view.legal if isinstance(a, Choose)}
    if used:
        bad = await h.slash(ann, "choose", contract=sorted(used)[0])
        assert bad.ephemeral and bad.text.startswith("⚠️")
    assert seat_state(h, ann)[1] == turn


async def test_doubling_toggles_confirm_and_the_command_autocomplete(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    await play_until(
        h, ann, lambda v: doubling(v) and any(isinstance(a, Double) and a.targets for a in v.legal)
    )
    view, turn = seat_state(h, ann)
    tid = h.table().table_id
    targets = sorted({t for a in view.legal if isinstance(a, Double) for t in a.targets})
    offered = await h.autocomplete(ann, "double", "player")
    assert [c["value"] for c in offered] == [str(t) for t in targets]
    hand = h.hand_message(await show_hand(h, ann))
    assert custom_ids(hand) == [
        *(f"bonken:dbl:{tid}:{turn}:D:-:{t}" for t in targets),
        f"bonken:dblok:{tid}:{turn}:D:-",
        f"bonken:dblok:{tid}:{turn}:D:-:pass",
    ]
    assert f"bonken:dblok:{tid}:{turn}:D:-" not in custom_ids(hand, enabled_only=True)
    target = targets[0]
    toggled = await h.click(ann, f"bonken:dbl:{tid}:{turn}:D:-:{target}", message=hand)
    assert toggled.callback_type == 7
    assert seat_state(h, ann)[1] == turn  # a toggle sends nothing to the table
    code = Double.of(target).code
    assert f"bonken:dblok:{tid}:{turn}:{code}" in custom_ids(hand, enabled_only=True)
    on = next(c for c in components(hand) if c["custom_id"].endswith(f":{code}:{target}"))
    assert on["label"].startswith("✓ ")
    confirmed = await h.click(ann, f"bonken:dblok:{tid}:{turn}:{code}", message=hand)
    assert confirmed.callback_type == 7
    record = h.parts.service.record(tid, full=True)
    assert record["deals"][-1]["doubling"][view.doubling_order.index(0)] == [target]


async def test_double_and_pass_commands(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    await play_until(
        h, ann, lambda v: doubling(v) and any(isinstance(a, Double) and a.targets for a in v.legal)
    )
    view, _ = seat_state(h, ann)
    target = min(t for a in view.legal if isinstance(a, Double) for t in a.targets)
    twice = await h.slash(ann, "double", player=str(target), player2=str(target))
    assert twice.ephemeral and "you named the same player twice" in twice.text
    doubled = await h.slash(ann, "double", player=str(target))
    assert doubled.ephemeral and doubled.text.startswith("You doubled ")
    await h.idle()
    await play_until(h, ann, doubling)
    passed = await h.slash(ann, "pass")
    assert passed.ephemeral and passed.text == "You passed."


async def test_the_pass_button(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    await play_until(h, ann, doubling)
    _, turn = seat_state(h, ann)
    tid = h.table().table_id
    hand = h.hand_message(await show_hand(h, ann))
    passed = await h.click(ann, f"bonken:dblok:{tid}:{turn}:D:-:pass", message=hand)
    assert passed.callback_type == 7
    assert seat_state(h, ann)[1] > turn


async def test_a_move_in_the_wrong_phase_is_refused_with_the_reason(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    await play_until(h, ann, playing)
    _, turn = seat_state(h, ann)
    refused = await h.slash(ann, "pass")
    assert refused.ephemeral
    assert "you cannot double now: the cards are being played" in refused.text
    choose = await h.slash(ann, "choose", contract="ducking")
    assert choose.ephemeral and "the contract has already been chosen" in choose.text
    assert seat_state(h, ann)[1] == turn


async def test_an_illegal_card_is_refused_with_the_rule(harness):
    """A disabled card button cannot be pressed in Discord; a forged click still gets the
    engine's rule back, and nothing changes."""
    h = harness
    (ann,) = await start(h, "Ann")

    def must_follow(view):
        led = view.trick[0][1].suit if view.trick else None
        return (
            playing(view)
            and not view.contract.domino
            and led is not None
            and any(c.suit is led for c in view.hand)
            and any(c.suit is not led for c in view.hand)
        )

    await play_until(h, ann, must_follow)
    view, turn = seat_state(h, ann)
    led = view.trick[0][1].suit
    off_suit = next(c for c in view.hand if c.suit is not led)
    hand = h.hand_message(await show_hand(h, ann))
    cid = f"bonken:play:{h.table().table_id}:{turn}:P:{off_suit.code}"
    assert cid in custom_ids(hand) and cid not in custom_ids(hand, enabled_only=True)
    forged = copy.deepcopy(hand)
    for c in components(forged):
        c["disabled"] = False
    refused = await h.click(ann, cid, message=forged)
    assert refused.ephemeral
    assert f"you must follow suit: you hold a {led.noun}" in refused.text
    assert seat_state(h, ann)[1] == turn


async def test_a_click_for_an_earlier_turn_is_refused_and_changes_nothing(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    await play_until(h, ann, playing)
    tid = h.table().table_id
    old = copy.deepcopy(h.hand_message(await show_hand(h, ann)))
    card = custom_ids(old, enabled_only=True)[0]
    await h.click(ann, card, message=copy.deepcopy(old))
    await h.idle()
    record = h.parts.service.record(tid, full=True)
    _, turn = seat_state(h, ann)
    stale = await h.click(ann, card, message=old)
    assert stale.ephemeral
    assert "that was for an earlier turn" in stale.text
    assert h.parts.service.record(tid, full=True) == record
    assert seat_state(h, ann)[1] == turn


async def test_a_double_click_on_one_card_plays_it_once(harness):
    h = harness
    (ann, bob) = await start(h, "Ann", "Bob")
    await play_until(h, ann, playing, others=(bob,))
    hand = copy.deepcopy(h.hand_message(await show_hand(h, ann)))
    card = custom_ids(hand, enabled_only=True)[0]
    first = await h.click(ann, card, message=copy.deepcopy(hand))
    again = await h.click(ann, card, message=hand)
    assert first.callback_type == 7
    assert again.ephemeral and "that was for an earlier turn" in again.text


async def test_someone_not_seated_is_refused_privately(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    await play_until(h, ann, playing)
    eve = h.user("Eve")
    tid = h.table().table_id
    hand = h.hand_message(await show_hand(h, ann))
    for interaction in [
        await show_hand(h, eve),
        await h.slash(eve, "hand"),
        await h.slash(eve, "pass"),
        await h.slash(eve, "leave"),
        await h.slash(eve, "back"),
        await h.click(eve, custom_ids(hand, enabled_only=True)[0], message=hand),
    ]:
        assert interaction.ephemeral
        assert NOT_SEATED in interaction.text
    assert seat_state(h, ann)[0].my_turn
    assert h.table().table_id == tid


async def test_a_move_when_it_is_someone_elses_turn(harness):
    h = harness
    ann, bob = await start(h, "Ann", "Bob")
    await play_until(h, bob, playing, others=(ann,))  # the table waits for Bob's card
    _, turn = seat_state(h, bob)
    refused = await h.slash(ann, "pass")
    assert refused.ephemeral and "it is not your turn; it is Bob's turn" in refused.text
    # Ann's cards are all disabled now; a forged click on one is refused the same way.
    hand = copy.deepcopy(h.hand_message(await show_hand(h, ann)))
    assert enabled_cards(hand) == set()
    for c in components(hand):
        c["disabled"] = False
    clicked = await h.click(ann, custom_ids(hand)[0], message=hand)
    assert clicked.ephemeral and "it is not your turn; it is Bob's turn" in clicked.text
    assert seat_state(h, bob)[1] == turn


async def test_leave_during_the_match_hands_the_seat_to_a_computer(harness):
    h = harness
    _ann, bob = await start(h, "Ann", "Bob")
    left = await h.slash(bob, "leave")
    assert left.ephemeral and left.text.startswith("You left the match; a computer plays your")
    await h.idle()
    assert h.table().seats[1].vacated
    assert seat_state(h, h.user("Ann"))[0].to_act != 1  # the computer does not wait
    assert "Bob left; a computer plays their seat." in h.posts_text()  # the channel is told


async def test_the_last_person_leaving_the_match_is_told_it_is_cancelled(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    match_id = h.table().match_id
    left = await h.slash(ann, "leave")
    assert left.ephemeral and "it is cancelled and counts for nobody" in left.text
    assert "a computer plays" not in left.text
    await h.idle()
    assert h.table() is None
    info = await h.parts.store.matches.get_match(match_id)
    assert info.status.value == "cancelled"
    posts = h.posts_text()
    assert "every player left the match, so it is cancelled" in posts  # the channel too
    assert "a computer plays" not in posts


async def test_removing_the_last_person_from_the_match_says_it_is_cancelled(harness):
    h = harness
    await start(h, "Ann")
    mod = h.user("Mod", admin=True)
    kicked = await h.slash(mod, "kick", player="0")
    assert kicked.ephemeral and "it is cancelled and counts for nobody" in kicked.text
    assert "seat is freed" not in kicked.text
    await h.idle()
    assert h.table() is None


async def test_back_after_timing_out_twice(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    not_away = await h.slash(ann, "back")
    assert not_away.ephemeral and "you are playing your seat already" in not_away.text
    service = h.parts.service
    tid = h.table().table_id
    for _ in range(2):  # the turn timer runs out twice (what the timer task would do)
        await h.idle()
        _, turn = seat_state(h, ann)
        assert await service.expire_turn(tid, turn)
    assert h.table().seats[0].away
    back = await h.slash(ann, "back")
    assert back.ephemeral and back.text == "Welcome back: you play your seat again."
    await h.idle()
    posts = h.posts_text()
    assert "ran out of time; a computer played for them." in posts
    assert "is away: a computer plays their seat" in posts
    assert "**Ann** is back." in posts
    assert not h.table().seats[0].away


async def test_an_unknown_contract_typed_into_choose_is_refused(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    await play_until(h, ann, choosing)
    _, turn = seat_state(h, ann)
    refused = await h.slash(ann, "choose", contract="poker")
    assert refused.ephemeral and refused.text.startswith("⚠️")
    assert seat_state(h, ann)[1] == turn


async def test_cancel_during_the_match_closes_the_open_hand_messages(harness):
    h = harness
    (ann,) = await start(h, "Ann")
    hand = h.hand_message(await show_hand(h, ann))
    cancelled = await h.slash(ann, "cancel")
    assert cancelled.ephemeral and cancelled.text == "The table is cancelled."
    await h.idle()
    assert hand["content"] == "The table is closed: the table was cancelled."
    assert custom_ids(hand) == []
    deal = h.fake.channel_posts()[-2]
    assert custom_ids(deal) == []  # the deal message lost its Show my hand button
    assert h.fake.channel_posts()[-1]["content"] == "The table is closed: the table was cancelled."


async def test_kick_during_the_match_gives_the_seat_to_a_computer(harness):
    h = harness
    ann, bob = await start(h, "Ann", "Bob")
    kicked = await h.slash(ann, "kick", player="east")
    assert kicked.ephemeral and kicked.text == "East was removed; a computer plays the seat."
    await h.idle()
    assert h.table().seats[1].vacated
    again = await h.slash(ann, "kick", player="east")
    assert "a computer already plays that seat" in again.text
    taken = await h.slash(h.user("Cid"), "join")  # a newcomer may take the left seat
    assert taken.ephemeral and taken.text == "You sit East."
    assert bob.id not in [s.user_id for s in h.table().seats]
