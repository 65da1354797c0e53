/* Optional C accelerators (``speedups.py``): the lane's two hot loops (``lane/kernel.py``)
 * and the scans that cut a large file into parts and check it may be split (``formats/parts.py``;
 * their twins in ``formats/scans.py``).
 * The scans of whole files run without the GIL: the parent's threads that feed the worker
 * processes and take their results go on meanwhile.
 *
 * Each function gives exactly what its Python twin gives, for any input
 * (``tests/test_kernel.py`` and ``tests/test_parts.py`` compare them on generated and changed
 * values):
 *
 *   deal(value)  -> (N, E, S, W) masks of a Deal written the usual way, or None
 *                   (twin: ``formats.pbn.lookup.fast_deal``)
 *   column_tricks(hands, play, leader, trump, side) -> (tricks won by ``side``, tricks) or None
 *                   (twin: ``kernel.py_column_tricks``: PBN Play tokens in seat columns from
 *                   ``leader``, replayed under Law 44: each card held by the player on turn,
 *                   suit followed when it can be (Law 44C), the trick won by the highest trump
 *                   or else the highest card of the suit led (Law 44E/F), its winner leading
 *                   the next (Law 44G)).
 *   blank_runs(data, first) -> the ends of the runs of blank lines, as ``re.finditer``
 *                   finds them (twin: ``formats.scans.blank_runs``)
 *   newlines(data, start, end) -> the newlines in data[start:end], positions from 0
 *                   (twin: ``formats.scans.newlines``)
 *   plain_bytes(data, first) -> bool (twin: ``formats.scans.plain_bytes``)
 *   ascii_from(data, first) -> bool (twin: ``formats.scans.ascii_from``)
 *   lin_splits(data) -> bool (twin: ``formats.scans._LIN_SPLITS.fullmatch``)
 *   one_game_each(data, first, starts) -> bool
 *                   (twin: ``formats.scans.one_game_each``: every block of a PBN file starts
 *                   with a tag and holds one Deal and at most one Event and Board, and no "["
 *                   is left open on its line or followed by whitespace)
 *   lin_line(line) -> bool: a LIN line one board in the single-deal layout
 *                   (twin: ``formats.lin.plain.py_plain_line``: ``LINE.fullmatch``)
 *   lin_cards(text) -> the cards of the "|pc|" values of a LIN line, or None when one is not a
 *                   card (twin: ``lane.kernel.py_lin_cards``)
 *   plain_tags(text) -> (tags, auction, play) or None
 *                   (twin: ``formats.pbn.plain.py_plain_tags``: a plain PBN game's tag lines)
 *
 * A card is suit * 13 + rank (suits "SHDC", ranks "23456789TJQKA"); a hand is a 52-bit mask.
 * Nothing here keeps state (but the str of each usual tag name, made once), allocates beyond
 * the result, or reads past its input. */
#include "_speedups.h"

static PyMethodDef kernel_methods[] = {
    {"deal", kernel_deal, METH_O, "Masks (N, E, S, W) of a Deal written the usual way, or None."},
    {"lin_deal", kernel_lin_deal, METH_O,
     "(dealer, masks N, E, S, W) of a LIN md value written the usual way, or None."},
    {"lin_cards", kernel_lin_cards, METH_O,
     "The cards of a LIN line's pc values (lane.kernel.py_lin_cards), or None."},
    {"column_tricks", kernel_column_tricks, METH_VARARGS,
     "(tricks won by side, tricks) of PBN Play tokens in seat columns, or None."},
    {"time_tricks", kernel_time_tricks, METH_VARARGS,
     "(tricks won by side, tricks) of cards in the order played (lane.common.play_tricks)."},
    {"blank_runs", speedups_blank_runs, METH_VARARGS,
     "The ends of the runs of blank lines from first on (formats.scans.blank_runs)."},
    {"newlines", speedups_newlines, METH_VARARGS,
     "The newlines in data[start:end], positions from 0 (formats.scans.newlines)."},
    {"plain_bytes", speedups_plain_bytes, METH_VARARGS,
     "No deleted control character, and no {, \\n% or lone CR after first."},
    {"lin_splits", speedups_lin_splits, METH_O,
     "Every line of a LIN file one whole board (formats.scans._LIN_SPLITS)."},
    {"ascii_from", speedups_ascii_from, METH_VARARGS,
     "Every byte from first on below 0x80 (formats.scans.ascii_from)."},
    {"one_game_each", speedups_one_game_each, METH_VARARGS,
     "Every block of a PBN file one game (formats.scans.one_game_each)."},
    {"lin_line", speedups_lin_line, METH_O,
     "A LIN line one plain board (formats.lin.plain.py_plain_line)."},
    {"plain_tags", speedups_plain_tags, METH_O,
     "A plain PBN game's tags, Auction and Play (formats.pbn.plain.py_plain_tags), or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef speedups_module = {
    PyModuleDef_HEAD_INIT, "_speedups", "Optional C accelerators (see speedups.py).", -1,
    kernel_methods,
};

PyMODINIT_FUNC PyInit__speedups(void)
{
    return PyModule_Create(&speedups_module);
}
