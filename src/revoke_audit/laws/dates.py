"""Choose the Laws edition from a hand record's date (``--laws auto``).

Editions implemented: ``2017``, ``2007``, ``1997`` (Laws of Duplicate Bridge), ``1932`` (the
International Contract Bridge Code of 1932, a rubber-bridge code) and ``bridge-whist`` (the
Laws of Bridge of 1897-1907).  Each period below starts on its date (inclusive) and runs to the
next one.  Where the code in force is not implemented, the nearest implemented one is applied
with a diagnostic; inside an adoption window (zones switching at different dates) the NEWER code
is applied with a diagnostic.

=============  ==========================================  ============  ==========
from           code in force                               applied       diagnostic
=============  ==========================================  ============  ==========
(earliest)     none known (before the first bridge code)   bridge-whist  yes
1897-04-01     Laws of Bridge (Whist Club 1897 to 1907)    bridge-whist  no
1908-01-01     auction bridge codes (Portland/Bath 1908)   bridge-whist  yes
1927-09-01     Whist Club contract code 1927, dup. 1928    1932          yes
1932-11-01     1932 International Code: adoption window    1932          yes
1933-01-01     1932 International Code (dup. rev. 1933)    1932          no
1935-03-31     1935 Laws, then 1943, 1949, 1963, 1975,     1997          yes
               1987 revisions (not implemented)
1997-05-27     1997 Laws: adoption window                  1997          yes
1998-01-01     1997 Laws                                   1997          no
2008-01-01     2007 Laws: adoption window                  2007          yes
2008-09-30     2007 Laws                                   2007          no
2017-03-01     2017 Laws: adoption window                  2017          yes
2017-10-01     2017 Laws                                   2017          no
2027-01-01     2017 Laws or a later revision               2017          yes
=============  ==========================================  ============  ==========

A missing or unreadable date gets ``2017`` (the newest) with a diagnostic.  An imprecise date
(year only, month only, several years in a title) stands for a range of days: if the whole range
lies in one period the date is treated like any day of it, otherwise the newest period the range
touches is applied, with a diagnostic.  So ``2018`` gives 2017 silently (every zone had the 2017
Laws by 2017-09-30), ``2017`` gives 2017 with a diagnostic, ``2007`` gives 1997 silently (the
2007 Laws took effect in 2008).  The 1933 duplicate revision is not told apart from the 1932
code: both come from the same bodies and the tool has only the 1932 text.  The dates of the
1943-1987 revisions are taken as 1 January of their year (they only change the diagnostic's
wording), and the end of the 1997 window (1998-01-01) is an assumption: only the ACBL's start
date was found.
"""
from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass

from ..core.record import BoardRecord

EDITIONS = ("2017", "2007", "1997", "1932", "bridge-whist")

_D = _dt.date


@dataclass(frozen=True)
class _Era:
    start: _dt.date
    edition: str
    code: str   # the code in force, as named in messages
    kind: str   # "in-force", "window", "substitute", "before", "future"
    span: str = ""  # for windows: when zones switched


