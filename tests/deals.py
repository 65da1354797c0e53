"""Two hand-built deals and their plays, shared by the law tests of every edition.

D1: 4H by South, West leads.  N-S hold every trick in the clean play (BASE1).
    N 5432.543.AKQ.AKQ   E KQJT.2.9876.9876   S A98.AKQJT.54.543   W 76.9876.JT32.JT2
D2: 3NT by South, West leads.  E wins tricks 1-3 (hearts), N 4-9, S 10-13: 10 tricks (BASE2).
    N AK2.432.AKQJ.543   E QJT9.AKQ.432.876   S 876.JT9.T98.AKQJ   W 543.8765.765.T92

Every play below was written out by hand, card by card, and each comment gives the winners
that the expected rulings are worked from.  Tricks are in time order: leader first.
"""

D1 = "N:5432.543.AKQ.AKQ KQJT.2.9876.9876 A98.AKQJT.54.543 76.9876.JT32.JT2"
D2 = "N:AK2.432.AKQJ.543 QJT9.AKQ.432.876 876.JT9.T98.AKQJ 543.8765.765.T92"

# winners N, S x5, N x4, S x3: declarer 13
BASE1 = ["W:DJ N:DA E:D6 S:D4", "N:S2 E:ST S:SA W:S6", "S:HA W:H6 N:H3 E:H2",
         "S:HK W:H7 N:H4 E:SJ", "S:HQ W:H8 N:H5 E:SQ", "S:HJ W:H9 N:S3 E:SK",
         "S:C3 W:C2 N:CA E:C6", "N:CK E:C7 S:C4 W:CT", "N:CQ E:C8 S:C5 W:CJ",
         "N:DK E:D7 S:D5 W:D2", "N:DQ E:D8 S:HT W:D3", "S:S9 W:S7 N:S4 E:D9",
         "S:S8 W:DT N:S5 E:C9"]

# declarer ruffs trick 10 (HT) holding D5 and wins it; N-S win 11-13 too.  Declarer 13.
DECLARER_RUFFS_10 = BASE1[:9] + ["N:DK E:D7 S:HT W:D2", "S:D5 W:D3 N:DQ E:D8",
                                 "N:S4 E:D9 S:S9 W:S7", "S:S8 W:DT N:S5 E:C9"]

# West ruffs trick 2 (H6) holding S76 and wins it; E-W win nothing after.  Declarer 12.
WEST_RUFFS_2 = ["W:DJ N:DA E:D6 S:D4", "N:S2 E:ST S:SA W:H6", "W:D2 N:DK E:D7 S:D5",
                "N:CA E:C6 S:C3 W:C2", "N:CK E:C7 S:C4 W:CT", "N:CQ E:C8 S:C5 W:CJ",
                "N:DQ E:D8 S:HT W:D3", "S:HA W:H7 N:H3 E:H2", "S:HK W:H8 N:H4 E:SJ",
                "S:HQ W:H9 N:H5 E:SQ", "S:HJ W:S6 N:S3 E:SK", "S:S9 W:S7 N:S4 E:D9",
                "S:S8 W:DT N:S5 E:C9"]

# South revokes twice in two suits: trick 8 (S9 on a club, holding C5 C4; N wins) and trick 10
# (HT ruff on a diamond, holding D5; S wins).  Winners: N, S x5, N N N, S, N, S, E: declarer 12.
DECLARER_TWO_SUITS = BASE1[:7] + ["N:CK E:C7 S:S9 W:CT", "N:CQ E:C8 S:C4 W:CJ",
                                  "N:DK E:D7 S:HT W:D2", "S:D5 W:D3 N:DQ E:D8",
                                  "N:S4 E:D9 S:S8 W:S7", "S:C5 W:DT N:S5 E:C9"]

# A random legal play of D1 with a trick-12 revoke: before trick 12 S holds HA C3, W CJ H8,
# N CK S5, E SJ C7.  Record: S HA, W CJ (holding H8), N CK, E SJ -> S; then W ruffs trick 13
# with H8.  Declarer 10.  Corrected (62D): W plays H8; N, after him, may change: he plays S5 and
# keeps CK, which wins trick 13 -> N-S win both: declarer 11.
TWELFTH_REVOKE = ["W:DJ N:DK E:D8 S:D4", "N:DQ E:D6 S:D5 W:D2", "N:S3 E:SQ S:S9 W:S6",
                  "E:C6 S:C5 W:C2 N:CA", "N:H3 E:H2 S:HJ W:H9", "S:HK W:H6 N:H5 E:SK",
                  "S:C4 W:CT N:CQ E:C9", "N:DA E:D9 S:SA W:D3", "N:S2 E:ST S:S8 W:S7",
                  "E:D7 S:HQ W:DT N:H4", "S:HT W:H7 N:S4 E:C8", "S:HA W:CJ N:CK E:SJ",
                  "S:C3 W:H8 N:S5 E:C7"]

