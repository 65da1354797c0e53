"""The vocabulary every layer speaks: seats, suits and cards as small ints, hands as
bitmasks (``cards``); the frozen ``BoardRecord`` every reader produces (``record``); every finding
code with its family and level (``codes``) and the ``Finding`` (``findings``); calls and contracts
(``auction``); outside text as every report shows it, and the rule for a CSV cell (``visible``);
the optional C kernel ``_speedups`` and its Python twins (``speedups``).  It imports nothing of
the package: only the standard library and itself."""
