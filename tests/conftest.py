import os
from pathlib import Path

import pytest

# the shared puzzle files sit beside the checkout (../shared/data); $SUDOKU_SHARED_DATA overrides
DATA = Path(os.environ.get("SUDOKU_SHARED_DATA") or Path(__file__).resolve().parent.parent.parent / "shared" / "data")

# the two grids DESIGN.md names: the catalog's first and last
RANK1_GRID = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
LAST_GRID = "123456789457893612986217354274538196531964827698721435342685971715349268869172543"


def data_path(name: str) -> Path:
    """A shared data file; a missing one fails the test (the suite is meant to run on them)."""
    path = DATA / name
    if not path.exists():
        pytest.fail(f"shared data file {path} not found: set SUDOKU_SHARED_DATA to the data folder")
    return path


@pytest.fixture(scope="session")
def data_dir() -> Path:
    data_path("README.md")
    return DATA


def read_data_lines(name: str) -> list[str]:
    return [ln.strip() for ln in data_path(name).read_text().splitlines() if ln.strip() and not ln.startswith("#")]
