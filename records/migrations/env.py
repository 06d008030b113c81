"""Alembic's environment: migrations run on the connection :mod:`records.schema` hands over.

:func:`records.schema.upgrade` opens the connection, takes the lock that serializes upgrades and
passes the connection in ``config.attributes["connection"]``; the migrations run inside its
transaction (all of them or none on PostgreSQL, whose DDL is transactional).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from records.models import Base

connection: Connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata)
with context.begin_transaction():
    context.run_migrations()
