"""Tests for revoke_audit.laws.dates: edition chosen from a record's date."""
import datetime as dt

import pytest

from revoke_audit.laws.dates import (
    EDITIONS, RecordDate, choose_edition, choose_edition_for_date, parse_record_date)


# --- parsing -------------------------------------------------------------------------------

def test_editions_tuple():
    assert EDITIONS == ("2017", "2007", "1997", "1932", "bridge-whist")


def test_parse_full_pbn_date():
    d = parse_record_date("2003.06.21")
    assert d == dt.date(2003, 6, 21)
    assert isinstance(d, RecordDate) and d.precision == "day" and d.latest == d


def test_parse_year_only_pbn_date():
    d = parse_record_date("2003.??.??")
    assert d == dt.date(2003, 1, 1)
    assert d.precision == "year" and d.latest == dt.date(2003, 12, 31)


def test_parse_month_only_pbn_date():
    d = parse_record_date("2008.02.??")
    assert (d, d.latest, d.precision) == (dt.date(2008, 2, 1), dt.date(2008, 2, 29), "month")


def test_parse_december_month_range():
    assert parse_record_date("1999.12.??").latest == dt.date(1999, 12, 31)


@pytest.mark.parametrize("text", ["????.??.??", "?", "", "   ", "no date here", "round 12"])
def test_parse_nothing_usable(text):
    assert parse_record_date(text) is None


def test_parse_impossible_day_falls_back_to_month():
    d = parse_record_date("2008.02.30")
    assert d.precision == "month" and d.month == 2


def test_parse_impossible_month_falls_back_to_year():
    assert parse_record_date("2008.13.01").precision == "year"


def test_parse_other_separators():
    assert parse_record_date("2017-08-20") == dt.date(2017, 8, 20)
    assert parse_record_date("2017/08/20") == dt.date(2017, 8, 20)


@pytest.mark.parametrize("title, year", [
    ("Bermuda Bowl 2017 Lyon", 2017),
    ("2018 European Championships", 2018),
    ("Vanderbilt KO 1999, final", 1999),
])
def test_parse_vugraph_title_year(title, year):
    d = parse_record_date(title)
    assert d == dt.date(year, 1, 1) and d.precision == "year"


def test_parse_title_ignores_longer_numbers_and_out_of_range_years():
    assert parse_record_date("board 120175 table 1899") is None
    assert parse_record_date("round 2101") is None


def test_parse_title_with_month_name():
    d = parse_record_date("Bermuda Bowl, Lyon, August 2017")
    assert (d, d.precision) == (dt.date(2017, 8, 1), "month")


def test_parse_title_with_two_years_is_a_range():
    d = parse_record_date("Premier League 2017-2018")
    assert (d, d.latest, d.precision) == (dt.date(2017, 1, 1), dt.date(2018, 12, 31), "years")


# --- corpus dates named in the brief -------------------------------------------------------

@pytest.mark.parametrize("text, edition", [
    ("1997.06.24", "1997"),
    ("2001", "1997"),
    ("2001.??.??", "1997"),
    ("2018.06.15", "2017"),
    ("2003", "1997"),
    ("2003.06.21", "1997"),
    ("2010", "2007"),
    ("1933", "1932"),
    ("1920", "bridge-whist"),
])
def test_corpus_dates(text, edition):
    assert choose_edition(text)[0] == edition


def test_2018_is_after_every_zone_switched_so_no_diagnostic():
    # every zone had the 2017 Laws by 2017-09-30 (EBU, 2017), so 2018 is not a changeover year
    assert choose_edition("2018.06.15") == ("2017", None)
    assert choose_edition("2018") == ("2017", None)


@pytest.mark.parametrize("text", ["2001", "2003", "2010", "1933", "2003.06.21"])
def test_years_wholly_inside_one_edition_have_no_diagnostic(text):
    assert choose_edition(text)[1] is None


# --- boundaries ----------------------------------------------------------------------------

@pytest.mark.parametrize("day, edition, diagnostic", [
    ("1890.05.01", "bridge-whist", True),   # before the first bridge code
    ("1897.03.31", "bridge-whist", True),
    ("1897.04.01", "bridge-whist", False),  # Whist Club Laws of Bridge
    ("1907.12.31", "bridge-whist", False),
    ("1908.01.01", "bridge-whist", True),   # auction bridge era
    ("1927.08.31", "bridge-whist", True),
    ("1927.09.01", "1932", True),           # first contract code (Whist Club 1927)
    ("1932.10.31", "1932", True),
    ("1932.11.01", "1932", True),           # 1932 code: adoption window
    ("1932.12.31", "1932", True),
    ("1933.01.01", "1932", False),
    ("1935.03.30", "1932", False),
    ("1935.03.31", "1997", True),           # 1935 code: not implemented
    ("1996.12.31", "1997", True),
    ("1997.05.26", "1997", True),           # 1987 Laws: not implemented
    ("1997.05.27", "1997", True),           # ACBL adopts the 1997 Laws: window
    ("1997.12.31", "1997", True),
    ("1998.01.01", "1997", False),
    ("2007.12.31", "1997", False),
    ("2008.01.01", "2007", True),           # 2007 Laws: window
    ("2008.09.29", "2007", True),
    ("2008.09.30", "2007", False),
    ("2017.02.28", "2007", False),
    ("2017.03.01", "2017", True),           # 2017 Laws: window
    ("2017.09.30", "2017", True),
    ("2017.10.01", "2017", False),
    ("2026.12.31", "2017", False),
    ("2027.01.01", "2017", True),           # a newer code may be in force
])
def test_boundaries(day, edition, diagnostic):
    got, msg = choose_edition(day)
    assert got == edition
    assert (msg is not None) == diagnostic


