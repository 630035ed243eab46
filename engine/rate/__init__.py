"""How hard a puzzle is: Sudoku Explainer's rating (ER/EP/ED) and its solution path."""
