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
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define MAX_CARDS 52

static const char SEATS[] = "NESW";

static int rank_of(Py_UCS4 ch)
{
    switch (ch) {
    case '2': return 0;  case '3': return 1;  case '4': return 2;  case '5': return 3;
    case '6': return 4;  case '7': return 5;  case '8': return 6;  case '9': return 7;
    case 'T': return 8;  case 'J': return 9;  case 'Q': return 10; case 'K': return 11;
    case 'A': return 12;
    default: return -1;
    }
}

static int suit_of(Py_UCS4 ch)
{
    switch (ch) {
    case 'S': return 0; case 'H': return 1; case 'D': return 2; case 'C': return 3;
    default: return -1;
    }
}

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

static PyObject *kernel_deal(PyObject *self, PyObject *arg)
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
static PyObject *kernel_lin_deal(PyObject *self, PyObject *arg)
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
static PyObject *kernel_lin_cards(PyObject *self, PyObject *arg)
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

static PyObject *kernel_column_tricks(PyObject *self, PyObject *args)
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
static PyObject *kernel_time_tricks(PyObject *self, PyObject *args)
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

/* starts[i] of a list of ints; -1 with an exception set on a bad item. */
static Py_ssize_t start_at(PyObject *starts, Py_ssize_t i)
{
    return PyLong_AsSsize_t(PyList_GET_ITEM(starts, i));
}

static int is_word(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
           || ch == '_';
}

static int is_space(unsigned char ch)  /* \s of a bytes pattern */
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' || ch == '\v';
}

/* Which of Event (0), Board (1), Deal (2) the tag at data[p] ("[" there) names, as a whole
 * word; -1 for none. */
static int tag_name(const unsigned char *d, Py_ssize_t len, Py_ssize_t p)
{
    static const char *names[3] = {"Event", "Board", "Deal"};
    for (int k = 0; k < 3; k++) {
        Py_ssize_t n = (Py_ssize_t)strlen(names[k]);
        if (p + 1 + n <= len && memcmp(d + p + 1, names[k], (size_t)n) == 0
                && (p + 1 + n == len || !is_word(d[p + 1 + n])))
            return k;
    }
    return -1;
}

/* starts (a list of ints, each a position in a buffer of len bytes) as a C array; NULL with
 * an exception set on a bad item or one out of range (IndexError, as the twin's indexing). */
static Py_ssize_t *positions_of(PyObject *starts, Py_ssize_t len)
{
    Py_ssize_t n = PyList_GET_SIZE(starts);
    Py_ssize_t *out = PyMem_Malloc((size_t)(n > 0 ? n : 1) * sizeof(Py_ssize_t));
    if (out == NULL)
        return (Py_ssize_t *)PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = start_at(starts, i);
        if (out[i] == -1 && PyErr_Occurred())
            goto fail;
        if (out[i] < 0 || out[i] >= len) {
            PyErr_SetString(PyExc_IndexError, "mmap index out of range");
            goto fail;
        }
    }
    return out;
fail:
    PyMem_Free(out);
    return NULL;
}

/* The scan of one_game_each, on plain C values (it runs without the GIL). */
static int one_game_scan(const unsigned char *d, Py_ssize_t len, Py_ssize_t first,
                         const Py_ssize_t *starts, Py_ssize_t nb)
{
    for (Py_ssize_t i = 0; i < nb; i++)  /* each block's first byte is "[" */
        if (d[starts[i]] != '[')
            return 0;
    Py_ssize_t block = -1, next_start = nb > 0 ? starts[0] : -1;
    Py_ssize_t deals = 0, last[2] = {-2, -2};  /* the block of the last Event, Board */
    Py_ssize_t p = first < 0 ? 0 : first;
    while (p < len) {
        const unsigned char *at = memchr(d + p, '[', (size_t)(len - p));
        if (at == NULL)
            break;
        p = at - d;
        Py_ssize_t q = p + 1;
        while (q < len && d[q] != ']' && d[q] != '\n')
            q++;
        if (q == len || d[q] == '\n' || is_space(d[p + 1]))
            return 0;  /* left open on its line, or "[ Name" */
        int k = tag_name(d, len, p);
        if (k >= 0) {
            while (next_start >= 0 && next_start <= p) {  /* block = bisect_right - 1 */
                block++;
                next_start = block + 1 < nb ? starts[block + 1] : -1;
            }
            if (k == 2) {
                if (block != deals++)
                    return 0;  /* the n-th Deal in the n-th block */
            } else if (block <= last[k]) {
                return 0;  /* two in one block */
            } else {
                last[k] = block;
            }
        }
        p++;
    }
    return deals == nb;
}

