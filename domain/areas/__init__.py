"""The base game's board areas, one module each, named as the rulebook names them.

Each module holds its area's rules and cites them (R-xx, docs/rules/base.md); the engine (`domain.engine`) wires
them to the prompts. This package's `__init__` stays empty of code.
"""
