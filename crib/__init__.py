"""The ``crib`` command: one console script assembling the subcommands each package offers.

The arrows point one way: :mod:`crib` imports :mod:`trainer.cli` (score, discard, peg, stats),
:mod:`vision.cli` (read, eval-vision) and :mod:`web.cli` (serve, db); ``vision`` and ``web``
use ``trainer``; ``trainer`` uses none of them.
"""
