"""The catalog's tables as SQLAlchemy 2 typed declarative models.

The migrations in ``migrations/versions`` are the source of truth for the schema; these models
mirror them (``tests/test_catalog.py`` compares the two) so code can use the ORM or Core
(``Band.__table__``) and people can read the schema in one place.

Conventions every new table follows:

* 64-bit keys and counters are :data:`BigInt` (``BIGINT`` on PostgreSQL, ``INTEGER`` on SQLite,
  where ``INTEGER PRIMARY KEY`` is the 64-bit rowid). Plain ``Integer`` is 32-bit on PostgreSQL.
* Constraint and index names come from :data:`NAMING_CONVENTION`, so a migration written on
  SQLite and one written on PostgreSQL name things identically (``pk_bands``,
  ``uq_band_automorphisms_band_index_transformation``, ``fk_..._bands``, ``ix_...``).
* Timestamps are UTC, ``DateTime(timezone=True)``, filled in Python (:func:`utcnow`).
* Canonical forms are readable strings (27 or 81 characters, ``.`` for an empty cell).

Tables (migration 0001):

``bands``
    The 416 minlex bands. ``band_index`` (0-415, position in lexicographic order of ``minlex``),
    ``minlex`` (27 digits, unique), ``automorphism_count`` (|Aut|, 1..108), ``class_size``
    (7,776 / |Aut|: bands with row 1 = 123456789 in the class), ``gangster_class`` (0-43).
``band_automorphisms``
    One row per automorphism of each minlex band: ``band_index`` (FK), ``ordinal`` (0-based,
    in the engine's order), ``transformation`` in the string form ``T:RRRRRRRRR:CCCCCCCCC:DDDDDDDDD``
    (see ``engine/transform.py``; rows 4-9 stay in place). Unique (band_index, transformation).
``runs``
    Generic tracking of long jobs (grid enumeration, clue-pattern enumeration, the 17-clue
    search, Dask scale-out): ``kind``, ``parameters`` (canonical JSON text), ``status``
    (``running`` / ``done`` / ``failed``), ``items_done`` / ``items_new`` / ``items_total``,
    ``created_at`` / ``updated_at`` / ``finished_at``. See ``catalog/runs.py``.
``run_checkpoints``
    One row per (run, shard): ``shard`` (any text key: a band index, a prefix, a file name),
    ``resume_cursor`` (JSON text: where to resume), ``items_done``, ``done``, ``updated_at``.

Migration 0004 (``catalog/grids.py``): ``ed_grid_prefixes`` (band 1, prefix, row 4, grids under
it) and ``ed_grid_bands`` (a complete band 1: grids, prefixes, automorphic grids, histogram).

Migration 0002:

``configurations``
    Canonical forms of grids and puzzles that were seen: ``canonical`` (81 characters),
    ``kind`` (``grid`` / ``puzzle``), ``convention`` (``minlex`` / ``pattern_first``),
    ``n_givens``, ``automorphism_count`` (NULL if not computed), ``source``, ``first_seen``.
    Unique (canonical, convention); indexed on (kind, n_givens, automorphism_count).
    See ``catalog/configurations.py``.

Migration 0007 widens ``configurations.kind`` to 16 characters and allows kinds ``pattern`` and
``configuration`` (clue patterns, ``x`` for a clue, and clue configurations) in the convention
``box_first`` (engine/patterns/canonical.py), and makes ``automorphism_count`` 64-bit. See ``catalog/patterns.py``.

Migration 0003:

``run_leases``
    Which worker holds which shard of a run: primary key (``run_id``, ``shard``), ``worker_id``
    (``host:pid:random``, NULL when released), ``expires_at`` (renewed by every committed chunk),
    ``claimed_at``. See ``jobs/leases.py``.

Migration 0008 (``catalog/search17.py``): ``s17_search_finds`` (pass, band-1 rank, canonical form,
the puzzle as found) and ``s17_search_bands`` (per pass and band 1: bands 2 done of the entry's,
pairs, bands 3, 17s found, CPU seconds, complete), the 17-clue search itself.

Migration 0009 (``catalog/grid_searches.py``): ``grid_searches``, one row per search of a grid
for its puzzles of n clues (``find-puzzles --store``).

Migration 0010 (``catalog/search17.py``): ``s17_search_slices``, the slices of bands 2 each
checkpoint of the 17-clue search covered, so that searching a slice again counts nothing twice.

Migration 0012 (``catalog/ratings.py``): ``ratings``, Sudoku Explainer's rating of each puzzle
``bin/rate --store`` rated (the exact string and its canonical form).

Adding a table: add the model here, then a migration ``migrations/versions/000N_*.py`` with
``down_revision`` the previous head, and bump ``catalog.db.HEAD_REVISION``.
"""
from __future__ import annotations

