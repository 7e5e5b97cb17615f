"""``brandubh serve``: the board in a browser, to play the engine and to look
at saved games.

- :mod:`~brandubh.serve.api`: the JSON interface (:class:`Api`), without
  HTTP, over :class:`~brandubh.session.Session`;
- :mod:`~brandubh.serve.http`: the standard library's HTTP server in front
  of it (:class:`Server`), on the loopback address unless told otherwise;
- ``page.html``: the page, one file with its script and style.
"""

from .api import (DEFAULT_PORT, LEVEL_NOTES, MAX_LEVEL, MAX_REVIEWS, MAX_TABLES, Api, Reply, RequestError, Table,
                  read_games)
from .http import IDLE_TIMEOUT, LISTEN_QUEUE, MAX_CONNECTIONS, REQUEST_TIMEOUT, Server, host_warning

__all__ = ["Api", "RequestError", "Reply", "Server", "Table", "MAX_LEVEL", "LEVEL_NOTES", "MAX_TABLES",
           "MAX_REVIEWS", "DEFAULT_PORT", "IDLE_TIMEOUT", "REQUEST_TIMEOUT", "MAX_CONNECTIONS", "LISTEN_QUEUE",
           "read_games", "host_warning"]
