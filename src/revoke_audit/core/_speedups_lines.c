/* One game's text: a plain PBN game's tag lines, a plain LIN line (see ``_speedups.c`` for what
 * each gives, and its twin). */
#include "_speedups.h"

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

PyObject *speedups_plain_tags(PyObject *self, PyObject *text)
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
PyObject *speedups_lin_line(PyObject *self, PyObject *arg)
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
