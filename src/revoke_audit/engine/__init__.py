"""Running the work: units of work (batches of files, parts of a large file) to
worker processes (``workers``) or Dask tasks (``dask_engine``), rows collected in input order
(``run``); the whole-board fast lane (``lane/``) with its kernel; ``watch``'s loop over files as
they grow and its live page (``watch_page``).  It may import every layer below it; never cli."""
