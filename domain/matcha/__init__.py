"""The Matcha expansion (R-M01..R-M19): `expansion`, `tea_garden`, `himeji` and `ceremony`.

The shared modules call in here through small hooks, each behind a test of `state.board.matcha is not None`, true
only in a game with the expansion. This package's `__init__` stays empty of code.
"""