from datetime import datetime, timezone

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

NAMING_CONVENTION = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

BigInt = BigInteger().with_variant(Integer, "sqlite")
"""64-bit integer keys: BIGINT on PostgreSQL, INTEGER (the rowid) on SQLite."""

KINDS = ("grid", "puzzle", "pattern", "configuration")
CONVENTIONS = ("minlex", "pattern_first", "box_first")
RUN_STATUSES = ("running", "done", "failed")


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Band(Base):
    __tablename__ = "bands"
    __table_args__ = (
        CheckConstraint("band_index >= 0 AND band_index < 416", name="band_index_range"),
        CheckConstraint("automorphism_count >= 1", name="automorphism_count_positive"),
    )

    band_index: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    minlex: Mapped[str] = mapped_column(String(27), unique=True)
    automorphism_count: Mapped[int] = mapped_column(Integer)
    class_size: Mapped[int] = mapped_column(Integer)
    gangster_class: Mapped[int] = mapped_column(SmallInteger, index=True)
    # migration 0005: the 17-clue search's band order (valid 6-/5-clue sub-puzzles, fewest clues)
    valid6: Mapped[int | None] = mapped_column(Integer, nullable=True)
    valid5: Mapped[int | None] = mapped_column(Integer, nullable=True)
    min_clues: Mapped[int | None] = mapped_column(SmallInteger, nullable=True)
    s17_rank: Mapped[int | None] = mapped_column(SmallInteger, nullable=True)


