/* What the C kernels of the threshold races (gridsolve/solve/bounded/raceskernel.c,
 * gridsolve/solve/hidden/knowingkernel.c) share, first half: the types a game's hooks use.
 * The transposition tables (open addressing, keyed by one or two 64-bit words), the races, the
 * fields of the one object the Python side hands to new() read by name, and a search that runs
 * without the GIL and takes it every check_every positions to call back into Python (the
 * limits; a raised exception aborts the search).  The search itself and the module's Python
 * interface are racesearch.h, included after the game's hooks.  pyproject.toml lists both
 * headers under each kernel's depends (an edit builds them again).
 *
 * Before including this file a kernel defines RACE_KEY_WORDS (1 or 2: the words of its table
 * keys), RACE_TABLE_LOAD (the most entries per 10 slots before a table doubles) and RACE_EXTRA
 * (the type of what it keeps beside an abstract position). */
#ifndef GRIDSOLVE_RACEKERNEL_H
#define GRIDSOLVE_RACEKERNEL_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* What the game keeps beside the abstract position (the items left, the role's knowledge), and
 * one outcome of a ply: the position after it. */
typedef RACE_EXTRA Extra;
typedef struct { int32_t s; Extra x; } Outcome;

#define NONE_WON 0xFF       /* a race table's b: no plies known to force */
#define RACE_UP 0           /* the role's team forces a stop scoring at least the threshold */
#define RACE_DOWN 1         /* the others force one below it */
#define RACE_AVOID 2        /* the others force an end the role must avoid */

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* - Fields of the object new() reads ---------------------------------------------------------- */

/* spec.name, a new reference; NULL with the error set. */
static PyObject *field(PyObject *spec, const char *name) { return PyObject_GetAttrString(spec, name); }

/* spec.name as an int; -1 with the error set. */
static int int_field(PyObject *spec, const char *name, int32_t *out) {
    PyObject *value = field(spec, name);
    if (!value) return -1;
    long got = PyLong_AsLong(value);
    Py_DECREF(value);
    if (got == -1 && PyErr_Occurred()) return -1;
    *out = (int32_t)got;
    return 0;
}

/* A copy of the bytes spec.name, which must hold exactly ``size`` bytes; NULL with the error set. */
static void *bytes_field(PyObject *spec, const char *name, Py_ssize_t size) {
    PyObject *b = field(spec, name);
    if (!b) return NULL;
    void *out = NULL;
    if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) != size)
        PyErr_Format(PyExc_ValueError, "kernel: %s must be bytes of size %zd", name, size);
    else if (!(out = malloc(size ? size : 1)))
        PyErr_NoMemory();
    else
        memcpy(out, PyBytes_AS_STRING(b), size);
    Py_DECREF(b);
    return out;
}

/* The ints of the tuple spec.name (at most ``most``) into out; their count, or -1 with the error set. */
static inline int ints_field(PyObject *spec, const char *name, int most, uint64_t *out) {
    PyObject *t = field(spec, name);
    if (!t) return -1;
    Py_ssize_t n = PyTuple_Check(t) ? PyTuple_GET_SIZE(t) : -1;
    if (n < 0 || n > most) {
        PyErr_Format(PyExc_ValueError, "kernel: %s must be a tuple of at most %d ints", name, most);
        n = -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) out[i] = PyLong_AsUnsignedLongLongMask(PyTuple_GET_ITEM(t, i));
    Py_DECREF(t);
    if (PyErr_Occurred()) return -1;
    return (int)n;
}

/* - Transposition tables -------------------------------------------------------------------- */
/* A key's last word is stored + 1 (0: an empty slot).  A race's table holds a = the most plies
 * known not to force + 1 (0: none) and b = the fewest known to force (NONE_WON: none); another
 * table may hold what it likes in a and b. */
typedef struct {
    uint64_t *lo;
#if RACE_KEY_WORDS == 2
    uint64_t *hi;
#endif
    uint8_t *a, *b;
    size_t cap, count;
} Table;

#if RACE_KEY_WORDS == 2
#define TABLE_TAG(t, i) ((t)->hi[i])
static inline size_t table_hash(uint64_t lo, uint64_t tag) { return (size_t)mix(lo ^ mix(tag)); }
static inline int table_same(const Table *t, size_t i, uint64_t lo, uint64_t tag) { return t->hi[i] == tag && t->lo[i] == lo; }
#else
#define TABLE_TAG(t, i) ((t)->lo[i])
static inline size_t table_hash(uint64_t lo, uint64_t tag) { (void)lo; return (size_t)mix(tag); }
static inline int table_same(const Table *t, size_t i, uint64_t lo, uint64_t tag) { (void)lo; return t->lo[i] == tag; }
#endif

static size_t table_bytes(const Table *t) { return t->cap * (RACE_KEY_WORDS * sizeof(uint64_t) + 2); }

