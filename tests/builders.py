"""Build board records from a deal and a play written trick by trick, for the law tests.

``board("N:... E... S... W...", "4H", "S", ["W:DJ N:DA E:D6 S:D4", ...])`` gives a record as a
PBN reader would (cards grouped by trick, with seats); ``lin=True`` gives the LIN shape (one
flat sequence, the seat of each card being its holder)."""
from __future__ import annotations

from revoke_audit.auction import parse_contract
from revoke_audit.cards import parse_card, parse_deal, parse_seat
from revoke_audit.record import BoardRecord, Play


def board(deal: str, contract: str, declarer: str, tricks: list[str], *, claim: int | None = None,
          result: int | None = None, vul: str = "None", lin: bool = False, stopped: bool = False,
          dealer: str = "N", source: str = "test.pbn") -> BoardRecord:
    hands, problems = parse_deal(deal)
    plays = []
    line = 10
    for number, text in enumerate(tricks, 1):
        line += 1
        for token in text.split():
            seat_text, _, card_text = token.partition(":")
            marks = tuple(m for m in ("R", "L") if card_text.startswith("^" + m))
            card_text = card_text.lstrip("^RL") if marks else card_text
            card = None if card_text == "-" else parse_card(card_text)
            seat = parse_seat(seat_text)
            if lin:
                seat = next((s for s in range(4) if card is not None and hands[s] >> card & 1), None)
            plays.append(Play(seat, card, marks, line, None if lin else number))
    leader = plays[0].seat if plays else None
    return BoardRecord(
        source=source, line=1, game=1, format="lin" if lin else "pbn", board="1",
        dealer=parse_seat(dealer), vul=vul, hands=hands, deal_line=2,
        contract_stated=None if lin else contract, declarer_stated=None if lin else parse_seat(declarer),
        contract_derived=contract if lin else None, declarer_derived=parse_seat(declarer) if lin else None,
        play_leader=None if lin else leader, play=tuple(plays), play_stopped=stopped,
        claim=claim if lin else None, result_stated=None if lin else result,
        result_line=5 if result is not None else None, claim_line=99 if claim is not None else None,
    ) if parse_contract(contract) is not None else None
