"""Skill ratings: openskill's Plackett-Luce model behind the store's ``Rater`` protocol.

After each finished match the store calls the rater, inside the finishing transaction,
with every human seat's final rank (1 is best; equal totals share a rank) and their
rating so far in the season. Each player is a team of one; openskill handles ties and
any number of players. A player new to the season starts at the model's default
(mu 25, sigma 25/3). The leaderboard shows and sorts by the conservative ``mu - 3 sigma``.

Computer seats are not rated: they are not in the players' list the store passes. A
match with a single human therefore leaves that human's rating where it was (a ranking
of one says nothing about skill); they still get the default if they had none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from openskill.models import PlackettLuce

from bot.store import RatedPlayer, Rating


class OpenSkillRater:
    """A :data:`bot.store.Rater`: call it with the rated players, get new ratings."""

    def __init__(self, model: PlackettLuce | None = None) -> None:
        self.model = model or PlackettLuce()

    @property
    def default(self) -> Rating:
        """The rating a player starts from."""
        return Rating(mu=self.model.mu, sigma=self.model.sigma)

    def __call__(self, players: Sequence[RatedPlayer]) -> Mapping[int, Rating]:
        players = sorted(players, key=lambda p: (p.rank, p.user_id))
        users = [p.user_id for p in players]
        if len(set(users)) != len(users):
            raise ValueError(f"a player is listed twice: {users}")
        if len(players) < 2:
            return {p.user_id: p.previous or self.default for p in players}
        teams = [
            [
                self.model.rating()
                if p.previous is None
                else self.model.rating(mu=p.previous.mu, sigma=p.previous.sigma)
            ]
            for p in players
        ]
        rated = self.model.rate(teams, ranks=[float(p.rank) for p in players])
        return {
            p.user_id: Rating(mu=team[0].mu, sigma=team[0].sigma)
            for p, team in zip(players, rated, strict=True)
        }
