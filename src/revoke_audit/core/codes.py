"""Every diagnostic and finding code, with its family and a one-line title.

Codes are stable once released: never renumber, only add.  The docs' table of codes (docs/reference/codes.md) is
checked against this registry by a test.  Families (``FAMILIES``): ``RV`` revokes, ``DT``
defective tricks (Law 67), ``RC`` record consistency, ``PS`` parse problems (readers), ``LW``, ``EQ``,
``DU`` and ``SC`` notes.  A family's level says what it does to a board's status and to ``--fail-on``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

CODES: dict[str, str] = {
    # --- shared by all readers (PS0xx) ---
    "PS001": "file or folder cannot be read (missing, unreadable, a damaged archive or member)",
    "PS002": "text is not in the declared charset or UTF-8; decoded as cp1252",
    "PS003": "content is neither PBN nor LIN (binary or unknown text)",
    "PS004": "file ends in the middle of a board (truncated): the board is not reported clean",
    "PS005": "line too long; cut at the limit",
    "PS006": "board too large; the rest of it was skipped",
    "PS007": "the file is empty",
    "PS008": "file too large once decompressed; the rest was not read",
    "PS009": "too many problems in one board (or outside boards); the rest are not listed",
    "PS010": ("archive member skipped: not PBN, LIN or an archive by name or content, a link, "
              "device or FIFO in a tar (or nested too deep)"),
    "PS011": "folder or archive with no file to read (empty, or nothing in it is PBN or LIN)",
    "PS012": "archive larger than --max-archive-bytes decompressed; the rest of it was not read",
    "PS013": "run larger than --max-run-bytes decompressed; the rest was not read",
    "PS014": "stream expands more than --max-ratio times its compressed size; the rest was not read",
    "PS015": "more than --max-archive-boards boards in one archive; the rest of it was not read",
    # --- PBN reader (PS1xx) ---
    "PS101": "text outside tags and comments ignored (or a stray '}' / '[')",
    "PS102": "tag not closed (no closing quote or bracket); read to the end of the line or ignored",
    "PS103": "tag value not in quotes; read as is",
    "PS104": "repeated tag ignored (the first value is kept)",
    "PS105": "tag value \"#\" (inherit) but no earlier game has the tag",
    "PS106": "game has no Deal: Deal (and Dealer/Vulnerable/Board) taken from the game before",
    "PS107": "Deal cannot be read",
    "PS108": "Deal is not a valid deal (wrong card counts or duplicate cards); recorded as given",
    "PS109": "Dealer is not a seat",
    "PS110": "Vulnerable is not None/NS/EW/All",
    "PS111": "Declarer is not a seat",
    "PS112": "Contract cannot be read",
    "PS113": "Result cannot be read (or gives tricks by side with no declarer, or is not 0..13)",
    "PS114": "call in the auction cannot be read (auction read up to it) or Auction seat missing",
    "PS115": "auction does not start with the dealer",
    "PS116": "card token in the play cannot be read (kept as an unknown card) or unknown mark",
    "PS118": "Play tag does not name a seat",
    "PS119": "play has more than 13 tricks",
    "PS120": "no blank line between two games: a repeated Event/Board/Deal tag starts a new game",
    "PS121": "comment not closed: a later tag line closes it",
    "PS122": "unknown charset declared; ignored",
    "PS123": "internal error while reading (a bug): the game is kept with what was read",
    # --- LIN reader (PS2xx) ---
    "PS201": "LIN: text outside key|value pairs (not a two-letter key); skipped",
    "PS202": "LIN: md has no readable dealer digit (1=S 2=W 3=N 4=E); dealer unknown",
    "PS203": "LIN: md hand unreadable (bad character, rank before a suit letter, no hands); left unknown",
    "PS204": "LIN: md deal invalid (a card in two hands or twice in one hand, a hand of more than 13 cards)",
    "PS205": "LIN: md deal incomplete (hands of fewer than 13 cards or missing hands); recorded as given",
    "PS206": "LIN: unreadable call in mb; no contract derived",
    "PS207": "LIN: unreadable card in pc; recorded as an unknown card",
    "PS208": "LIN: unreadable claim in mc (not 0-13 tricks); ignored",
    "PS209": "LIN: unreadable vulnerability in sv; left unknown",
    "PS210": "LIN: a key or value spanning lines is too long; cut",
    "PS211": "LIN: internal error while reading a board (a bug); the board is kept with what was read",
    "PS212": "LIN: vugraph header (vg) unreadable; rs results cannot be matched to boards",
    # --- record consistency (RC), found by the replay and the result checks ---
    "RC001": "invalid deal (a hand not of 13 cards, a card in two hands): play not audited",
    "RC002": "deal not fully known: play cannot be checked",
    "RC003": "play recorded without a usable contract or declarer: play not audited",
    "RC010": "a card not held by the player on turn (wrong hand, or a bad record)",
    "RC011": "a card played twice",
    "RC012": "opening lead from the wrong side (or declarer and dummy swapped)",
    "RC013": "a card of the play is not recorded mid-play (what it leaves unchecked is said)",
    "RC014": "failure to follow suit on trick 13: card counts are wrong earlier in the record",
    "RC015": "two or more players fail to follow suit on one trick: the lead is probably mis-recorded",
    "RC016": "the record is not the play of its deal: cards credited to players who do not hold "
             "them (counted for the board, with the first and what would repair it)",
    "RC017": "the record cannot bear a ruling though its cards are where it says: the deal does "
             "not fit its auction and play (one rotation explains it), more revokes than a table "
             "commits, too few tricks recorded, a later trick in four suits, or an impossible "
             "claim (RC022), or a declarer against the auction (RC021) with a later trick led "
             "out of turn; nothing is ruled",
    "RC020": "stated contract disagrees with the auction",
    "RC021": "stated declarer disagrees with the auction",
    "RC022": "claim (or Result after an unfinished play) outside what is possible",
    "RC023": "stated Result disagrees with the play (and with the adjusted result)",
    "RC024": "vugraph rs result disagrees with the play (contract, declarer or tricks)",
    "RC030": "a card marked ^R is not a revoke",
    "RC040": "a row of the director's log (--table-facts) that fits no board: it names no board "
             "in the input, or a card the player never held (or a penalty card of declarer's "
             "side, or two discovered rows disagree); the row is ignored",
    "RC099": "internal error while auditing the board (a bug in revoke-audit; please report it)",
    "RC032": "a card marked ^R that cannot be checked (the replay stopped before it, or a card "
             "not recorded hides the suit led or the player's holding)",
    "RC031": "a revoke the record does not mark ^R (on a board whose producer marks revokes)",
    # --- laws selection (LW): notes, never errors ---
    "LW001": "--laws auto: on a board with a revoke or defective trick, the edition chosen from "
             "the record's date is uncertain (no date, an adoption window, or a code in force "
             "that is not implemented)",
    "LW002": "the stated result already holds the table's ruling on a revoke (a result the "
             "recorded cards cannot give, which the automatic rectification gives): it stands, "
             "no further trick is transferred",
    "LW003": "on a board with a revoke or defective trick, what the recorded cards allow over "
             "the tricks left was not worked out: the exact search ran out of its budget",
    # --- duplicates (DU): notes, never errors ---
    "DU001": "the same record as one read earlier in the run (another file, or another copy): "
             "its findings and ruling are reported there, once",
    # --- fields (SC): a board's field scored after the run; notes, never errors ---
    "SC001": "the board's field cannot be scored: no other result of the board in its event "
             "(or a teams match without both rooms); its figures stay empty",
    "SC002": "the board's field cannot be told apart: the same players at two of its tables "
             "with different results; its figures stay empty",
    "SC003": "the board is scored, but its players are not all named: the table's pairs cannot "
             "be followed across boards and are left out of the standings",
    "SC004": "the board's ScoreTable cannot be read, or the record's own row is not in it: "
             "not scored",
    "SC005": "the scoring program's own figure in the ScoreTable is not ours (after rounding to "
             "the table's decimals): both numbers named",
    # --- equity (EQ), with --equity: notes for the Director, never errors ---
    "EQ001": "64C review: had no revoke happened, double-dummy play gives the non-offending "
             "side more than the automatic result (both sides revoked: any difference)",
    "EQ002": "--equity: the double-dummy solver refused the board's position; its equity cells "
             "stay empty and nothing else changes",
    # --- revokes (RV): Laws 61-64 ---
    "RV001": "established revoke: tricks transferred (64A1 / 64A2)",
    "RV002": "established revoke: no automatic transfer (an exception of 64B; 64C may apply)",
    "RV003": "revoke on trick 12: corrected, no transfer (62D, 64B6)",
    "RV004": "revoke not established (Law 63): the record stops before it could be",
    # --- defective tricks (DT): Law 67 ---
    "DT001": "defective trick, card omitted: deemed revoke, one trick (67B1)",
    "DT002": "defective trick, extra card: back to the offender's hand (67B2)",
}


def family(code: str) -> str:
    """``RV``, ``DT``, ``RC``, ``PS``, ``LW`` or ``EQ``."""
    return code[:2]


@dataclass(frozen=True)
class Family:
    """A family of codes: its name in the summary, its level, its count column in boards.csv."""

    name: str
    level: str  # one of LEVELS
    annotation: str  # how loud in GitHub annotations and SARIF: error, warning or note
    column: str | None = None


#: Levels, most serious first.  ``irregular`` and ``inconsistent`` are also board statuses;
#: ``parse`` findings leave a readable board ``clean``; ``note`` never fails a run.
LEVELS = ("irregular", "inconsistent", "parse", "note")

FAMILIES: dict[str, Family] = {
    "RV": Family("revoke findings", "irregular", "error", "revokes"),
    "DT": Family("defective tricks", "irregular", "error", "defective_tricks"),
    "RC": Family("record errors", "inconsistent", "warning", "record_errors"),
    "PS": Family("parse problems", "parse", "warning", "parse_problems"),
    "LW": Family("notes", "note", "note"),
    "EQ": Family("notes", "note", "note"),
    "DU": Family("notes", "note", "note"),
    "SC": Family("notes", "note", "note"),
}


def level(code: str) -> str:
    """The level of ``code``'s family (``irregular``, ``inconsistent``, ``parse``, ``note``)."""
    return FAMILIES[family(code)].level


