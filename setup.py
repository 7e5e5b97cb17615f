"""Build of the compiled engine; everything else is in pyproject.toml."""

import sys

from setuptools import setup

options = {}
# The extension uses only CPython's limited API, through cffi: one wheel
# serves every CPython from 3.9 on.
if sys.implementation.name == "cpython" and not hasattr(sys, "gettotalrefcount"):
    options["bdist_wheel"] = {"py_limited_api": "cp39"}

setup(
    cffi_modules=["csrc/build_ffi.py:ffibuilder"],
    options=options,
)
