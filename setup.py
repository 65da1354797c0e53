"""Only the optional C accelerators (one module from ``src/revoke_audit/core/_speedups*.c``);
the project's metadata is in pyproject.toml.  ``optional=True``: where no compiler works, the
install goes on without them and the package uses their Python twins (``speedups.py`` says
which are which)."""
from glob import glob

from setuptools import Extension, setup

CORE = "src/revoke_audit/core/"
# the module's table in _speedups.c, each concern in its own _speedups_*.c, what they share
# in _speedups.h
setup(ext_modules=[Extension("revoke_audit.core._speedups", sorted(glob(CORE + "_speedups*.c")),
                             depends=[CORE + "_speedups.h"], optional=True)])