static PyObject *speedups_one_game_each(PyObject *self, PyObject *args)
{
    Py_buffer buf;
    Py_ssize_t first;
    PyObject *starts;
    if (!PyArg_ParseTuple(args, "y*nO!", &buf, &first, &PyList_Type, &starts))
        return NULL;
    Py_ssize_t nb = PyList_GET_SIZE(starts);
    Py_ssize_t *at = positions_of(starts, buf.len);
    if (at == NULL) {
        PyBuffer_Release(&buf);
        return NULL;
    }
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = one_game_scan(buf.buf, buf.len, first, at, nb);
    Py_END_ALLOW_THREADS
    PyMem_Free(at);
    PyBuffer_Release(&buf);
    return PyBool_FromLong(ok);
}

/* The arguments (data, first) of the scans below: a buffer, and a byte position in it (the
 * callers give positions in the file; a negative one counts as 0). */
static int buffer_and_first(PyObject *args, Py_buffer *buf, Py_ssize_t *first)
{
    if (!PyArg_ParseTuple(args, "y*n", buf, first))
        return -1;
    if (*first < 0)
        *first = 0;
    return 0;
}

/* The end of each run of blank lines "\n(?:\r?\n)+" from byte ``first`` on, as
 * ``re.finditer`` finds them (leftmost, longest, not overlapping): gathered into a C array
 * without the GIL, then made a list. */
