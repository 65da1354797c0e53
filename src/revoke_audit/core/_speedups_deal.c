/* Hands and cards read from a Deal, a LIN md and a LIN line's pc values (see ``_speedups.c`` for
 * what each gives, and its twin). */
#include "_speedups.h"

static const char SEATS[] = "NESW";

static int popcount64(uint64_t x)
{
    int n = 0;
    while (x) {
        x &= x - 1;
        n++;
    }
    return n;
}

/* One hand "AKQ.JT9.876.5432" from text[*pos] up to a space or the end: each suit's ranks
 * high to low, each once, four suits; -1 on anything else. */
static int read_hand(const Py_UCS1 *text, Py_ssize_t len, Py_ssize_t *pos, uint64_t *mask)
{
    Py_ssize_t i = *pos;
    uint64_t bits = 0;
    int suit = 0;
    int last = 13;  /* the rank before, in this suit: the next must be lower */
    if (i >= len || text[i] == ' ')
        return -1;  /* an empty hand: the pattern wants one character at least */
    for (; i < len && text[i] != ' '; i++) {
        if (text[i] == '.') {
            if (++suit > 3)
                return -1;
            last = 13;
            continue;
        }
        int r = rank_of(text[i]);
        if (r < 0 || r >= last)
            return -1;
        bits |= (uint64_t)1 << (13 * suit + r);
        last = r;
    }
    if (suit != 3)
        return -1;
    *pos = i;
    *mask = bits;
    return 0;
}

PyObject *kernel_deal(PyObject *self, PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "deal() takes a str");
        return NULL;
    }
    if (!PyUnicode_IS_ASCII(arg))
        Py_RETURN_NONE;  /* a rank, dot or single space is ASCII: anything else fails */
    const Py_UCS1 *text = PyUnicode_1BYTE_DATA(arg);
    Py_ssize_t len = PyUnicode_GET_LENGTH(arg);
    if (len < 2 || text[1] != ':')
        Py_RETURN_NONE;
    const char *at = memchr(SEATS, text[0], 4);
    if (text[0] == 0 || at == NULL)
        Py_RETURN_NONE;
    int first = (int)(at - SEATS);
    uint64_t hands[4] = {0, 0, 0, 0};
    uint64_t all = 0;
    Py_ssize_t pos = 2;
    for (int i = 0; i < 4; i++) {
        if (i > 0) {
            if (pos >= len || text[pos] != ' ')
                Py_RETURN_NONE;
            pos++;
        }
        uint64_t mask;
        if (read_hand(text, len, &pos, &mask) < 0 || popcount64(mask) != 13)
            Py_RETURN_NONE;
        hands[(first + i) % 4] = mask;
        all |= mask;
    }
    if (pos != len || all != ((uint64_t)1 << 52) - 1)
        Py_RETURN_NONE;  /* more text, or a card in two hands (then one is missing) */
    return Py_BuildValue("(KKKK)", (unsigned long long)hands[0], (unsigned long long)hands[1],
                         (unsigned long long)hands[2], (unsigned long long)hands[3]);
}

/* One LIN md hand "SAKQHJT9D876C5432" from text[*pos] up to a comma or the end: the suit
 * letters S, H, D, C in that order, upper case, each followed by its ranks (upper case, each
 * once, any order); 0 with *mask, 1 for an empty hand, -1 on anything else. */
static int read_lin_hand(const Py_UCS1 *text, Py_ssize_t len, Py_ssize_t *pos, uint64_t *mask)
{
    Py_ssize_t i = *pos;
    uint64_t bits = 0;
    int suit = -1;
    if (i >= len || text[i] == ',')
        return 1;
    for (; i < len && text[i] != ','; i++) {
        int s = suit_of(text[i]);
        if (s >= 0) {
            if (s != suit + 1)
                return -1;
            suit = s;
            continue;
        }
        int r = rank_of(text[i]);
        if (r < 0 || suit < 0)
            return -1;
        uint64_t bit = (uint64_t)1 << (13 * suit + r);
        if (bits & bit)
            return -1;
        bits |= bit;
    }
    if (suit != 3)
        return -1;
    *pos = i;
    *mask = bits;
    return 0;
}

/* The dealer and hands (N, E, S, W) of a LIN md value written the usual way - a dealer digit,
 * then South, West, North and East (East may be left empty: the rest of the deck), 13 cards
 * each, every card once - or None (the lane's Python twin then reads it: lane.vugraph). */
