"""What any process that runs one cached Numba kernel costs (imports NumPy and Numba, loads one
trivial kernel from the cache): the floor under every command's start-up, timed by
``bench_startup.py`` as ``numba floor``. Not part of the package."""
import numba


@numba.njit(cache=True)
def one(x):
    return x + 1


one(1)
