"""The command line: a thin click layer over the library (``commands``: audit,
explain, fix, watch), the settings file (``config``) and the process around it (``console``: a
stderr that cannot fail it, Ctrl-C quiet while the modules load).  The only layer that decides
exit codes; it may import every layer, and nothing imports it but ``__main__``."""
