"""The optional compiled engine (issue 10): ``aoi_env.core`` built with Cython.

``AOI_ENV_COMPILE=1 pip install .`` (a regular, non-editable install; needs a C compiler)
compiles every module of ``aoi_env.core`` and ``aoi_env.core.rules`` from the same Python
source with Cython (``setup.py``).  Nothing in the source changes: the compiled modules are
the pure-Python engine without the interpreter loop, about a quarter faster (docs/performance.md).
Without the variable the package is pure Python, as every editable install is.

``engine_compiled()`` says which engine this process runs; ``aoi bench`` prints it, and the
test suite runs on both builds in CI (``.ci/run``).
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.machinery import EXTENSION_SUFFIXES

PACKAGES = ("aoi_env.core", "aoi_env.core.rules")
"""The packages whose modules the compiled build compiles (``setup.py`` lists the same)."""


def module_names() -> list[str]:
    """Every module of ``PACKAGES`` (without the packages' ``__init__``)."""
    names = []
    for package in PACKAGES:
        path = importlib.import_module(package).__path__
        names += [f"{package}.{m.name}" for m in pkgutil.iter_modules(path) if not m.ispkg]
    return sorted(names)


def is_compiled(module_name: str) -> bool:
    """True when the module was loaded from an extension module (a compiled build)."""
    file = getattr(importlib.import_module(module_name), "__file__", None) or ""
    return file.endswith(tuple(EXTENSION_SUFFIXES))


def engine_compiled() -> bool:
    """True when the engine runs compiled: every module of ``PACKAGES`` is an extension module.

    A mixture (some compiled, some not) means a broken install and raises ``RuntimeError``."""
    flags = {name: is_compiled(name) for name in module_names()}
    if len(set(flags.values())) > 1:
        python = sorted(name for name, compiled in flags.items() if not compiled)
        raise RuntimeError(f"a partly compiled engine: {', '.join(python)} are Python; reinstall aoi-env")
    return all(flags.values())
