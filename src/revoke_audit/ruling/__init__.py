"""One board's ruling: ``audit.audit_board`` (replay, judge, rule, check the stated
result), the time of discovery and the ruling that applies (``discovery``), the table's own
ruling held in the stated result (``table_ruling``), the revoke cards a recorder may have
slipped on, read again (``slips``), the Law 64C and 62D double-dummy figures (``equity``: a
revoke's cost measured; ``law64c``: 64C decided and a board's findings given their figures),
the options a run rules by (``options``), the ruling in the words a Director reads it out
(``director``), and the proven repairs of ``fix`` (``repair``).  It may import core, formats,
replay, laws and scoring; never reports, engine or cli."""
