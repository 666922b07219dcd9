"""The replay picture: the table at one point of a finished match, every hand face up.

The top is the deal's own picture at that point (the table, or Domino's rows: the same
drawing as a deal message, so a replay looks like the game did). Under it a line says
what just happened ("Bob played Q♠ · Ann takes the trick") and each seat's row shows the
cards it still holds, sorted by suit, with its score after the doubling settlement when
doubles were made. Nothing is hidden: the match is over (a
:class:`~bot.review.replay.Replay` refuses one in play).

A trick's fourth card shows the full trick in the middle (the engine's view already has
it cleared), and the "last trick" corner then stays empty so the trick is not drawn
twice.

:func:`replay_png` draws one point; :func:`deal_animation` makes every point of a deal
into one animated picture to share.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageChops, ImageDraw

from bot import i18n
from bot.engine import Action, Card, Choose, Double, Play
from bot.engine.view import PublicView
from bot.i18n import _
from bot.review.replay import ReplayPoint

from . import cards
from .domino_image import ROWS, domino_image
from .draw import FELT, GOLD, PALE, PLATE, TABLE_COLOURS, WHITE, fit, font, palette, png
from .frame import SIZE
from .labels import drawn_in, label, signed
from .scene import Plays, SeatScene, TableScene, seat_name
from .table_image import table_image
from .text import card_text, contract_name, names_text

CAPTION = 44
"""The height of the line saying what just happened."""
ROW = 82
"""The height of one seat's row of cards."""
NAME_WIDTH = 200
CARD_STEP = 42
"""Cards of a hand overlap a little: the rank and suit in the corner stay visible."""
HEIGHT = SIZE[1] + CAPTION + 4 * ROW + 10
REPLAY_SIZE = (SIZE[0], HEIGHT)


@dataclass(frozen=True, slots=True)
class ReplayScene:
    """What a replay picture draws: the table at that point, every hand, the scores after
    doubling, and the caption; frozen, so pictures are cached per scene."""

    table: TableScene
    hands: tuple[tuple[Card, ...], ...]
    final: tuple[int, ...]
    doubled: bool
    caption: str

    @property
    def language(self) -> str:
        return self.table.language


def replay_scene(
    point: ReplayPoint, names: Sequence[str], language: str = i18n.DEFAULT
) -> ReplayScene:
    """The scene of ``point`` of a match whose seats are ``names`` (the record's), with
    its words in ``language``."""
    shown = tuple(seat_name(name, seat, language) for seat, name in enumerate(names))
    with i18n.using(language):
        caption = caption_of(point, shown)
    return ReplayScene(
        table=_table_scene(point, shown, language),
        hands=tuple(sorted_hand(hand) for hand in point.hands),
        final=point.final,
        doubled=bool(point.view.doubled),
        caption=caption,
    )


def replay_png(point: ReplayPoint, names: Sequence[str], language: str = i18n.DEFAULT) -> bytes:
    """The picture of ``point`` (see the module) as PNG bytes: ``names`` are the
    match's seats as its record names them, ``language`` the language of its words."""
    return replay_scene_png(replay_scene(point, names, language))


@lru_cache(maxsize=64)
@drawn_in
def replay_scene_png(scene: ReplayScene) -> bytes:
    """:func:`replay_png` of a scene already made."""
    return png(replay_image(scene))


