"""The Discord front end's parts: the presenter and its feeds, the controllers behind the
commands and buttons, each feature's items (:mod:`bot.ui.items` gathers them)."""