class BandAutomorphism(Base):
    __tablename__ = "band_automorphisms"
    __table_args__ = (UniqueConstraint("band_index", "transformation"),)

    band_index: Mapped[int] = mapped_column(
        SmallInteger, ForeignKey("bands.band_index", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    ordinal: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    transformation: Mapped[str] = mapped_column(String(31))


class Run(Base):
    __tablename__ = "runs"
    __table_args__ = (
        CheckConstraint("status IN ('running', 'done', 'failed')", name="status"),
        Index(None, "kind", "status"),
    )

    id: Mapped[int] = mapped_column(BigInt, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(String(64))
    parameters: Mapped[str] = mapped_column(Text, default="{}")
    status: Mapped[str] = mapped_column(String(16), default="running")
    items_done: Mapped[int] = mapped_column(BigInt, default=0)
    items_new: Mapped[int] = mapped_column(BigInt, default=0)
    items_total: Mapped[int | None] = mapped_column(BigInt, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class RunCheckpoint(Base):
    __tablename__ = "run_checkpoints"
    __table_args__ = (UniqueConstraint("run_id", "shard"),)

    id: Mapped[int] = mapped_column(BigInt, primary_key=True, autoincrement=True)
    run_id: Mapped[int] = mapped_column(BigInt, ForeignKey("runs.id", ondelete="CASCADE"))
    shard: Mapped[str] = mapped_column(String(200))
    resume_cursor: Mapped[str | None] = mapped_column(Text, nullable=True)
    items_done: Mapped[int] = mapped_column(BigInt, default=0)
    done: Mapped[bool] = mapped_column(Boolean, default=False)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow, onupdate=utcnow)


class RunLease(Base):
    __tablename__ = "run_leases"

    run_id: Mapped[int] = mapped_column(BigInt, ForeignKey("runs.id", ondelete="CASCADE"), primary_key=True,
                                        autoincrement=False)
    shard: Mapped[str] = mapped_column(String(200), primary_key=True)
    worker_id: Mapped[str | None] = mapped_column(String(200), nullable=True)
    expires_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class Configuration(Base):
    __tablename__ = "configurations"
    __table_args__ = (
        UniqueConstraint("canonical", "convention"),
        CheckConstraint("kind IN ('grid', 'puzzle', 'pattern', 'configuration')", name="kind"),
        CheckConstraint("convention IN ('minlex', 'pattern_first', 'box_first')", name="convention"),
        Index(None, "kind", "n_givens", "automorphism_count"),
    )

    id: Mapped[int] = mapped_column(BigInt, primary_key=True, autoincrement=True)
    canonical: Mapped[str] = mapped_column(String(81))
    kind: Mapped[str] = mapped_column(String(16))
    convention: Mapped[str] = mapped_column(String(16), default="minlex")
    n_givens: Mapped[int] = mapped_column(SmallInteger)
    automorphism_count: Mapped[int | None] = mapped_column(BigInt, nullable=True)
    source: Mapped[str | None] = mapped_column(String(200), nullable=True)
    first_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EdGridPrefix(Base):
    """Migration 0004: ED grids under one (band 1, row-4 prefix)."""

    __tablename__ = "ed_grid_prefixes"
    __table_args__ = (CheckConstraint("band1 >= 0 AND band1 < 416", name="band1_range"),)

    band1: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    prefix: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    row4: Mapped[str] = mapped_column(String(9))
    grids: Mapped[int] = mapped_column(BigInt)


class EdGridBand(Base):
    """Migration 0004: a band 1 whose enumeration is complete."""

    __tablename__ = "ed_grid_bands"
    __table_args__ = (CheckConstraint("band1 >= 0 AND band1 < 416", name="band1_range"),)

    band1: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    grids: Mapped[int] = mapped_column(BigInt)
    prefixes: Mapped[int] = mapped_column(Integer)
    automorphic: Mapped[int] = mapped_column(BigInt)
    automorphism_histogram: Mapped[str] = mapped_column(Text)
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class EdGridFine(Base):
    """Migration 0006: the fine counts (checkpoints inside each prefix) of a chunk of prefixes."""

    __tablename__ = "ed_grid_fine"
    __table_args__ = (CheckConstraint("band1 >= 0 AND band1 < 416", name="band1_range"),)

    band1: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    first_prefix: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    prefixes: Mapped[int] = mapped_column(Integer)
    step: Mapped[int] = mapped_column(Integer)
    checkpoints: Mapped[int] = mapped_column(Integer)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class S17EntryBand(Base):
    """Migration 0005: a band 1 (by its rank in the search order) whose 17-clue entry is complete."""

    __tablename__ = "s17_entry_bands"
    __table_args__ = (CheckConstraint("band1_rank >= 0 AND band1_rank < 416", name="band1_rank_range"),
                      CheckConstraint("variant IN ('A', 'B', 'C')", name="variant_known"))

    variant: Mapped[str] = mapped_column(String(1), primary_key=True)
    band1_rank: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    band1: Mapped[int] = mapped_column(SmallInteger)
    bands2: Mapped[int] = mapped_column(BigInt)
    bands3: Mapped[int] = mapped_column(BigInt)
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class S17SearchFind(Base):
    """Migration 0008: a 17-clue puzzle the search found, per pass and band-1 rank (its canonical
    form is also in ``configurations``, kind ``puzzle``); ``puzzle`` as the search wrote it."""

    __tablename__ = "s17_search_finds"
    __table_args__ = (CheckConstraint("band1_rank >= 0 AND band1_rank < 416", name="band1_rank_range"),
                      CheckConstraint("pass IN ('A', 'B', 'C')", name="pass_known"),
                      Index(None, "canonical"))

    pass_: Mapped[str] = mapped_column("pass", String(1), primary_key=True)
    band1_rank: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    canonical: Mapped[str] = mapped_column(String(81), primary_key=True)
    puzzle: Mapped[str] = mapped_column(String(81))
    found_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class S17SearchBand(Base):
    """Migration 0008: one band 1 and pass of the 17-clue search, as far as it went: bands 2 done of
    the entry's, pairs (bands 2 with bands 3) and bands 3 searched, 17s found (distinct classes),
    CPU seconds; ``complete`` once every band 2 is done."""

    __tablename__ = "s17_search_bands"
    __table_args__ = (CheckConstraint("band1_rank >= 0 AND band1_rank < 416", name="band1_rank_range"),
                      CheckConstraint("pass IN ('A', 'B', 'C')", name="pass_known"))

    pass_: Mapped[str] = mapped_column("pass", String(1), primary_key=True)
    band1_rank: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    band1: Mapped[int] = mapped_column(SmallInteger)
    bands2_total: Mapped[int] = mapped_column(BigInt)
    bands2_done: Mapped[int] = mapped_column(BigInt)
    pairs: Mapped[int] = mapped_column(BigInt)
    bands3: Mapped[int] = mapped_column(BigInt)
    found: Mapped[int] = mapped_column(Integer)
    cpu_seconds: Mapped[float] = mapped_column(Float)
    complete: Mapped[bool] = mapped_column(Boolean)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class S17SearchSlice(Base):
    """Migration 0010: one slice of bands 2 (``first_band2`` up to ``stop_band2``) that a
    checkpoint of the 17-clue search covered, with its counters; the band 1's row grows by a
    slice only when no stored slice overlaps it."""

    __tablename__ = "s17_search_slices"
    __table_args__ = (CheckConstraint("band1_rank >= 0 AND band1_rank < 416", name="band1_rank_range"),
                      CheckConstraint("pass IN ('A', 'B', 'C')", name="pass_known"),
                      CheckConstraint("stop_band2 > first_band2", name="nonempty"))

    pass_: Mapped[str] = mapped_column("pass", String(1), primary_key=True)
    band1_rank: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    first_band2: Mapped[int] = mapped_column(BigInt, primary_key=True, autoincrement=False)
    stop_band2: Mapped[int] = mapped_column(BigInt)
    pairs: Mapped[int] = mapped_column(BigInt)
    bands3: Mapped[int] = mapped_column(BigInt)
    found: Mapped[int] = mapped_column(Integer)
    cpu_seconds: Mapped[float] = mapped_column(Float)
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class GridSearch(Base):
    """Migrations 0009, 0011: what is known of a grid's (minlex form) puzzles of ``clues`` clues
    (minimal ones only, or all): the count of a complete search, else the largest a search cut by
    a limit found."""

    __tablename__ = "grid_searches"
    __table_args__ = (CheckConstraint("clues >= 0 AND clues <= 81", name="clues_range"),)

    grid: Mapped[str] = mapped_column(String(81), primary_key=True)
    clues: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    minimal: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    complete: Mapped[bool] = mapped_column(Boolean)
    found: Mapped[int] = mapped_column(BigInt)
    automorphism_count: Mapped[int] = mapped_column(Integer)
    seconds: Mapped[float] = mapped_column(Float)
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class Rating(Base):
    """Migration 0012: Sudoku Explainer's rating of a puzzle as given (``bin/rate --store``):
    ER/EP/ED as ``serate`` prints them, or lower bounds (``complete`` False, ``lower`` naming the
    figures that are bounds) when the rating stopped at ``max_level``. ``canonical``: the pure
    minlex form, shared by every morph of the puzzle (each morph is a row of its own)."""

    __tablename__ = "ratings"
    __table_args__ = (CheckConstraint("max_level >= 0 AND max_level <= 5", name="max_level_range"),
                      CheckConstraint("line IN ('1.2.1.3', '2022')", name="line_known"),
                      Index("ix_ratings_canonical", "canonical"), Index("ix_ratings_er", "er"))

    puzzle: Mapped[str] = mapped_column(String(81), primary_key=True)
    line: Mapped[str] = mapped_column(String(8), primary_key=True)
    max_level: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    canonical: Mapped[str] = mapped_column(String(81))
    n_givens: Mapped[int] = mapped_column(SmallInteger)
    er: Mapped[float] = mapped_column(Float)
    ep: Mapped[float] = mapped_column(Float)
    ed: Mapped[float] = mapped_column(Float)
    complete: Mapped[bool] = mapped_column(Boolean)
    lower: Mapped[str] = mapped_column(String(8))
    steps: Mapped[int] = mapped_column(Integer)
    cpu_seconds: Mapped[float] = mapped_column(Float)
    source: Mapped[str | None] = mapped_column(String(255), nullable=True)
    rated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PatternSearch(Base):
    """Migration 0014: a search of a clue pattern (``x`` a clue) for every puzzle on it, with
    ``fixed`` digits (``''`` for none), minimal ones only or all."""

    __tablename__ = "pattern_searches"
    __table_args__ = (CheckConstraint("cells >= 0 AND cells <= 81", name="cells_range"),)

    pattern: Mapped[str] = mapped_column(String(81), primary_key=True)
    fixed: Mapped[str] = mapped_column(String(81), primary_key=True)
    minimal: Mapped[bool] = mapped_column(Boolean, primary_key=True)
    cells: Mapped[int] = mapped_column(SmallInteger)
    automorphism_count: Mapped[int] = mapped_column(BigInt)
    classes: Mapped[int] = mapped_column(BigInt)
    on_pattern: Mapped[int] = mapped_column(BigInt)
    complete: Mapped[bool] = mapped_column(Boolean)
    cpu_seconds: Mapped[float] = mapped_column(Float)
    computed_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class VicinityWalk(Base):
    """Migration 0014: a class (minlex form) a {-n+m} walk reached, and the step that reached it
    first (0: the walk's own puzzles); ``walk`` is the run id of the walk's first step."""

    __tablename__ = "vicinity_walks"
    __table_args__ = (CheckConstraint("step >= 0", name="step_range"), Index(None, "walk", "step"))

    walk: Mapped[int] = mapped_column(BigInt, primary_key=True, autoincrement=False)
    canonical: Mapped[str] = mapped_column(String(81), primary_key=True)
    step: Mapped[int] = mapped_column(SmallInteger)