def families_at(lowest: str) -> tuple[str, ...]:
    """The families whose level is ``lowest`` or more serious (``note`` families never count)."""
    upto = LEVELS.index(lowest)
    return tuple(f for f, fam in FAMILIES.items() if LEVELS.index(fam.level) <= upto
                 and fam.level != "note")


#: The status of a board with nothing found because nothing could be checked: no play is
#: recorded (a club export of contracts and results), so it is not ``clean``.
UNCHECKED = "unchecked"


def board_status(codes: Iterable[str], unreadable: bool = False, checked: bool = True) -> str:
    """A board's status from the codes of its findings: ``unreadable`` (no record could be
    read), else ``irregular`` (a revoke or defective trick), ``inconsistent`` (record errors
    only), ``unreadable`` again when the file ends inside the board (PS004) or the rest of
    the board was skipped at the game limit (PS006), ``unchecked`` when nothing was found but
    ``checked`` is False (no play recorded), or ``clean``."""
    if unreadable:
        return "unreadable"
    codes = set(codes)
    status = next((lv for lv in LEVELS[:2] if lv in {level(c) for c in codes}), "clean")
    if status == "clean" and not codes.isdisjoint(UNSEEN):  # the rest of the board was never
        return "unreadable"                                   # seen, so it cannot be clean
    if status == "clean" and not checked:
        return UNCHECKED
    return status


#: A board whose rest was never read: the file ends inside it (PS004), or it is over the game
#: limit and the rest was skipped (PS006).  Such a board is a hand record, but never clean.
UNSEEN = frozenset(("PS004", "PS006"))


def play_checked(play: str, contract: str | None) -> bool:
    """Was there a play to check?  False for a board with no play recorded (``play`` ``none``)
    unless it was passed out (nothing was played, nothing to check)."""
    return play != "none" or (contract or "").strip().casefold() in ("pass", "p")


def annotation_level(code: str) -> str:
    """``error``, ``warning`` or ``note`` for a finding code, in GitHub annotations and SARIF
    alike (SARIF's words; GitHub says ``notice`` for ``note``)."""
    fam = FAMILIES.get(family(code))
    return fam.annotation if fam else "note"