static PyObject *speedups_blank_runs(PyObject *self, PyObject *args)
{
    Py_buffer buf;
    Py_ssize_t first;
    if (buffer_and_first(args, &buf, &first) < 0)
        return NULL;
    const unsigned char *d = buf.buf;
    Py_ssize_t len = buf.len, i = first, n = 0, room = 1024;
    Py_ssize_t *ends = PyMem_RawMalloc((size_t)room * sizeof(Py_ssize_t));
    int full = ends == NULL;
    Py_BEGIN_ALLOW_THREADS
    while (!full && i < len) {
        const unsigned char *at = memchr(d + i, '\n', (size_t)(len - i));
        if (at == NULL)
            break;
        Py_ssize_t j = at - d + 1;
        int blank = 0;
        for (;;) {
            if (j < len && d[j] == '\n')
                j += 1;
            else if (j + 1 < len && d[j] == '\r' && d[j + 1] == '\n')
                j += 2;
            else
                break;
            blank = 1;
        }
        if (!blank) {
            i = at - d + 1;
            continue;
        }
        if (n == room) {
            Py_ssize_t *more = PyMem_RawRealloc(ends, (size_t)(room * 2) * sizeof(Py_ssize_t));
            full = more == NULL;
            if (full)
                break;
            ends = more;
            room *= 2;
        }
        ends[n++] = j;
        i = j;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    PyObject *list = full ? PyErr_NoMemory() : PyList_New(n);
    for (Py_ssize_t k = 0; list != NULL && k < n; k++) {
        PyObject *end = PyLong_FromSsize_t(ends[k]);
        if (end == NULL)
            Py_CLEAR(list);
        else
            PyList_SET_ITEM(list, k, end);
    }
    PyMem_RawFree(ends);
    return list;
}

/* The newlines in data[start:end] (positions from 0, cut to the data's size), counted
 * without the GIL over blocks of 255 bytes (a byte counter per block: vector code). */
static PyObject *speedups_newlines(PyObject *self, PyObject *args)
{
    Py_buffer buf;
    Py_ssize_t start, end;
    if (!PyArg_ParseTuple(args, "y*nn", &buf, &start, &end))
        return NULL;
    const unsigned char *d = buf.buf;
    start = start < 0 ? 0 : start > buf.len ? buf.len : start;
    end = end < start ? start : end > buf.len ? buf.len : end;
    Py_ssize_t count = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t base = start; base < end; base += 255) {
        Py_ssize_t n = end - base < 255 ? end - base : 255;
        unsigned char block = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            block += (unsigned char)(d[base + i] == '\n');
        count += block;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    return PyLong_FromSsize_t(count);
}

/* Does d[0..len) hold a control character that the line reader deletes?  Branch-free over
 * blocks of 4 KB, which the compiler turns into vector code. */
static int has_deleted(const unsigned char *d, Py_ssize_t len)
{
    for (Py_ssize_t base = 0; base < len; base += 4096) {
        Py_ssize_t end = base + 4096 < len ? base + 4096 : len;
        unsigned char found = 0;
        for (Py_ssize_t i = base; i < end; i++) {
            unsigned char b = d[i];
            found |= (unsigned char)(((b < 0x20) & (b != '\t') & (b != '\n') & (b != '\r'))
                                     | (b == 0x7F));
        }
        if (found)
            return 1;
    }
    return 0;
}

/* No control character the line reader deletes anywhere, and from ``first`` on no "{", no
 * "%" after a newline and no CR that ends no line. */
static PyObject *speedups_plain_bytes(PyObject *self, PyObject *args)
{
    Py_buffer buf;
    Py_ssize_t first;
    if (buffer_and_first(args, &buf, &first) < 0)
        return NULL;
    const unsigned char *d = buf.buf;
    Py_ssize_t len = buf.len;
    int ok;
    Py_BEGIN_ALLOW_THREADS
    ok = first >= len || memchr(d + first, '{', (size_t)(len - first)) == NULL;
    for (Py_ssize_t p = first + 1; ok && p < len;) {  /* a "%" after a newline at first or on */
        const unsigned char *at = memchr(d + p, '%', (size_t)(len - p));
        if (at == NULL)
            break;
        ok = at[-1] != '\n';
        p = at - d + 1;
    }
    for (Py_ssize_t p = first; ok && p < len;) {  /* a CR not followed by a newline */
        const unsigned char *at = memchr(d + p, '\r', (size_t)(len - p));
        if (at == NULL)
            break;
        p = at - d + 1;
        ok = p < len && d[p] == '\n';
    }
    ok = ok && !has_deleted(d, len);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    return PyBool_FromLong(ok);
}

/* Every byte from ``first`` on below 0x80 (``bytes.isascii``). */
static PyObject *speedups_ascii_from(PyObject *self, PyObject *args)
{
    Py_buffer buf;
    Py_ssize_t first;
    if (buffer_and_first(args, &buf, &first) < 0)
        return NULL;
    const unsigned char *d = buf.buf;
    Py_ssize_t len = buf.len;
    unsigned char high = 0;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t base = first; base < len && !(high & 0x80); base += 4096) {
        Py_ssize_t end = base + 4096 < len ? base + 4096 : len;
        for (Py_ssize_t i = base; i < end; i++)
            high |= d[i];
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    return PyBool_FromLong(!(high & 0x80));
}

/* --- a LIN file that may be split: formats.scans._LIN_SPLITS, line by line ---------------- */

static int lin_value_byte(unsigned char ch)  /* _LIN_VALUE: any but "|" and a newline */
{
    return ch == '\t' || ch == '\r' || (ch >= 0x20 && ch <= 0x7e && ch != '|');
}

static int is_letter(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

enum { K_OTHER, K_MD, K_PN, K_QX, K_VG, K_RS, K_MB, K_PC, K_MC };

static int lin_key(unsigned char a, unsigned char b)  /* case as the reader takes it: none */
{
    a = (unsigned char)(a | 0x20);
    b = (unsigned char)(b | 0x20);
    if (a == 'm' && b == 'd') return K_MD;
    if (a == 'p' && b == 'n') return K_PN;
    if (a == 'q' && b == 'x') return K_QX;
    if (a == 'v' && b == 'g') return K_VG;
    if (a == 'r' && b == 's') return K_RS;
    if (a == 'm' && b == 'b') return K_MB;
    if (a == 'p' && b == 'c') return K_PC;
    if (a == 'm' && b == 'c') return K_MC;
    return K_OTHER;
}

/* One line d[i..end) (without its newline) is one board as _LIN_LINE says: pairs
 * "key|value|" from its start to its end (a CR may follow the last), first pn (with at most
 * four names) or qx, then pairs before the deal, the one md, pairs after it among which a call,
 * card or claim. */
static int lin_line(const unsigned char *d, Py_ssize_t i, Py_ssize_t end)
{
    enum { START, BEFORE_PN, BEFORE_QX, QUIET, ACTIVE } state = START;
    while (i < end) {
        if (state >= QUIET && d[i] == '\r' && i + 1 == end)
            return state == ACTIVE;  /* the CR of a CRLF line end */
        if (i + 3 > end || !is_letter(d[i]) || !is_letter(d[i + 1]) || d[i + 2] != '|')
            return 0;
        int key = lin_key(d[i], d[i + 1]);
        Py_ssize_t v = i + 3;
        int commas = 0;
        while (v < end && lin_value_byte(d[v])) {
            commas += d[v] == ',';
            v++;
        }
        if (v >= end || d[v] != '|')
            return 0;
        int names = key == K_PN && commas <= 3;  /* a pn the pattern takes before the deal */
        i = v + 1;
        switch (state) {
        case START:
        case BEFORE_PN:
        case BEFORE_QX:
            if (key == K_MD) {
                state = QUIET;
            } else if (key == K_QX && state != BEFORE_QX) {
                state = BEFORE_QX;  /* first, or after a pn and what followed it */
            } else if (state == START && key == K_PN) {
                if (!names)
                    return 0;
                state = BEFORE_PN;
            } else if (state == START) {
                return 0;  /* no pn, qx or md first */
            } else if (!(names || key == K_OTHER)) {
                return 0;
            }
            break;
        case QUIET:
            if (key == K_MB || key == K_PC || key == K_MC)
                state = ACTIVE;
            else if (key != K_OTHER)
                return 0;
            break;
        case ACTIVE:
            if (key == K_MD || key == K_PN || key == K_QX || key == K_VG || key == K_RS)
                return 0;
            break;
        }
    }
    return state == ACTIVE;
}

static PyObject *speedups_lin_splits(PyObject *self, PyObject *arg)
{
    Py_buffer buf;
    if (PyObject_GetBuffer(arg, &buf, PyBUF_SIMPLE) < 0)
        return NULL;
    const unsigned char *d = buf.buf;
    Py_ssize_t len = buf.len, i = 0;
    int ok = 1;
    Py_BEGIN_ALLOW_THREADS
    while (ok && i < len) {
        const unsigned char *nl = memchr(d + i, '\n', (size_t)(len - i));
        Py_ssize_t end = nl == NULL ? len : nl - d;
        ok = lin_line(d, i, end);
        i = end + 1;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&buf);
    return PyBool_FromLong(ok);
}


/* plain_tags(text) -> (tags, auction, play) or None: ``text`` (ending with a newline) as nothing
 * but tag lines (``[Name "value"]``, the value without a quote, backslash or newline), each
 * followed by lines of bare tokens (letters, digits, ``*``, one space between them, spaces after
 * them), one after the other: the tags by name in order, and the token lines of the Auction
 * and of the Play ("" without any).  None when it is not that, a tag comes twice, or another
 * tag has token lines.  (twin: ``formats.pbn.plain.py_plain_tags``) */
static int is_letter_ch(Py_UCS4 c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

static int is_token_ch(Py_UCS4 c)
{
    return is_letter_ch(c) || (c >= '0' && c <= '9') || c == '*';
}

/* The end of the token lines from ``i`` (``i`` itself when none starts there). */
static Py_ssize_t token_lines(int kind, const void *d, Py_ssize_t len, Py_ssize_t i)
{
    for (;;) {
        Py_ssize_t j = i;
        if (j >= len || !is_token_ch(PyUnicode_READ(kind, d, j)))
            return i;
        for (;;) {
            while (j < len && is_token_ch(PyUnicode_READ(kind, d, j)))
                j++;
            if (j + 1 < len && PyUnicode_READ(kind, d, j) == ' '
                    && is_token_ch(PyUnicode_READ(kind, d, j + 1))) {
                j++;
                continue;
            }
            break;
        }
        while (j < len && PyUnicode_READ(kind, d, j) == ' ')
            j++;
        if (j >= len || PyUnicode_READ(kind, d, j) != '\n')
            return i;
        i = j + 1;
    }
}

/* The tag line at ``i``: its name [*n0, *n1), its value [*v0, *v1); 0 when there is none. */
static int tag_line(int kind, const void *d, Py_ssize_t len, Py_ssize_t i, Py_ssize_t *n0,
                    Py_ssize_t *n1, Py_ssize_t *v0, Py_ssize_t *v1)
{
    Py_ssize_t j;
    if (i >= len || PyUnicode_READ(kind, d, i) != '[')
        return 0;
    *n0 = j = i + 1;
    while (j < len && is_letter_ch(PyUnicode_READ(kind, d, j)))
        j++;
    *n1 = j;
    if (j == *n0 || j + 1 >= len || PyUnicode_READ(kind, d, j) != ' '
            || PyUnicode_READ(kind, d, j + 1) != '"')
        return 0;
    *v0 = j = j + 2;
    while (j < len) {
        Py_UCS4 c = PyUnicode_READ(kind, d, j);
        if (c == '"' || c == '\\' || c == '\n')
            break;
        j++;
    }
    *v1 = j;
    return j + 2 < len && PyUnicode_READ(kind, d, j) == '"'
           && PyUnicode_READ(kind, d, j + 1) == ']' && PyUnicode_READ(kind, d, j + 2) == '\n';
}

/* The names of the tags a plain game usually has, made once: a game's name that is one of
 * them is this string (equal to the one cut from the text, and its hash already known). */
static const char *const KNOWN_TAGS[] = {
    "Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Vulnerable",
    "Deal", "Declarer", "Contract", "Result", "Auction", "Play", "Room", "Table", "Score",
    "ScoreIMP", "ScoreMP", "ScorePercentage", "Scoring", "Round", "HomeTeam", "VisitTeam",
    "Section", "Stage", "Competition", "Annotator",
};
#define N_KNOWN_TAGS (sizeof(KNOWN_TAGS) / sizeof(KNOWN_TAGS[0]))
static PyObject *known_tag_names[N_KNOWN_TAGS];

/* The tag name text[n0:n1] (letters only) as a str: a known one when it is one, else new. */
static PyObject *known_tag(PyObject *text, int kind, const void *d, Py_ssize_t n0, Py_ssize_t n1)
{
    if (kind == PyUnicode_1BYTE_KIND) {
        const char *at = (const char *)d + n0;
        size_t n = (size_t)(n1 - n0);
        for (size_t k = 0; k < N_KNOWN_TAGS; k++) {
            if (strlen(KNOWN_TAGS[k]) != n || memcmp(KNOWN_TAGS[k], at, n) != 0)
                continue;
            if (known_tag_names[k] == NULL) {
                known_tag_names[k] = PyUnicode_InternFromString(KNOWN_TAGS[k]);
                if (known_tag_names[k] == NULL)
                    return NULL;
            }
            Py_INCREF(known_tag_names[k]);
            return known_tag_names[k];
        }
    }
    return PyUnicode_Substring(text, n0, n1);
}

static PyObject *speedups_plain_tags(PyObject *self, PyObject *text)
{
    PyObject *tags, *name = NULL, *value = NULL, *data = NULL, *auction = NULL, *play = NULL;
    PyObject *out = NULL;
    Py_ssize_t len, i = 0, n0, n1, v0, v1, end;
    const void *d;
    int kind, plain = 0;

    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "plain_tags() takes a str");
        return NULL;
    }
    kind = PyUnicode_KIND(text);
    d = PyUnicode_DATA(text);
    len = PyUnicode_GET_LENGTH(text);
    tags = PyDict_New();
    if (tags == NULL)
        return NULL;
    while (i < len) {
        int seen;
        plain = 0;
        if (!tag_line(kind, d, len, i, &n0, &n1, &v0, &v1))
            break;
        end = token_lines(kind, d, len, v1 + 3);
        name = known_tag(text, kind, d, n0, n1);
        value = name ? PyUnicode_Substring(text, v0, v1) : NULL;
        if (value == NULL || (seen = PyDict_Contains(tags, name)) < 0)
            goto error;
        if (seen || PyDict_SetItem(tags, name, value) < 0)
            goto done;  /* a tag twice: not plain (or an error, set) */
        if (end > v1 + 3) {
            int is_auction = PyUnicode_CompareWithASCIIString(name, "Auction") == 0;
            if (!is_auction && PyUnicode_CompareWithASCIIString(name, "Play") != 0)
                goto done;  /* token lines after another tag */
            data = PyUnicode_Substring(text, v1 + 3, end);
            if (data == NULL)
                goto error;
            if (is_auction)
                auction = data;
            else
                play = data;
            data = NULL;
        }
        Py_CLEAR(name);
        Py_CLEAR(value);
        i = end;
        plain = 1;
    }
    if (!plain || i != len)
        goto done;
    {
        PyObject *empty = PyUnicode_New(0, 0);
        if (empty == NULL)
            goto error;
        out = PyTuple_Pack(3, tags, auction ? auction : empty, play ? play : empty);
        Py_DECREF(empty);
    }
    goto error;  /* the result made (or an error set): let go of the rest */
done:
    if (!PyErr_Occurred()) {
        Py_INCREF(Py_None);
        out = Py_None;
    }
error:
    Py_XDECREF(name);
    Py_XDECREF(value);
    Py_XDECREF(data);
    Py_XDECREF(auction);
    Py_XDECREF(play);
    Py_DECREF(tags);
    return out;
}

/* Bytes from data[*i] on up to one of ``stops`` (or the end); *i moved there. */
static void skip_to(const char *data, Py_ssize_t len, Py_ssize_t *i, const char *stops)
{
    Py_ssize_t j = *i;
    while (j < len && (data[j] == '\0' || strchr(stops, data[j]) == NULL))
        j++;  /* (strchr finds a NUL in any string: a NUL byte is never a stop) */
    *i = j;
}

/* Whether data[*i:] starts with ``word``; *i moved past it when it does. */
static int take(const char *data, Py_ssize_t len, Py_ssize_t *i, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(len - *i) < n || memcmp(data + *i, word, n) != 0)
        return 0;
    *i += (Py_ssize_t)n;
    return 1;
}

