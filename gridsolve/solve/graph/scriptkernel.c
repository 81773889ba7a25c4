/* The positions of a game with an after_ply script found level by level in C: the twin of the
 * numpy search of gridsolve/solve/graph/scripted.py (ScriptTables.plies and _script, called by
 * ScriptedGraph), which gridsolve/solve/graph/scriptsearch.py packs the arrays for.  Optional:
 * where this module is not built, the numpy search runs, with the same answers
 * (tests/test_scriptkernel.py compares the two on random boards).
 *
 * Reads:
 *   the roots (position numbers, sorted, distinct); the mixed-radix numbering (a stride per
 *   piece, the radix, whether a gate bit follows); the per-cell tables by cell number (0: off
 *   the board): the role's moves from each cell (move_start, aimed cell, cell reached), the
 *   steps that cross a gate, the chasers' steps (chase[axis][cell][sx][sy][gate]), the key
 *   cells, each cell's x and y, the marks' cells and the distances the ends compare; the ends
 *   and the script's actions as small programs of int32 codes (below); the mover's piece, the
 *   pieces it may not aim at, whether a step into a closed gate is illegal, which pieces are
 *   chasers (they leave the board).
 * Derives:
 *   every position reachable from the roots (in the order found), and the distinct moves
 *   (position, position after it) of each position where no end holds, level by level: each
 *   level's sources ascending and each source's targets ascending, as the numpy search gives
 *   them (distinct_pairs of each level); with ``joined`` (what the race graph keeps), the positions
 *   sorted, the end that decides each, and the moves as indexes into them.  ``check(found, frontier)``
 *   is called before the first level and then before a level once ``check_every`` more positions were found since the last
 *   call (the time and memory limits); an exception it raises stops the search.
 *
 * Programs: ends = [n_ends, per end: n_conditions, conditions...];
 *   script = [n_actions, per action: kind, ...]: KEY n (piece, uses)*n; STOP n conditions...;
 *   STEP piece target axis; REMOVE remover piece flips.
 *   conditions: SAME a b (cells equal); REACH piece mark (-1: a mark no cell has); NEARER piece
 *   other mine theirs (distance tables); ON piece (a chaser still on the board).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PIECES 32
#define MAX_MOVES 64

enum { SAME = 0, REACH = 1, NEARER = 2, ON = 3 };
enum { KEY = 0, STOP = 1, STEP = 2, REMOVE = 3 };

typedef struct {
    int pieces, gate, size, mover, blocked_illegal, n_may_not;
    int64_t radix;
    const int64_t *strides, *move_start, *move_aim, *move_to, *chase, *x, *y, *dist;
    const uint8_t *gate_cross, *key, *marks, *chaser;
    const int32_t *ends, *script, *may_not;
} Game;

typedef struct {                 /* int64 keys >= 0, open addressing, -1: empty */
    int64_t *slots;
    size_t cap, used;
} Set;

typedef struct {
    int64_t *data;
    size_t len, cap;
} Vec;

static int vec_push(Vec *v, int64_t value) {
    if (v->len == v->cap) {
        size_t cap = v->cap ? 2 * v->cap : 1024;
        int64_t *grown = realloc(v->data, cap * sizeof(int64_t));
        if (!grown) return 0;
        v->data = grown;
        v->cap = cap;
    }
    v->data[v->len++] = value;
    return 1;
}

static inline size_t set_hash(int64_t key, size_t cap) {
    return (size_t)(((uint64_t)key * 0x9E3779B97F4A7C15ULL) >> 17) & (cap - 1);
}

static int set_init(Set *s, size_t cap) {
    s->cap = cap;
    s->used = 0;
    s->slots = malloc(cap * sizeof(int64_t));
    if (!s->slots) return 0;
    memset(s->slots, 0xff, cap * sizeof(int64_t));
    return 1;
}

