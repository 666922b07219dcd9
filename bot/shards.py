"""Which Discord shards this process runs, and so which guilds' tables it drives.

Discord sends a guild's events to one shard: ``(guild_id >> 22) % shard_count`` (its
documented formula). A bot in many guilds runs its shards in several processes
(``python -m bot --shards 0-3 --shard-count 8`` here, ``--shards 4-7`` there); each
process restores and drives only the tables of its own shards' guilds, since only it
receives their interactions. Without ``--shard-count`` one process runs every guild.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SHARDS = 4096
"""More shards than any bot needs (Discord's largest bots run a few thousand)."""


class ShardsError(ValueError):
    """``--shards`` or ``--shard-count`` is malformed; the message says how."""


@dataclass(frozen=True)
class Shards:
    """The shards this process runs; ``count`` None: one process, every guild."""

    ids: tuple[int, ...] = ()
    count: int | None = None

    @classmethod
    def parse(cls, ids: str | None, count: int | None) -> Shards:
        """From ``--shards`` ("0-3", "0,2,5" or "4") and ``--shard-count``.

        ``--shards`` without a count is refused (which shards of how many?); a count
        without ``--shards`` runs all of them in this process.
        """
        if count is None:
            if ids is not None:
                raise ShardsError("--shards needs --shard-count (how many shards in all)")
            return cls()
        if not 1 <= count <= MAX_SHARDS:
            raise ShardsError(f"--shard-count must be 1-{MAX_SHARDS}, not {count}")
        if ids is None:
            return cls(tuple(range(count)), count)
        chosen = sorted(set(_parse_ids(ids)))
        outside = [shard for shard in chosen if shard >= count]
        if outside:
            raise ShardsError(
                f"--shards {ids} names shard {outside[0]}, but shards are 0-{count - 1} "
                f"with --shard-count {count}"
            )
        return cls(tuple(chosen), count)

    def owns(self, guild_id: int) -> bool:
        """Whether this process receives (and so drives) the guild's events."""
        return self.count is None or (guild_id >> 22) % self.count in self.ids

    def describe(self) -> str:
        """For the log: "shards 0-3 of 8", or "every guild"."""
        if self.count is None:
            return "every guild (not sharded)"
        return f"shards {_ranges(self.ids)} of {self.count}"


def _parse_ids(text: str) -> list[int]:
    shards: list[int] = []
    for part in text.split(","):
        first, dash, last = part.strip().partition("-")
        try:
            low = int(first)
            high = int(last) if dash else low
        except ValueError:
            raise ShardsError(
                f"--shards must be shard numbers such as 0-3 or 0,2,5, not {text!r}"
            ) from None
        if high < low:
            raise ShardsError(f"--shards {text!r}: {part.strip()!r} is not a range of shards")
        if high >= MAX_SHARDS:
            raise ShardsError(f"--shards {text!r}: shards are below {MAX_SHARDS}")
        shards.extend(range(low, high + 1))
    return shards


def _ranges(ids: tuple[int, ...]) -> str:
    """(0, 1, 2, 3, 6) as "0-3,6"."""
    parts: list[str] = []
    start = previous = ids[0]
    for shard in (*ids[1:], None):
        if shard is not None and shard == previous + 1:
            previous = shard
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if shard is not None:
            start = previous = shard
    return ",".join(parts)