/* ``formats.lin.plain.LINE.fullmatch(line)`` as a bool: one board in the single-deal layout,
 * "pn|S,W,N,E|st||md|D...|rh||ah|...|sv|...|", then "mb|v|", "pc|v|" and "pg||" pairs, then
 * perhaps "mc|n|" (one or two digits), and nothing else; no value holds "|" or a newline, and
 * no name a ",".  (twin: ``formats.lin.plain.py_plain_line``) */
static PyObject *speedups_lin_line(PyObject *self, PyObject *arg)
{
    char *data;
    Py_ssize_t len, i = 0;
    if (!PyBytes_Check(arg)) {
        PyErr_SetString(PyExc_TypeError, "lin_line() takes bytes");
        return NULL;
    }
    data = PyBytes_AS_STRING(arg);
    len = PyBytes_GET_SIZE(arg);
    if (!take(data, len, &i, "pn|"))
        Py_RETURN_FALSE;
    for (int k = 0; k < 4; k++) {
        skip_to(data, len, &i, "|,\n");
        if (!take(data, len, &i, k < 3 ? "," : "|"))
            Py_RETURN_FALSE;
    }
    if (!take(data, len, &i, "st||md|") || i >= len || data[i] < '1' || data[i] > '4')
        Py_RETURN_FALSE;
    i++;  /* the dealer */
    skip_to(data, len, &i, "|\n");
    if (!take(data, len, &i, "|rh||ah|"))
        Py_RETURN_FALSE;
    skip_to(data, len, &i, "|\n");
    if (!take(data, len, &i, "|sv|"))
        Py_RETURN_FALSE;
    skip_to(data, len, &i, "|\n");
    if (!take(data, len, &i, "|"))
        Py_RETURN_FALSE;
    for (;;) {  /* the pairs: keys that no other part starts with, so none is given back */
        if (take(data, len, &i, "pg||"))
            continue;
        if (!take(data, len, &i, "mb|") && !take(data, len, &i, "pc|"))
            break;
        skip_to(data, len, &i, "|\n");
        if (!take(data, len, &i, "|"))
            Py_RETURN_FALSE;
    }
    if (take(data, len, &i, "mc|")) {
        int digits = 0;
        while (digits < 2 && i < len && data[i] >= '0' && data[i] <= '9') {
            i++;
            digits++;
        }
        if (digits == 0 || !take(data, len, &i, "|"))
            Py_RETURN_FALSE;
    }
    return PyBool_FromLong(i == len);
}

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
