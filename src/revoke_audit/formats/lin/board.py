"""LIN boards: ``key|value`` pairs -> boards -> ``BoardRecord``.

``BoardReader.take`` reads one pair into the board being read and decides where boards begin:
at ``qx`` when the current board already has content (md, a call, a card, a claim) or a qx of its
own; at ``md`` when it already has an md; at ``pn`` when it has a call/card/claim, or already has
its own names and a deal.  Keys read before the first of these (names, ``qx``) belong to the
board that follows, as the robot files need.  At most ``MAX_ITEMS`` calls+cards are kept per
board (PS006); every problem becomes a diagnostic on the board concerned."""
from __future__ import annotations

import re

from ...core.auction import derive_contract
from ...core.findings import Finding
from ...core.record import BoardRecord, Play
from .values import CARD_OF, parse_calls, read_md
from .vugraph import Header, names_nesw

MAX_ITEMS = 5000  # calls + cards kept per board; the rest is skipped (PS006)

VUL_OF = {"o": "None", "0": "None", "-": "None", "n": "NS", "e": "EW", "b": "All"}

QX = re.compile(r"^\s*([ocOC])\s*(\d+)\s*(?:,|$)")
AH_BOARD = re.compile(r"^\s*board\s*(\S+)", re.IGNORECASE)
CLAIM = re.compile(r"^\s*(\d{1,2})\s*$")

BOARD_KEYS = frozenset(("pn", "qx", "md", "mb", "pc", "mc", "sv", "ah"))
HANDLED = BOARD_KEYS | {"vg", "rs"}  # every other key is display or commentary: skipped


class Board:
    """Mutable state of the board being read; turned into a frozen ``BoardRecord`` at the end."""

    __slots__ = (
        "line", "first_line", "names", "room", "board", "qx_board", "ah_board", "dealer", "vul",
        "hands", "owner", "deal_line", "calls", "auction_line", "auction_bad", "plays",
        "play_line", "claim", "claim_line", "diags", "tags", "has_md", "has_qx", "has_pn",
        "has_action", "items", "overflow", "seen_codes",
    )

    def __init__(self, line: int) -> None:
        self.line = 0  # set by the first board-level key
        self.first_line = line
        self.names: tuple[str, str, str, str] | None = None
        self.room = ""
        self.board = ""
        self.qx_board = ""
        self.ah_board = ""
        self.dealer: int | None = None
        self.vul: str | None = None
        self.hands: tuple | None = None
        self.owner: list | None = None
        self.deal_line: int | None = None
        self.calls: list[str] = []
        self.auction_line: int | None = None
        self.auction_bad = False
        self.plays: list[Play] = []
        self.play_line: int | None = None
        self.claim: int | None = None
        self.claim_line: int | None = None
        self.diags: list[tuple[str, str, int | None]] = []
        self.tags: dict[str, str] = {}
        self.has_md = False
        self.has_qx = False
        self.has_pn = False
        self.has_action = False  # a call, card or claim
        self.items = 0
        self.overflow = False
        self.seen_codes: set[str] = set()

    def diag(self, code: str, message: str, line: int | None, once: bool = False) -> None:
        """File a problem (``once``: only the first of this code); at most 100, then PS009."""
        if once:
            if code in self.seen_codes:
                return
            self.seen_codes.add(code)
        if len(self.diags) < 100:
            self.diags.append((code, message, line))
        elif len(self.diags) == 100:
            self.diags.append(("PS009", "more than 100 problems in this board; the rest are not "
                               "listed", line))

    def attach(self, deferred: list[tuple[str, str, int]]) -> None:
        """File the problems found between pairs (stray text and such: once per code) and
        empty the list."""
        for code, message, line in deferred:
            self.diag(code, message, line, once=code in ("PS201", "PS210"))
        deferred.clear()

    @property
    def has_content(self) -> bool:
        """A deal, call, card or claim has been read."""
        return self.has_md or self.has_action


