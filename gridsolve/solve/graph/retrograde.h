/* The C twin of gridsolve/solve/graph/retrograde.py's ranks: the fewest plies in which the attacking
 * sides force a target position, the defending sides delaying (encodings/solve.lp's won_in/3), level by
 * level with a counter of open moves per defending position.  The C kernels include it
 * (gridsolve/solve/hidden/knowingkernel.c, gridsolve/generate/layoutkernel.c; pyproject.toml lists it
 * under their "depends"); tests/test_retrograde.py holds it equal to the numpy ranker.
 *
 * Reads the arrays retrograde.py's docstring describes, for positions 0..n-1: the predecessors in
 * compressed rows (start[n + 1], pred: once a move; retro_predecessors makes them from the successors,
 * as retrograde.py's adapters do), attacks[s], target[s], open_count[s] (the moves of s), excluded[s]
 * (NULL: none), the last level ranked (levels < 0: every level) and a position after whose rank the
 * levels stop (until < 0: none).
 * Derives rank[s] (RETRO_UNRANKED where not forced within the levels) and returns the levels computed
 * (the first that ranked nothing, or the last one ranked), -1 where memory ran out.  No Python call:
 * a kernel may call it without the interpreter's lock.  With RETRO_PYTHON defined, the file also
 * defines RETRO_METHOD, the module methods "ranks" (from the successors) and "ranked" (from the
 * predecessors, as retrograde.py's ranks calls it) over bytes, for the kernel's method table.
 */
#ifndef GRIDSOLVE_RETROGRADE_H
#define GRIDSOLVE_RETROGRADE_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define RETRO_UNRANKED (-1)
#define RETRO_EXCLUDED (-2)     /* (while ranking: an excluded position, never a candidate) */

/* retrograde.py's predecessors(successor_moves(off, succ, extra)): the predecessors (start[n + 1],
 * *pred: malloc'ed, start[n] entries) and open_count[n] of the moves s -> succ[off[s]..off[s + 1]) and,
 * with extra (NULL: none), one more move s -> extra[s] where extra[s] >= 0 and s has moves (the robust
 * search's bump).  0 where memory ran out. */
#define RETRO_EXTRA(s) (extra && extra[s] >= 0 && off[(s) + 1] > off[s])
static inline int retro_predecessors(int32_t n, const int32_t *off, const int32_t *succ, const int32_t *extra,
                                     int32_t *start, int32_t **pred, int32_t *open_count) {
    memset(start, 0, ((size_t)n + 1) * sizeof(int32_t));
    for (int32_t s = 0; s < n; s++) {
        for (int32_t k = off[s]; k < off[s + 1]; k++) start[succ[k] + 1]++;
        if (RETRO_EXTRA(s)) start[extra[s] + 1]++;
        open_count[s] = off[s + 1] - off[s] + RETRO_EXTRA(s);
    }
    for (int32_t s = 0; s < n; s++) start[s + 1] += start[s];
    int32_t *fill = malloc(((size_t)n + 1) * sizeof(int32_t));
    *pred = malloc(((size_t)start[n] + 1) * sizeof(int32_t));
    if (!fill || !*pred) {
        free(fill);
        free(*pred);
        *pred = NULL;
        return 0;
    }
    memcpy(fill, start, (size_t)n * sizeof(int32_t));
    for (int32_t s = 0; s < n; s++) {
        for (int32_t k = off[s]; k < off[s + 1]; k++) (*pred)[fill[succ[k]]++] = s;
        if (RETRO_EXTRA(s)) (*pred)[fill[extra[s]]++] = s;
    }
    free(fill);
    return 1;
}
#undef RETRO_EXTRA

/* retrograde.py's ranks (see the top of this file): the ranks into rank[n], the levels computed returned. */
static inline int32_t retro_ranks(int32_t n, const int32_t *start, const int32_t *pred, const uint8_t *attacks,
                                  const uint8_t *target, const int32_t *open_count, const uint8_t *excluded,
                                  int32_t levels, int32_t until, int32_t *rank) {
    int32_t *left = malloc(((size_t)n + 1) * sizeof(int32_t)), *frontier = malloc(((size_t)n + 1) * sizeof(int32_t)),
            *following = malloc(((size_t)n + 1) * sizeof(int32_t));
    if (!left || !frontier || !following) {
        free(left); free(frontier); free(following);
        return -1;
    }
    int32_t count = 0, depth = 0;
    for (int32_t s = 0; s < n; s++) {
        left[s] = open_count[s];
        rank[s] = excluded && excluded[s] ? RETRO_EXCLUDED : RETRO_UNRANKED;
        if (target[s]) {
            rank[s] = 0;
            frontier[count++] = s;
        }
    }
    while ((levels < 0 || depth < levels) && (until < 0 || rank[until] < 0)) {
        depth++;
        int32_t next = 0;
        for (int32_t f = 0; f < count; f++)
            for (int32_t k = start[frontier[f]]; k < start[frontier[f] + 1]; k++) {
                int32_t p = pred[k];
                if (rank[p] != RETRO_UNRANKED) continue;
                if (attacks[p] || --left[p] == 0) {
                    rank[p] = depth;
                    following[next++] = p;
                }
            }
        int32_t *swap = frontier;
        frontier = following;
        following = swap;
        count = next;
        if (!count) break;
    }
    if (excluded)
        for (int32_t s = 0; s < n; s++)
            if (rank[s] == RETRO_EXCLUDED) rank[s] = RETRO_UNRANKED;
    free(left); free(frontier); free(following);
    return depth;
}

