"""Hand-built plays of deal D2 (``deals.py``) for the director's log tests (``--table-facts``).

D2: 3NT by South, West leads.
    N AK2.432.AKQJ.543   E QJT9.AKQ.432.876   S 876.JT9.T98.AKQJ   W 543.8765.765.T92

Every play follows suit throughout (no revoke on the cards); what breaks a duty is only what the
log says.  The comments give every trick's winner.  Tricks are in time order: leader first.
"""
from deals import BASE2

# As BASE2 but East keeps C6 to discard it on trick 8 (N's DJ; East is out of diamonds), and
# plays C7 C8 on the club tricks and S9 on trick 12.  East leads SQ to trick 4 (N's SK wins).
# Winners: E E E, N x6 (4-9), S x4 (10-13): declarer 10.
EAST_KEEPS_C6 = ["W:H8 N:H2 E:HA S:H9", "E:HK S:HT W:H5 N:H3", "E:HQ S:HJ W:H6 N:H4",
                 "E:SQ S:S6 W:S3 N:SK", "N:DA E:D2 S:D8 W:D5", "N:DK E:D3 S:D9 W:D6",
                 "N:DQ E:D4 S:DT W:D7", "N:DJ E:C6 S:S7 W:H7", "N:SA E:ST S:S8 W:S4",
                 "N:C3 E:C7 S:CA W:C2", "S:CK W:C9 N:C4 E:C8", "S:CQ W:CT N:C5 E:S9",
                 "S:CJ W:S5 N:S2 E:SJ"]

# East cashes HK at trick 2, leads SQ at trick 3 (N's SK wins), wins N's H4 lead with HQ at
# trick 4 and leads D2.  Winners: E E N E N x5 (5-9) S x4: declarer 10; E-W won 1, 2 and 4.
EAST_SPADE_AT_3 = ["W:H8 N:H2 E:HA S:H9", "E:HK S:HT W:H5 N:H3", "E:SQ S:S6 W:S3 N:SK",
                   "N:H4 E:HQ S:HJ W:H6", "E:D2 S:D8 W:D5 N:DA", "N:DK E:D3 S:D9 W:D6",
                   "N:DQ E:D4 S:DT W:D7", "N:DJ E:S9 S:S7 W:H7", "N:SA E:ST S:S8 W:S4"] + BASE2[9:]

# East cashes HK at trick 2, then leads D2 (N's DA wins trick 3); he wins N's H4 lead with HQ at
# trick 4 and now leads SQ (N's SK).  Winners as EAST_SPADE_AT_3: declarer 10.
EAST_SPADE_AT_5 = ["W:H8 N:H2 E:HA S:H9", "E:HK S:HT W:H5 N:H3", "E:D2 S:D8 W:D5 N:DA",
                   "N:H4 E:HQ S:HJ W:H6", "E:SQ S:S6 W:S3 N:SK", "N:DK E:D3 S:D9 W:D6",
                   "N:DQ E:D4 S:DT W:D7", "N:DJ E:S9 S:S7 W:H7", "N:SA E:ST S:S8 W:S4"] + BASE2[9:]

# As BASE2 but West plays D6 to trick 5 and D5 to trick 6.  Winners as BASE2: declarer 10.
WEST_D6_BEFORE_D5 = BASE2[:4] + ["N:DA E:D2 S:D8 W:D6", "N:DK E:D3 S:D9 W:D5"] + BASE2[6:]
