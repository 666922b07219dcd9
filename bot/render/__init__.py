"""Turning table state and events into words, and into pictures (PNG bytes), for the demo
and Discord; nothing here knows Discord."""