# Sources (dates the codes took effect):
# - Whist Club (New York), "The Laws of Bridge", April 1897 (preface of the printed code).
# - Auction bridge replaced bridge from 1908 (Encyclopaedia Britannica 1922, "Bridge, Auction");
#   first auction laws by a Portland Club / Bath Club committee (M. C. Work, Auction of To-day).
# - First code of contract bridge: Whist Club, September 1927 (Time, 26 Sep 1927); first Laws of
#   Duplicate Contract Bridge 1928, revised 1933, 1935, 1943, 1949, 1963, 1975, 1987, 1997, 2007
#   (preface to the WBF Laws of Duplicate Bridge 2007 and ACBL 2017 edition).
# - 1932 International Code (Portland Club, Whist Club, Commission Francaise): "to be promulgated
#   next week" (The Spectator, 29 Oct 1932), so early November 1932; replaced by the 1935 code,
#   effective 31 Mar 1935 (Time, 25 Mar 1935; Christchurch Press, 30 Mar 1935).
# - 1997 Laws: effective in ACBL events from 27 May 1997 (G. Blaiss, ACBL Bulletin 1997); EBU
#   printing August 1997.  End of the window (1998-01-01) is this tool's assumption.
# - 2007 Laws: "Zonal authorities may implement the Code at any time after 1st January 2008 but
#   before 30th September 2008" (WBF preface); ACBL from 8 Sep 2008; EBU from August 2008.
# - 2017 Laws: WBF from March 2017; EBU from 1 Aug 2017; SBU from 1 Sep 2017; ACBL from
#   25 Sep 2017; "must be introduced by everyone by the end of September" (EBU, 2017).
# - The WBF Laws Committee reviews the Laws at least once a decade: after 2026 a newer code may
#   be in force.
_ERAS: tuple[_Era, ...] = (
    _Era(_D(1, 1, 1), "bridge-whist",
         "the first known code of bridge (Whist Club, 1897)", "before"),
    _Era(_D(1897, 4, 1), "bridge-whist", "the Laws of Bridge", "in-force"),
    _Era(_D(1908, 1, 1), "bridge-whist", "auction bridge's laws (from 1908)", "substitute"),
    _Era(_D(1927, 9, 1), "1932",
         "the Whist Club's 1927 contract code (duplicate: 1928 Laws)", "substitute"),
    _Era(_D(1932, 11, 1), "1932", "the 1932 International Code", "window",
         "promulgated early November 1932"),
    _Era(_D(1933, 1, 1), "1932", "the 1932 International Code", "in-force"),
    _Era(_D(1935, 3, 31), "1997", "the 1935 Laws", "substitute"),
    _Era(_D(1943, 1, 1), "1997", "the 1943 Laws", "substitute"),
    _Era(_D(1949, 1, 1), "1997", "the 1949 Laws", "substitute"),
    _Era(_D(1963, 1, 1), "1997", "the 1963 Laws", "substitute"),
    _Era(_D(1975, 1, 1), "1997", "the 1975 Laws", "substitute"),
    _Era(_D(1987, 1, 1), "1997", "the 1987 Laws", "substitute"),
    _Era(_D(1997, 5, 27), "1997", "the 1997 Laws", "window",
         "ACBL from 1997-05-27, other zones later in 1997"),
    _Era(_D(1998, 1, 1), "1997", "the 1997 Laws", "in-force"),
    _Era(_D(2008, 1, 1), "2007", "the 2007 Laws", "window",
         "2008-01-01 to 2008-09-29; ACBL from 2008-09-08"),
    _Era(_D(2008, 9, 30), "2007", "the 2007 Laws", "in-force"),
    _Era(_D(2017, 3, 1), "2017", "the 2017 Laws", "window",
         "WBF March 2017, EBU 2017-08-01, ACBL 2017-09-25"),
    _Era(_D(2017, 10, 1), "2017", "the 2017 Laws", "in-force"),
    _Era(_D(2027, 1, 1), "2017",
         "the 2017 Laws or a later revision (the Laws are revised about every ten years)",
         "future"),
)


class RecordDate(_dt.date):
    """A record's date as far as it is known: the earliest day it can be, plus ``latest`` (the
    last day it can be) and ``precision`` ("day", "month", "year" or "years")."""

    latest: _dt.date
    precision: str

    def __new__(cls, first: _dt.date, latest: _dt.date, precision: str) -> "RecordDate":
        self = super().__new__(cls, first.year, first.month, first.day)
        self.latest, self.precision = latest, precision
        return self

    def __repr__(self) -> str:
        return f"RecordDate({self.isoformat()}..{self.latest.isoformat()}, {self.precision})"

    def describe(self) -> str:
        """How the date reads in a diagnostic."""
        if self.precision == "day":
            return self.isoformat()
        if self.precision == "month":
            return f"{self.year}-{self.month:02d} (month only)"
        if self.precision == "year":
            return f"{self.year} (year only)"
        return f"{self.year}-{self.latest.year} (years only)"


_PBN = re.compile(r"(?<!\d)(\d{4}|\?{4})[.\-/](\d\d|\?\?)[.\-/](\d\d|\?\?)(?!\d)")
_YEAR = re.compile(r"(?<!\d)(19\d\d|20\d\d)(?!\d)")
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTH_YEAR = re.compile(
    r"\b(" + "|".join(_MONTHS) + r")[a-z]*\.?,?\s+(19\d\d|20\d\d)(?!\d)", re.IGNORECASE)


def _year_range(lo: int, hi: int) -> RecordDate:
    return RecordDate(_D(lo, 1, 1), _D(hi, 12, 31), "year" if lo == hi else "years")