BASE2 = ["W:H8 N:H2 E:HA S:H9", "E:HK S:HT W:H5 N:H3", "E:HQ S:HJ W:H6 N:H4",
         "E:SQ S:S6 W:S3 N:SK", "N:DA E:D2 S:D8 W:D5", "N:DK E:D3 S:D9 W:D6",
         "N:DQ E:D4 S:DT W:D7", "N:DJ E:S9 S:S7 W:H7", "N:SA E:ST S:S8 W:S4",
         "N:C3 E:C6 S:CA W:C2", "S:CK W:C9 N:C4 E:C7", "S:CQ W:CT N:C5 E:C8",
         "S:CJ W:S5 N:S2 E:SJ"]

# West discards D5 on trick 3 holding H76; partner East wins it; E-W win nothing after.
WEST_REVOKES_3 = BASE2[:2] + ["E:HQ S:HJ W:D5 N:H4", "E:SQ S:S6 W:S3 N:SK",
                              "N:DA E:D2 S:D8 W:D6", "N:DK E:D3 S:D9 W:D7",
                              "N:DQ E:D4 S:DT W:H6", "N:DJ E:S9 S:S7 W:H7"] + BASE2[8:]

# West discards H7 on trick 4 (spades) holding S543; N wins; E-W won only tricks 1-3.
WEST_REVOKES_4 = BASE2[:3] + ["E:SQ S:S6 W:H7 N:SK"] + BASE2[4:7] + \
    ["N:DJ E:S9 S:S7 W:S3"] + BASE2[8:]

# Declarer discards D8 on trick 1 holding HJT9; East wins; N-S win 4-13.
DECLARER_REVOKES_1 = ["W:H8 N:H2 E:HA S:D8", "E:HK S:H9 W:H5 N:H3", "E:HQ S:HT W:H6 N:H4",
                      "E:SQ S:S6 W:S3 N:SK", "N:DA E:D2 S:D9 W:D5", "N:DK E:D3 S:DT W:D6",
                      "N:DQ E:D4 S:S7 W:D7", "N:DJ E:S9 S:S8 W:H7", "N:SA E:ST S:HJ W:S4"] + BASE2[9:]

# Declarer discards S7 on trick 5 holding DT98; dummy wins it with DA.
DECLARER_REVOKES_5 = BASE2[:4] + ["N:DA E:D2 S:S7 W:D5", "N:DK E:D3 S:D8 W:D6",
                                  "N:DQ E:D4 S:D9 W:D7", "N:DJ E:S9 S:DT W:H7"] + BASE2[8:]

# Dummy discards C3 on trick 1 holding H432; East wins.
DUMMY_REVOKES_1 = ["W:H8 N:C3 E:HA S:H9", "E:HK S:HT W:H5 N:H3", "E:HQ S:HJ W:H6 N:H4"] + \
    BASE2[3:9] + ["N:C4 E:C6 S:CA W:C2", "S:CK W:C9 N:C5 E:C7", "S:CQ W:CT N:H2 E:C8",
                  "S:CJ W:S5 N:S2 E:SJ"]

# West discards D5 and D6 on tricks 2 and 3, both times holding H765.  East wins both.
WEST_REVOKES_HEARTS_TWICE = ["W:H8 N:H2 E:HA S:H9", "E:HK S:HT W:D5 N:H3",
                             "E:HQ S:HJ W:D6 N:H4", "E:SQ S:S6 W:S3 N:SK",
                             "N:DA E:D2 S:D8 W:D7", "N:DK E:D3 S:D9 W:H5",
                             "N:DQ E:D4 S:DT W:H6", "N:DJ E:S9 S:S7 W:H7"] + BASE2[8:]

# West revokes on trick 3 (as WEST_REVOKES_3) and declarer on trick 5 (as DECLARER_REVOKES_5).
BOTH_SIDES = BASE2[:2] + ["E:HQ S:HJ W:D5 N:H4", "E:SQ S:S6 W:S3 N:SK",
                          "N:DA E:D2 S:S7 W:D6", "N:DK E:D3 S:D8 W:D7",
                          "N:DQ E:D4 S:D9 W:H6", "N:DJ E:S9 S:DT W:H7"] + BASE2[8:]

# West plays no card to trick 2 (he keeps H5 to the end).  PBN shape: a '-' in his column.
WEST_OMITS_2_PBN = ["W:H8 N:H2 E:HA S:H9", "E:HK S:HT W:- N:H3", "E:HQ S:HJ W:H6 N:H4"] + \
    BASE2[3:]
# The same in LIN shape: trick 2 has three cards, then East leads trick 3.
WEST_OMITS_2_LIN = ["W:H8 N:H2 E:HA S:H9", "E:HK S:HT N:H3", "E:HQ S:HJ W:H6 N:H4"] + BASE2[3:]