class BoardReader:
    """The board being read, the vugraph header, and the finished records (``out``)."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.header = Header()
        self.cur = Board(1)
        self.out: list[BoardRecord] = []
        self.game = 0
        self._handlers = {"pc": self._pc, "mb": self._mb, "md": self._md, "pn": self._pn,
                          "qx": self._qx, "mc": self._mc, "sv": self._sv, "ah": self._ah,
                          "vg": self._vg, "rs": self._rs}

    # -- one key|value pair -------------------------------------------------------------------
    def take(self, key: str, value: str, line: int) -> None:
        """Read one pair (``line``: the key's line); keys other than ``HANDLED`` are skipped.

        An internal error is reported on the board (PS211) and reading goes on.  (``read_lin``
        adds the commonest card to the board itself, a shortcut of what ``_pc`` does.)"""
        if key not in HANDLED:
            return
        try:
            self._handlers[key](value, line)
        except Exception as exc:  # never lose the file over one bad pair
            self.cur.diag("PS211", f"internal error reading {key}|{value[:20]!r}|: {exc!r}", line)

    def _open(self, line: int):
        """The current board for a board-level key at ``line`` (which becomes the board's line
        if it has none yet), or None once the board is over its size limit."""
        b = self.cur
        if b.overflow:
            return None
        if b.line == 0:
            b.line = line
        return b

    def _pc(self, value: str, line: int) -> None:
        """A card (the slow path: first card, unreadable card, over the limit)."""
        b = self.cur
        if b.overflow or self._count(b, line):
            return
        card = CARD_OF.get(value)
        if card is None:
            card = CARD_OF.get(value.strip())
        if b.line == 0:  # the board's line is that of its first board-level key
            b.line = line
        b.has_action = True
        if b.play_line is None:
            b.play_line = line
        if card is None:
            b.diag("PS207", f"unreadable card {value.strip()[:20]!r} in pc; recorded as unknown",
                   line)
            b.plays.append(Play(None, None, (), line, None))
            return
        owner = b.owner
        b.plays.append(Play(owner[card] if owner is not None else None, card, (), line, None))

    def _mb(self, value: str, line: int) -> None:
        """One call or several packed; an unreadable one stops the contract derivation."""
        b = self.cur
        if b.overflow or self._count(b, line):
            return
        if b.line == 0:  # the board's line is that of its first board-level key
            b.line = line
        b.has_action = True
        if b.auction_line is None:
            b.auction_line = line
        calls = parse_calls(value)
        if calls is None:
            b.diag("PS206", f"unreadable call {value.strip()[:20]!r} in mb; no contract derived",
                   line)
            b.auction_bad = True
            return
        b.calls.extend(calls)

    def _md(self, value: str, line: int) -> None:
        """A deal; a second md starts a new board."""
        if self.cur.has_md:
            self.flush(line)
        b = self._open(line)
        if b is None:
            return
        b.has_md = True
        b.deal_line = line
        b.tags["md"] = value.strip()[:200]
        deal = read_md(value, line, b.diag)
        if deal.dealer is not None:
            b.dealer = deal.dealer
        if deal.hands is not None:
            b.hands, b.owner = deal.hands, deal.owner

    def _pn(self, value: str, line: int) -> None:
        """Names: 4 for a board (may start a new one), more for the vugraph header."""
        b = self.cur
        names = [n.strip() for n in value.split(",")]
        if len(names) > 4:  # vugraph header: open S,W,N,E then closed S,W,N,E
            if b.has_content:
                self.flush(line)
            self.header.names = names
            return
        if b.has_action or (b.has_md and b.has_pn):
            self.flush(line)
            b = self.cur
        if b.line == 0:  # the board's line is that of its first board-level key
            b.line = line
        b.has_pn = True
        b.names = names_nesw(names)
        b.tags["pn"] = value.strip()[:200]

    def _qx(self, value: str, line: int) -> None:
        """Room and board number (``o17``/``c17``, or a teaching label); may start a new board."""
        b = self.cur
        if b.has_content or b.has_qx:
            self.flush(line)
            b = self.cur
        if b.line == 0:  # the board's line is that of its first board-level key
            b.line = line
        b.has_qx = True
        v = value.strip()
        b.tags["qx"] = v[:100]
        m = QX.match(v)
        if m:
            b.room = "open" if m.group(1) in "oO" else "closed"
            b.qx_board = m.group(2).lstrip("0") or "0"
        else:
            b.qx_board = v.split(",")[0].strip()[:50]
        b.board = b.qx_board

    def _mc(self, value: str, line: int) -> None:
        """A claim: declarer's total tricks."""
        b = self._open(line)
        if b is None:
            return
        b.has_action = True
        m = CLAIM.match(value)
        if m and int(m.group(1)) <= 13:
            b.claim = int(m.group(1))
            b.claim_line = line
        else:
            b.diag("PS208", f"unreadable claim {value.strip()[:20]!r} in mc (not 0-13 tricks)",
                   line)

    def _sv(self, value: str, line: int) -> None:
        """Vulnerability: o/0/- none, n NS, e EW, b all."""
        b = self._open(line)
        if b is None:
            return
        vul = VUL_OF.get(value.strip().lower())
        if vul is None:
            b.diag("PS209", f"unreadable vulnerability {value.strip()[:20]!r} in sv", line)
        b.vul = vul
        b.tags["sv"] = value.strip()[:20]

    def _ah(self, value: str, line: int) -> None:
        """The board title; ``Board 7`` gives the number when no qx did."""
        b = self._open(line)
        if b is None:
            return
        v = value.strip()
        if "ah" not in b.tags:
            b.tags["ah"] = v[:100]
        m = AH_BOARD.match(v)
        if m and not b.ah_board:
            b.ah_board = m.group(1)
            if not b.qx_board:
                b.board = b.ah_board

    def _vg(self, value: str, line: int) -> None:
        """A vugraph header; it ends a board under way."""
        if self.cur.has_content:
            self.flush(line)
        self.header = self.header.read_vg(value, line, self.cur.diag)

    def _rs(self, value: str, line: int) -> None:
        """Vugraph results: one per board and room, open first."""
        self.header.results = [r.strip() for r in value.split(",")]

    def _count(self, b: Board, line: int) -> bool:
        """Count one stored item; True (and PS006 once) when the board is over the limit."""
        b.items += 1
        if b.items > MAX_ITEMS:
            b.overflow = True
            b.diag("PS006", f"more than {MAX_ITEMS} calls and cards in one board; the rest of the "
                   "board was skipped", line, once=True)
            return True
        return False

    # -- board boundaries ---------------------------------------------------------------------
    def flush(self, line: int, final: bool = False) -> None:
        """Finish the current board and start a new one at ``line``.

        Mid-file this is only called when the board holds content (md, call, card, claim) or a
        qx.  At the end of the file a board with nothing but names (the trailing ``pn`` of robot
        files) is dropped, but one that carries problems is kept, as an unreadable board, so the
        problems are reported (binary garbage, a truncated tail)."""
        b = self.cur
        if b.has_content or b.has_qx or (final and b.diags):
            self.out.append(self.finish(b))
        self.cur = Board(line)

    def finish(self, b: Board) -> BoardRecord:
        """The record of board ``b``; an internal error gives an unreadable one (PS211)."""
        self.game += 1
        try:
            return self._record(b)
        except Exception as exc:  # an internal error must not lose the board or stop the file
            return BoardRecord(
                source=self.source, line=b.line or b.first_line, game=self.game, format="lin",
                diagnostics=tuple(self._diags(b)) + (
                    Finding("PS211", f"internal error while finishing the board: {exc!r}",
                            b.line or b.first_line),),
                unreadable=True,
            )

    def _diags(self, b: Board) -> list[Finding]:
        """The board's problems as ``Finding``s."""
        return [Finding(c, m, ln) for c, m, ln in b.diags]

    def _record(self, b: Board) -> BoardRecord:
        """The frozen record: the board plus what the vugraph header gives it."""
        h = self.header
        lin_result = h.result_for(b.board, b.room)
        contract = declarer = None
        if b.calls and not b.auction_bad:
            contract, declarer = derive_contract(b.calls, b.dealer)
        return BoardRecord(
            source=self.source, line=b.line or b.first_line, game=self.game, format="lin",
            room=b.room, event=h.event, board=b.board, dealer=b.dealer, vul=b.vul,
            names=h.names_for(b.names, b.room), scoring=h.scoring_name(),
            tags=h.tags_for(b.tags, lin_result),
            hands=b.hands, deal_line=b.deal_line, auction=tuple(b.calls),
            auction_line=b.auction_line, contract_derived=contract, declarer_derived=declarer,
            play_line=b.play_line, play=tuple(b.plays), claim=b.claim, claim_line=b.claim_line,
            lin_result=lin_result, diagnostics=tuple(self._diags(b)),
            unreadable=b.hands is None and not b.calls and not b.plays and b.claim is None,
        )
