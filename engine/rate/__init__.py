"""How hard a puzzle is: Sudoku Explainer's rating (ER/EP/ED) and its solution path.

:func:`rate` (in ``rating``) follows ``serate`` 1.2.1.3: the same techniques with the same
difficulties, asked in the same order, the same choice among the hints each finds. The kernels:
``_state`` (the candidate state), ``_basic``, ``_wings``, ``_unique`` (techniques up to aligned
pair exclusion), ``_unary`` (forcing chains and cycles), ``_run``/``_multi``/``_advanced`` (multiple,
dynamic and Nishio chains, dynamic (+)), ``_nested`` (the nested levels, compiled apart), ``_loop``
(the rating loop); ``techniques`` names the steps.
"""
from .rating import LINES, MAX_LEVEL, Rating, Step, cell_name, not_unique, rate, se_round
from .techniques import technique_name

__all__ = ["LINES", "MAX_LEVEL", "Rating", "Step", "cell_name", "not_unique", "rate", "se_round", "technique_name"]