# East leads SQ to trick 4 and faces S9 with it (an extra card); he discards ST on trick 8 and
# plays SJ to trick 9, so the record has no card of his for trick 13 (the restored S9 is it).
EAST_EXTRA_CARD_4 = BASE2[:3] + ["E:SQ E:S9 S:S6 W:S3 N:SK"] + BASE2[4:7] + \
    ["N:DJ E:ST S:S7 W:H7", "N:SA E:SJ S:S8 W:S4", "N:C3 E:C6 S:CA W:C2",
     "S:CK W:C9 N:C4 E:C7", "S:CQ W:CT N:C5 E:C8", "S:CJ W:S5 N:S2"]

# West discards S5 on trick 11 holding CT9; declarer then claims 9 of 13 (conceding one).
WEST_REVOKES_11 = BASE2[:10] + ["S:CK W:S5 N:C4 E:C7"]

# A random legal play of D2 in which West revokes on trick 9 (C9 on East's SJ lead, holding
# S4); N wins it with SK.  Winners: N N E N E N S E N S S E E: declarer 8; E-W win tricks 12-13,
# so 64A2 moves one: 9.  Had West followed with S4, N wins trick 9 and, double dummy, N-S take
# every trick: N cashes DQ (S throws HJ), then S's CK CQ CJ - declarer 5 + 5 = 10 > 9 (64C).
WEST_REVOKES_9 = ["W:D7 N:DJ E:D3 S:D8", "N:DK E:D4 S:DT W:D6", "N:H2 E:HQ S:HT W:H5",
                  "E:D2 S:D9 W:D5 N:DA", "N:H4 E:HK S:H9 W:H7", "E:S9 S:S6 W:S3 N:SA",
                  "N:C3 E:C6 S:CA W:CT", "S:S8 W:S5 N:S2 E:SQ", "E:SJ S:S7 W:C9 N:SK",
                  "N:C4 E:C7 S:CK W:C2", "S:CJ W:H6 N:C5 E:C8", "S:HJ W:H8 N:H3 E:HA",
                  "E:ST S:CQ W:S4 N:DQ"]

# D3: 3H by South, West leads (built for Law 64C; tricks 1-9 are a legal random play).
#     N JT32.5.J86.76432   E AK5.T8742..AKQ85   S Q7.AKJ6.AKQT7.JT   W 9864.Q93.95432.9
# Winners of tricks 1-9: E S E S S S W S S: declarer 6... counted in the tests from the replay.
# Before trick 10 (South on lead):  N S3 S2 C3 C2   E H2 CA CK CQ   S HA DA DK DQ
#                                   W S4 D5 D4 D3
D3 = "N:JT32.5.J86.76432 AK5.T8742..AKQ85 Q7.AKJ6.AKQT7.JT 9864.Q93.95432.9"
D3_FIRST_9 = ["W:D2 N:D6 E:HT S:D7", "E:SK S:SQ W:S9 N:SJ", "E:SA S:S7 W:S6 N:ST",
              "E:C8 S:CT W:C9 N:C6", "S:HK W:HQ N:H5 E:H8", "S:CJ W:S8 N:C7 E:C5",
              "S:H6 W:H9 N:DJ E:H4", "W:H3 N:C4 E:H7 S:HJ", "S:DT W:D9 N:D8 E:S5"]

# East keeps his last trump: on South's HA (trick 10) he discards CQ holding H2.  South wins
# it; East ruffs South's DA (11) and cashes CA and CK (12-13).
EAST_KEEPS_TRUMP_10 = D3_FIRST_9 + ["S:HA W:S4 N:S2 E:CQ", "S:DA W:D3 N:S3 E:H2",
                                    "E:CA S:DK W:D4 N:C2", "E:CK S:DQ W:D5 N:C3"]

# As above, but dummy discards C3 on trick 11 and then S3 on East's CA (trick 12) holding C2:
# both sides have revoked.
BOTH_SIDES_D3 = D3_FIRST_9 + ["S:HA W:S4 N:S2 E:CQ", "S:DA W:D3 N:C3 E:H2",
                              "E:CA S:DK W:D4 N:S3", "E:CK S:DQ W:D5 N:C2"]

# Two revokes by E-W, one later E-W trick for both (D1, 4H by South): West ruffs trick 2 (H6
# holding CJT2) and wins it; East discards ST on trick 4 holding C987 (N wins); E-W's only
# other trick is 10 (E's SK).  Winners: N W N N N S S S S E S S S: declarer 11.  At the table
# West's revoke takes tricks 2 and 10 (64A1), and East's finds nothing left (64B1): 13.
TWO_REVOKES_ONE_LATER_TRICK = [
    "W:DJ N:DA E:D6 S:D4", "N:CA E:C6 S:C3 W:H6", "W:D2 N:DK E:D7 S:D5",
    "N:CK E:ST S:C4 W:C2", "N:CQ E:C7 S:C5 W:CT", "N:DQ E:D8 S:HT W:D3",
    "S:HA W:H7 N:H3 E:H2", "S:HK W:H8 N:H4 E:SJ", "S:HQ W:H9 N:H5 E:SQ",
    "S:S8 W:S6 N:S2 E:SK", "E:D9 S:HJ W:DT N:S3", "S:SA W:S7 N:S4 E:C8",
    "S:S9 W:CJ N:S5 E:C9"]