def test_window_message_names_the_code_and_the_date():
    ed, msg = choose_edition("2008.05.02")
    assert ed == "2007"
    assert "2008-05-02" in msg and "adoption window" in msg and "2007 Laws" in msg
    assert msg.endswith("2007 applied")


def test_1997_window_message():
    ed, msg = choose_edition("1997.06.24")
    assert ed == "1997" and "adoption window" in msg and "1997-05-27" in msg


@pytest.mark.parametrize("day, code", [
    ("1936.01.01", "1935 Laws"), ("1945.06.01", "1943 Laws"), ("1960.03.03", "1949 Laws"),
    ("1970.01.01", "1963 Laws"), ("1980.01.01", "1975 Laws"), ("1990.01.01", "1987 Laws"),
])
def test_unimplemented_duplicate_codes_get_1997_and_are_named(day, code):
    ed, msg = choose_edition(day)
    assert ed == "1997"
    assert code in msg and "not implement" in msg and "nearest" in msg


def test_early_contract_code_maps_to_1932_with_diagnostic():
    ed, msg = choose_edition("1930.05.01")
    assert ed == "1932" and "1927" in msg and "not implement" in msg
    assert choose_edition("1931")[0] == "1932"


def test_auction_era_maps_to_bridge_whist_with_diagnostic():
    ed, msg = choose_edition("1920")
    assert ed == "bridge-whist" and "auction" in msg


# --- year-only and other imprecise dates ---------------------------------------------------

@pytest.mark.parametrize("year, edition", [
    ("2017", "2017"), ("2008", "2007"), ("1997", "1997"), ("1935", "1997"),
    ("1932", "1932"), ("1927", "1932"), ("1897.??.??", "bridge-whist"),
])
def test_changeover_years_take_the_newer_code_with_diagnostic(year, edition):
    ed, msg = choose_edition(year)
    assert ed == edition
    assert msg is not None and "year only" in msg and "newer code" in msg


def test_free_text_years_are_1900_to_2099_but_pbn_dates_may_be_older():
    assert parse_record_date("Portland Club 1897") is None
    assert parse_record_date("1897.05.??").year == 1897


def test_year_of_promulgation_before_it_took_effect():
    # the 2007 Laws were promulgated in 2007 but took effect in 2008
    assert choose_edition("2007") == ("1997", None)


def test_month_only_inside_a_window():
    ed, msg = choose_edition("2017.08.??")
    assert ed == "2017" and "month only" in msg and "adoption window" in msg


def test_month_only_inside_one_edition():
    assert choose_edition("2012.05.??") == ("2007", None)


def test_vugraph_titles():
    ed, msg = choose_edition("Bermuda Bowl 2017 Lyon")
    assert ed == "2017" and msg is not None and "2017 (year only)" in msg
    assert choose_edition("2018 European Championships") == ("2017", None)


def test_multi_year_title_takes_the_newest():
    ed, msg = choose_edition("Premier League 2007-2008")
    assert ed == "2007" and "years only" in msg


def test_range_ending_in_unimplemented_code_names_it():
    ed, msg = choose_edition("1935")
    assert ed == "1997" and "1935 Laws" in msg and "not implement" in msg


# --- missing or unreadable -----------------------------------------------------------------

@pytest.mark.parametrize("text", [None, "", "  "])
def test_missing_date_takes_the_newest_with_diagnostic(text):
    ed, msg = choose_edition(text)
    assert ed == "2017" and "no date" in msg


@pytest.mark.parametrize("text", ["????.??.??", "?", "Club duplicate, Monday"])
def test_unreadable_date_takes_the_newest_with_diagnostic(text):
    ed, msg = choose_edition(text)
    assert ed == "2017" and "no usable date" in msg


def test_choose_for_plain_date():
    assert choose_edition_for_date(dt.date(2003, 6, 21)) == ("1997", None)
    assert choose_edition_for_date(dt.date(2008, 5, 2))[0] == "2007"


def test_every_result_is_a_known_edition():
    day = dt.date(1880, 1, 1)
    while day.year < 2035:
        assert choose_edition_for_date(day)[0] in EDITIONS
        day += dt.timedelta(days=97)
