"""The engine's one speed switch: the pure-Python source (the reference, and the default) or the same source
compiled with mypyc (``make compiled``, docs/performance/index.md).

``HERONLOG_ENGINE=compiled`` makes the ``domain`` package load its modules from the compiled build (a copy of
``domain/`` with extension modules beside the source, in ``build/compiled/`` or ``HERONLOG_ENGINE_BUILD``); the
build must have been made from the very source it stands for, else the import fails and says so, as it does when
there is no build. Anything else than ``pure`` (or unset) and ``compiled`` is refused.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

SWITCH = "HERONLOG_ENGINE"
BUILD = "HERONLOG_ENGINE_BUILD"
SOURCE = Path(__file__).resolve().parent
DIGEST = "source.sha256"
"""The file of the build that names the source it was compiled from (`source_digest`)."""


class EngineUnavailable(ImportError):
    """The engine the switch asks for cannot be loaded: its message is the one line a command stops with."""

    bad_setting = True


def build_folder() -> Path:
    """Where the compiled build is: the folder holding its ``domain`` package and mypyc's shared library."""
    return Path(os.environ.get(BUILD) or SOURCE.parent / "build" / "compiled")


def source_digest(package: Path) -> str:
    """SHA-256 over every module of a ``domain`` package folder, by path and content."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def build_problem() -> str | None:
    """Why the compiled build cannot stand for this source (no build, or a build of other source), or None when
    it can."""
    folder = build_folder()
    try:
        made_from = (folder / DIGEST).read_text(encoding="ascii").strip()
    except OSError:
        return f"there is no compiled build in {folder}"
    if made_from != source_digest(SOURCE):
        return f"the build in {folder} is of other source"
    return None


def choose(package_path: list[str]) -> str:
    """Point the ``domain`` package (its ``__path__``) at the build the switch asks for; its name."""
    wanted = os.environ.get(SWITCH) or "pure"
    if wanted == "pure":
        return "pure"
    if wanted != "compiled":
        raise EngineUnavailable(f"{SWITCH}={wanted!r}: it is 'pure' (the default) or 'compiled'")
    problem = build_problem()
    if problem is not None:
        raise EngineUnavailable(f"{SWITCH}=compiled, but {problem}: make compiled")
    folder = build_folder()
    package_path[:] = [str(folder / "domain")]
    sys.path.append(str(folder))  # mypyc's runtime library, shared by the compiled modules
    return "compiled"
