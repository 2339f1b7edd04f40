"""The base game's board areas, one module each, named as the rulebook names them: the bridges, the castle,
the courtiers' climb (courtier), the Well, the Lantern Area, Outside the Walls, the Passage of Time, the
gardens, the training yards and the player's Personal Domain.

Each module holds its area's rules (its placement menus, its actions, its setup deals) and cites them
(R-xx, docs/rules/base.md); the engine (`domain.engine`) wires them to the prompts. This package's
`__init__` stays empty of code: its modules import one another by their own names.
"""
