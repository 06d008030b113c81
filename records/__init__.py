"""Everything the trainer stores: players, drills, answers, progress, rate-limit counts.

No web framework here: :class:`records.database.Database` opens the database (SQLite by
default, PostgreSQL by URL) and its functions take a connection and the time they run at, so
the web trainer, the terminal drills and the tests use them alike.

- :mod:`records.database`: the engine, the SQLite write lock, :func:`~records.database.writing`
- :mod:`records.models`, :mod:`records.schema` (and ``migrations/``): the tables and their versions
- :mod:`records.players`: guests, accounts, session keys and versions, merging a guest
- :mod:`records.drills`: deal, the daily set, record an answer, purge
- :mod:`records.progress`: the queries behind home, progress and history
- :mod:`records.limit_storage`: rate-limit counts kept in the database
- :mod:`records.errors`: what the records refuse
"""
