"""Build the compiled engine (``make compiled``): a copy of ``domain/`` in ``build/compiled/`` whose modules
mypyc compiles to extension modules beside their source; ``HERONLOG_ENGINE=compiled`` runs it (domain.compiled).

Left as source: ``domain/__init__.py`` and ``domain/compiled.py`` (the switch runs before any build is chosen);
``domain/kinds/`` (each move kind is a class that subclasses a compiled one and has its methods written at import,
which mypyc refuses); ``domain/state.py`` and ``domain/prompts.py`` (the records a state is made of:
``state_from_dict`` reads their field types at run time, and a compiled class keeps only ``tuple`` of
``tuple[Bridge, ...]``); ``domain/game.py`` and ``domain/matcha/expansion.py`` (a new game's setup, taken as sent:
a compiled function refuses a value of another type with a TypeError before it can say InvalidSetup). About 3
minutes of CPU.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from domain.compiled import DIGEST, build_folder, source_digest  # noqa: E402

SOURCE = ROOT / "domain"
LEFT_AS_SOURCE = (
    "__init__.py",
    "compiled.py",
    "kinds/",
    "state.py",
    "prompts.py",
    "game.py",
    "matcha/expansion.py",
)


def main() -> int:
    folder = build_folder()
    built = folder / "domain"
    (folder / DIGEST).unlink(missing_ok=True)
    shutil.rmtree(built, ignore_errors=True)
    shutil.copytree(SOURCE, built, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    modules = [
        path.relative_to(folder).as_posix()
        for path in sorted(built.rglob("*.py"))
        if not path.relative_to(built).as_posix().startswith(LEFT_AS_SOURCE)
    ]
    done = subprocess.run([sys.executable, "-m", "mypyc", *modules], cwd=folder, check=False)
    if done.returncode:
        return done.returncode
    (folder / DIGEST).write_text(source_digest(SOURCE) + "\n", encoding="ascii")
    print(f"compiled {len(modules)} modules of domain/ into {built}; run with HERONLOG_ENGINE=compiled")
    return 0


if __name__ == "__main__":
    sys.exit(main())
