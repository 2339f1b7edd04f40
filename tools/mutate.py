"""A small mutation tester: does a test fail when the rule it is named after is broken? (docs/mutation.md)"""

from __future__ import annotations

import argparse
import ast
import concurrent.futures
import dataclasses
import os
import queue
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

# Each ordering comparison becomes its boundary neighbour and its negation: both are classic off-by-one faults.
_COMPARE_SWAPS: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Lt: (ast.LtE, ast.GtE),
    ast.LtE: (ast.Lt, ast.Gt),
    ast.Gt: (ast.GtE, ast.LtE),
    ast.GtE: (ast.Gt, ast.Lt),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
}
_SYMBOL = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}
# Copied into each scratch tree: everything but the virtualenv, git's data and caches.
_NOT_COPIED = shutil.ignore_patterns(
    ".venv", ".git", "__pycache__", ".mypy_cache", ".ruff_cache", "node_modules"
)


@dataclasses.dataclass(frozen=True)
class Mutant:
    """One fault: the `index`-th mutation point of `path` (in the order the mutator walks the tree)."""

    path: str
    index: int
    line: int
    description: str


class _Mutator(ast.NodeTransformer):
    """Walks a module; lists every mutation point, or applies the one numbered `target`.

    Listing and applying share this one walk, so a mutant's number means the same node both times.
    """

    def __init__(self, skip_functions: re.Pattern[str] | None, target: int | None = None) -> None:
        self.skip_functions = skip_functions
        self.target = target
        self.points: list[tuple[int, str]] = []

    def _point(self, node: ast.AST, description: str) -> bool:
        """Record a mutation point; True when it is the one to apply."""
        self.points.append((getattr(node, "lineno", 0), description))
        return len(self.points) - 1 == self.target

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        if self.skip_functions and self.skip_functions.search(node.name):
            return node
        return self.generic_visit(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        if self.skip_functions and self.skip_functions.search(node.name):
            return node
        return self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> ast.AST:
        return node  # the error's words and details are not rules; whether it is raised is (see visit_If)

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        return node  # an assert only narrows types for mypy here

    def visit_Expr(self, node: ast.Expr) -> ast.AST:
        if isinstance(node.value, ast.Constant):
            return node  # a docstring
        return self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> ast.AST:
        self.generic_visit(node)
        for position, op in enumerate(node.ops):
            for replacement in _COMPARE_SWAPS.get(type(op), ()):
                text = f"{_SYMBOL[type(op)]} -> {_SYMBOL[replacement]}"
                if self._point(node, text):
                    node.ops[position] = replacement()
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if type(node.value) is int:  # not bool, a subclass of int
            for step in (1, -1):
                if self._point(node, f"{node.value} -> {node.value + step}"):
                    return ast.copy_location(ast.Constant(node.value + step), node)
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        swapped = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        if self._point(node, f"{type(node.op).__name__.lower()} -> {type(swapped).__name__.lower()}"):
            node.op = swapped
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Not) and self._point(node, "not dropped"):
            return node.operand
        return node

    def _condition(self, node: ast.If | ast.While | ast.IfExp) -> None:
        for value in (True, False):
            if self._point(node.test, f"condition -> {value}"):
                node.test = ast.copy_location(ast.Constant(value), node.test)

    def visit_If(self, node: ast.If) -> ast.AST:
        self.generic_visit(node)
        if not node.orelse and len(node.body) == 1 and isinstance(node.body[0], ast.Raise):
            # A guard: `if broken: raise ...`. Dropping it is the fault; `True` would raise always.
            if self._point(node, "raise-guarded check dropped"):
                return ast.copy_location(ast.Pass(), node)
            return node
        self._condition(node)
        return node

    def visit_While(self, node: ast.While) -> ast.AST:
        self.generic_visit(node)
        self._condition(node)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        self._condition(node)
        return node


