"""The custom_id of a scoresheet's buttons, menus and modals: everything a click needs.

``bonken:tally:<tally>:<version>:<op>:<draft>``. The tally routes the click and its
version (how many entries the sheet had when it was shown) lets the service refuse a
click on an outdated sheet. The draft is what has been entered of a deal that is not
stored yet: a correction (the deal it corrects, then its contract, doubles and the
players' word for them), and the counts of a result's first question while the second
is asked (the kings before the jacks). Nothing is kept in memory per message, so every
control works the same after a restart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from bot.engine.doubling import SEATS

PAIRS: tuple[tuple[int, int], ...] = tuple((a, b) for a in SEATS for b in SEATS if a != b)
"""Every (namer, named) of a doubling, numbered by their place here in a draft."""

BUTTONS = ("pass", "dok", "res", "undo", "cancel", "cancelok", "chart")
"""No doubles, the players' word for Domino doubles, the result's modal, undo, cancel and
its confirmation, the chart."""
MENUS = ("con", "dbl", "one", "fix")
"""The contract, the doubles, who took the one thing, the deal to correct."""
MODAL = "mod"

DRAFT = (
    r"(?P<deal>\d{1,2})\.(?P<contract>[a-z-]{0,24})\.(?P<pairs>\d{0,4})\.(?P<word>[01]?)"
    r"\.(?P<counts>(?:\d{1,2},\d{1,2},\d{1,2},\d{1,2})?)"
)


def template(ops: tuple[str, ...]) -> str:
    """The strict pattern of the custom_ids of ``ops``: a claimed one always parses."""
    head = r"bonken:tally:(?P<tally>\d{1,18}):(?P<version>\d{1,6})"
    return rf"{head}:(?P<op>{'|'.join(ops)}):{DRAFT}"


@dataclass(frozen=True)
class Draft:
    """What a control carries of a deal being entered but not yet stored."""

    deal: int = 0
    """The deal a correction is of (1-based); 0: the deal being entered on the sheet."""
    contract: str = ""
    pairs: frozenset[int] = frozenset()
    """Indexes into :data:`PAIRS`."""
    doubled: bool = False
    """A correction's doubling is in (``pairs`` may be empty: nobody doubled)."""
    word: bool = False
    """The players said each Domino doubler held an ace or a 2."""
    counts: tuple[int, ...] = ()
    """The answer to the result's first count question, while the second is asked."""

    @property
    def correcting(self) -> bool:
        return self.deal != 0

    @property
    def named(self) -> list[tuple[int, int]]:
        return [PAIRS[index] for index in sorted(self.pairs)]

    def with_(self, **changes: object) -> Draft:
        return replace(self, **changes)  # type: ignore[arg-type]

    def code(self) -> str:
        mask = sum(1 << index for index in self.pairs)
        return ".".join(
            (
                str(self.deal),
                self.contract,
                str(mask) if mask else "",
                ("1" if self.word else "0") if self.doubled else "",
                ",".join(map(str, self.counts)),
            )
        )

    @classmethod
    def parsed(cls, match: re.Match[str]) -> Draft:
        mask = int(match["pairs"] or 0)
        return cls(
            deal=int(match["deal"]),
            contract=match["contract"],
            pairs=frozenset(i for i in range(len(PAIRS)) if mask >> i & 1),
            doubled=match["word"] != "",
            word=match["word"] == "1",
            counts=tuple(int(c) for c in match["counts"].split(",")) if match["counts"] else (),
        )


LIVE = Draft()


@dataclass(frozen=True)
class Ref:
    """A control's tally, version and draft."""

    tally_id: int
    version: int
    draft: Draft = LIVE

    def custom_id(self, op: str) -> str:
        return f"bonken:tally:{self.tally_id}:{self.version}:{op}:{self.draft.code()}"

    @classmethod
    def parsed(cls, match: re.Match[str]) -> Ref:
        return cls(int(match["tally"]), int(match["version"]), Draft.parsed(match))


MODAL_ID = re.compile(template((MODAL,)))
