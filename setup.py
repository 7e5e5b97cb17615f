"""Build of the compiled engine; everything else is in pyproject.toml."""

import shutil
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class build_py_with_csrc(build_py):
    """Also copy the engine's C sources into the package as brandubh/_csrc/:
    `brandubh codingame --export` reads them there when it runs from an
    installed wheel, which has no csrc/ beside it (brandubh/export.py)."""

    def run(self):
        super().run()
        target = Path(self.build_lib) / "brandubh" / "_csrc"
        target.mkdir(parents=True, exist_ok=True)
        for source in sorted(Path(__file__).resolve().parent.joinpath("csrc").glob("*.[ch]")):
            shutil.copyfile(source, target / source.name)


options = {}
# The extension uses only CPython's limited API, through cffi: one wheel
# serves every CPython from 3.9 on.
if sys.implementation.name == "cpython" and not hasattr(sys, "gettotalrefcount"):
    options["bdist_wheel"] = {"py_limited_api": "cp39"}

setup(
    cffi_modules=["csrc/build_ffi.py:ffibuilder"],
    cmdclass={"build_py": build_py_with_csrc},
    options=options,
)
