"""Benchmarks, not tests: nothing here asserts a time.

    python -m pytest bench --benchmark-only

Each benchmark stores its rate in ``extra_info`` (shown with
``--benchmark-verbose`` or saved with ``--benchmark-json``); the compiler flags
the engine was built with are recorded beside them."""

import sysconfig

import pytest

from brandubh.core import kernels


def pytest_configure(config):
    # The test suite runs in parallel workers (pyproject's addopts: -n auto);
    # a benchmark times one process on a machine left to it, so here there
    # are no workers, whatever the options say.
    if hasattr(config.option, "numprocesses"):
        config.option.numprocesses = 0
        config.option.dist = "no"


@pytest.fixture
def flags(benchmark):
    benchmark.extra_info["cflags"] = " ".join(
        f for f in (sysconfig.get_config_var("CFLAGS") or "").split() if f.startswith(("-O", "-m", "-f"))
    ) + " + -O3 -std=c99 -fvisibility=hidden (csrc/build_ffi.py)"
    benchmark.extra_info["engine_build"] = kernels.ACTIVE.name
    return benchmark