/* Insert key: 1 when new, 0 when present, -1 when out of memory. */
static int set_add(Set *s, int64_t key) {
    if (2 * (s->used + 1) > s->cap) {
        Set grown;
        if (!set_init(&grown, 2 * s->cap)) return -1;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i] >= 0) {
                size_t j = set_hash(s->slots[i], grown.cap);
                while (grown.slots[j] >= 0) j = (j + 1) & (grown.cap - 1);
                grown.slots[j] = s->slots[i];
            }
        grown.used = s->used;
        free(s->slots);
        *s = grown;
    }
    size_t j = set_hash(key, s->cap);
    while (s->slots[j] >= 0) {
        if (s->slots[j] == key) return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->slots[j] = key;
    s->used++;
    return 1;
}

static int compare(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* - Positions --- */

static inline void fields_of(const Game *g, int64_t key, int64_t *cells, int64_t *gate) {
    for (int i = 0; i < g->pieces; i++) cells[i] = key / g->strides[i] % g->radix;
    *gate = g->gate ? key % 2 : 0;
}

static inline int64_t key_of(const Game *g, const int64_t *cells, int64_t gate) {
    int64_t key = g->gate ? gate : 0;
    for (int i = 0; i < g->pieces; i++) key += cells[i] * g->strides[i];
    return key;
}

/* One condition at *pc (advanced past it). */
static inline int holds(const Game *g, const int32_t **pc, const int64_t *cells, const uint8_t *alive) {
    const int32_t *c = *pc;
    switch (c[0]) {
    case SAME:
        *pc += 3;
        return cells[c[1]] == cells[c[2]];
    case REACH:
        *pc += 3;
        return c[2] >= 0 && g->marks[(size_t)c[2] * g->size + cells[c[1]]];
    case NEARER: {
        *pc += 5;
        int64_t mine = g->dist[(size_t)c[3] * g->size + cells[c[1]]];
        int64_t theirs = g->dist[(size_t)c[4] * g->size + cells[c[2]]];
        return mine >= 0 && theirs >= 0 && mine < theirs;
    }
    default:    /* ON */
        *pc += 2;
        return alive[c[1]];
    }
}

/* The end that decides the position (-1: none), the first whose conditions all hold. */
static int outcome(const Game *g, int64_t key) {
    int64_t cells[MAX_PIECES], gate;
    uint8_t alive[MAX_PIECES];
    fields_of(g, key, cells, &gate);
    for (int i = 0; i < g->pieces; i++) alive[i] = cells[i] != 0;     /* (a piece off the board meets nowhere) */
    const int32_t *pc = g->ends + 1;
    for (int end = 0; end < g->ends[0]; end++) {
        int n = *pc++, all = 1;
        for (int k = 0; k < n; k++) all &= holds(g, &pc, cells, alive);
        if (all) return end;
    }
    return -1;
}

/* The script's actions after the mover's move: the position's number after the ply. */
static int64_t script(const Game *g, int64_t *cells, const int64_t *start, int64_t gate) {
    int64_t start_gate = gate;
    uint8_t alive[MAX_PIECES];
    int used = 0, going = 1;
    for (int i = 0; i < g->pieces; i++) alive[i] = g->chaser[i] ? cells[i] != 0 : 1;
    const int32_t *pc = g->script + 1;
    for (int a = 0; a < g->script[0]; a++) {
        int kind = *pc++;
        if (kind == KEY) {
            int n = *pc++, open = going && !used;
            for (int k = 0; k < n; k++, pc += 2) {
                int i = pc[0];
                int hit = open && alive[i] && g->key[cells[i]] && cells[i] != start[i];
                if (hit) {
                    gate = 1 - start_gate;
                    if (pc[1]) used = 1;
                    open = 0;
                }
            }
        } else if (kind == STOP) {
            int n = *pc++, all = going;
            for (int k = 0; k < n; k++) all &= holds(g, &pc, cells, alive);
            if (all) going = 0;
        } else if (kind == STEP) {
            int i = pc[0], t = pc[1], axis = pc[2];
            pc += 3;
            if (going && alive[i]) {
                int64_t dx = g->x[cells[t]] - g->x[cells[i]], dy = g->y[cells[t]] - g->y[cells[i]];
                int sx = (dx > 0) - (dx < 0) + 1, sy = (dy > 0) - (dy < 0) + 1;
                cells[i] = g->chase[(((size_t)axis * g->size + cells[i]) * 9 + sx * 3 + sy) * 2 + gate];
            }
        } else {    /* REMOVE */
            int r = pc[0], p = pc[1], flips = pc[2];
            pc += 3;
            if (going && alive[r] && cells[r] == cells[p]) {
                alive[p] = 0;
                if (flips && g->key[cells[p]]) gate = 1 - gate;
            }
        }
    }
    for (int i = 0; i < g->pieces; i++)
        if (g->chaser[i] && !alive[i]) cells[i] = 0;
    return key_of(g, cells, gate);
}

/* The distinct positions after each move of ``key`` into ``out``, ascending: how many. */
static int successors(const Game *g, int64_t key, int64_t *out) {
    int64_t cells[MAX_PIECES], start[MAX_PIECES], gate;
    fields_of(g, key, start, &gate);
    int64_t here = start[g->mover];
    int count = 0;
    for (int64_t m = g->move_start[here]; m < g->move_start[here + 1]; m++) {
        int kept = 1;
        for (int k = 0; k < g->n_may_not; k++) kept &= g->move_aim[m] != start[g->may_not[k]];
        int64_t to = g->move_to[m];     /* a closed gate is judged on the cell the step aims at */
        int crosses = gate == 0 && g->gate_cross[(size_t)here * g->size + g->move_aim[m]];
        if (!kept || (g->blocked_illegal && crosses)) continue;
        memcpy(cells, start, sizeof(int64_t) * g->pieces);
        cells[g->mover] = crosses ? here : to;
        out[count++] = script(g, cells, start, gate);
    }
    for (int k = 1; k < count; k++) {      /* (a few moves: sorted in place, no call a comparison) */
        int64_t value = out[k];
        int j = k;
        for (; j > 0 && out[j - 1] > value; j--) out[j] = out[j - 1];
        out[j] = value;
    }
    int distinct = 0;
    for (int k = 0; k < count; k++)
        if (!distinct || out[k] != out[distinct - 1]) out[distinct++] = out[k];
    return distinct;
}

/* - The module --- */

/* The list as bytes, its memory let go at once (the search's largest lists are copied one at a
 * time: a process's peak memory is then not all of them twice). */
static PyObject *bytes_of(Vec *v) {
    PyObject *out = PyBytes_FromStringAndSize((const char *)v->data, (Py_ssize_t)(v->len * sizeof(int64_t)));
    free(v->data);
    v->data = NULL;
    return out;
}

/* The positions of ``v`` as int32 indexes into ``sorted`` (each of them is there), as bytes;
 * ``v``'s memory let go at once.  A run of one position (a source's moves) is looked up once;
 * the search halves the range without a branch on the comparison (it mispredicts half the
 * time), to the same index. */
static PyObject *index_of(const Vec *sorted, Vec *v) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(v->len * sizeof(int32_t)));
    if (out && sorted->len) {
        int32_t *at = (int32_t *)PyBytes_AS_STRING(out);
        const int64_t *data = sorted->data;
        for (size_t k = 0; k < v->len; k++) {
            int64_t wanted = v->data[k];
            if (k && wanted == v->data[k - 1]) {
                at[k] = at[k - 1];
                continue;
            }
            const int64_t *base = data;
            size_t n = sorted->len;
            while (n > 1) {             /* base[0..n) holds the first position >= wanted, or its end */
                size_t half = n / 2;
                base = base[half - 1] < wanted ? base + half : base;
                n -= half;
            }
            at[k] = (int32_t)(base - data + (*base < wanted));
        }
    }
    free(v->data);
    v->data = NULL;
    return out;
}

