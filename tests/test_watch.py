"""``watch``: hand records followed as they are written - each finding announced once, when it
first appears, withdrawn when a corrected record drops it; what a half-written file holds waits;
the round decides the ruling (64A while it is on, 64B5 after).  The ``Watch`` state is driven
here by hand (``read`` after each write), with a clock the test sets."""
import os
import signal
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path
from queue import Empty, Queue

import pytest

from revoke_audit.engine import watch as watch_module
from revoke_audit.ruling.options import AuditOptions
from revoke_audit.engine.watch import CHANGED, NEW, WITHDRAWN, Watch, announcement_line, followed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from session_writer import corrected, save_whole, session_games, write_session  # noqa: E402

GAMES = session_games()
REVOKE = GAMES[1]  # board 2: West revokes on trick 3, established when East leads trick 4
CLEAN = GAMES[0]
RUFF = GAMES[2]  # board 3: South ruffs trick 10 with HT holding D5 and wins it (64A1)
DEFECTIVE = GAMES[3]  # board 4: West plays no card to trick 2 (67B1)
ESTABLISHED = 13  # cards: East leads SQ to trick 4 (its offending side plays to the next trick)


class Clock:
    def __init__(self, now: float = 1_000_000.0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def watcher(clock=None, minutes: float = 15) -> Watch:
    return Watch(AuditOptions(equity=False), minutes, clock or Clock())


def write(path: Path, text: str, mtime: float | None = None) -> None:
    path.write_text(text)
    if mtime is not None:
        os.utime(path, (mtime, mtime))


def said(announcements) -> list[tuple[str, str, object]]:
    return [(a.kind, a.finding["code"], a.finding["trick"]) for a in announcements]


def card_by_card(path, w, board) -> list:
    """``board`` saved whole to ``path`` after each of its 52 cards (the cards not yet played
    as ``-``), read by the watch ``w`` each time: (cards written, announcement) of each one."""
    heard = []
    for cards in range(1, 53):
        write(path, board.text(1, cards, placeholders=True))
        heard += [(cards, a) for a in w.read(str(path))]
    return heard


def test_a_revoke_is_announced_once_when_the_next_trick_establishes_it(tmp_path):
    path, w = tmp_path / "t1.pbn", watcher()
    heard = [(cards, *s) for cards, a in card_by_card(path, w, REVOKE) for s in said([a])]
    assert heard == [(ESTABLISHED, NEW, "RV001", 3)]  # during the round: 64A, once


def test_a_ruling_the_cards_already_settle_is_announced_once_with_its_transfer(tmp_path):
    """Board 3 saved whole on every card: West leads D2 to trick 10, North DK, East D7, and
    South (declarer) ruffs with HT holding D5, winning the trick.  Having won it he leads D5 to
    trick 11 (card 41): that establishes the revoke.  North's only diamond left is DQ, above
    every diamond still out (West DT D3, East D9 D8), and he must follow: trick 11 is his
    whatever is played, so the cards already settle that North-South win a later trick, and
    64A1 transfers two tricks from the first announcement (issue 32: what the cards settle);
    North's DQ at card 44 changes nothing, so nothing is said again."""
    path, w = tmp_path / "shared.pbn", watcher()
    heard = card_by_card(path, w, RUFF)
    assert [(cards, a.kind, a.finding["code"], a.finding["law"], a.finding["transferred"])
            for cards, a in heard] == [(41, NEW, "RV001", "64A1", 2)]
    line = announcement_line(heard[0][1])
    assert "2 tricks transferred to East-West (64A1)" in line
    assert (w.new, w.changed, w.withdrawn, w.standing) == (1, 0, 0, 1)


#: Board 3 played so that its later tricks are not settled when the revoke is established:
#: East keeps SK (he discards D8, not SK, on South's HJ at trick 6), so South's S9 lead to
#: trick 11 loses to it.  Hands after trick 10 (every card checked against the Deal):
#: West S7 DT D3, North S5 S4 DQ, East SK D9 C9, South S9 S8 D5 (South ruffed trick 10 with HT
#: holding D5: the revoke).  Tricks in the Play tag's columns W N E S, and each one's leader.
UNSETTLED = replace(RUFF, tricks=RUFF.tricks[:5] + (
    ("H9", "S3", "D8", "HJ"),   # 6: South leads HJ, East discards D8 and keeps SK
) + RUFF.tricks[6:10] + (
    ("S7", "S5", "SK", "S9"),   # 11: South leads S9 (establishes the revoke); East's SK wins
    ("D3", "DQ", "D9", "D5"),   # 12: East leads D9; North's DQ, his only diamond, wins
    ("DT", "S4", "C9", "S8"),   # 13: North leads S4; South's S8 wins
), leaders=RUFF.leaders[:10] + (3, 2, 1))


def test_a_ruling_that_later_tricks_change_is_announced_again(tmp_path):
    """Board 3 (``UNSETTLED``) saved whole on every card.  Card 41, South's S9 lead to trick
    11, establishes his trick-10 revoke.  West must play S7, North S5 or S4, East his only
    spade SK: trick 11 is East-West's whatever is played, and nothing later is played yet, so
    64A1 transfers the revoke trick alone: 1 trick, said once (cards 42 to 44 change nothing).
    Card 45, East's D9 lead to trick 12: South must play D5, West DT or D3, North his only
    diamond DQ, above both - trick 12 is North-South's whatever is played.  The offending side
    now wins a later trick, so 64A1 transfers a second: said again, as changed, once; trick 13
    (South's S8 wins it) changes nothing more, since 64A1 transfers at most two."""
    assert [sorted(t) for t in zip(*UNSETTLED.tricks)] == [sorted(t) for t in zip(*RUFF.tricks)]
    path, w = tmp_path / "shared.pbn", watcher()
    heard = card_by_card(path, w, UNSETTLED)
    assert [(cards, a.kind, a.finding["code"], a.finding["law"], a.finding["transferred"])
            for cards, a in heard] == [(41, NEW, "RV001", "64A1", 1),
                                       (45, CHANGED, "RV001", "64A1", 2)]
    line = announcement_line(heard[1][1])
    assert " changed: " in line and "2 tricks transferred to East-West (64A1)" in line
    assert "2 tricks transferred" in heard[1][1].finding["ruling"]
    assert (w.new, w.changed, w.withdrawn, w.standing) == (1, 1, 0, 1)


def test_a_withdrawn_finding_is_said_with_its_last_words(tmp_path):
    """Words that change without changing the transfer (the result becomes known when the
    board is complete) are not said, but kept: a withdrawal says the finding as it last was."""
    path, w = tmp_path / "t1.pbn", watcher()
    write(path, REVOKE.text(1, 20))
    assert said(w.read(str(path))) == [(NEW, "RV001", 3)]
    write(path, REVOKE.text(1, 52))
    assert w.read(str(path)) == []
    save_whole(path, corrected(REVOKE.text(1, 52)))
    (gone,) = w.read(str(path))
    assert gone.kind == WITHDRAWN and "11 adjusted" in gone.finding["ruling"]


def test_a_card_not_yet_played_in_the_last_trick_is_not_a_finding(tmp_path):
    """Board 4 saved whole on every card, the cards not yet played ``-``: while its last trick
    still has a ``-``, the board is in play, so West's missing card to trick 2 is not announced
    as "it can only be H5" (RC013) when he has played his twelfth card; with the whole trick
    13 written it is the defective trick (67B1), announced once."""
    path, w = tmp_path / "shared.pbn", watcher()
    heard = [(cards, *s) for cards, a in card_by_card(path, w, DEFECTIVE) for s in said([a])]
    assert [(cards, kind, code[:2]) for cards, kind, code, _ in heard] == [(52, NEW, "DT")]


def test_a_board_its_table_has_left_is_no_longer_in_play(tmp_path):
    """The same table begins board 1 after board 4's record stopped with two ``-`` in its
    last trick: board 4 is over, so what its record leaves (West's trick-2 card, deduced) is
    said."""
    path, w = tmp_path / "shared.pbn", watcher()
    write(path, DEFECTIVE.text(1, 50, placeholders=True))
    assert said(w.read(str(path))) == []
    write(path, DEFECTIVE.text(1, 50, placeholders=True) + "\n" + CLEAN.text(1, 4))
    assert ("new", "RC013", 2) in said(w.read(str(path)))


def test_a_half_written_file_waits_and_is_not_an_error(tmp_path):
    path, w = tmp_path / "t1.pbn", watcher()
    text = REVOKE.text(1, 52)
    heard = []
    for size in range(1, len(text) + 1):  # every moment of a save caught half done
        write(path, text[:size])
        heard += said(w.read(str(path)))
    assert heard == [(NEW, "RV001", 3)]


def test_a_corrected_record_withdraws_its_finding(tmp_path):
    path, w = tmp_path / "t1.pbn", watcher()
    write(path, REVOKE.text(1, 52))
    assert said(w.read(str(path))) == [(NEW, "RV001", 3)]
    save_whole(path, corrected(REVOKE.text(1, 52)))
    assert said(w.read(str(path))) == [(WITHDRAWN, "RV001", 3)]
    assert w.standing == 0 and (w.new, w.withdrawn) == (1, 1)


def test_only_the_changed_board_is_audited_again(tmp_path, monkeypatch):
    path, w = tmp_path / "t1.pbn", watcher()
    write(path, CLEAN.text(1, 52) + "\n" + REVOKE.text(2, 20))
    w.read(str(path))
    audited = []
    real = watch_module.audit_board
    monkeypatch.setattr(watch_module, "audit_board",
                        lambda record, *a: audited.append(record.board) or real(record, *a))
    write(path, CLEAN.text(1, 52) + "\n" + REVOKE.text(2, 24))
    w.read(str(path))
    assert audited == ["2"]


def _grow(path: Path, steps) -> None:
    with open(path, "ab") as fh:  # appended: the same file, its bytes before kept
        fh.write(steps.encode())


def _session_of(tables: int) -> str:
    """``tables`` finished clean boards, each at its own table, after a PBN header."""
    return "% PBN 2.1\n% EXPORT\n\n" + "\n".join(CLEAN.text(t, 52) for t in range(1, tables + 1))


def test_a_file_that_only_grew_is_read_on_from_near_its_end(tmp_path, monkeypatch):
    """150 finished boards, then board 2 of table 151 appended trick by trick: each read after
    an append reads the boards from ``BACK`` boards before the last one on, not the file, and
    says exactly what a watch reading the whole file each time says (the revoke, once, with
    the same line and game); the reads are counted in boards given by the readers."""
    from revoke_audit.engine import watch_read

    whole_path, grown_path = tmp_path / "whole.pbn", tmp_path / "grown.pbn"
    for p in (whole_path, grown_path):
        write(p, _session_of(150))
    w, whole = watcher(), watcher()
    read = []
    real_kept = watch_read._kept

    def counted(records):
        for r in real_kept(records):
            read.append(r.game)
            yield r

    monkeypatch.setattr(watch_read, "_kept", counted)
    assert w.read(str(grown_path)) == [] and len(read) == 2 * 150  # keys, then boards
    with monkeypatch.context() as m:
        m.setattr(watch_module, "splittable", lambda path: False)  # always read whole
        assert whole.read(str(whole_path)) == []
    text = ""
    heard, heard_whole = [], []
    for cards in range(4, 53, 4):  # a trick at a time
        full = "\n" + REVOKE.text(151, cards)
        added, text = full[len(text):], full
        _grow(grown_path, added)
        read.clear()
        heard += [(a.kind, a.finding["code"], a.finding["line"], a.finding["game"])
                  for a in w.read(str(grown_path))]
        assert 0 < len(read) <= 2 * (watch_read.BACK + 2)  # two passes over the window
        _grow(whole_path, added)
        with monkeypatch.context() as m:
            m.setattr(watch_module, "splittable", lambda path: False)
            heard_whole += [(a.kind, a.finding["code"], a.finding["line"], a.finding["game"])
                            for a in whole.read(str(whole_path))]
    assert heard == heard_whole and [h[:2] for h in heard] == [(NEW, "RV001")]
    assert heard[0][3] == 151 and w.files[str(grown_path)].resume is not None
    assert list(w.files[str(grown_path)].boards) == list(whole.files[str(whole_path)].boards)


def test_a_file_rewritten_in_place_longer_is_read_whole(tmp_path):
    """The same file (same inode) rewritten longer with an early board changed - board 2's
    revoke corrected, far before the boards read again (``BACK``), a board appended - is not
    read on from its end: its first bytes are not the ones read before (their digest), so it
    is read whole and the corrected revoke is withdrawn."""
    path, w = tmp_path / "t.pbn", watcher()

    def session(board2: str, tables: int) -> str:
        return "\n".join([CLEAN.text(1, 52), board2] + [CLEAN.text(t, 52)
                                                      for t in range(3, tables + 1)])

    write(path, session(REVOKE.text(2, 52), 100))
    assert said(w.read(str(path))) == [(NEW, "RV001", 3)]
    assert w.files[str(path)].resume is not None
    before = os.stat(path).st_ino
    with open(path, "r+") as fh:  # in place: written again, longer
        fh.write(session(corrected(REVOKE.text(2, 52)), 101))
    assert os.stat(path).st_ino == before
    assert said(w.read(str(path))) == [(WITHDRAWN, "RV001", 3)]
    assert len(w.files[str(path)].boards) == 101


def test_rewritten_renamed_truncated_or_vanished_files_say_nothing_again(tmp_path):
    path, w = tmp_path / "t1.pbn", watcher()
    text = CLEAN.text(1, 52) + "\n" + REVOKE.text(1, 52)
    write(path, text)
    assert said(w.read(str(path))) == [(NEW, "RV001", 3)]
    save_whole(path, text)  # rewritten whole, the same
    assert w.read(str(path)) == []
    write(path, "")  # truncated, then written again
    assert w.read(str(path)) == []
    write(path, text[:len(text) // 2])
    assert w.read(str(path)) == []
    write(path, text)
    assert w.read(str(path)) == []
    moved = tmp_path / "t1-old.pbn"
    os.rename(path, moved)  # renamed (rotated)
    assert w.read(str(path)) == [] and w.read(str(moved)) == []
    os.remove(moved)  # vanished: forgotten, not withdrawn
    assert w.read(str(moved)) == [] and w.files == {} and w.withdrawn == 0


def test_a_revoke_first_read_after_the_round_is_ruled_so(tmp_path):
    """The board is complete (no revoke in it as entered) from the file's modification time;
    the revoke entered 9 minutes later is in the round, 11 minutes later it is not."""
    for minutes, code in ((9, "RV001"), (11, "RV002")):
        clock = Clock()
        path, w = tmp_path / f"t{minutes}.pbn", watcher(clock, minutes=10)
        write(path, corrected(REVOKE.text(1, 52)), mtime=clock.now - 60)
        assert w.read(str(path)) == []
        clock.now += minutes * 60 - 60
        save_whole(path, REVOKE.text(1, 52))  # the record entered again, with the revoke
        assert said(w.read(str(path))) == [(NEW, code, 3)]


def test_the_next_board_of_the_table_ends_the_round(tmp_path):
    path, w = tmp_path / "t1.pbn", watcher()
    other = tmp_path / "t2.pbn"
    # the revoke is first seen when table 1 has begun its next board; table 2 has not
    write(path, REVOKE.text(1, 52) + "\n" + CLEAN.text(1, 4))
    write(other, REVOKE.text(2, 52))
    assert said(w.read(str(path))) == [(NEW, "RV002", 3)]
    assert said(w.read(str(other))) == [(NEW, "RV001", 3)]


def test_a_revoke_announced_in_the_round_stays_ruled_at_the_table(tmp_path):
    path, w = tmp_path / "t1.pbn", watcher()
    write(path, REVOKE.text(1, 20))
    assert said(w.read(str(path))) == [(NEW, "RV001", 3)]
    write(path, REVOKE.text(1, 52) + "\n" + CLEAN.text(1, 8))
    assert w.read(str(path)) == []
    board = next(iter(w.files[str(path)].boards.values()))
    assert board.table and board.announced[("RV", 3, 3, board_card("D5"))]["code"] == "RV001"


def board_card(text: str) -> int:
    from revoke_audit.core.cards import parse_card
    return parse_card(text)


def test_a_folder_moved_in_is_read_and_moved_out_is_forgotten(tmp_path):
    club, elsewhere = tmp_path / "club", tmp_path / "elsewhere"
    club.mkdir()
    (elsewhere / "round2").mkdir(parents=True)
    write(elsewhere / "round2" / "t1.pbn", REVOKE.text(1, 52))
    w = watcher()
    assert w.start([str(club)]) == [] and w.files == {}
    os.rename(elsewhere / "round2", club / "round2")
    assert said(w.read(str(club / "round2"))) == [(NEW, "RV001", 3)]
    os.rename(club / "round2", elsewhere / "round2")
    assert w.read(str(club / "round2")) == [] and w.files == {} and w.withdrawn == 0


def test_since_start_takes_what_is_there_as_known(tmp_path):
    path, w = tmp_path / "t1.pbn", watcher()
    write(path, REVOKE.text(1, 52))
    assert w.start([str(tmp_path)], announce=False) == [] and w.new == 0
    write(path, REVOKE.text(1, 52) + "\n" + REVOKE.text(2, 52))
    assert said(w.read(str(path))) == [(NEW, "RV001", 3)] and w.new == 1


def test_only_hand_records_in_a_folder_are_followed(tmp_path):
    folder = str(tmp_path)
    (tmp_path / "t1.pbn").write_text("")
    (tmp_path / "notes.json").write_text("{}")
    named = {str(tmp_path / "x" / "named.txt"): "x/named.txt"}
    folders = {folder: "club"}
    assert followed(str(tmp_path / "t1.pbn"), named, folders) == os.path.join("club", "t1.pbn")
    assert followed(str(tmp_path / "x" / "named.txt"), named, folders) == "x/named.txt"
    for name in (".t1.pbn.X1.tmp", "t1.pbn.tmp", "t1.pbn~", "notes.json", ".git/t1.pbn"):
        assert followed(str(tmp_path / name), named, folders) is None, name
    assert followed("/elsewhere/t1.pbn", named, folders) is None


# --- the command, with a writer process ------------------------------------------------------

def _lines(stream, queue: Queue) -> None:
    for line in stream:
        queue.put(line)
    queue.put(None)


STARTED: list[subprocess.Popen] = []


@pytest.fixture(autouse=True)
def _no_watch_left():
    """A watch a failed test started is ended with it (else it would run on forever)."""
    yield
    while STARTED:
        proc = STARTED.pop()
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=60)


def _watch(*args: str) -> tuple[subprocess.Popen, Queue, Queue]:
    """``revoke-audit watch`` started, its stdout and stderr lines in queues; returns once it
    says it is watching."""
    proc = subprocess.Popen([sys.executable, "-m", "revoke_audit", "watch", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    STARTED.append(proc)
    out, err = Queue(), Queue()
    threading.Thread(target=_lines, args=(proc.stdout, out), daemon=True).start()
    threading.Thread(target=_lines, args=(proc.stderr, err), daemon=True).start()
    line = err.get(timeout=60)
    assert line.startswith("watching"), line
    STARTED_LINES.append(line)
    return proc, out, err


STARTED_LINES: list[str] = []


def _take(queue: Queue, n: int) -> list[dict]:
    import json
    got = []
    while len(got) < n:
        try:
            line = queue.get(timeout=120)  # a guard against a hang, not a measure
        except Empty:
            raise AssertionError(f"only {len(got)} of {n} announcements: {got}")
        assert line is not None, f"the watch ended after {len(got)} of {n}: {got}"
        got.append(json.loads(line))
    return got


def _take_new(queue: Queue, n: int) -> list[dict]:
    """Announcements until ``n`` of them are new (any other said between them included)."""
    got: list[dict] = []
    while sum(1 for a in got if a["kind"] == NEW) < n:
        got += _take(queue, 1)
    return got


def test_a_session_written_live_is_announced_once_and_corrected(tmp_path):
    """Three tables write a session card by card, each into its own file (appended) and all
    into one shared file (rewritten whole through a temporary file): each revoke and defective
    trick is announced once per file; a corrected record withdraws its revoke; nothing else is
    said before the watch ends on its own (--idle)."""
    tables = 3  # --idle long enough for the writer's Python to start on a loaded machine
    proc, out, err = _watch(str(tmp_path), "--jsonl", "-", "--no-equity", "--idle", "10")
    writer = subprocess.run([sys.executable, str(Path(__file__).parent / "session_writer.py"),
                             str(tmp_path), "--tables", str(tables)], timeout=300)
    assert writer.returncode == 0
    files = [f"t{t}.pbn" for t in range(1, tables + 1)] + ["shared.pbn"] * tables
    expected = sorted((os.path.join(str(tmp_path), f), t, board, code[:2])
                      for f, t in zip(files, list(range(1, tables + 1)) * 2)
                      for board, code in (("2", "RV"), ("3", "RV"), ("4", "DT")))
    got = _take_new(out, len(expected))
    changed = [a for a in got if a["kind"] == CHANGED]  # a watch that read board 3 between
    # its cards 41 and 44 (see above) heard its second trick come: said once, with the two
    assert [(a["board"], a["code"], a["transferred"]) for a in changed] == \
        [("3", "RV001", 2)] * len(changed)
    assert len({(a["source"], a["room"]) for a in changed}) == len(changed)
    got = [a for a in got if a["kind"] == NEW]
    assert sorted((a["source"], int(a["room"]), a["board"], a["code"][:2]) for a in got) == \
        expected
    own = tmp_path / "t1.pbn"
    save_whole(own, corrected(own.read_text()))
    (withdrawn,) = _take(out, 1)
    assert (withdrawn["kind"], withdrawn["source"], withdrawn["board"], withdrawn["trick"]) == \
        (WITHDRAWN, str(own), "2", 3)
    assert proc.wait(timeout=120) == 0
    assert out.get(timeout=10) is None  # nothing more was said: nothing twice
    summary = [line for line in iter(err.get, None)]
    assert summary[-1].startswith(f"watch ended: {len(expected)} findings announced, "
                                  f"{len(changed)} changed, 1 withdrawn")


def test_ctrl_c_ends_the_watch_with_130_and_a_summary(tmp_path):
    (tmp_path / "t1.pbn").write_text(REVOKE.text(1, 52))
    proc, out, err = _watch(str(tmp_path / "t1.pbn"))
    assert "RV00" in out.get(timeout=60)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130
    rest = [line for line in iter(err.get, None)]
    assert rest[-1].startswith("watch ended: 1 finding announced, 0 changed, 0 withdrawn, "
                               "1 standing")


def test_a_missing_path_is_a_usage_error(tmp_path):
    from click.testing import CliRunner

    from revoke_audit.cli.commands import main
    r = CliRunner().invoke(main, ["watch", str(tmp_path / "nowhere")])
    assert r.exit_code == 2 and "cannot watch" in r.output


@pytest.mark.parametrize("tables", [2])
def test_the_writer_writes_the_session(tmp_path, tables):
    """The writer's own check: at its end every file holds the whole session."""
    write_session(tmp_path, tables)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shared.pbn", "t1.pbn", "t2.pbn"]
    assert (tmp_path / "shared.pbn").read_text().count("[Board") == len(GAMES) * tables


def test_polling_sees_a_file_appear_and_be_corrected(tmp_path):
    """``--poll``: the files are polled instead of waiting for the system's events."""
    proc, out, err = _watch(str(tmp_path), "--poll", "0.1", "--jsonl", "-", "--no-equity")
    save_whole(tmp_path / "t1.pbn", REVOKE.text(1, 52))
    (new,) = _take(out, 1)
    save_whole(tmp_path / "t1.pbn", corrected(REVOKE.text(1, 52)))
    (gone,) = _take(out, 1)
    assert [(a["kind"], a["code"]) for a in (new, gone)] == [(NEW, "RV001"), (WITHDRAWN, "RV001")]
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130


# --- the director's page (--html) -------------------------------------------------------------

def _page(path: Path):
    from test_html import Tree
    return Tree(path.read_text(encoding="utf-8"))


def _sections(tree) -> dict[str, object]:
    """The page's board sections by their heading (``Board 2, table 1``)."""
    return {s.all("h2")[0].text().split(" ·")[0]: s for s in tree.root.all("section", "board")}


def _rulings(section) -> str:
    return " ".join(q.text() for q in section.all("blockquote", "words"))


def test_each_board_on_the_page_is_ruled_as_the_watch_ruled_it(tmp_path):
    """Table 1 had begun its next board when its revoke was first read: after the round (64B5,
    64C review); table 2's round is still on: at the table, 64A2's transfer.  The page shows
    each board's own ruling (the audit the watch made of it), not one setting for the run."""
    from revoke_audit.engine.watch_page import LivePage

    w = watcher()
    one, two, page = tmp_path / "t1.pbn", tmp_path / "t2.pbn", tmp_path / "page.html"
    write(one, REVOKE.text(1, 52) + "\n" + CLEAN.text(1, 4))
    write(two, REVOKE.text(2, 52))
    assert said(w.read(str(one)) + w.read(str(two))) == [(NEW, "RV002", 3), (NEW, "RV001", 3)]
    LivePage(str(page), w).write()
    sections = _sections(_page(page))
    assert sorted(sections) == ["Board 2, table 1", "Board 2, table 2"]
    after, table = _rulings(sections["Board 2, table 1"]), _rulings(sections["Board 2, table 2"])
    assert "64B5" in after and "64C" in after and "transferred to" not in after
    assert "one trick transferred to North-South (64A2)" in table and "64B5" not in table
    assert [c.text() for c in sections["Board 2, table 2"].all("span", "code")][-1] == "RV001"


def test_the_page_keeps_only_the_irregular_boards_audits(tmp_path):
    w = watcher()
    path = tmp_path / "t1.pbn"
    write(path, CLEAN.text(1, 52) + "\n" + REVOKE.text(1, 52))
    w.read(str(path))
    clean, irregular = w.files[str(path)].boards.values()
    assert clean.audit is None and irregular.audit is not None
    save_whole(path, CLEAN.text(1, 52) + "\n" + corrected(REVOKE.text(1, 52)))
    w.read(str(path))
    assert [b.audit for b in w.files[str(path)].boards.values()] == [None, None]


def test_a_page_burst_is_written_once(tmp_path):
    """Batches that said something mark the page; it is written when a batch says nothing
    (the burst is over), or a second after the first unwritten change while they go on."""
    from revoke_audit.engine.watch_page import LivePage

    clock = Clock(0.0)
    page = LivePage(str(tmp_path / "page.html"), watcher(), clock=clock)
    for _ in range(5):  # a burst: five batches in 0.5 s each said something
        page.after(True)
        clock.now += 0.1
    assert page.writes == 0
    page.after(False)
    assert page.writes == 1
    page.after(False)
    assert page.writes == 1
    for _ in range(15):  # announcements that never stop: one write a second
        page.after(True)
        clock.now += 0.1
    assert page.writes == 2
    page.flush()
    assert page.writes == 3 and (tmp_path / "page.html").exists()


def test_a_slow_page_does_not_hold_up_the_watch(tmp_path, monkeypatch):
    """The page is made and written by a thread of its own: the watch reads and announces
    while a page is being written; pages asked for meanwhile are one page, the last."""
    from revoke_audit.engine import watch_page
    from revoke_audit.engine.watch_page import LivePage

    release, started, written = threading.Event(), threading.Event(), []

    def slow(path, pieces):
        started.set()
        assert release.wait(60)
        written.append("".join(pieces))

    monkeypatch.setattr(watch_page, "write_page", slow)
    w, path = watcher(), tmp_path / "t1.pbn"
    page = LivePage(str(tmp_path / "page.html"), w)
    page.after(True)
    page.after(False)  # the burst is over: the page (no board yet) is being written
    assert started.wait(60)
    write(path, REVOKE.text(1, 52))
    assert said(w.read(str(path))) == [(NEW, "RV001", 3)]  # meanwhile, the watch goes on
    for _ in range(3):
        page.after(True)
        page.after(False)
    release.set()
    page.flush()
    assert len(written) == 2 and page.writes == 4
    assert "Board 2, table 1" not in written[0] and "Board 2, table 1" in written[1]


def test_a_page_that_cannot_be_written_stops_the_watch(tmp_path):
    from revoke_audit.reports.targets import ReportError
    from revoke_audit.engine.watch_page import LivePage

    page = LivePage(str(tmp_path / "missing" / "page.html"), watcher())
    page.after(True)
    page.after(False)
    with pytest.raises(ReportError, match="cannot write .*page.html"):
        page.flush()


def _complete(text: str) -> bool:
    from test_html import Tree
    tree = Tree(text)
    return text.rstrip().endswith("</html>") and bool(tree.root.all("section", "summary"))


def test_the_page_follows_the_watch_and_is_never_seen_half_written(tmp_path):
    """A watch over a folder with --html outside it: a revoke written card by card appears on
    the page (its board's section, ruled at the table: 64A2); the corrected record takes it
    off; a reader reading the page all along never finds it half written."""
    club, page = tmp_path / "club", tmp_path / "page.html"
    club.mkdir()
    proc, out, err = _watch(str(club), "--html", str(page), "--jsonl", "-", "--no-equity")
    assert page.exists()  # written once the files are read, before the watch says it watches
    seen, stop = [], threading.Event()

    def reader():
        while not stop.is_set():
            seen.append(_complete(page.read_text(encoding="utf-8")))

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    try:
        for cards in range(1, 53):
            save_whole(club / "t1.pbn", REVOKE.text(1, cards, placeholders=True))
        (new,) = _take(out, 1)
        assert (new["kind"], new["code"]) == (NEW, "RV001")
        section = _wait_for_page(page, lambda s: "Board 2, table 1" in s)["Board 2, table 1"]
        assert "one trick transferred to North-South (64A2)" in _rulings(section)
        save_whole(club / "t1.pbn", corrected(REVOKE.text(1, 52)))
        (gone,) = _take(out, 1)
        assert gone["kind"] == WITHDRAWN
        _wait_for_page(page, lambda s: s == {})
    finally:
        stop.set()
        thread.join(timeout=60)
    assert len(seen) > 10 and all(seen), f"{seen.count(False)} of {len(seen)} reads incomplete"
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130


def _wait_for_page(page: Path, ready, timeout: float = 60):
    """The page's sections once ``ready`` says they are as expected (a guard against a hang,
    not a measure: the page is written after the burst that changed it)."""
    import time
    end = time.monotonic() + timeout
    while True:
        sections = _sections(_page(page))
        if ready(sections):
            return sections
        assert time.monotonic() < end, sorted(sections)
        time.sleep(0.05)


@pytest.mark.parametrize("where", ["inside", "named", "log"])
def test_an_output_in_a_watched_folder_or_over_an_input_is_a_usage_error(tmp_path, where):
    """The watch would follow its own page (every rewrite an event), or write over what it
    reads: refused before anything is read, as audit refuses an output over an input."""
    from click.testing import CliRunner

    from revoke_audit.cli.commands import main
    club = tmp_path / "club"
    (club / "sub").mkdir(parents=True)
    write(club / "t1.pbn", REVOKE.text(1, 52))
    log = tmp_path / "log.csv"
    log.write_text("source,event,board,room,trick,seat,fact,value\n")
    target = {"inside": club / "sub" / "page.html", "named": club / "t1.pbn",
              "log": log}[where]
    for option in ("--html", "--jsonl"):
        args = ["watch", str(club), option, str(target), "--idle", "0.1"]
        if where == "log":
            args += ["--table-facts", str(log)]
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2, (option, r.output)
        assert option in r.output or "watched" in r.output
    assert not (club / "sub" / "page.html").exists()
    assert (club / "t1.pbn").read_text() == REVOKE.text(1, 52)
    assert log.read_text().startswith("source,")


# --- issue 35: what a hostile folder, a stop or a rename does to the watch ---------------------

def _guarded(call, *args):
    """``call(*args)`` on a thread, its result; a call still blocked after a minute fails the
    test (a guard against a hang, not a measure)."""
    box: list = []
    thread = threading.Thread(target=lambda: box.append(call(*args)), daemon=True)
    thread.start()
    thread.join(60)
    assert box, f"{call.__name__}{args} still blocked after a minute"
    return box[0]


def test_a_fifo_or_a_device_in_a_watched_folder_is_not_read(tmp_path):
    """F7: a FIFO blocked ``open()`` for good, and a link to /dev/zero was read to the 512 MiB
    limit on every event.  Neither is a regular file: skipped, as ``audit`` skips them, and
    the revoke written after them is still announced."""
    fifo, device = tmp_path / "pipe.pbn", tmp_path / "dev.pbn"
    os.mkfifo(fifo)
    device.symlink_to("/dev/zero")
    w = watcher()
    for path in (fifo, device):
        assert _guarded(w.read, str(path)) == [] and str(path) not in w.files
    assert followed(str(fifo), {}, {str(tmp_path): str(tmp_path)}) is not None  # read: gone
    write(tmp_path / "t1.pbn", REVOKE.text(1, 52))
    assert said(_guarded(w.start, [str(tmp_path)])) == [(NEW, "RV001", 3)]


def test_a_line_half_written_while_the_file_is_read_waits(tmp_path, monkeypatch):
    """F19: the size was taken by one ``stat`` and the boards read a moment later; a writer
    that had meanwhile begun the next board's line (``[Contract "4``, no closing quote yet)
    made its parse problems announced, then withdrawn once the line was ended.  What ends
    mid-line is told from the bytes the boards were read from."""
    path, w = tmp_path / "t1.pbn", watcher()
    whole = CLEAN.text(1, 52) + "\n"
    write(path, whole)
    assert w.read(str(path)) == []
    begun = REVOKE.text(1, 52).split("[Contract")[0]  # whole lines, up to the Contract tag
    write(path, whole + begun)
    real_stat = os.stat

    def stat_then_write(p, *args, **kwargs):  # the writer goes on right after the stat
        st = real_stat(p, *args, **kwargs)
        if str(p) == str(path) and not path.read_text().endswith('"3'):
            with open(path, "a") as fh:
                fh.write('[Contract "3')
        return st

    monkeypatch.setattr(os, "stat", stat_then_write)
    heard = said(w.read(str(path)))
    monkeypatch.setattr(os, "stat", real_stat)
    assert heard == [], heard  # was PS102 and PS112, withdrawn on the next read
    write(path, whole + REVOKE.text(1, 52))
    assert said(w.read(str(path))) == [(NEW, "RV001", 3)]


def test_a_rename_to_a_name_read_first_announces_nothing_again(tmp_path):
    """F18: ``t1.pbn`` renamed to ``a.pbn`` (a name that sorts before it): the batch read the
    new name before forgetting the old, so the revoke was said again as new.  The paths gone
    are forgotten first."""
    club = tmp_path / "club"
    club.mkdir()
    write(club / "t1.pbn", REVOKE.text(1, 52))
    proc, out, err = _watch(str(club), "--jsonl", "-", "--no-equity", "--idle", "2")
    (first,) = _take(out, 1)
    os.rename(club / "t1.pbn", club / "a.pbn")
    assert proc.wait(timeout=120) == 0
    assert first["kind"] == NEW and out.get(timeout=10) is None, "said again after the rename"
    assert [line for line in iter(err.get, None)][-1].startswith(
        "watch ended: 1 finding announced, 0 changed, 0 withdrawn, 1 standing")


def test_idle_ends_while_a_file_not_followed_keeps_changing(tmp_path):
    """F8: the scoring program's own log beside the session file, written every 0.2 s, kept
    ``--idle 1`` from ever ending: only a change to a file followed is activity."""
    (tmp_path / "t1.pbn").write_text(CLEAN.text(1, 52))
    stop = threading.Event()

    def scorer():
        with open(tmp_path / "scorer.log", "a") as log:
            while not stop.wait(0.2):
                log.write("saved\n")
                log.flush()

    thread = threading.Thread(target=scorer, daemon=True)
    thread.start()
    try:
        proc, out, err = _watch(str(tmp_path / "t1.pbn"), "--idle", "1")
        assert proc.wait(timeout=60) == 0
    finally:
        stop.set()
        thread.join(timeout=60)


def _inotify_watches(pid: int) -> int:
    """How many folders the process watches (``/proc/PID/fdinfo``: a line per inotify watch)."""
    count = 0
    for info in Path(f"/proc/{pid}/fdinfo").iterdir():
        try:
            count += sum(line.startswith("inotify wd:") for line in info.read_text().splitlines())
        except OSError:
            continue
    return count


@pytest.mark.skipif(not Path("/proc/self/fdinfo").exists(), reason="Linux's /proc only")
def test_a_named_file_watches_its_folder_alone(tmp_path):
    """F8: ``watch big/x.pbn`` watched every folder below ``big`` (10,101 inotify watches for
    10,000 subfolders): a named file's folder is watched, not its tree."""
    for i in range(30):
        (tmp_path / f"sub{i}" / "deeper").mkdir(parents=True)
    (tmp_path / "t1.pbn").write_text(CLEAN.text(1, 52))
    proc, out, err = _watch(str(tmp_path / "t1.pbn"))
    assert _inotify_watches(proc.pid) == 1
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130


def test_a_watched_folder_deleted_and_made_again_is_watched_again(tmp_path):
    """F9: the system's watch of a folder ends with it; the folder made again, and a revoke
    written into it, was never announced.  It is watched again once it is back."""
    import shutil
    club = tmp_path / "club"
    club.mkdir()
    write(club / "t1.pbn", CLEAN.text(1, 52))
    proc, out, err = _watch(str(club), "--jsonl", "-", "--no-equity")
    shutil.rmtree(club)
    club.mkdir()
    write(club / "t1.pbn", REVOKE.text(1, 52))
    (new,) = _take(out, 1)
    assert (new["kind"], new["code"]) == (NEW, "RV001")
    save_whole(club / "t1.pbn", corrected(REVOKE.text(1, 52)))
    (gone,) = _take(out, 1)
    assert gone["kind"] == WITHDRAWN
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130


def test_sigterm_ends_the_watch_with_143(tmp_path):
    """F20: ``watchfiles`` turns any signal in its wait into ``KeyboardInterrupt``, which was
    taken for Ctrl-C (130): a service manager's SIGTERM exits 143, as for ``audit``."""
    (tmp_path / "t1.pbn").write_text(REVOKE.text(1, 52))
    proc, out, err = _watch(str(tmp_path / "t1.pbn"))
    assert "RV00" in out.get(timeout=60)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 143
    assert [line for line in iter(err.get, None)][-1].startswith(
        "watch ended: 1 finding announced")


def test_the_summary_counts_what_was_said(tmp_path):
    """F20: a stop between reading the boards and saying what they hold counted every
    announcement read ('1042 findings announced' with nothing printed): ``told`` counts those
    said, and ``standing_said`` leaves out the unsaid."""
    w = watcher()
    write(tmp_path / "t1.pbn", REVOKE.text(1, 52))
    write(tmp_path / "t2.pbn", RUFF.text(2, 52))
    heard = []

    def say(a):
        if heard:
            raise KeyboardInterrupt
        heard.append(a)

    with pytest.raises(KeyboardInterrupt):
        w.tell(w.start([str(tmp_path)]), say)
    assert len(heard) == 1 and w.told[NEW] == 1 and w.standing == 2 and w.standing_said == 1


def test_a_stop_while_the_page_is_written_leaves_it_whole(tmp_path, monkeypatch):
    """F10: a signal that interrupted ``Thread.join`` marked the page's writer ended (Python
    3.11, bpo-45274): the wait after it returned at once and the writer, a daemon, was cut
    off at exit, its temporary file left beside the page.  The wait after a stop waits."""
    from revoke_audit.engine import watch_page
    from revoke_audit.engine.watch_page import LivePage

    release, started, written = threading.Event(), threading.Event(), []
    real = watch_page.write_page

    def slow(path, pieces):
        started.set()
        assert release.wait(60)
        real(path, pieces)
        written.append(path)

    class Stop(Exception):
        pass

    def stop(_signum, _frame):
        raise Stop

    monkeypatch.setattr(watch_page, "write_page", slow)
    old = signal.signal(signal.SIGUSR1, stop)
    try:
        page = LivePage(str(tmp_path / "page.html"), watcher())
        page.refresh()
        assert started.wait(60)
        threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGUSR1)).start()
        with pytest.raises(Stop):
            page.wait()
        threading.Timer(0.2, release.set).start()
        page.flush()  # the watch ends: the page is whole before this returns
        assert written == [str(tmp_path / "page.html")]
    finally:
        signal.signal(signal.SIGUSR1, old)
    assert [p.name for p in tmp_path.iterdir()] == ["page.html"]


@pytest.mark.parametrize("where", ["missing folder", "full disk"])
def test_a_jsonl_that_cannot_be_written_is_a_one_line_error(tmp_path, where):
    """F21: ``--jsonl nodir/x.jsonl`` and ``--jsonl`` on a full disk were internal errors."""
    from click.testing import CliRunner

    from revoke_audit.cli.commands import main
    if where == "full disk" and not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    write(tmp_path / "t1.pbn", REVOKE.text(1, 52))
    target = str(tmp_path / "nodir" / "x.jsonl") if where == "missing folder" else "/dev/full"
    r = CliRunner().invoke(main, ["watch", str(tmp_path / "t1.pbn"), "--jsonl", target,
                                  "--idle", "0.1", "--no-equity"])
    assert r.exit_code == 2, r.output
    assert f"cannot write {target}" in r.output and "internal error" not in r.output


def test_standard_input_cannot_be_watched(tmp_path):
    """F22: ``watch -`` said 'watching 0 files' and exited 0, ignoring what stdin held."""
    from click.testing import CliRunner

    from revoke_audit.cli.commands import main
    r = CliRunner().invoke(main, ["watch", "-", "--idle", "0.1"], input=REVOKE.text(1, 52))
    assert r.exit_code == 2 and "standard input" in r.output


# --- issue 33: the director running it ---------------------------------------------------------

def test_an_empty_folder_says_files_are_picked_up_as_they_appear(tmp_path):
    proc, out, err = _watch(str(tmp_path), "--jsonl", "-", "--no-equity")  # returns on 'watching'
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=60) == 130
    assert STARTED_LINES[-1] == "watching: no hand record yet; each is picked up as it appears\n"


def test_the_missing_library_names_the_install_that_works_here():
    """In a copy of the project (``scripts/audit`` installs it editable into ``.venv``), the
    hint is that ``.venv``'s pip installing the project with the extra, not a package from
    the index."""
    root = Path(__file__).resolve().parents[1]
    pip = Path(sys.executable).parent / "pip"
    assert watch_module.MISSING.endswith(f"{pip} install -e '{root}[watch]'")


def _table_boards(table: str) -> list[str]:
    """The boards ``fixtures/session`` records for one table, in the order it played them."""
    text = (Path(__file__).resolve().parents[1] / "fixtures" / "session"
            / "thursday-pairs.pbn").read_text()
    games = ["[Event" + g for g in text.split("[Event")[1:]]
    return [g for g in games if f'[Table "{table}"]' in g]


@pytest.mark.parametrize("end", ["idle", "ctrl-c"])
def test_the_page_is_whole_at_each_bursts_end_and_when_the_watch_ends(tmp_path, end):
    """Issue 33: table 1 of the sample session writes its six boards one by one (revokes on
    its boards 2 and 3, then three clean boards): the page was last written after board 3 and
    said '1 file · 3 boards · 2 to rule' when the watch ended.  A change to a board followed
    marks the page as an announcement does, so it holds all six after the last burst, and
    when the watch ends (idle or Ctrl-C)."""
    club, page = tmp_path / "club", tmp_path / "page.html"
    club.mkdir()
    args = [str(club), "--html", str(page), "--jsonl", "-", "--no-equity"]
    proc, out, err = _watch(*args, *(["--idle", "2"] if end == "idle" else []))
    boards = _table_boards("1")
    assert len(boards) == 6
    head = "% PBN 2.1\n% EXPORT\n\n"
    for i in range(1, 4):  # boards 1 to 3: the revokes announced, the page written after
        save_whole(club / "t1.pbn", head + "".join(boards[:i]))
        if i in (2, 3):
            _take_new(out, 1)
    _wait_for_facts(page, "1 file · 3 boards · 2 to rule")
    for i in range(4, 7):  # three clean boards: nothing announced
        save_whole(club / "t1.pbn", head + "".join(boards[:i]))
    if end == "ctrl-c":
        _wait_for_facts(page, "1 file · 6 boards · 2 to rule")
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 130
    else:
        assert proc.wait(timeout=120) == 0
    assert _facts(page) == "1 file · 6 boards · 2 to rule"
    assert sorted(_sections(_page(page))) == ["Board 2, table 1", "Board 3, table 1"]


def _facts(page: Path) -> str:
    import re
    text = page.read_text(encoding="utf-8")
    found = re.search(r'<p class="facts">(.*?)</p>', text, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)).strip() if found else ""


def _wait_for_facts(page: Path, facts: str, timeout: float = 60) -> None:
    import time
    end = time.monotonic() + timeout
    while _facts(page) != facts:
        assert time.monotonic() < end, _facts(page)  # a guard against a hang, not a measure
        time.sleep(0.05)


def test_a_lin_record_is_followed(tmp_path):
    """Found by the fuzzer: a LIN record's plays carry no trick number, and telling whether
    its last trick was still open compared None with None: every complete LIN file ended the
    watch with an internal error."""
    from shutil import copyfile
    lin = tmp_path / "revoke.lin"
    copyfile(Path(__file__).resolve().parents[1] / "fixtures" / "cli" / "revoke.lin", lin)
    assert [code[:2] for _kind, code, _trick in said(watcher().read(str(lin)))] == ["RV"]
