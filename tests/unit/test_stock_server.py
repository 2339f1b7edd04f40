"""The server is made of stock parts: no module imports gunicorn's workers (the worker is chosen by its documented
name, api.server.runtime), and the only gunicorn classes heronlog extends are the two its documentation offers for
it, the embedded application (``gunicorn.app.base.BaseApplication``) and the logger class
(``gunicorn.glogging.Logger``). The checker is tested on code that breaks each rule."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHECKED = ("api", "replay", "domain", "bench", "tools")

EXTENSION_POINTS = {"gunicorn.app.base.BaseApplication", "gunicorn.glogging.Logger"}
"""The gunicorn classes its documentation has applications extend (custom application, ``logger_class``)."""


def problems(source: str, where: str = "<source>") -> list[str]:
    """What in ``source`` reaches into gunicorn beyond its documented extension points."""
    tree = ast.parse(source)
    names: dict[str, str] = {}  # a local name -> the gunicorn dotted name it stands for
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("gunicorn"):
                    names[alias.asname or alias.name.split(".")[0]] = (
                        alias.name if alias.asname else "gunicorn"
                    )
                if alias.name.startswith("gunicorn.workers"):
                    found.append(f"{where}:{node.lineno}: imports {alias.name}")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("gunicorn"):
            module = node.module or ""
            if module.startswith("gunicorn.workers") or any(
                f"{module}.{alias.name}".startswith("gunicorn.workers") for alias in node.names
            ):
                found.append(f"{where}:{node.lineno}: imports from {module}")
            for alias in node.names:
                names[alias.asname or alias.name] = f"{module}.{alias.name}"
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                dotted = ast.unparse(base)
                head, _, rest = dotted.partition(".")
                if head in names:
                    full = names[head] + ("." + rest if rest else "")
                    if full not in EXTENSION_POINTS:
                        found.append(f"{where}:{node.lineno}: class {node.name} extends {full}")
    return found


def test_nothing_reaches_into_gunicorn_beyond_its_documented_extension_points() -> None:
    found = []
    for folder in CHECKED:
        for path in sorted((ROOT / folder).rglob("*.py")):
            found += problems(path.read_text(), str(path.relative_to(ROOT)))
    assert found == []


def test_the_checker_finds_a_worker_imported_or_extended() -> None:
    assert problems("from gunicorn.workers.gthread import ThreadWorker\n")
    assert problems("import gunicorn.workers.ggevent as g\n")
    assert problems("from gunicorn.workers import gthread\nclass W(gthread.ThreadWorker):\n    pass\n")
    assert problems("from gunicorn.http.wsgi import Response\nclass R(Response):\n    pass\n")
    assert not problems(
        "from gunicorn.app.base import BaseApplication\nclass A(BaseApplication):\n    pass\n"
    )
    assert not problems("from gunicorn import glogging\nclass L(glogging.Logger):\n    pass\n")
