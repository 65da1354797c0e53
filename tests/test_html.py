"""The director's page (``--html``): read back with an HTML parser, never a regex - one section
per irregular board with the offending cards marked, every record value escaped, nothing
loaded from outside, and written as every output is (checked against the inputs, atomically)."""
from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from revoke_audit import audit_paths
from revoke_audit.cli.commands import main

ROOT = Path(__file__).resolve().parents[1]
SESSION = ROOT / "fixtures" / "mixed"
PBN = SESSION / "thursday-pairs.pbn"
HOSTILE_NAME = "<script>alert('x')</script>"
HOSTILE_FILE = 'a"b\'<c> onload=x.pbn'


@dataclass
class Node:
    tag: str
    attrs: dict
    children: list = field(default_factory=list)
    parent: "Node | None" = None

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def classes(self) -> set[str]:
        return set((self.attrs.get("class") or "").split())

    def all(self, tag: str | None = None, cls: str | None = None) -> list["Node"]:
        found = []
        for c in self.children:
            if isinstance(c, Node):
                if (tag is None or c.tag == tag) and (cls is None or cls in c.classes()):
                    found.append(c)
                found += c.all(tag, cls)
        return found


class Tree(HTMLParser):
    """The document as nodes; also every tag and attribute seen, for the checks on escaping."""

    VOID = {"meta", "br", "img", "input", "link", "hr", "rect"}

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {})
        self.at = self.root
        self.tags: list[tuple[str, dict]] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), parent=self.at)
        self.tags.append((tag, dict(attrs)))
        self.at.children.append(node)
        if tag not in self.VOID:
            self.at = node

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self.at.children.append(Node(tag, dict(attrs), parent=self.at))

    def handle_endtag(self, tag):
        node = self.at
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.at = node.parent

    def handle_data(self, data):
        self.at.children.append(data)


def page_of(path: Path) -> Tree:
    return Tree(path.read_text(encoding="utf-8"))


def marked_cards(section: Node) -> set[tuple[int, str, str, str]]:
    """(trick, seat, card, kind) of every framed entry of the section's trick table."""
    out = set()
    for table in section.all("table", "play"):
        for tr in table.all("tr"):
            th = tr.all("th")
            for td in tr.all("td", "e"):
                kinds = td.classes() & {"revoke", "extra", "none"}
                if kinds:
                    out.add((int(th[0].text()), td.attrs["data-seat"],
                             td.attrs.get("data-card", ""), kinds.pop()))
    return out


def expected_marks(findings, source: str, game: int) -> set[tuple[int, str, str, str]]:
    kind = {"RV": "revoke", "DT001": "none", "DT002": "extra"}
    rows = findings[(findings.source == source) & (findings.game == game)]
    return {(int(f.trick), f.seat, f.card if f.code != "DT001" else "",
             kind.get(f.code, kind.get(f.code[:2])))
            for f in rows.itertuples() if f.code[:2] in ("RV", "DT")}


def test_one_section_per_irregular_board_with_its_offending_cards_marked(tmp_path):
    out = tmp_path / "report.html"
    result = audit_paths([SESSION], html=out)
    tree = page_of(out)
    sections = tree.root.all("section", "board")
    irregular = result.boards[result.boards.status == "irregular"]
    assert len(sections) == len(irregular) == 6
    for section, board in zip(sections, irregular.itertuples()):
        assert section.all("h2")[0].text().startswith(f"Board {board.board}")
        marks = marked_cards(section)
        assert marks and marks == expected_marks(result.findings, board.source, board.game)
        # the compass diagram: four hands of four suits, hearts and diamonds red
        assert len(section.all("div", "hand")) == 4
        assert {s.attrs["class"] for s in section.all("span", "sym")} >= {"sym s0", "sym s1"}
    summary = tree.root.all("section", "summary")[0].text()
    assert "8 boards" in " ".join(summary.split())


