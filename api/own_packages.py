"""A guard against another distribution's top-level ``domain`` or ``replay``: heronlog installs its three layers
as top-level packages (``api``, ``domain``, ``replay``, docs/operations/packaging.md#top-level-packages), names
other projects use too. Installed beside such a project, one package shadows or overwrites the other; this says
so at import, with what Python found, instead of a puzzling ``ImportError`` deep inside the engine.

Standard library only, and nothing of the checked packages is imported: their ``__init__`` source is read.
"""

from __future__ import annotations

from importlib import util

MARK = '__distribution__ = "heronlog"'
"""The line every one of heronlog's top-level packages has in its ``__init__.py``."""


def ensure_own_packages(*names: str) -> None:
    """``ImportError`` unless each of ``names`` is heronlog's own package (its ``__init__`` carries :data:`MARK`)."""
    for name in names:
        spec = util.find_spec(name)
        loader = spec.loader if spec is not None else None
        get_source = getattr(loader, "get_source", None)
        source = get_source(name) if get_source is not None else None
        if source is not None and MARK in source:
            continue
        where = spec.origin if spec is not None else None
        from importlib import metadata  # only to name the culprit: it reads every installed distribution

        providers = sorted(set(metadata.packages_distributions().get(name, [])) - {"heronlog"})
        raise ImportError(
            f"heronlog needs its own top-level package {name!r}, but Python finds "
            f"{where or 'none'}" + (f" (installed by {', '.join(providers)})" if providers else "") + ": "
            "another project uses the same name. Install heronlog in a virtual environment of its own "
            "(docs/operations/packaging.md#top-level-packages)."
        )
