"""``brandubh host``: a club, and two people (or a person and a bot) playing
brandubh over the network (docs/host.md).

- :mod:`.clock`: Fischer and correspondence clocks kept by the server;
- :mod:`.store`: every game and the club in one SQLite file (write-ahead
  log, a versioned schema);
- :mod:`.accounts`, :mod:`.club`, :mod:`.tournament`: the club's accounts
  and sessions, seeks, rated games and player pages, round robins;
- :mod:`.fanout`: every event stream on one thread;
- :mod:`.hub`: the games in play, each a :class:`~brandubh.session.Session`
  with a seat for each side, and their tokens, store, timers, bot threads
  and watchers;
- :mod:`.api`: the JSON interface over the hub; :mod:`.http`: serve's
  hardened HTTP server with live event streams added;
- :mod:`.client`: :class:`~.client.BotClient`, a program's seat in a few
  lines, and :class:`~.client.ClubBot`, a bot account (standard library
  only).
"""