def test_the_cli_writes_the_same_page_and_explain_one_board(tmp_path):
    runner = CliRunner()
    page = tmp_path / "run.html"
    res = runner.invoke(main, ["audit", str(SESSION), "--html", str(page), "-q"])
    assert res.exit_code == 1, res.output
    assert len(page_of(page).root.all("section", "board")) == 6
    board = tmp_path / "board.html"
    res = runner.invoke(main, ["explain", str(PBN), "--board", "3", "--html", str(board)])
    assert res.exit_code == 0, res.output
    assert "Director's ruling" in res.output  # the text still goes to stdout
    sections = page_of(board).root.all("section", "board")
    assert len(sections) == 1
    assert {m[3] for m in marked_cards(sections[0])} == {"revoke"}


def hostile_copy(folder: Path) -> Path:
    """The session's PBN under a file name with quotes and angle brackets, a player named
    ``<script>...`` and an event with markup in it."""
    text = PBN.read_text(encoding="utf-8")
    text = text.replace("Hal West", HOSTILE_NAME).replace(
        '[Event "Thursday Pairs"]', '[Event "Club & <b>bold</b> \\"night\\""]')
    path = folder / HOSTILE_FILE
    path.write_text(text, encoding="utf-8")
    return path


def test_every_record_value_is_escaped(tmp_path):
    src = hostile_copy(tmp_path)
    out = tmp_path / "page.html"
    audit_paths([src], html=out)
    tree = page_of(out)
    assert [t for t, _ in tree.tags].count("script") == 1  # the page's own, and no other
    assert "b" not in {t for t, _ in tree.tags}
    scripts = tree.root.all("script")
    assert HOSTILE_NAME not in scripts[0].text()
    text = tree.root.text()
    assert HOSTILE_NAME in text and HOSTILE_FILE in text and "Club & <b>bold</b>" in text
    for _, attrs in tree.tags:  # no attribute made from a name: a quote broke nothing
        assert set(attrs) <= {"class", "id", "href", "lang", "charset", "name", "content",
                              "aria-hidden", "aria-label", "aria-labelledby", "scope",
                              "colspan", "span", "role", "width", "height", "viewbox", "x", "y",
                              "transform", "preserveaspectratio", "style", "data-seat",
                              "data-card"}


def test_the_page_names_no_url_and_loads_nothing(tmp_path):
    out = tmp_path / "page.html"
    audit_paths([SESSION], html=out)
    tree = page_of(out)
    for tag, attrs in tree.tags:
        assert tag not in ("link", "img", "iframe", "object", "embed", "base")
        assert "src" not in attrs
        assert attrs.get("href", "#").startswith("#"), attrs
    for style in tree.root.all("style"):
        assert "url(" not in style.text() and "@import" not in style.text()
    assert "://" not in out.read_text(encoding="utf-8")


def test_clean_boards_are_counted_not_listed(tmp_path):
    out = tmp_path / "page.html"
    audit_paths([ROOT / "fixtures" / "cli" / "revoke.pbn", SESSION], html=out)
    tree = page_of(out)
    status = {tr.all("th")[0].text(): int(tr.all("td")[0].text())
              for tr in tree.root.all("table", "status")[0].all("tr") if tr.all("td")}
    assert status["clean"] >= 2
    titles = [s.all("h2")[0].text() for s in tree.root.all("section", "board")]
    assert not any(t.startswith("Board 1 ") or t == "Board 1" for t in titles)


def test_record_errors_in_a_sortable_table_with_the_repair(tmp_path):
    out = tmp_path / "page.html"
    audit_paths([ROOT / "fixtures" / "lin" / "fault_rotated_hands.lin",
                 ROOT / "fixtures" / "rulings" / "record-problems.pbn"], html=out)
    tables = page_of(out).root.all("table", "errors")
    assert len(tables) == 1 and "sortable" in tables[0].classes()
    heads = [th.text() for th in tables[0].all("th")]
    assert heads == ["file", "line", "board", "code", "message", "repair"]
    rows = [[td.text() for td in tr.all("td")] for tr in tables[0].all("tr")[1:]]
    assert rows and all(r[3].startswith("RC") for r in rows)
    assert any(r[5].startswith("it fits when") for r in rows)


