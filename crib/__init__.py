"""The ``crib`` command: the roof, one console script assembling every subcommand.

Its modules are the project's only terminal I/O: :mod:`crib.engine` (score, discard, peg,
stats), :mod:`crib.read` (read, eval-vision), :mod:`crib.serve` (serve, db), :mod:`crib.drill` and
:mod:`crib.play` (drills and games in the terminal, with :mod:`crib.feedback`'s text). The
arrows point one way: ``crib`` imports the packages, and none of them imports ``crib``.
"""