#ifdef RETRO_PYTHON
/* retro_ranks into a new bytes object: (ranks as int32 bytes, levels computed), NULL where memory ran out. */
static PyObject *retro_py_result(int32_t n, const int32_t *start, const int32_t *pred, const uint8_t *attacks,
                                 const uint8_t *target, const int32_t *open_count, const uint8_t *excluded,
                                 int32_t levels, int32_t until) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, 4 * (Py_ssize_t)n);
    if (!out) return NULL;
    int32_t depth = retro_ranks(n, start, pred, attacks, target, open_count, excluded, levels, until,
                                (int32_t *)PyBytes_AS_STRING(out));
    if (depth < 0) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    return Py_BuildValue("(Ni)", out, depth);
}

/* ranks(off, succ, extra, attacks, target, excluded, levels, until) -> (ranks as int32 bytes, levels
 * computed): retro_predecessors then retro_ranks over bytes (int32 off, succ and extra; int8 attacks,
 * target and excluded; extra and excluded empty for none). */
static PyObject *retro_py_ranks(PyObject *self, PyObject *args) {
    Py_buffer b[6];
    int levels, until;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*ii", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &levels, &until))
        return NULL;
    PyObject *out = NULL;
    int32_t *start = NULL, *pred = NULL, *open_count = NULL;
    Py_ssize_t n = b[3].len;
    const int32_t *off = b[0].buf, *succ = b[1].buf, *extra = b[2].len ? b[2].buf : NULL;
    int fits = n < INT32_MAX && b[0].len == 4 * (n + 1) && (b[2].len == 4 * n || b[2].len == 0) && b[4].len == n
               && (b[5].len == n || b[5].len == 0) && until < n && off[0] == 0;
    for (Py_ssize_t s = 0; fits && s < n; s++) fits = off[s + 1] >= off[s] && (!extra || extra[s] < n);
    fits = fits && b[1].len == 4 * (Py_ssize_t)off[n];
    for (Py_ssize_t k = 0; fits && k < (Py_ssize_t)off[n]; k++) fits = succ[k] >= 0 && succ[k] < n;
    if (!fits) {
        PyErr_SetString(PyExc_ValueError, "ranks: arrays of the wrong size, or a move out of range");
        goto done;
    }
    start = malloc(4 * ((size_t)n + 1));
    open_count = malloc(4 * ((size_t)n + 1));
    if (!start || !open_count || !retro_predecessors((int32_t)n, off, succ, extra, start, &pred, open_count)) {
        PyErr_NoMemory();
        goto done;
    }
    out = retro_py_result((int32_t)n, start, pred, b[3].buf, b[4].buf, open_count, b[5].len ? b[5].buf : NULL,
                          levels, until);
done:
    free(start); free(pred); free(open_count);
    for (int i = 0; i < 6; i++) PyBuffer_Release(&b[i]);
    return out;
}

/* ranked(start, pred, attacks, target, open_count, excluded, levels, until) -> (ranks as int32 bytes, levels
 * computed): retro_ranks over the predecessors retrograde.py's ranks reads (int32 start, pred and open_count;
 * int8 attacks, target and excluded; excluded empty for none). */
static PyObject *retro_py_ranked(PyObject *self, PyObject *args) {
    Py_buffer b[6];
    int levels, until;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*ii", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &levels, &until))
        return NULL;
    PyObject *out = NULL;
    Py_ssize_t n = b[2].len;
    const int32_t *start = b[0].buf, *pred = b[1].buf;
    int fits = n < INT32_MAX && b[0].len == 4 * (n + 1) && b[3].len == n && b[4].len == 4 * n
               && (b[5].len == n || b[5].len == 0) && until < n && start[0] == 0;
    for (Py_ssize_t s = 0; fits && s < n; s++) fits = start[s + 1] >= start[s];
    fits = fits && b[1].len == 4 * (Py_ssize_t)start[n];
    for (Py_ssize_t k = 0; fits && k < (Py_ssize_t)start[n]; k++) fits = pred[k] >= 0 && pred[k] < n;
    if (!fits) {
        PyErr_SetString(PyExc_ValueError, "ranked: arrays of the wrong size, or a move out of range");
        goto done;
    }
    out = retro_py_result((int32_t)n, start, pred, b[2].buf, b[3].buf, b[4].buf, b[5].len ? b[5].buf : NULL,
                          levels, until);
done:
    for (int i = 0; i < 6; i++) PyBuffer_Release(&b[i]);
    return out;
}

#define RETRO_METHOD {"ranks", retro_py_ranks, METH_VARARGS, \
    "ranks(off, succ, extra, attacks, target, excluded, levels, until) -> (ranks as int32 bytes, levels)."}, \
    {"ranked", retro_py_ranked, METH_VARARGS, \
    "ranked(start, pred, attacks, target, open_count, excluded, levels, until) -> (ranks as int32 bytes, levels)."}
#endif

#endif