static PyObject *search(PyObject *self, PyObject *args) {
    enum { NBUF = 16 };
    PyObject *objs[NBUF], *check;
    Py_buffer b[NBUF];
    int pieces, gate, mover, blocked_illegal;
    long long radix;
    Py_ssize_t check_every;
    int joined = 0;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOLiiiiOn|p", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &objs[7], &objs[8], &objs[9], &objs[10], &objs[11], &objs[12],
                          &objs[13], &objs[14], &objs[15], &radix, &pieces, &gate, &mover,
                          &blocked_illegal, &check, &check_every, &joined))
        return NULL;
    if (pieces < 1 || pieces > MAX_PIECES) {
        PyErr_SetString(PyExc_ValueError, "scriptkernel: 1 to 32 pieces");
        return NULL;
    }
    int got = 0;
    for (; got < NBUF; got++)
        if (PyObject_GetBuffer(objs[got], &b[got], PyBUF_C_CONTIGUOUS) < 0) break;
    PyObject *result = NULL;
    Vec found = {0}, src = {0}, dst = {0}, frontier = {0}, next = {0};
    Set seen = {0};
    if (got < NBUF) goto release;
    /* roots, strides, move_start, move_aim, move_to, gate_cross, chase, key, x, y, marks, dist,
     * ends, script, may_not, chaser */
    Game g;
    g.pieces = pieces;
    g.gate = gate;
    g.radix = radix;
    g.mover = mover;
    g.blocked_illegal = blocked_illegal;
    g.strides = b[1].buf;
    g.move_start = b[2].buf;
    g.move_aim = b[3].buf;
    g.move_to = b[4].buf;
    g.gate_cross = b[5].buf;
    g.chase = b[6].buf;
    g.key = b[7].buf;
    g.x = b[8].buf;
    g.y = b[9].buf;
    g.marks = b[10].buf;
    g.dist = b[11].buf;
    g.ends = b[12].buf;
    g.script = b[13].buf;
    g.may_not = b[14].buf;
    g.n_may_not = (int)(b[14].len / sizeof(int32_t));
    g.chaser = b[15].buf;
    g.size = (int)(b[7].len);
    if (b[1].len != (Py_ssize_t)(pieces * sizeof(int64_t))
        || b[2].len != (Py_ssize_t)((g.size + 1) * sizeof(int64_t)) || b[5].len != (Py_ssize_t)g.size * g.size
        || b[6].len != (Py_ssize_t)(2 * 18 * g.size * sizeof(int64_t))
        || b[8].len != (Py_ssize_t)(g.size * sizeof(int64_t)) || b[9].len != b[8].len || b[15].len != pieces) {
        PyErr_SetString(PyExc_ValueError, "scriptkernel: arrays of the wrong size");
        goto release;
    }
    const int64_t *roots = b[0].buf;
    Py_ssize_t n_roots = b[0].len / (Py_ssize_t)sizeof(int64_t);
    int64_t most = 0;
    for (int c = 0; c < g.size; c++)
        if (g.move_start[c + 1] - g.move_start[c] > most) most = g.move_start[c + 1] - g.move_start[c];
    if (most > MAX_MOVES) {
        PyErr_SetString(PyExc_ValueError, "scriptkernel: more than 64 moves from a cell");
        goto release;
    }
    if (!set_init(&seen, 1024)) goto memory;
    for (Py_ssize_t k = 0; k < n_roots; k++) {
        if (set_add(&seen, roots[k]) < 0 || !vec_push(&found, roots[k]) || !vec_push(&frontier, roots[k]))
            goto memory;
    }
    size_t checked = 0;               /* the positions found at the last check */
    while (frontier.len) {
        size_t open = 0;             /* the frontier's positions where no end holds */
        for (size_t f = 0; f < frontier.len; f++)
            if (outcome(&g, frontier.data[f]) < 0) frontier.data[open++] = frontier.data[f];
        frontier.len = open;
        if (!checked || found.len - checked >= (size_t)check_every) {
            PyObject *called = PyObject_CallFunction(check, "nn", (Py_ssize_t)found.len, (Py_ssize_t)open);
            if (!called) goto release;
            Py_DECREF(called);
            checked = found.len;
        }
        next.len = 0;
        int64_t after[MAX_MOVES];
        int failed = 0;
        Py_BEGIN_ALLOW_THREADS
        for (size_t f = 0; f < frontier.len && !failed; f++) {
            int n = successors(&g, frontier.data[f], after);
            for (int k = 0; k < n && !failed; k++) {
                int added = set_add(&seen, after[k]);
                failed = added < 0 || !vec_push(&src, frontier.data[f]) || !vec_push(&dst, after[k])
                         || (added && (!vec_push(&found, after[k]) || !vec_push(&next, after[k])));
            }
        }
        if (!failed) qsort(next.data, next.len, sizeof(int64_t), compare);
        Py_END_ALLOW_THREADS
        if (failed) goto memory;
        Vec swap = frontier;
        frontier = next;
        next = swap;
    }
    free(seen.slots); free(frontier.data); free(next.data);
    seen.slots = NULL; frontier.data = next.data = NULL;
    if (joined) {
        /* the positions sorted, the end of each, the moves as int32 indexes into them */
        qsort(found.data, found.len, sizeof(int64_t), compare);
        PyObject *ends_bytes = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(found.len * sizeof(int16_t)));
        PyObject *src_index = ends_bytes ? index_of(&found, &src) : NULL;
        PyObject *dst_index = src_index ? index_of(&found, &dst) : NULL;
        if (dst_index) {
            int16_t *ends_out = (int16_t *)PyBytes_AS_STRING(ends_bytes);
            for (size_t i = 0; i < found.len; i++) ends_out[i] = (int16_t)outcome(&g, found.data[i]);
        }
        PyObject *found_bytes = dst_index ? bytes_of(&found) : NULL;
        if (found_bytes)
            result = PyTuple_Pack(4, found_bytes, ends_bytes, src_index, dst_index);
        Py_XDECREF(found_bytes); Py_XDECREF(ends_bytes); Py_XDECREF(src_index); Py_XDECREF(dst_index);
        goto release;
    }
    PyObject *found_bytes = bytes_of(&found);
    PyObject *src_bytes = found_bytes ? bytes_of(&src) : NULL;
    PyObject *dst_bytes = src_bytes ? bytes_of(&dst) : NULL;
    if (dst_bytes)
        result = PyTuple_Pack(3, found_bytes, src_bytes, dst_bytes);
    Py_XDECREF(found_bytes); Py_XDECREF(src_bytes); Py_XDECREF(dst_bytes);
    goto release;
memory:
    PyErr_NoMemory();
release:
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    free(found.data); free(src.data); free(dst.data); free(frontier.data); free(next.data); free(seen.slots);
    return result;
}

/* ranks(...) and ranked(...): the one ranker's C twin (retrograde.h), which retrograde.py's ranks calls. */
#define RETRO_PYTHON
#include "retrograde.h"

static PyMethodDef methods[] = {
    RETRO_METHOD,
    {"search", search, METH_VARARGS,
     "search(roots, strides, move_start, move_aim, move_to, gate_cross, chase, key, x, y, marks, dist, ends, script, "
     "may_not, chaser, radix, pieces, gate, mover, blocked_illegal, check, check_every, joined=False) -> (found, src, "
     "dst) as int64 bytes: the positions found, then every distinct move of the positions where no end holds; with "
     "joined, (found sorted, the end of each as int16, src and dst as int32 indexes into found)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "scriptkernel",
                                    "The positions of a game with an after_ply script, found in C.", -1, methods};

PyMODINIT_FUNC PyInit_scriptkernel(void) { return PyModule_Create(&module); }
