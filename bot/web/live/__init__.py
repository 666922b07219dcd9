"""The live table: a table in play drawn in the browser and played there.

Contract with the pages that embed it (the table page of :mod:`bot.web.live.page`, the
Discord Activity): kept stable.

- ``/static/table.js`` (with ``/static/cards.js`` before it, ``/static/viewer.css`` and
  ``/static/table.css``) defines the global ``BonkenTable.mount(element, {token,
  socketUrl, language})``: it draws the table in ``element`` and plays it for whoever
  ``token`` names (a seat, or nobody: the spectators' view), over the WebSocket at
  ``socketUrl`` (the server's ``/live/socket``), in ``language`` (``"en"`` or ``"nl"``).
  It answers an object with ``close()``.
- :func:`bot.web.live.tokens.seat_token` mints a person's seat token for
  (guild, table, user) under the web server's signer; :func:`~bot.web.live.tokens.
  watch_token` the table's spectator token. The socket reads either
  (:func:`~bot.web.live.tokens.read_ticket`).

The frames on the socket are described in :mod:`bot.web.live.socket`.
"""
