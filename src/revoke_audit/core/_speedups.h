/* What the C accelerators' files (``_speedups*.c``, one extension module) share: the card
 * vocabulary (a card is suit * 13 + rank, suits "SHDC", ranks "23456789TJQKA"; a hand a 52-bit
 * mask) and the functions the module's table (``_speedups.c``) names, each defined in the file
 * of its concern:
 *   _speedups_deal.c    hands and cards read from a Deal, a LIN md and a line's pc values
 *   _speedups_tricks.c  the tricks of a play replayed (Law 44)
 *   _speedups_scans.c   whole-file scans: where a large file may be cut, whether it may be split
 *   _speedups_lines.c   one game's text: a plain PBN game's tags, a plain LIN line */
#ifndef REVOKE_AUDIT_SPEEDUPS_H
#define REVOKE_AUDIT_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define MAX_CARDS 52

static inline int rank_of(Py_UCS4 ch)
{
    switch (ch) {
    case '2': return 0;  case '3': return 1;  case '4': return 2;  case '5': return 3;
    case '6': return 4;  case '7': return 5;  case '8': return 6;  case '9': return 7;
    case 'T': return 8;  case 'J': return 9;  case 'Q': return 10; case 'K': return 11;
    case 'A': return 12;
    default: return -1;
    }
}

static inline int suit_of(Py_UCS4 ch)
{
    switch (ch) {
    case 'S': return 0; case 'H': return 1; case 'D': return 2; case 'C': return 3;
    default: return -1;
    }
}

PyObject *kernel_deal(PyObject *self, PyObject *arg);
PyObject *kernel_lin_deal(PyObject *self, PyObject *arg);
PyObject *kernel_lin_cards(PyObject *self, PyObject *arg);
PyObject *kernel_column_tricks(PyObject *self, PyObject *args);
PyObject *kernel_time_tricks(PyObject *self, PyObject *args);
PyObject *speedups_blank_runs(PyObject *self, PyObject *args);
PyObject *speedups_newlines(PyObject *self, PyObject *args);
PyObject *speedups_plain_bytes(PyObject *self, PyObject *args);
PyObject *speedups_lin_splits(PyObject *self, PyObject *arg);
PyObject *speedups_ascii_from(PyObject *self, PyObject *args);
PyObject *speedups_one_game_each(PyObject *self, PyObject *args);
PyObject *speedups_lin_line(PyObject *self, PyObject *arg);
PyObject *speedups_plain_tags(PyObject *self, PyObject *arg);

#endif