def replay_image(scene: ReplayScene) -> Image.Image:
    """The replay picture of ``scene`` (in the current language), to encode."""
    top = domino_image(scene.table) if scene.table.domino else table_image(scene.table)
    image = Image.new("RGB", REPLAY_SIZE, FELT)
    image.paste(top, (0, 0))
    draw = ImageDraw.Draw(image)
    y = SIZE[1]
    draw.rectangle((0, y, SIZE[0], y + CAPTION), fill=PLATE)
    words = fit(draw, scene.caption, 22, SIZE[0] - 40)
    draw.text((20, y + CAPTION // 2), words, font=font(22), fill=WHITE, anchor="lm")
    for seat in range(4):
        _hand_row(image, draw, scene, seat, y + CAPTION + 6 + seat * ROW)
    return image


def _hand_row(
    image: Image.Image, draw: ImageDraw.ImageDraw, scene: ReplayScene, seat: int, top: int
) -> None:
    """A seat's name (gold on its turn), its score after doubling, and its cards."""
    table = scene.table
    colour = GOLD if table.to_act == seat else WHITE
    name = fit(draw, table.seats[seat].name, 22, NAME_WIDTH - 10, bold=True)
    draw.text((20, top + 10), name, font=font(22, bold=True), fill=colour)
    if scene.doubled and table.contract is not None:
        after = label("after_doubling", score=signed(scene.final[seat]))
        draw.text((20, top + 42), fit(draw, after, 18, NAME_WIDTH - 10), font=font(18), fill=PALE)
    w, h = cards.SMALL
    for index, card in enumerate(scene.hands[seat]):
        centre = (20 + NAME_WIDTH + index * CARD_STEP + w // 2, top + 4 + h // 2)
        cards.paste(image, card, centre, cards.SMALL)


def sorted_hand(hand: Sequence[Card]) -> tuple[Card, ...]:
    """A hand as players hold it: by suit, black and red alternating (as Domino's rows
    lie), high to low within a suit."""
    return tuple(sorted(hand, key=lambda card: (ROWS.index(card.suit), -card.rank)))


def _table_scene(point: ReplayPoint, names: Sequence[str], language: str) -> TableScene:
    """The deal picture's scene at ``point``: the trick as the module says, and nobody
    on turn once the deal is over."""
    view: PublicView = point.view
    completed = point.trick_winner is not None
    last = view.last_trick
    last_trick: tuple[int, Plays] | None = None
    if last is not None and not completed:
        last_trick = (last.winner, tuple(last.played()))
    return TableScene(
        seats=tuple(
            SeatScene(
                name=names[seat],
                tricks=view.tricks_taken[seat],
                score=view.base[seat],
                total=view.totals[seat],
                cards_left=view.cards_left[seat],
            )
            for seat in range(4)
        ),
        deal_number=point.label.number,
        deals=view.rules.deals,
        contract=None if view.contract is None else view.contract.id,
        dealer=view.dealer,
        chooser=view.chooser,
        to_act=None if point.is_end else view.to_act,
        trick=point.trick,
        last_trick=last_trick,
        doubled=view.doubled,
        domino_rows=tuple(
            (int(suit), low, high) for suit, (low, high) in sorted(view.domino_rows.items())
        ),
        domino_out=view.domino_out,
        over=point.is_end,
        language=language,
    )


def caption_of(point: ReplayPoint, names: Sequence[str]) -> str:
    """What led to this point, in the current language (the picture's caption line and
    the web viewer's)."""
    return caption(
        point.action,
        point.actor,
        names,
        chooser=point.label.chooser,
        passes=point.passes,
        winner=point.trick_winner,
        is_end=point.is_end,
    )


def caption(
    action: Action | None,
    actor: int | None,
    names: Sequence[str],
    *,
    chooser: int,
    passes: Sequence[int],
    winner: int | None,
    is_end: bool,
) -> str:
    """What ``actor`` doing ``action`` led to (None: the deal as dealt, ``chooser`` to
    choose), in the current language: :func:`caption_of` from a point's parts, as the web
    viewer keeps them (``passes``: the Domino seats that passed after it; ``winner``:
    who took the trick it completed; ``is_end``: the deal's last point)."""
    if action is None or actor is None:
        return _("As dealt: {name} chooses the contract", name=names[chooser])
    who = names[actor]
    match action:
        case Choose(contract=contract):
            return _("{name} chose {contract}", name=who, contract=contract_name(contract))
        case Double(targets=targets) if targets:
            return _(
                "{name} doubled {players}", name=who, players=names_text(names, sorted(targets))
            )
        case Double():
            return _("{name} passed", name=who)
        case Play(card=card):
            words = [_("{name} played {card}", name=who, card=card_text(card))]
    if passes:
        words.append(_("{players} passed", players=names_text(names, passes)))
    if winner is not None:
        words.append(_("{name} takes the trick", name=names[winner]))
    if is_end:
        words.append(_("deal over"))
    return " · ".join(words)


# -- the animated deal --------------------------------------------------------------------

FRAME_MS = 900
"""How long a card shows in the animation; a completed trick and the deal's end longer."""
TRICK_MS = 1800
END_MS = 4000


def deal_animation(
    points: Sequence[ReplayPoint], names: Sequence[str], language: str = i18n.DEFAULT
) -> bytes:
    """Every point of a deal (``points``, in order) as one animated GIF: each frame a
    replay picture, the completed tricks and the end held longer.

    A frame stores only the pixels that changed from the one before; the rest is the
    palette's one transparent entry, which the GIF draws over the frame before. A step
    changes a card, a plate and a line, so the frames are mostly transparent runs and a
    whole deal stays well under 2 MB (each frame in full would take over 2 MB)."""
    scenes = [replay_scene(point, names, language) for point in points]
    colours = palette(TABLE_COLOURS, UNCHANGED)
    with i18n.using(language):
        indexed = [
            replay_image(scene).quantize(palette=colours, dither=Image.Dither.NONE)
            for scene in scenes
        ]
    frames = [indexed[0]]
    for before, now in itertools.pairwise(indexed):
        frames.append(_changes(before, now))
    durations = [
        END_MS if point.is_end else TRICK_MS if point.trick_winner is not None else FRAME_MS
        for point in points
    ]
    out = io.BytesIO()
    frames[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        transparency=UNCHANGED,
        disposal=1,  # keep the frame before under the next one's transparent pixels
        optimize=False,
    )
    return out.getvalue()


UNCHANGED = 255
"""The palette entry of an animation frame's pixels that did not change."""


def _changes(before: Image.Image, now: Image.Image) -> Image.Image:
    """``now`` (an indexed frame) with the pixels equal to ``before``'s made transparent."""
    old = Image.frombytes("L", now.size, before.tobytes())
    new = Image.frombytes("L", now.size, now.tobytes())
    changed = ImageChops.difference(old, new).point(lambda value: 255 if value else 0)
    kept = Image.composite(new, Image.new("L", now.size, UNCHANGED), changed)
    frame = Image.frombytes("P", now.size, kept.tobytes())
    frame.putpalette(now.getpalette() or [])
    return frame