PyObject *kernel_lin_deal(PyObject *self, PyObject *arg)
{
    static const int seat_of[4] = {2, 3, 0, 1};  /* LIN's S, W, N, E -> N E S W indexes */
    static const int dealer_of[4] = {2, 3, 0, 1};  /* digits 1-4: S, W, N, E */
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "lin_deal() takes a str");
        return NULL;
    }
    if (!PyUnicode_IS_ASCII(arg))
        Py_RETURN_NONE;
    const Py_UCS1 *text = PyUnicode_1BYTE_DATA(arg);
    Py_ssize_t len = PyUnicode_GET_LENGTH(arg);
    if (len < 2 || text[0] < '1' || text[0] > '4')
        Py_RETURN_NONE;
    uint64_t hands[4] = {0, 0, 0, 0};
    uint64_t all = 0;
    int known = 0, empty = -1;
    Py_ssize_t pos = 1;
    for (int i = 0; i < 4; i++) {
        if (i > 0) {
            if (pos >= len) {
                if (i < 3 || empty >= 0)
                    Py_RETURN_NONE;
                empty = 3;  /* "S..,S..,S.." without a last comma: East left empty */
                break;
            }
            if (text[pos] != ',')
                Py_RETURN_NONE;
            pos++;
        }
        uint64_t mask = 0;
        int got = read_lin_hand(text, len, &pos, &mask);
        if (got < 0)
            Py_RETURN_NONE;
        if (got == 1) {
            if (empty >= 0)
                Py_RETURN_NONE;  /* two hands left empty: not a whole deal */
            empty = i;
            continue;
        }
        if (popcount64(mask) != 13 || (all & mask))
            Py_RETURN_NONE;
        hands[seat_of[i]] = mask;
        all |= mask;
        known++;
    }
    if (pos != len)
        Py_RETURN_NONE;  /* a fifth hand, or more text */
    if (known == 3)
        hands[seat_of[empty]] = (((uint64_t)1 << 52) - 1) ^ all;
    else if (known != 4)
        Py_RETURN_NONE;
    return Py_BuildValue("(i(KKKK))", dealer_of[text[0] - '1'],
                         (unsigned long long)hands[0], (unsigned long long)hands[1],
                         (unsigned long long)hands[2], (unsigned long long)hands[3]);
}

/* A LIN card value as ``formats.lin.values.CARD_OF`` reads it - a suit letter and a rank, each
 * in either case, "10" for the ten - or -1. */
static int lin_card(int kind, const void *data, Py_ssize_t start, Py_ssize_t end)
{
    Py_ssize_t n = end - start;
    if (n != 2 && n != 3)
        return -1;
    Py_UCS4 a = PyUnicode_READ(kind, data, start), b = PyUnicode_READ(kind, data, start + 1);
    if (a >= 'a' && a <= 'z')
        a -= 'a' - 'A';
    if (b >= 'a' && b <= 'z')
        b -= 'a' - 'A';
    int s = suit_of(a), r;
    if (n == 3)
        r = (b == '1' && PyUnicode_READ(kind, data, start + 2) == '0') ? 8 : -1;
    else
        r = rank_of(b);
    return (s < 0 || r < 0) ? -1 : s * 13 + r;
}

/* The cards of every "|pc|value" of a LIN line, as ``re.findall(r"\|pc\|([^|]*)")`` finds
 * them (each value up to the next "|"), in order; None when a value is not a card. */
PyObject *kernel_lin_cards(PyObject *self, PyObject *arg)
{
    if (!PyUnicode_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "lin_cards() takes a str");
        return NULL;
    }
    int kind = PyUnicode_KIND(arg);
    const void *data = PyUnicode_DATA(arg);
    Py_ssize_t len = PyUnicode_GET_LENGTH(arg);
    PyObject *cards = PyList_New(0);
    if (cards == NULL)
        return NULL;
    Py_ssize_t i = 0;
    while (i + 4 <= len) {
        if (PyUnicode_READ(kind, data, i) != '|' || PyUnicode_READ(kind, data, i + 1) != 'p'
                || PyUnicode_READ(kind, data, i + 2) != 'c'
                || PyUnicode_READ(kind, data, i + 3) != '|') {
            i++;
            continue;
        }
        Py_ssize_t start = i + 4, end = start;
        while (end < len && PyUnicode_READ(kind, data, end) != '|')
            end++;
        int card = lin_card(kind, data, start, end);
        if (card < 0) {
            Py_DECREF(cards);
            Py_RETURN_NONE;
        }
        PyObject *item = PyLong_FromLong(card);
        if (item == NULL || PyList_Append(cards, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(cards);
            return NULL;
        }
        Py_DECREF(item);
        i = end;
    }
    return cards;
}
