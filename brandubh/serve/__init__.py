"""``brandubh serve``: the board in a browser, to play the engine and to look
at saved games.

- :mod:`~brandubh.serve.api`: the JSON interface (:class:`Api`), without
  HTTP, over :class:`~brandubh.session.Session`;
- :mod:`~brandubh.serve.http`: the standard library's HTTP server in front
  of it (:class:`Server`), on the loopback address unless told otherwise;
- ``page.html``: the page, one file with its script and style.
"""

from .api import DEFAULT_PORT, MAX_LEVEL, Api, Reply, RequestError, Table, read_games
from .http import Server, host_warning

__all__ = ["Api", "RequestError", "Reply", "Server", "Table", "MAX_LEVEL", "DEFAULT_PORT", "read_games",
           "host_warning"]
