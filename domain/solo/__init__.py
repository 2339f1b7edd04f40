"""The solo modes: the base solo game against the automated rival (R-SO01..R-SO06) and the Tokugawa clan, the solo
rival of a game with Matcha (R-TK01..R-TK07).
"""
