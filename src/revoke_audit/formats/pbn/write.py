"""PBN writer: one ``BoardRecord`` -> one game in PBN export layout."""
from __future__ import annotations

from ...core.cards import SEATS, card_str, deal_str
from ...core.record import UNREADABLE, BoardRecord


def _q(value: str) -> str:
    """Escape a tag value (``\\`` and ``"``)."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def format_pbn(record: BoardRecord) -> str:
    """One game in PBN export layout (tags, Auction, Play in seat columns), ending with a
    newline; games written one after another need a blank line between them."""
    out = _board_tags(record) + _contract_tags(record)
    if record.auction and record.dealer is not None:
        out.append(f'[Auction "{SEATS[record.dealer]}"]')
        calls = ["Pass" if c == "P" else c for c in record.auction]
        for i in range(0, len(calls), 4):
            out.append(" ".join(calls[i:i + 4]))
    if record.play:
        out += _play_section(record)
    return "\n".join(out) + "\n"


def _board_tags(record: BoardRecord) -> list[str]:
    """Event .. South, Dealer, Vulnerable, Deal, Scoring, Room (those that are known)."""
    out: list[str] = []
    add = out.append
    names = record.names
    for tag, value in (("Event", record.event), ("Site", record.site), ("Date", record.date),
                       ("Board", record.board), ("West", names[3]), ("North", names[0]),
                       ("East", names[1]), ("South", names[2])):
        if value:
            add(f'[{tag} "{_q(value)}"]')
    if record.dealer is not None:
        add(f'[Dealer "{SEATS[record.dealer]}"]')
    if record.vul is not None:
        add(f'[Vulnerable "{record.vul}"]')
    if record.hands is not None:
        add(f'[Deal "{deal_str(record.hands)}"]')
    if record.scoring:
        add(f'[Scoring "{_q(record.scoring)}"]')
    if record.room:
        room = record.room.capitalize() if record.room in ("open", "closed") else record.room
        add(f'[Room "{_q(room)}"]')
    return out


def _contract_tags(record: BoardRecord) -> list[str]:
    """Declarer and Contract (both, when either is known), and Result."""
    out: list[str] = []
    contract = record.contract
    declarer = record.declarer
    if contract is not None or declarer is not None:
        decl = ""
        if declarer is not None:
            decl = ("^" if record.declarer_swapped else "") + SEATS[declarer]
        out.append(f'[Declarer "{decl}"]')
        out.append(f'[Contract "{contract or ""}"]')
    if record.result_stated is not None:
        out.append(f'[Result "{"^" if record.result_flagged else ""}{record.result_stated}"]')
    return out


def _play_section(record: BoardRecord) -> list[str]:
    """The Play tag and one line per trick in seat columns (``-`` for a missing card)."""
    declarer = record.declarer
    leader0 = record.play_leader
    if leader0 is None:
        leader0 = record.play[0].seat if record.play[0].seat is not None else (
            (declarer + 1) % 4 if declarer is not None else 0)
    out = [f'[Play "{SEATS[leader0]}"]']
    rows: dict[int, list[str]] = {}
    for i, p in enumerate(record.play):
        trick = p.trick if p.trick is not None else i // 4 + 1
        row = rows.setdefault(trick, ["-"] * 4)
        col = (p.seat - leader0) % 4 if p.seat is not None else i % 4
        marks = "".join(f"^{m} " for m in p.marks if m != UNREADABLE)
        row[col] = marks + card_str(p.card)
    for trick in sorted(rows):
        out.append(" ".join(rows[trick]))
    if record.play_stopped:
        out.append("*")
    return out