def test_a_page_over_an_input_is_refused_and_nothing_written(tmp_path):
    src = tmp_path / "s.pbn"
    shutil.copy(PBN, src)
    before = src.read_bytes()
    with pytest.raises(ValueError, match="would be overwritten"):
        audit_paths([tmp_path], html=src)
    res = CliRunner().invoke(main, ["audit", str(tmp_path), "--html", str(src)])
    assert res.exit_code == 2 and "overwritten" in res.output
    res = CliRunner().invoke(main, ["explain", str(src), "--board", "2", "--html", str(src)])
    assert res.exit_code == 2 and "overwritten" in res.output
    assert src.read_bytes() == before


def test_a_page_in_a_missing_folder_fails_before_anything_is_read(tmp_path):
    res = CliRunner().invoke(main, ["audit", str(SESSION), "-o", str(tmp_path / "b.csv"),
                                    "--html", str(tmp_path / "no" / "page.html")])
    assert res.exit_code == 2 and "cannot write" in res.output
    assert not (tmp_path / "b.csv").exists()  # all outputs or none


def test_accessible_headings_table_headers_and_text_for_symbols(tmp_path):
    out = tmp_path / "page.html"
    audit_paths([SESSION], html=out)
    tree = page_of(out)
    assert tree.root.all("html")[0].attrs.get("lang") == "en"
    assert len(tree.root.all("h1")) == 1
    for section in tree.root.all("section", "board"):
        heading = section.all("h2")[0]
        assert section.attrs["aria-labelledby"] == heading.attrs["id"]
        assert [h.text() for h in section.all("h3")][:2] == ["Auction", "The play"]
    for table in tree.root.all("table"):
        heads = table.all("th")
        assert heads and all(th.attrs.get("scope") in ("col", "row") for th in heads)
    for sym in tree.root.all("span", "sym"):  # each suit symbol is followed by its name
        assert sym.attrs.get("aria-hidden") == "true"
        siblings = sym.parent.children
        after = siblings[siblings.index(sym) + 1]
        assert "sr" in after.classes() and after.text().strip() in (
            "spades", "hearts", "diamonds", "clubs")
    chart = tree.root.all("svg")[0]
    assert chart.attrs["role"] == "img"
    described = chart.attrs["aria-labelledby"].split()
    assert "RV002: 4" in next(n.text() for n in chart.all("desc") if n.attrs["id"] in described)


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two ``#rrggbb`` colours."""
    def luminance(colour: str) -> float:
        rgb = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_text_colours_pass_wcag_aa_on_every_background(tmp_path):
    import re

    out = tmp_path / "page.html"
    audit_paths([SESSION], html=out)
    css = page_of(out).root.all("style")[0].text()
    colours = dict(re.findall(r"--([a-z]+):\s*(#[0-9a-f]{6})", css))
    texts = [colours[k] for k in ("ink", "muted", "red", "accent")]
    backgrounds = ["#ffffff", colours["band"], colours["mark"]]
    assert min(contrast(t, b) for t in texts for b in backgrounds) >= 4.5
    # every text colour is one of those (a literal colour would escape the check)
    for value in re.findall(r"(?<![-\w])color:\s*([^;}]+)", css):
        assert value.strip() in ("inherit",) or value.strip().startswith("var(--"), value
    assert contrast("#777777", "#ffffff") < 4.5  # the check can fail


def test_the_options_that_ruled_the_run_are_shown(tmp_path):
    out = tmp_path / "page.html"
    audit_paths([SESSION], discovered="table", equity=False, html=out)
    rows = {tr.all("th")[0].text(): tr.all("td")[0].text()
            for tr in page_of(out).root.all("table", "settings")[0].all("tr")[1:]}
    assert rows == {"--laws": "2017 (default)", "--discovered": "table",
                    "--no-equity": "off"}


