/* The tricks of a play replayed under Law 44, in seat columns or in the order played (see
 * ``_speedups.c`` for what each gives, and its twin). */
#include "_speedups.h"

/* The cards of the play tokens (split at whitespace as ``str.split`` splits, a last ``*``
 * dropped): 0 and their number in *n, or -1 when a token is not a card written "SA", or there
 * are more than 52. */
static int read_cards(PyObject *play, int *cards, int *n)
{
    int kind = PyUnicode_KIND(play);
    const void *data = PyUnicode_DATA(play);
    Py_ssize_t len = PyUnicode_GET_LENGTH(play);
    int count = 0, star = 0;
    Py_ssize_t i = 0;
    while (i < len) {
        Py_UCS4 ch = PyUnicode_READ(kind, data, i);
        if (Py_UNICODE_ISSPACE(ch)) {
            i++;
            continue;
        }
        Py_ssize_t start = i;
        while (i < len && !Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, i)))
            i++;
        if (star)
            return -1;  /* a "*" that is not the last token */
        if (i - start == 1 && ch == '*') {
            star = 1;
            continue;
        }
        if (i - start != 2 || count >= MAX_CARDS)
            return -1;
        int s = suit_of(ch), r = rank_of(PyUnicode_READ(kind, data, start + 1));
        if (s < 0 || r < 0)
            return -1;
        cards[count++] = s * 13 + r;
    }
    *n = count;
    return 0;
}

/* The arguments the two trick counters share: four hands as 52-bit masks, a leader 0-3 and a
 * trump suit (None: notrump, -1).  -1 with the error set when they are not that. */
static int read_table(const char *name, PyObject *hand_tuple, int leader, PyObject *trump_obj,
                      uint64_t hands[4], int *trump)
{
    if (PyTuple_GET_SIZE(hand_tuple) != 4 || leader < 0 || leader > 3) {
        PyErr_Format(PyExc_ValueError, "%s() takes four hands and a seat 0-3", name);
        return -1;
    }
    *trump = -1;
    if (trump_obj != Py_None) {
        *trump = (int)PyLong_AsLong(trump_obj);
        if (*trump == -1 && PyErr_Occurred())
            return -1;
    }
    for (int i = 0; i < 4; i++) {
        hands[i] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(hand_tuple, i));
        if (hands[i] == (uint64_t)-1 && PyErr_Occurred())
            return -1;
    }
    return 0;
}

PyObject *kernel_column_tricks(PyObject *self, PyObject *args)
{
    PyObject *hand_tuple, *play, *trump_obj;
    int leader, side;
    if (!PyArg_ParseTuple(args, "O!UiOi", &PyTuple_Type, &hand_tuple, &play, &leader,
                          &trump_obj, &side))
        return NULL;
    uint64_t hands[4];
    int trump;
    if (read_table("column_tricks", hand_tuple, leader, trump_obj, hands, &trump) < 0)
        return NULL;
    int cards[MAX_CARDS], n = 0;
    if (read_cards(play, cards, &n) < 0 || n == 0 || n % 4 != 0)
        Py_RETURN_NONE;
    const uint64_t suit_mask = 0x1FFF;
    int won = 0, seat = leader;
    for (int base = 0; base < n; base += 4) {
        int k = (seat - leader) & 3;  /* the leader's column */
        int led = -1, best = -1, win = -1;
        for (int step = 0; step < 4; step++) {
            int c = cards[base + ((k + step) & 3)];
            int s = (seat + step) & 3;
            uint64_t held = hands[s];
            if (!((held >> c) & 1))
                Py_RETURN_NONE;  /* not held by the player on turn */
            hands[s] = held ^ ((uint64_t)1 << c);
            int suit = c / 13;
            if (step == 0) {
                led = suit;
                best = c;
                win = s;
            } else if (suit == led) {
                if (best / 13 == led && c > best) {
                    best = c;
                    win = s;
                }
            } else if (held & (suit_mask << (13 * led))) {
                Py_RETURN_NONE;  /* a revoke (Law 61A): the full audit rules it */
            } else if (suit == trump && (best / 13 != trump || c > best)) {
                best = c;
                win = s;
            }
        }
        if ((win & 1) == side)
            won++;
        seat = win;
    }
    return Py_BuildValue("(ii)", won, n / 4);
}

/* ``lane.common.play_tricks`` of a list of cards in the order played (the LIN lane): (tricks
 * won by ``side``, whole tricks played), a last trick perhaps short, or None at a card the
 * player on turn does not hold or a failure to follow suit (Law 44C).  The hands are read, not
 * changed. */
PyObject *kernel_time_tricks(PyObject *self, PyObject *args)
{
    PyObject *hand_tuple, *cards, *trump_obj;
    int leader, side;
    if (!PyArg_ParseTuple(args, "O!O!iOi", &PyTuple_Type, &hand_tuple, &PyList_Type, &cards,
                          &leader, &trump_obj, &side))
        return NULL;
    uint64_t hands[4];
    int trump;
    if (read_table("time_tricks", hand_tuple, leader, trump_obj, hands, &trump) < 0)
        return NULL;
    const uint64_t suit_mask = 0x1FFF;
    Py_ssize_t n = PyList_GET_SIZE(cards);
    int won = 0, seat = leader;
    for (Py_ssize_t base = 0; base < n; base += 4) {
        int led = -1, best = -1, win = -1;
        for (int step = 0; step < 4 && base + step < n; step++) {
            long c = PyLong_AsLong(PyList_GET_ITEM(cards, base + step));
            if (c == -1 && PyErr_Occurred())
                return NULL;
            if (c < 0 || c > 51)
                Py_RETURN_NONE;  /* no card: held by nobody */
            int s = (seat + step) & 3;
            uint64_t held = hands[s];
            if (!((held >> c) & 1))
                Py_RETURN_NONE;  /* not held by the player on turn */
            hands[s] = held ^ ((uint64_t)1 << c);
            int suit = (int)c / 13;
            if (step == 0) {
                led = suit;
                best = (int)c;
                win = s;
            } else if (suit == led) {
                if (best / 13 == led && c > best) {
                    best = (int)c;
                    win = s;
                }
            } else if (held & (suit_mask << (13 * led))) {
                Py_RETURN_NONE;  /* a revoke (Law 61A): the full audit rules it */
            } else if (suit == trump && (best / 13 != trump || c > best)) {
                best = (int)c;
                win = s;
            }
        }
        if (base + 4 <= n) {
            if ((win & 1) == side)
                won++;
            seat = win;
        }
    }
    return Py_BuildValue("(in)", won, n / 4);
}
