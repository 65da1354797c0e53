"""Only the optional C accelerator of the lane (``src/revoke_audit/lane/_kernel.c``); the
project's metadata is in pyproject.toml.  ``optional=True``: where no compiler works, the
install goes on without it and the lane uses its Python twins (``lane/kernel.py``)."""
from setuptools import Extension, setup

setup(ext_modules=[Extension("revoke_audit.lane._kernel", ["src/revoke_audit/lane/_kernel.c"],
                             optional=True)])
