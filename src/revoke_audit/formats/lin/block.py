"""Plain vugraph boards held as their pairs, for the whole-board fast lane
(``revoke_audit.engine.lane.vugraph``).

A vugraph archive writes each board over several lines: ``qx|o17|st||md|...|sv|b|`` then calls,
alerts (``an``), commentary (``nt``), cards (``pc``), ``pg||`` and perhaps a claim (``mc``).
When the caller asks for it (``read_lin(..., plain=True)``), such a board is not read pair by
pair: ``BlockHold`` keeps its lines from the line that starts with ``qx|`` until the next line
starts a board (``qx``, ``pn``, ``md``, ``vg``: its first pair, closed on that line, ends this
board as ``board.BoardReader`` would) or the file ends, and ``take`` makes them one
``PlainBlock`` when the board's pairs are the reader's without any doubt:

* nothing pending around it: no open pair or problem waiting for a board, and the board under
  way is one that the ``qx`` ends (then it is ended here, as that ``qx`` would), or none;
* every line UTF-8, not cut, and closed by ``|`` (no value runs on to the next line), so the
  ``|``-split of the lines joined is the lexer's pairs; every key one the lexer knows, in lower
  case (no ``PS201``), at most ``MAX_VALUE`` characters in all;
* the board's keys: ``qx`` first, one ``md``, one ``sv``, at least one call; no ``pn``, ``ah``,
  ``vg`` or ``rs`` (a board's own names or title, a header that changes the ones it takes).

The header the board takes (event, the 8 names, the ``rs`` results) is copied with it.
Otherwise the lines are read pair by pair after all, in order, as if never held.  The lane
gives the row only when the full audit would find nothing, else builds the record the reader
would have built (``PlainBlock.record``)."""
from __future__ import annotations

from .board import BoardReader
from .lexer import _KEY_OF, MAX_VALUE, PairLexer
from .plain import PlainLine
from .vugraph import Header
from ..lines import strip_c1

# the keys a plain board may hold: every key the lexer knows (lower case), but those that give
# a board names or a title, or change the header
KEYS = frozenset(k for k in _KEY_OF if k.islower()) - {"pn", "ah", "vg", "rs"}
# a line that ends the held board with its first pair, closed on the line
ENDS = (b"qx|", b"pn|", b"md|", b"vg|")
MAX_LINES = 400  # lines held for one board at most; a longer board is read pair by pair


class PlainBlock(PlainLine):
    """A plain vugraph board: its lines (as read), its text (decoded, joined) and pairs (keys,
    values), the header it takes, where it is.

    A ``PlainLine`` to every reader of items (``record()``); the lane tells them apart by
    type."""

    __slots__ = ("lines", "keys", "values", "header")

    def __init__(self, source: str, line: int, game: int, lines: list[tuple[int, bytes, bool]],
                 text: str, keys: list[str], values: list[str], header: Header) -> None:
        self.source, self.line, self.game, self.text = source, line, game, text
        self._record = None
        self.lines = lines
        self.keys = keys
        self.values = values
        self.header = header

    def record(self):
        """The record the reader builds for this board, pair by pair (for the full audit)."""
        if self._record is None:
            boards = BoardReader(self.source)
            boards.header = self.header
            boards.game = self.game - 1
            lexer = PairLexer()
            for lineno, raw, _ in self.lines:
                for key, value, key_line in lexer.pairs(lexer.decode(raw, False, lineno),
                                                        lineno):
                    boards.take(key, value, key_line)
            boards.flush(self.lines[-1][0] + 1, final=True)  # as the next board's key would
            self._record = boards.out[0]
        return self._record

    @property
    def board(self) -> str:
        return self.record().board

    @property
    def room(self) -> str:
        return self.record().room


def starts(raw: bytes, cut: bool) -> bool:
    """Whether a line may start a plain vugraph board (``qx|``, not cut)."""
    return not cut and raw.startswith(b"qx|")


def ends(raw: bytes, cut: bool) -> bool:
    """Whether a line ends the board before it with its first pair, closed on the line."""
    return (not cut and raw.startswith(ENDS) and raw.find(b"|", 3) != -1)


def ready(lexer: PairLexer, boards: BoardReader) -> bool:
    """Nothing pending that the board would take or that would take it: no open pair or
    deferred problem, and the board under way (if any) is one that a ``qx`` ends (then it is
    ended here, as the ``qx`` would)."""
    if lexer.pending or not lexer.expect_key or lexer.seg_cut or lexer.deferred:
        return False
    b = boards.cur
    if b.has_content or b.has_qx:
        return True
    return not (b.has_pn or b.diags or b.line or b.tags)


def block(source: str, game: int, held: list[tuple[int, bytes, bool]], header: Header
          ) -> PlainBlock | None:
    """The held lines (none cut: ``read_lin`` holds no cut line) as one ``PlainBlock``
    (numbered ``game``), or None when they must be read pair by pair (as for anything not
    foreseen here: the reader then says what it is)."""
    try:
        return _block(source, game, held, header)
    except Exception:  # pragma: no cover
        return None


def _block(source: str, game: int, held: list[tuple[int, bytes, bool]], header: Header
           ) -> PlainBlock | None:
    whole = b"\n".join([raw for _, raw, _ in held if raw])  # a blank line: no pair
    if (len(whole) > MAX_VALUE or whole[-1] != 124
            or whole.count(b"\n") != whole.count(b"|\n")):
        return None  # a line not closed by "|" (124): its last value runs on
    try:
        text = whole.decode("utf-8")
    except UnicodeDecodeError:
        return None  # PS002, from the reader
    if not text.isascii():
        text = strip_c1(text)  # as the lexer does, line by line (a C1 character is no "|")
    text = text.replace("\n", "")  # each line closed by "|": the lines' pairs, joined
    parts = text.split("|")
    keys = parts[0:-1:2]
    if (len(parts) % 2 == 0 or keys[0] != "qx" or not KEYS.issuperset(keys)
            or keys.count("qx") != 1 or keys.count("md") != 1 or keys.count("sv") != 1
            or "mb" not in keys or len(keys) > 4000):
        return None
    return PlainBlock(source, held[0][0], game, held, text, keys, parts[1::2], _copy(header))


def _copy(header: Header) -> Header:
    """A copy of ``header`` as it is now, the same copy while it is unchanged (``BoardReader``
    gives a new ``vg`` a new header, new names and results new lists)."""
    got = _last
    if got[0] is not header or got[1] is not header.names or got[2] is not header.results:
        got[:] = [header, header.names, header.results, header.copy()]
    return got[3]


_last: list = [None, None, None, None]  # (header, its names, its results, their copy)
