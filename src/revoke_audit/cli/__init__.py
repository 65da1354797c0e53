"""The command line: a thin click layer over the library: the group and what its
commands share (``main``), one module per command (``audit``, ``explain``, ``fix``, ``watch``,
registered by ``commands``), the settings file (``config``) and the process around it (``console``: a
stderr that cannot fail it, Ctrl-C quiet while the modules load).  The only layer that decides
exit codes; it may import every layer, and nothing imports it but ``__main__``."""