def list_mutants(path: Path, root: Path, skip_functions: re.Pattern[str] | None) -> list[Mutant]:
    mutator = _Mutator(skip_functions)
    mutator.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
    relative = str(path.resolve().relative_to(root))
    return [Mutant(relative, i, line, text) for i, (line, text) in enumerate(mutator.points)]


def mutated_source(source: str, mutant: Mutant, skip_functions: re.Pattern[str] | None) -> str:
    mutator = _Mutator(skip_functions, target=mutant.index)
    tree = ast.fix_missing_locations(mutator.visit(ast.parse(source)))
    return ast.unparse(tree)


@dataclasses.dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    status: str  # "killed", "survived" or "timeout"
    seconds: float


def _run_tests(scratch: Path, tests: list[str], timeout: float, first: list[str] | None = None) -> str:
    """Run the selection in `scratch`; its own `domain` (and every package) is imported from there.

    With `first`, that narrower selection runs before: most mutants fail there within seconds, and only the
    ones it misses pay for the whole selection.
    """
    if first:
        deadline = time.monotonic() + timeout
        status = _run_tests(scratch, first, timeout)
        if status != "survived":
            return status
        timeout = deadline - time.monotonic()
    env = {**os.environ, "PYTHONPATH": str(scratch), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    # A session of its own, so a timeout ends pytest and anything it started, and nothing else.
    process = subprocess.Popen(
        command,
        cwd=scratch,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        code = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        return "timeout"
    return "survived" if code == 0 else "killed"


def _check_scratch(scratch: Path, tests: list[str], timeout: float) -> None:
    """The unmutated copy must import from itself and pass, or every mutant would look killed."""
    env = {**os.environ, "PYTHONPATH": str(scratch)}
    where = subprocess.run(
        [sys.executable, "-c", "import domain; print(domain.__file__)"],
        cwd=scratch,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(where).resolve().is_relative_to(scratch.resolve()):
        sys.exit(f"mutate: the scratch tree imports domain from {where}, not from itself")
    if _run_tests(scratch, tests, timeout) != "survived":
        sys.exit("mutate: the tests do not pass on the unmutated tree (or time out); nothing to measure")


def _tests_named_after(path: str, root: Path, tests: list[str]) -> list[str] | None:
    """The test files of the selection whose name holds the module's (test_castle.py for castle.py); for a
    module of a subpackage with none of its own, those named after the subpackage (every test_*matcha*.py for
    domain/matcha/expansion.py, every test_*solo*.py for domain/solo/rival.py)."""
    module = Path(path)
    names = [module.stem]
    if len(module.parts) > 2:  # domain/<subpackage>/<module>.py
        names.append(module.parent.name)
    for name in names:
        found: list[str] = []
        for selected in tests:
            folder = root / selected
            if folder.is_dir():
                found += sorted(str(f.relative_to(root)) for f in folder.rglob(f"test_*{name}*.py"))
        if found:
            return found
    return None


def run(
    mutants: list[Mutant],
    *,
    root: Path,
    tests: list[str],
    jobs: int,
    timeout: float,
    skip: re.Pattern[str] | None,
    first: list[str] | None = None,
) -> Iterator[Outcome]:
    by_name = {path: _tests_named_after(path, root, tests) for path in {m.path for m in mutants}}
    with tempfile.TemporaryDirectory(prefix="mutate-") as temp:
        scratches: queue.Queue[Path] = queue.Queue()
        for number in range(jobs):
            scratch = Path(temp) / f"tree{number}"
            shutil.copytree(root, scratch, ignore=_NOT_COPIED)
            scratches.put(scratch)
        baseline = time.monotonic()
        _check_scratch(Path(temp) / "tree0", tests, timeout * 3)
        print(f"unmutated tests pass in {time.monotonic() - baseline:.1f} s", flush=True)

        def one(mutant: Mutant) -> Outcome:
            narrow = first if first is not None else by_name.get(mutant.path)
            scratch = scratches.get()
            target = scratch / mutant.path
            original = target.read_text(encoding="utf-8")
            try:
                target.write_text(mutated_source(original, mutant, skip), encoding="utf-8")
                start = time.monotonic()
                status = _run_tests(scratch, tests, timeout, narrow)
                return Outcome(mutant, status, time.monotonic() - start)
            finally:
                target.write_text(original, encoding="utf-8")
                scratches.put(scratch)

        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            yield from pool.map(one, mutants)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("modules", nargs="+", type=Path, help="the Python files to mutate, from --root")
    parser.add_argument("--tests", nargs="+", default=["tests/unit/domain"], help="the pytest selection")
    parser.add_argument(
        "--first",
        nargs="+",
        help="a narrower selection run before --tests, for faster kills (default: the test files named after "
        "the module, e.g. test_castle.py for castle.py, where there are some)",
    )
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="the tree to copy (default: here)")
    parser.add_argument("--jobs", type=int, default=1, choices=(1, 2), help="mutants run at once")
    parser.add_argument(
        "--timeout", type=float, default=120.0, help="seconds per mutant before it counts as timed out"
    )
    parser.add_argument("--sample", type=int, help="at most this many mutants per module, drawn at random")
    parser.add_argument("--seed", type=int, default=0, help="the seed of --sample's draw")
    parser.add_argument(
        "--line", action="append", type=int, help="only the mutants on this line (repeatable)"
    )
    parser.add_argument(
        "--skip-functions",
        default=r"^(describe|text|words|__repr__|__str__)|_text$|_words$",
        help="a regex: functions whose name matches are not mutated (wording)",
    )
    parser.add_argument(
        "--again",
        type=Path,
        help="a previous run's output: run only the survivors it lists (give no --sample)",
    )
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    skip = re.compile(args.skip_functions) if args.skip_functions else None

    # A previous run's survivors, as it printed them: run only those again (after new tests, say).
    again = (
        {line.strip() for line in args.again.read_text(encoding="utf-8").splitlines()}
        if args.again
        else set()
    )
    mutants: list[Mutant] = []
    for module in args.modules:
        found = list_mutants(module if module.is_absolute() else root / module, root, skip)
        if args.line:
            found = [m for m in found if m.line in args.line]
        if args.again:
            found = [m for m in found if f"{m.path}:{m.line}: {m.description}" in again]
        if args.sample is not None and len(found) > args.sample:
            found = sorted(
                random.Random(f"{args.seed}:{module}").sample(found, args.sample), key=lambda m: m.index
            )
        print(f"{module}: {len(found)} mutants", flush=True)
        mutants += found
    if args.list:
        for mutant in mutants:
            print(f"{mutant.path}:{mutant.line}: {mutant.description}")
        return 0

    start = time.monotonic()
    outcomes: list[Outcome] = []
    for outcome in run(
        mutants,
        root=root,
        tests=args.tests,
        jobs=args.jobs,
        timeout=args.timeout,
        skip=skip,
        first=args.first,
    ):
        outcomes.append(outcome)
        m = outcome.mutant
        print(f"{outcome.status:8} {outcome.seconds:5.1f} s  {m.path}:{m.line}: {m.description}", flush=True)

    print(f"\nper module (killed / survived / timed out), {time.monotonic() - start:.0f} s in all:")
    for path in dict.fromkeys(o.mutant.path for o in outcomes):
        counts = [
            sum(o.mutant.path == path and o.status == s for o in outcomes)
            for s in ("killed", "survived", "timeout")
        ]
        print(f"  {path}: {counts[0]} / {counts[1]} / {counts[2]}")
    totals = {s: sum(o.status == s for o in outcomes) for s in ("killed", "survived", "timeout")}
    print(
        f"total: {len(outcomes)} mutants, {totals['killed']} killed, {totals['survived']} survived, "
        f"{totals['timeout']} timed out"
    )
    survivors = [o.mutant for o in outcomes if o.status == "survived"]
    if survivors:
        print("survivors:")
        for m in survivors:
            print(f"  {m.path}:{m.line}: {m.description}")
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