/* Whether the table may grow before ``more`` entries more. */
static int table_may_grow(const Table *t, long long more) { return (t->count + more) * 10 > t->cap * RACE_TABLE_LOAD; }

static void table_free(Table *t) {
    free(t->lo); free(t->a); free(t->b);
#if RACE_KEY_WORDS == 2
    free(t->hi);
#endif
    memset(t, 0, sizeof(*t));
}

static int table_grow(Table *t) {
    Table big = {0};
    big.cap = t->cap ? t->cap * 2 : 1024;
    big.lo = calloc(big.cap, sizeof(uint64_t));
#if RACE_KEY_WORDS == 2
    big.hi = calloc(big.cap, sizeof(uint64_t));
    if (!big.hi) { table_free(&big); return -1; }
#endif
    big.a = malloc(big.cap); big.b = malloc(big.cap);
    if (!big.lo || !big.a || !big.b) { table_free(&big); return -1; }
    for (size_t i = 0; i < t->cap; i++) {
        uint64_t tag = TABLE_TAG(t, i);
        if (!tag) continue;
        size_t j = table_hash(t->lo[i], tag) & (big.cap - 1);
        while (TABLE_TAG(&big, j)) j = (j + 1) & (big.cap - 1);
        big.lo[j] = t->lo[i]; big.a[j] = t->a[i]; big.b[j] = t->b[i];
#if RACE_KEY_WORDS == 2
        big.hi[j] = t->hi[i];
#endif
    }
    big.count = t->count;
    table_free(t);
    *t = big;
    return 0;
}

/* The slot of key (lo, hi) (hi unused with one-word keys), inserted with a = init_a, b = init_b
 * if absent (*fresh: whether it was, where fresh is given); SIZE_MAX when out of memory. */
static size_t table_slot(Table *t, uint64_t lo, uint64_t hi, uint8_t init_a, uint8_t init_b, int *fresh) {
    if (table_may_grow(t, 1) && table_grow(t) < 0) return SIZE_MAX;
#if RACE_KEY_WORDS == 2
    uint64_t tag = hi + 1;
#else
    uint64_t tag = lo + 1;
    (void)hi;
#endif
    size_t j = table_hash(lo, tag) & (t->cap - 1);
    while (TABLE_TAG(t, j)) {
        if (table_same(t, j, lo, tag)) { if (fresh) *fresh = 0; return j; }
        j = (j + 1) & (t->cap - 1);
    }
#if RACE_KEY_WORDS == 2
    t->lo[j] = lo; t->hi[j] = tag;
#else
    t->lo[j] = tag;
#endif
    t->a[j] = init_a; t->b[j] = init_b; t->count++;
    if (fresh) *fresh = 1;
    return j;
}

/* - Races ----------------------------------------------------------------------------------- */
typedef struct {
    int kind;           /* RACE_UP, RACE_DOWN, RACE_AVOID */
    long threshold;
    Table table;
} Race;

/* - A search without the GIL ---------------------------------------------------------------- */
typedef struct {
    long long nodes, next_check, check_every;
    PyObject *check;          /* borrowed during a call */
    PyThreadState *released;  /* the thread's state while the search runs without the GIL */
    int aborted, busy;        /* aborted: 1 the check raised, 2 a table could not grow */
} Searching;

/* Count a position searched; every check_every, call the check with the GIL: 0, or -1 aborted. */
static inline int searching_tick(Searching *g) {
    if (++g->nodes < g->next_check) return 0;
    g->next_check = g->nodes + g->check_every;
    if (!g->check) return 0;
    PyEval_RestoreThread(g->released);
    PyObject *res = PyObject_CallFunction(g->check, "L", g->nodes);
    if (res) Py_DECREF(res);
    g->released = PyEval_SaveThread();
    if (!res) { g->aborted = 1; return -1; }
    return 0;
}

/* RuntimeError (-1) while a search runs: the tables may move. */
static int searching_idle(const Searching *g, const char *what) {
    if (!g->busy) return 0;
    PyErr_Format(PyExc_RuntimeError, "%s: this kernel is searching already (one thread at a time)", what);
    return -1;
}

/* Start a search: the check and its period, then the GIL released. -1 if one runs already. */
static int searching_begin(Searching *g, PyObject *check, long long every, const char *what) {
    if (searching_idle(g, what) < 0) return -1;
    g->check = check == Py_None ? NULL : check;
    g->check_every = every > 0 ? every : 1;
    if (g->next_check > g->nodes + g->check_every) g->next_check = g->nodes + g->check_every;
    g->aborted = 0;
    g->busy = 1;
    g->released = PyEval_SaveThread();
    return 0;
}

/* End a search: the GIL taken again; NULL with the error set if it was aborted, else the answer. */
static PyObject *searching_end(Searching *g, int result) {
    PyEval_RestoreThread(g->released);
    g->busy = 0;
    g->check = NULL;
    if (g->aborted == 2) return PyErr_NoMemory();
    if (g->aborted) return NULL;
    return PyBool_FromLong(result);
}
#endif
