"""The catalog's own error (no SQLAlchemy import, so commands can name it cheaply)."""


class CatalogError(RuntimeError):
    """The catalog cannot be used; the message says why and what to do, in one line."""
