"""Build board records for the law tests: from a deal and a play written trick by trick
(``board``), or at random with failures to follow forced where asked (``revoking_board``).

``board("N:... E... S... W...", "4H", "S", ["W:DJ N:DA E:D6 S:D4", ...])`` gives a record as a
PBN reader would (cards grouped by trick, with seats); ``lin=True`` gives the LIN shape (one
flat sequence, the seat of each card being its holder)."""
from __future__ import annotations

from revoke_audit.core.auction import parse_contract
import random

from revoke_audit.core.cards import SUIT_MASKS, cards_in, parse_card, parse_deal, parse_seat, trick_winner
from revoke_audit.core.record import BoardRecord, Play


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


def revoking_board(seed: int, revokes: set[tuple[int, int]], strain: int, declarer: int
                   ) -> tuple[BoardRecord, list[tuple[int, int]]]:
    """A random deal (from ``seed``) played legally for all 13 tricks, except a failure to
    follow at each (trick, position in the trick) of ``revokes`` when that player has another
    suit; also the (trick, seat) of each failure actually forced."""
    rnd = random.Random(seed)
    deck = list(range(52))
    rnd.shuffle(deck)
    hands = [sum(1 << c for c in deck[i * 13:(i + 1) * 13]) for i in range(4)]
    left, leader, plays, forced = list(hands), (declarer + 1) % 4, [], []
    trump = None if strain == 4 else strain
    for t in range(1, 14):
        cards: list[int] = []
        for i in range(4):
            seat = (leader + i) % 4
            legal = left[seat]
            if cards and legal & SUIT_MASKS[cards[0] // 13]:
                other = legal & ~SUIT_MASKS[cards[0] // 13]
                if (t, i) in revokes and other:
                    legal = other
                    forced.append((t, seat))
                else:
                    legal &= SUIT_MASKS[cards[0] // 13]
            card = rnd.choice(list(cards_in(legal)))
            left[seat] &= ~(1 << card)
            cards.append(card)
            plays.append(Play(seat, card, (), t, t))
        leader = trick_winner(leader, cards, trump)
    contract = f"1{['S', 'H', 'D', 'C', 'NT'][strain]}"
    record = BoardRecord(source="p", line=1, game=1, format="pbn", hands=tuple(hands),
                         contract_stated=contract, declarer_stated=declarer, vul="None",
                         play_leader=(declarer + 1) % 4, play=tuple(plays))
    return record, forced