def _month_range(year: int, month: int) -> RecordDate:
    nxt = _D(year + month // 12, month % 12 + 1, 1)
    return RecordDate(_D(year, month, 1), nxt - _dt.timedelta(days=1), "month")


def _from_pbn(year: str, month: str, day: str) -> RecordDate | None:
    """PBN ``Date`` (third tag of the PBN 2.1 Mandatory Tag Set: "YYYY.MM.DD", unknown parts
    written as "?")."""
    if "?" in year or not 1800 <= int(year) <= 2099:
        return None
    y = int(year)
    if "?" in month or not 1 <= int(month) <= 12:
        return _year_range(y, y)            # unknown (or impossible) month: the whole year
    if "?" not in day:
        try:
            d = _D(y, int(month), int(day))
            return RecordDate(d, d, "day")
        except ValueError:
            pass                            # impossible day: the whole month
    return _month_range(y, int(month))


def parse_record_date(text: str) -> _dt.date | None:
    """Read a PBN ``Date`` ("2003.06.21", "2003.??.??") or a free-text title ("Bermuda Bowl 2017
    Lyon", "June 2018 European Championships").  Returns a :class:`RecordDate` (a ``date`` whose
    value is the earliest day the record can be from) or ``None`` if nothing usable is found."""
    if not text or not text.strip():
        return None
    m = _PBN.search(text)
    if m:
        return _from_pbn(*m.groups())
    m = _MONTH_YEAR.search(text)
    if m:
        return _month_range(int(m.group(2)), _MONTHS.index(m.group(1)[:3].lower()) + 1)
    years = [int(y) for y in _YEAR.findall(text)]
    if not years:
        return None
    return _year_range(min(years), max(years))


def _era_index(day: _dt.date) -> int:
    idx = 0
    for i, era in enumerate(_ERAS):
        if era.start <= day:
            idx = i
    return idx


def _outcome(era: _Era) -> str:
    """The code in force in ``era`` and what is applied for it."""
    if era.kind == "substitute":
        return (f"{era.code}, which this tool does not implement; {era.edition}, the nearest "
                f"implemented edition, applied")
    if era.kind == "future":
        return f"{era.code}; {era.edition}, the newest implemented edition, applied"
    return f"{era.code}; {era.edition} applied"


def _message(era: _Era, when: str) -> str | None:
    if era.kind == "in-force":
        return None
    if era.kind == "window":
        return (f"date {when} falls in the adoption window of {era.code} ({era.span}); "
                f"{era.edition} applied")
    if era.kind == "before":
        return f"date {when} is before {era.code}; {era.edition} applied"
    return f"date {when} falls under {_outcome(era)}"


def _choose_range(first: _dt.date, last: _dt.date, when: str) -> tuple[str, str | None]:
    lo, hi = _era_index(first), _era_index(last)
    newest = _ERAS[hi]
    if lo == hi:
        return newest.edition, _message(newest, when)
    codes: list[str] = []
    for era in _ERAS[lo:hi + 1]:
        label = era.code + (" (adoption window)" if era.kind == "window" else "")
        if label not in codes:
            codes.append(label)
    spans = ", ".join(codes[:-1]) + " and " + codes[-1]
    return newest.edition, (f"date {when} spans {spans}, so the newer code is taken: "
                            f"{_outcome(newest)}")


def choose_edition_for_date(day: _dt.date) -> tuple[str, str | None]:
    """Edition and diagnostic for a ``date`` (a :class:`RecordDate` counts as its whole range)."""
    if isinstance(day, RecordDate):
        return _choose_range(day, day.latest, day.describe())
    return _choose_range(day, day, day.isoformat())


def choose_edition(date_text: str | None) -> tuple[str, str | None]:
    """``(edition, diagnostic or None)`` for a record's date text (see the module table)."""
    if date_text is None or not date_text.strip():
        return "2017", "the record has no date; 2017 (the newest edition) applied"
    day = parse_record_date(date_text)
    if day is None:
        return "2017", (f"no usable date in {date_text.strip()!r}; "
                        f"2017 (the newest edition) applied")
    return choose_edition_for_date(day)


def edition_for(record: BoardRecord, laws: str) -> tuple[str, str | None]:
    """The edition to apply to ``record``: ``laws`` itself, or for ``auto`` the one in force
    on the record's date (PBN Date, else BridgeComposer's title date, else a year in the
    event or vugraph title), with a note when that is uncertain."""
    if laws != "auto":
        return laws, None
    for text in (record.date, record.tags.get("HRTitleDate"), record.event):
        if text and parse_record_date(text):
            return choose_edition(text)
    return choose_edition(record.date or None)
