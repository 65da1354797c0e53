"""What a run writes: an audited board as boards.csv / findings.csv rows
(``rows``), what a board's field needs gathered from its row (``gather``), the writers (CSV, text, GitHub: ``report``; a lane row's CSV line from its cells:
``csv_line``; JSON streamed: ``streamed_json``; SARIF;
Parquet and typed DataFrames: ``frames``), the reports that wait for the fields' figures
(``field_reports``), a board explained (``explain``), the director's page (``html_page`` with
its Jinja2 ``templates/``), what a run reports and knows already (``selection``, ``baseline``)
and every output file written safely (``targets``).  It may import every layer below it (core
to ruling); never engine or cli."""
