"""More hand-built plays of deal D2 (``deals.py``) for the edition tests.

D2: 3NT by South, West leads.
    N AK2.432.AKQJ.543   E QJT9.AKQ.432.876   S 876.JT9.T98.AKQJ   W 543.8765.765.T92

Each play is legal apart from the irregularity named; the comments give every trick's winner.
"""
from deals import BASE2

# East discards D2 on trick 1 holding HAKQ; S's H9 wins it.  S leads HT to trick 2 and East wins
# it with HA - a card he could have played to trick 1 - then HK (trick 3) and HQ (trick 4: W
# follows with H7, S and N, out of hearts, discard S6 and C3).  E leads SQ to N's SK (5); N runs
# four diamonds (6-9; E discards S9 and ST, S discards S8 on the last) and SA (10); S wins three
# clubs (11-13).  Winners: S, E E E, N x6, S S S: declarer 10, E-W 3 (tricks 2-4).
EAST_REVOKES_1_WINS_LATER = [
    "W:H8 N:H2 E:D2 S:H9", "S:HT W:H5 N:H3 E:HA", "E:HK S:HJ W:H6 N:H4", "E:HQ S:S6 W:H7 N:C3",
    "E:SQ S:S7 W:S3 N:SK", "N:DA E:D3 S:D8 W:D5", "N:DK E:D4 S:D9 W:D6", "N:DQ E:S9 S:DT W:D7",
    "N:DJ E:ST S:S8 W:S4", "N:SA E:SJ S:CJ W:S5", "N:C4 E:C6 S:CA W:C2", "S:CK W:C9 N:C5 E:C7",
    "S:CQ W:CT N:S2 E:C8"]

# E-W revoke three times: W discards C2 on trick 7 holding D76, E discards C6 on trick 8 holding
# D4, W discards CT on trick 11 holding D7.  N-S cash SA SK early, so E's SJ and SQ win tricks
# 9 and 10.  Winners: E E E (hearts), N x5 (4-8), E E (9-10), N (11), S S (12-13): declarer 8,
# E-W 5 (tricks 1-3, 9, 10).
EW_REVOKE_THREE_TIMES = [
    "W:H8 N:H2 E:HA S:H9", "E:HK S:HT W:H5 N:H3", "E:HQ S:HJ W:H6 N:H4", "E:D2 S:D8 W:D5 N:DA",
    "N:SA E:S9 S:S6 W:S3", "N:SK E:ST S:S7 W:S4", "N:DK E:D3 S:D9 W:C2", "N:DQ E:C6 S:DT W:D6",
    "N:S2 E:SJ S:S8 W:S5", "E:SQ S:CJ W:C9 N:C3", "E:D4 S:CQ W:CT N:DJ", "N:C4 E:C7 S:CA W:D7",
    "S:CK W:H7 N:C5 E:C8"]

# West plays no card to trick 2 (PBN '-'), then plays all his other hearts (H6 trick 3, H7 trick
# 8, H5 trick 13 - a discard, he has no club left) and keeps S5 to the end: at rectification he
# holds no heart.  Winners as BASE2: E E E, N x6, S x4: declarer 10.
WEST_OMITS_2_KEEPS_SPADE = ["W:H8 N:H2 E:HA S:H9", "E:HK S:HT W:- N:H3",
                            "E:HQ S:HJ W:H6 N:H4"] + BASE2[3:12] + ["S:CJ W:H5 N:S2 E:SJ"]
