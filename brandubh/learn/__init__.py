"""The learned evaluation's pipeline: self-play data (:mod:`~brandubh.learn.selfplay`),
the fit (:mod:`~brandubh.learn.train`, numpy) and the net's tables and files
(:mod:`~brandubh.learn.net`); docs/learned.md. Like :mod:`brandubh.rl`, it
hands its batches to the compiled engine itself."""
