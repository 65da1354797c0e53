"""Only the optional C accelerators (``src/revoke_audit/core/_speedups.c``); the project's
metadata is in pyproject.toml.  ``optional=True``: where no compiler works, the install goes on
without them and the package uses their Python twins (``speedups.py`` says which are which)."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("revoke_audit.core._speedups", ["src/revoke_audit/core/_speedups.c"],
                             optional=True)])
