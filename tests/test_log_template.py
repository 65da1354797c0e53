"""The director's log template (docs/director-log-template.csv): one row of each kind of fact
the log accepts, loading cleanly, so a director can copy it and change the cells."""
from pathlib import Path

from revoke_audit.laws.table_facts import (DISCOVERED, FACTS, PENALTY_CARD, read_table_facts)

TEMPLATE = Path(__file__).resolve().parents[1] / "docs" / "director-log-template.csv"


def test_the_template_loads_and_states_every_fact():
    rows = read_table_facts(TEMPLATE).rows
    assert {r.fact for r in rows} == set(FACTS)
    # both grades of penalty card and both times of discovery
    assert {r.grade for r in rows if r.fact == PENALTY_CARD} == {"major", "minor"}
    assert {r.discovered for r in rows if r.fact == DISCOVERED} == {"table", "after-round"}
    assert [r.describe() for r in rows] == [
        "discovered table", "discovered after-round",
        "trick 2, East: penalty-card C6 major", "trick 4, West: penalty-card D5 minor",
        "trick 0, East: lead-required S", "trick 2, East: lead-forbidden S",
        "trick 5, West: play-highest H", "trick 7, North: play-lowest C",
    ]


def test_the_readme_points_to_the_template():
    readme = (TEMPLATE.parents[1] / "README.md").read_text()
    assert "docs/director-log-template.csv" in readme
