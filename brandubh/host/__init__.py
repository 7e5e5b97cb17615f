"""``brandubh host``: two people, or a person and a bot, play brandubh
over the network (docs/host.md).

- :mod:`.clock`: Fischer clocks kept by the server;
- :mod:`.store`: every game in one SQLite file (write-ahead log);
- :mod:`.hub`: the games in play, each a :class:`~brandubh.session.Session`
  with a seat for each side, and their tokens, store, timers, bot threads
  and watchers;
- :mod:`.api`: the JSON interface over the hub; :mod:`.http`: serve's
  hardened HTTP server with live event streams added;
- :mod:`.client`: :class:`~.client.BotClient`, a program's seat in a few
  lines (standard library only).
"""
