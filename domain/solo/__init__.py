"""The solo modes: the base solo game against the automated rival (R-SO01..R-SO06) and the Tokugawa clan, the
solo rival of a game with Matcha (R-TK01..R-TK07).

`game` sets the solo game up, ends its rounds, scores the rival and keeps the rival's bookkeeping; `rival`
plays the rival's turn; `tokugawa` adds what the Tokugawa clan changes; `cards` is the solo cards' vocabulary.
This package's `__init__` stays empty of code.
"""