def test_boards_from_standard_input_are_shown_from_their_rows(tmp_path):
    out = tmp_path / "page.html"
    res = CliRunner().invoke(main, ["audit", "-", "--html", str(out), "-q"],
                             input=PBN.read_bytes())
    assert res.exit_code == 1, res.output
    sections = page_of(out).root.all("section", "board")
    assert [s.all("h2")[0].text().split(" ·")[0] for s in sections] == [
        "Board 2", "Board 3", "Board 4"]
    for s in sections:
        assert not s.all("div", "hand") and s.all("blockquote", "words")
        assert "standard input" in s.text()


def test_boards_without_play_are_counted_as_not_checked(tmp_path):
    """A board with no play recorded (fixtures/pbn/unreadable_and_unplayed.pbn game 3) is
    `unchecked` in the status table, and the summary says it was not checked (not "0 to rule"
    alone)."""
    out = tmp_path / "page.html"
    audit_paths([ROOT / "fixtures" / "pbn" / "unreadable_and_unplayed.pbn"], html=out)
    tree = page_of(out)
    status = {tr.all("th")[0].text(): int(tr.all("td")[0].text())
              for tr in tree.root.all("table", "status")[0].all("tr") if tr.all("td")}
    assert (status["unchecked"], status["clean"]) == (1, 1)
    facts = tree.root.all("p", "facts")[0].text()
    assert "0 to rule" in " ".join(facts.split()) and "1 board without play: not checked" in \
        " ".join(facts.split())


def test_boards_past_the_shown_ones_are_indexed_from_disk_not_kept(tmp_path, monkeypatch):
    # F15: a run with many irregular boards keeps the first MAX_SECTIONS whole (their sections)
    # and only spools every board's index row; the page still lists every one in its index.
    from revoke_audit.reports import html_page

    monkeypatch.setattr(html_page, "MAX_SECTIONS", 2)
    kept = []
    add = html_page.Page.add

    def watched(page, r):
        add(page, r)
        kept.append(len(page.irregular))

    monkeypatch.setattr(html_page.Page, "add", watched)
    out = tmp_path / "report.html"
    result = audit_paths([SESSION], html=out)
    assert max(kept) == 2  # of the 6 irregular boards, 2 held
    tree = page_of(out)
    assert len(tree.root.all("section", "board")) == 2
    index = tree.root.all("table", "index")[0]
    rows = [tr for tr in index.all("tr") if tr.all("td")]
    irregular = result.boards[result.boards.status == "irregular"]
    assert len(rows) == len(irregular) == 6
    for n, (tr, board) in enumerate(zip(rows, irregular.itertuples()), 1):
        cells = tr.all("td")
        assert cells[1].text() == f"{board.source}:{board.line}"
        assert cells[0].text().startswith(f"Board {board.board}")
        assert bool(cells[0].all("a")) == (n <= 2)  # a link to its section: the first two
    assert "The first 2 are shown in full below" in tree.root.text()


def test_each_section_shows_the_64c_decision_and_the_card_to_confirm(tmp_path):
    """The page shows what boards.csv decides: Law 64C (``ruling_64c``, with its result when
    adjusted) beside the figures, and the cards the Director confirms before signing."""
    out = tmp_path / "report.html"
    result = audit_paths([SESSION], html=out)
    irregular = result.boards[result.boards.status == "irregular"]
    sections = page_of(out).root.all("section", "board")
    assert "no damage" in set(irregular.ruling_64c.astype(str))
    for section, board in zip(sections, irregular.itertuples()):
        text = " ".join(section.text().split())
        if str(board.ruling_64c) != "none":
            assert "64C decided" in text and str(board.ruling_64c) in text
        confirm = board.confirm_card if isinstance(board.confirm_card, str) else ""
        assert ("Confirm the card with the record's source before signing" in text) == bool(confirm)
        if confirm:
            assert confirm in text
