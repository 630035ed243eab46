"""The catalog's own error (no SQLAlchemy import, so commands can name it cheaply)."""


class CatalogError(RuntimeError):
    """The catalog cannot be used; the message says why and what to do, in one line."""


class LeaseLost(CatalogError):
    """A worker's lease on a shard was taken over (it expired and another worker claimed it):
    its chunk was rolled back, and it must stop working that shard."""


class ConnectionLost(CatalogError):
    """The database server went away or refused the connection (PostgreSQL ``OperationalError``:
    a terminated backend, a restart, a network fault, a serialization failure). The transaction
    in flight was rolled back; the runner retries with backoff (``jobs/runner.py``)."""
