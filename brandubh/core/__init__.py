"""The compiled engine's Python face: the only code that calls it (with
:mod:`brandubh.rl.vector`'s batch of games).

- :mod:`~brandubh.core.kernels`: which build of the engine runs here;
- :mod:`~brandubh.core.position`: one position (:class:`~brandubh.Engine`),
  the engine's constants, squares and moves as numbers;
- :mod:`~brandubh.core.record`: a game's record under a rule set
  (:class:`~brandubh.Rules`), perft and the playouts;
- :mod:`~brandubh.core.search`: the search's limits and results;
- :mod:`~brandubh.core.weights`: the evaluation's weights, and weights files;
- :mod:`~brandubh.core.stopping`: Ctrl-C, ``stop=`` and ``time_ms=`` for
  every long call;
- :mod:`~brandubh.core.clock`: how much of a clock one move may spend.

Nothing above this package touches cffi; nothing here imports the game,
the players, the views or the protocols.
"""
