/* Whole-file scans: where a large PBN or LIN file may be cut, and whether it may be split (see
 * ``_speedups.c`` for what each gives, and its twin). */
#include "_speedups.h"

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

PyObject *speedups_one_game_each(PyObject *self, PyObject *args)
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
PyObject *speedups_blank_runs(PyObject *self, PyObject *args)
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
PyObject *speedups_newlines(PyObject *self, PyObject *args)
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
PyObject *speedups_plain_bytes(PyObject *self, PyObject *args)
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
PyObject *speedups_ascii_from(PyObject *self, PyObject *args)
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

PyObject *speedups_lin_splits(PyObject *self, PyObject *arg)
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
