"""The Matcha expansion (R-M01..R-M19): `expansion` (what it adds to the setup, the Tea Room and Himeji dice
spaces, its symbols), `tea_garden` (the geishas, the Tea House, the Viewing Platform and the pond), `himeji`
(the Himeji Principality's curtains) and `ceremony` (the ceremony tokens and the green row).

The expansion is data and effects on the base engine: the shared modules call in here through small hooks,
each behind a test of `state.board.matcha is not None`, true only in a game with the expansion. This
package's `__init__` stays empty of code.
"""
