"""The compiled engine's Python face: the only code that calls it (with
:mod:`brandubh.rl.vector`'s batch of games).

- :mod:`~brandubh.core.kernels`: which build of the engine runs here;
- :mod:`~brandubh.core.position`: one position (:class:`~brandubh.Position`),
  the engine's constants, squares and moves as numbers;
- :mod:`~brandubh.core.rules`: a game's record under a rule set
  (:class:`~brandubh.Rules`), and :mod:`~brandubh.core.outcomes`: how a
  game ends (:class:`~brandubh.Outcome`);
- :mod:`~brandubh.core.perft`: the move tree counted;
  :mod:`~brandubh.core.playouts`: random games counted by their endings;
- :mod:`~brandubh.core.search`: the search's limits, its body and its results;
- :mod:`~brandubh.core.buffers`: scratch arrays a thread, for the calls
  that fill several;
- :mod:`~brandubh.core.weights`: the evaluation's weights, and weights files;
- :mod:`~brandubh.core.stopping`: Ctrl-C, ``stop=`` and ``time_ms=`` for
  every long call;
- :mod:`~brandubh.core.clock`: how much of a clock one move may spend.

Nothing above this package touches cffi; nothing here imports the game,
the players, the views or the protocols.
"""
