"""The web pages of the bot."""
