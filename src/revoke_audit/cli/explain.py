"""``revoke-audit explain``: one board of a file for a person to check - the deal, the play
trick by trick, the findings and the ruling's arithmetic, the field (``reports.explain``)."""
from __future__ import annotations

import click

from ..ruling.audit import audit_board
from ..ruling.options import AuditOptions
from ..laws import AFTER_ROUND, EDITIONS, TABLE
from ..reports.report import ReportError, echo, silence_stdout
from .main import IOFailure, _no_clash, _read_log, config_option, main


class SelectionError(click.ClickException):
    """No board, or several, match the selection given to ``explain``: exit code 2."""

    exit_code = 2


@main.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@config_option
@click.option("--board", help="board number, as the record gives it")
@click.option("--room", type=click.Choice(["open", "closed"], case_sensitive=False),
              help="vugraph room, when the file has both")
@click.option("--game", type=click.IntRange(min=1), help="1-based index of the board in FILE")
@click.option("--round", "round_", help="the record's Round tag, when a file holds several rounds")
@click.option("--table", help="the record's Table tag")
@click.option("--teams", help="a team in the record's HomeTeam or VisitTeam tag (any case)")
@click.option("--laws", type=click.Choice(sorted(EDITIONS) + ["auto"]), default="2017",
              show_default=True, help="edition of the Laws to apply; auto: by the board's date")
@click.option("--discovered", type=click.Choice([TABLE.value, AFTER_ROUND.value]),
              default=AFTER_ROUND.value, show_default=True,
              help="after-round: the revoke was noticed after the round (64B5); table: 64A")
@click.option("--table-facts", "table_facts", type=click.Path(dir_okay=False),
              help="a director's log (CSV): what bound each player, trick by trick")
@click.option("--html", "html_path", type=click.Path(dir_okay=False),
              help="also write the board as a page for the director (HTML, printable)")
def explain(file, board, room, game, round_, table, teams, laws, discovered, table_facts,
            html_path) -> None:
    """Explain one board of FILE: the deal, the play trick by trick, the ruling, and the
    board's field before and after when FILE holds other tables of it."""
    from ..reports.explain import describe, explain_text, field_of, first_boards

    if html_path:
        _no_clash((("--html", "page", html_path),), [file], table_facts, None)
    log = _read_log(table_facts)

    # 20 listed at most: the records beyond are counted, not kept (a file of any size)
    matches, count, first, total = first_boards([file], 20, board, room, game, round_, table,
                                                teams)
    if count != 1:
        wanted = ", ".join(f"{k} {v}" for k, v in (
            ("board", board), ("room", room), ("game", game), ("round", round_),
            ("table", table), ("teams", teams)) if v is not None)
        if matches:
            found = f"{count} boards match {wanted}" if wanted else \
                f"{file} has {count} boards"
            head = (f"{found}; choose one with --board, --room, --game, --round, --table or "
                    "--teams:")
        else:
            head = f"no board in {file} matches {wanted}; the file has:"
            matches, count = first, total
        listed = [describe(r) for r in matches[:20]] or ["no board"]
        more = [f"... and {count - 20} more"] if count > 20 else []
        raise SelectionError("\n  ".join([head] + listed + more))
    options = AuditOptions(laws, discovered, table_facts=log)
    audited = audit_board(matches[0], options)
    field = field_of(file, audited, options) if file != "-" else None  # stdin is read
    try:
        echo(explain_text(audited, field).removesuffix("\n"))
    except ReportError as exc:  # stdout full or closed: one line, exit 2
        silence_stdout()
        raise IOFailure(str(exc)) from exc
    if html_path:
        from ..reports.html_page import board_page, write_page

        try:
            write_page(html_path, board_page(audited, field))
        except ReportError as exc:
            raise IOFailure(str(exc)) from exc
