"""How bad a decision's loss is: inaccuracy, mistake or blunder, by what is at stake.

A loss is in points, and a point means more in a small contract than in a large one: a
trick in Ducking is 5 of its 65 points, a queen 30 of 120, the K♥ all 50. So the lines
are shares of the contract's *stake*: the sum of its absolute points, ``|total|`` (65
for Ducking, 120 for Queens, 50 for Domino, 130 for a trump option; in ``twelve`` its
own points). A contract choice is judged by the larger stake of the contract chosen
and the better one. Doubles raise what a decision costs in points, not the stake: a
doubled player's mistake is graded by the larger loss it really is.

Where the lines stand, and why, is measured by ``bench/review.py`` (docs/playing.md, The
review of a match):
the search's own choices, reviewed with another seed, must go unflagged in at least 95%
of decisions (so the review does not flag its own noise), and two reviews with
different seeds must give the same grade to at least 90% of the decisions either of
them flags.

A certain loss is the exception to the lines: a card that the search found worse than
the better card in *every* deal it considered, by at least one :func:`unit` of the
contract (a trick, a heart, a queen), is not noise, so it is flagged at least as an
inaccuracy whatever its share of the stake (a trick given away in a trump contract is
10 of 130 points); a larger loss still raises the class by the lines.
"""

from __future__ import annotations

from enum import Enum

from bot.engine.contracts import Contract


class Grade(Enum):
    """A flagged decision, mildest first."""

    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


#: The least loss of each grade, as a share of the stake (``bench/review.py``).
LINES: tuple[tuple[Grade, float], ...] = (
    (Grade.BLUNDER, 0.5),
    (Grade.MISTAKE, 0.25),
    (Grade.INACCURACY, 0.1),
)


def stake(contract: Contract) -> int:
    """What is at stake in ``contract``: the sum of its absolute points."""
    return abs(contract.total)


def unit(contract: Contract) -> int:
    """The smallest amount ``contract`` scores at once: a trick, a heart, a jack (the
    least of its points, ignoring their sign); in Domino, the last holder's points."""
    sheet = [contract.per_trick, *contract.card_points.values(), *contract.trick_points.values()]
    if contract.domino:
        sheet.append(contract.last_holder)
    return min(abs(points) for points in sheet if points)


def grade(loss: float, stake: int, certain: bool = False) -> Grade | None:
    """The grade of a decision that lost ``loss`` points where ``stake`` was at stake;
    None under the inaccuracy line (within the review's own noise), unless the loss is
    ``certain`` (see the module docstring): then at least an inaccuracy."""
    for name, share in LINES:
        if loss >= share * stake:
            return name
    return Grade.INACCURACY if certain else None
