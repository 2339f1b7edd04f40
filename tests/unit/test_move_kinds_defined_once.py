"""A move kind is defined once (docs/engine/prompts-and-moves.md): its record, words, target and costs in one
module of `domain/kinds/`, and nowhere else a chain of `if kind == "..."` over move kinds, nor a move's JSON
form spelled out by hand. Read from the source with ``ast``, like the dependency rule in test_layers.py, and with
tests of the checkers themselves on small bad samples.

Move kinds and prompt kinds share many names (``take_die`` is a prompt and the move that answers it), so the
check tells them apart by where the kind is read: a move's kind is read from a move (``move["kind"]``,
``move.get("kind")``, ``move.kind``, where the move is any name with "move" in it, or one of the engine's names
for one), or from a variable assigned from such a read. A prompt's kind (``pending["kind"]``,
``KIND[type(frame)]``) may be compared with any name. A name that only a move kind has (``done``, ``convert``,
``ascend``...) is a move kind wherever it is compared with a kind."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from domain.kinds import KINDS
from domain.prompts import KIND

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("domain", "replay", "api")
PACKAGE = ROOT / "domain" / "kinds"
MOVE_KINDS = frozenset(KINDS)
ONLY_MOVES = MOVE_KINDS - frozenset(KIND.values())
"""Kinds that name a move and never a prompt."""
MOVE_NAMES = frozenset({"m", "checked", "plain", "outcome", "typed", "answer"})
"""Names the code gives a move without the word "move" in them."""


def _files() -> list[Path]:
    return [path for layer in LAYERS for path in sorted((ROOT / layer).rglob("*.py"))]


def definitions(paths: list[Path]) -> dict[str, list[str]]:
    """Each move kind registered with ``@kind("...")``, with the modules that register it."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                for decorator in node.decorator_list:
                    if (
                        isinstance(decorator, ast.Call)
                        and isinstance(decorator.func, ast.Name)
                        and decorator.func.id == "kind"
                        and decorator.args
                        and isinstance(decorator.args[0], ast.Constant)
                    ):
                        found[str(decorator.args[0].value)].append(str(path))
    return dict(found)


def _is_move(node: ast.expr) -> bool:
    """Whether an expression names a move: ``move``, ``record.move``, ``first_move``, ``m``..."""
    name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
    return name is not None and ("move" in name.lower() or name in MOVE_NAMES)


def _reads_move_kind(node: ast.expr, bound: set[str]) -> bool:
    """``move["kind"]``, ``move.get("kind")``, ``move.kind``, or a name bound from one of them."""
    if isinstance(node, ast.Name):
        return node.id in bound
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.slice, ast.Constant)
        and node.slice.value == "kind"
    ):
        return _is_move(node.value)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "get"
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value == "kind"
    ):
        return _is_move(node.func.value)
    return isinstance(node, ast.Attribute) and node.attr == "kind" and _is_move(node.value)


def _reads_a_kind(node: ast.expr) -> bool:
    """Whether an expression reads some kind, a move's or a prompt's: a name ``kind``, ``x["kind"]``,
    ``x.get("kind")``, ``x.kind``."""
    if isinstance(node, ast.Name):
        return "kind" in node.id
    if isinstance(node, ast.Subscript):
        return isinstance(node.slice, ast.Constant) and node.slice.value == "kind"
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get":
        return bool(node.args) and isinstance(node.args[0], ast.Constant) and node.args[0].value == "kind"
    return isinstance(node, ast.Attribute) and node.attr == "kind"


def _literals(node: ast.expr) -> set[str]:
    """The text constants of ``"x"`` or of a tuple, list or set of them."""
    items = node.elts if isinstance(node, ast.Tuple | ast.List | ast.Set) else [node]
    return {item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)}


def _compares_move_kind(subject: ast.expr, literals: set[str], bound: set[str]) -> bool:
    named = literals & MOVE_KINDS
    if not named:
        return False
    return _reads_move_kind(subject, bound) or (bool(named & ONLY_MOVES) and _reads_a_kind(subject))


