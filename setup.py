"""Build hooks: the optional compiled engine (issue 10, ``aoi_env/compiled.py``) and the shipped
configs.

``AOI_ENV_COMPILE=1 pip install .`` compiles ``aoi_env.core`` and ``aoi_env.core.rules`` with
Cython; without the variable the build is pure Python.  Every build copies ``configs/*.yaml``
into the package ``train/configs/`` so that an installed wheel finds ``aoi train --config quick``
without the repository (``train.config.resolve_config``).  Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

CONFIGS = Path("configs")  # the single source of the shipped configs (train.config.SHIPPED_CONFIGS)


class BuildWithConfigs(build_py):
    """build_py that also copies the repository's configs into the built ``train`` package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:  # an editable install reads the repository's configs/ directly
            return
        target = Path(self.build_lib) / "train" / "configs"
        target.mkdir(parents=True, exist_ok=True)
        for source in sorted(CONFIGS.glob("*.yaml")):
            self.copy_file(str(source), str(target / source.name))


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
    setup(
        ext_modules=ext_modules,
        cmdclass={"build_py": BuildWithConfigs},
        options={"build_ext": {"parallel": os.cpu_count() or 1}} if ext_modules else {},
    )
