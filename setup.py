"""Build hook for the optional compiled engine (issue 10, ``aoi_env/compiled.py``).

``AOI_ENV_COMPILE=1 pip install .`` compiles ``aoi_env.core`` and ``aoi_env.core.rules`` with
Cython; without the variable the build is pure Python.  Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup

PACKAGES = ("aoi_env/core", "aoi_env/core/rules")  # aoi_env.compiled.PACKAGES


def extensions() -> list:
    if os.environ.get("AOI_ENV_COMPILE", "0") != "1":
        return []
    if any(arg in ("editable_wheel", "develop") for arg in sys.argv) or "--inplace" in sys.argv:
        raise SystemExit(
            "AOI_ENV_COMPILE=1 is for regular installs (pip install .): compiled modules next to an "
            "editable source tree would shadow every later edit of the .py files"
        )
    from Cython.Build import cythonize

    sources = sorted(str(p) for d in PACKAGES for p in Path(d).glob("*.py") if p.name != "__init__.py")
    return cythonize(
        sources,
        compiler_directives={"language_level": 3, "annotation_typing": False},  # Python semantics for hints
        nthreads=os.cpu_count() or 1,
        quiet=True,
        build_dir="build/cython",  # the generated C stays out of the source tree
    )


if __name__ == "__main__":  # setuptools runs this file as __main__; the tests import extensions()
    ext_modules = extensions()
    setup(ext_modules=ext_modules, options={"build_ext": {"parallel": os.cpu_count() or 1}} if ext_modules else {})