def kind_chains(source: str) -> list[int]:
    """The lines comparing a move's kind with a move kind's name (``==``, ``!=``, ``in``, ``not in``, a
    ``match`` case); in each function, names assigned from a move's kind count as the move's kind."""
    tree = ast.parse(source)
    found: list[int] = []
    scopes: list[ast.AST] = [
        tree,
        *(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.Lambda)),
    ]
    for scope in scopes:
        bound = {
            target.id
            for node in ast.walk(scope)
            if isinstance(node, ast.Assign) and _reads_move_kind(node.value, set())
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(scope):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                for subject in sides:
                    literals = set().union(*(_literals(side) for side in sides if side is not subject))
                    if _compares_move_kind(subject, literals, bound):
                        found.append(node.lineno)
            elif isinstance(node, ast.Match):
                literals = {
                    pattern.value.value
                    for case in node.cases
                    for pattern in ast.walk(case.pattern)
                    if isinstance(pattern, ast.MatchValue)
                    and isinstance(pattern.value, ast.Constant)
                    and isinstance(pattern.value.value, str)
                }
                if _compares_move_kind(node.subject, literals, bound):
                    found.append(node.lineno)
    return sorted(set(found))


def hand_made_moves(source: str) -> list[int]:
    """The lines spelling out a move's JSON form by hand: a dict display with a ``"kind"`` that names a move
    kind and a ``"seat"``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            keys = {
                key.value: value
                for key, value in zip(node.keys, node.values, strict=True)
                if key is not None and isinstance(key, ast.Constant)
            }
            kind = keys.get("kind")
            if "seat" in keys and isinstance(kind, ast.Constant) and kind.value in MOVE_KINDS:
                found.append(node.lineno)
    return found


def test_each_move_kind_is_defined_in_exactly_one_module_of_the_kinds_package() -> None:
    found = definitions(_files())
    assert set(found) == MOVE_KINDS
    assert {kind: paths for kind, paths in found.items() if len(paths) != 1} == {}
    outside = {kind: paths[0] for kind, paths in found.items() if not Path(paths[0]).is_relative_to(PACKAGE)}
    assert outside == {}


def test_no_chain_over_move_kinds_remains_outside_the_kinds_package() -> None:
    offenders = {}
    for path in _files():
        if path.is_relative_to(PACKAGE):
            continue
        source = path.read_text(encoding="utf-8")
        lines = kind_chains(source) + hand_made_moves(source)
        if lines:
            offenders[str(path.relative_to(ROOT))] = lines
    assert offenders == {}


def test_the_checkers_see_a_kind_chain_a_hand_made_move_and_a_second_definition(tmp_path: Path) -> None:
    """The checkers themselves must be able to fail: each bad line is caught, and the prompt kinds are not."""
    bad = """
def describe(move):
    kind = move.get("kind")
    if kind == "take_die":
        return 1
    if move["kind"] in ("warrior", "gardener"):
        return 2
    if record.move.kind != "roll":
        return 3
    match move.kind:
        case "reveal":
            return 4
    return {"kind": "take_die", "seat": 0, "bridge": "coral", "end": "left"}


def finish(choice):
    return "Finish" if choice["kind"] in ("done", "rest") else "Choices"
"""
    assert kind_chains(bad) == [4, 6, 8, 10, 17]
    assert hand_made_moves(bad) == [13]
    good = """
def hint(pending):
    kind = pending.get("kind")
    if kind == "take_die":
        return "Choose a die"
    if KIND[type(frame)] in ("roll", "courtier"):
        return "Enter the dice"
    return {"kind": "over", "seat": None} if kind == "actions" else {"kind": "card", "pool": "steward"}
"""
    assert kind_chains(good) == [] and hand_made_moves(good) == []
    twice = tmp_path / "twice.py"
    twice.write_text('@kind("take_die")\nclass Again(PlayerMove):\n    pass\n')
    assert definitions([*sorted(PACKAGE.glob("*.py")), twice])["take_die"][1] == str(twice)
