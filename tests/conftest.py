import os
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent.parent.parent / "shared" / "data"
if not DATA.exists():  # a checkout elsewhere: $SUDOKU_SHARED_DATA names the folder
    DATA = Path(os.environ.get("SUDOKU_SHARED_DATA", DATA))

# the two grids DESIGN.md names: the catalog's first and last
RANK1_GRID = "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
LAST_GRID = "123456789457893612986217354274538196531964827698721435342685971715349268869172543"


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA.exists():
        pytest.skip(f"shared data folder not found at {DATA}")
    return DATA


def read_data_lines(name: str) -> list[str]:
    path = DATA / name
    return [ln.strip() for ln in path.read_text().splitlines() if ln.strip() and not ln.startswith("#")]
