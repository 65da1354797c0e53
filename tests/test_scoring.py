"""Duplicate scores through endplay, checked by hand (Law 77 tables)."""
import pytest

from revoke_audit.scoring import result_string, score_ns


@pytest.mark.parametrize("contract, declarer, vul, tricks, expected", [
    ("4S", 0, "None", 10, 420),          # 120 + 300 game
    ("4S", 1, "EW", 9, 100),             # E-W vulnerable one down: N-S +100
    ("3NTX", 2, "NS", 10, 950),          # 200 + 500 + 50 insult + 200 doubled overtrick
    ("1NTX", 0, "None", 4, -500),        # doubled non-vul down 3: 100 + 200 + 200
    ("2HXX", 3, "None", 6, 600),         # W redoubled non-vul down 2: 200 + 400
    ("6HXX", 3, "All", 10, 1000),        # redoubled vul down 2: 400 + 600
    ("6S", 2, "None", 12, 980),          # 180 + 300 + 500 small slam
    ("7NT", 0, "All", 13, 2220),         # 220 + 500 + 1500 grand slam
    ("7NTX", 1, "EW", 6, 2000),          # doubled vul down 7: 200 + 6 x 300
    ("Pass", None, "All", None, 0),
])
def test_duplicate_scores(contract, declarer, vul, tricks, expected):
    assert score_ns(contract, declarer, vul, tricks) == expected


def test_unknown_inputs_give_no_score():
    assert score_ns("4S", 0, None, 10) is None
    assert score_ns("4S", None, "None", 10) is None
    assert score_ns(None, 0, "None", 10) is None
    assert score_ns("4S", 0, "None", None) is None


def test_result_strings():
    assert [result_string("4S", t) for t in (10, 9, 12)] == ["4S=", "4S-1", "4S+2"]
    assert result_string("3NTX", 10) == "3NTX+1"
    assert result_string("Pass", None) == "Pass"
    assert result_string("4S", None) == ""


def test_duplicate_arithmetic_is_endplays_for_every_contract():
    """Law 77 in our arithmetic gives endplay's score for every level, strain, risk, declarer,
    vulnerability and number of tricks (endplay stays the reference; it is not imported by the
    audit because of its start-up cost)."""
    from endplay.types import Contract, Denom, Penalty, Player, Vul

    penalty = {"": Penalty.passed, "X": Penalty.doubled, "XX": Penalty.redoubled}
    vuls = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
    strains = ("S", "H", "D", "C", "NT")
    checked = 0
    for level in range(1, 8):
        for strain in range(5):
            for risk in penalty:
                for declarer in range(4):
                    for vul in vuls:
                        for tricks in range(14):
                            c = Contract(level=level, denom=Denom(strain), declarer=Player(declarer),
                                         penalty=penalty[risk], result=tricks - 6 - level)
                            theirs = c.score(vuls[vul]) * (1 if declarer % 2 == 0 else -1)
                            ours = score_ns(f"{level}{strains[strain]}{risk}", declarer, vul, tricks)
                            assert ours == theirs, (level, strain, risk, declarer, vul, tricks)
                            checked += 1
    assert checked == 7 * 5 * 3 * 4 * 4 * 14


def test_the_command_does_not_load_endplay():
    """endplay's import loads matplotlib (half a second per process): the audit path must not
    need it unless --equity asks for the solver."""
    import subprocess
    import sys

    code = ("import sys, revoke_audit.cli.commands, revoke_audit.reports.report; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('endplay', 'pandas')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
