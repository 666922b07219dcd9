"""Turning table state and events into words (and, for Discord, embeds)."""
