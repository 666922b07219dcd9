"""Configuration from the environment, read once at start.

Only what the store needs so far; the Discord front end adds its token and the rest.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATABASE = Path("data/bonken.sqlite3")


@dataclass(frozen=True)
class Settings:
    database_path: Path = DEFAULT_DATABASE
    """The SQLite file (``BONKEN_DATABASE``); its folder and the file are created at start."""

    @classmethod
    def from_env(cls, env: Mapping[str, str] = os.environ) -> Settings:
        path = env.get("BONKEN_DATABASE", "").strip()
        return cls(database_path=Path(path) if path else DEFAULT_DATABASE)
