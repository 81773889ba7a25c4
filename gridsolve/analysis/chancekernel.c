/* The win probability of a player that picks its moves at random (gridsolve/analysis/metrics.py's
 * _player_win): a Markov decision process solved backwards over the plies, in C.
 *
 * It computes exactly what the numpy loop of metrics.py computes, in the same order, so that the
 * two give the same doubles: V_0 = 1 at a goal, else 0; then for each ply
 *   V_{k+1}(s) = 1                                   at a goal,
 *              = 0                                   where s has no move,
 *              = (sum of V_k(t) over s's moves) / moves   where the role is to move (the sum taken
 *                                                    in the moves' order, as numpy's bincount does),
 *              = min of V_k(t) over s's moves        where the others are to move;
 * stopping after `left` plies, or at the first ply where no value changes by more than `settled`
 * times its new value (settled = 0: where none changes at all).  Every position's value is
 * returned (a bytes object of n doubles), with the plies computed.
 *
 * player_win(n, sources, targets, mine_edge, goal, counts, left, settled) -> (bytes, plies)
 *   sources, targets: int64, the moves (out of positions where no end holds), grouped by nothing
 *   mine_edge: uint8, the move is the role's; goal: uint8 a position; counts: int64 a position
 * player_win_limit(...) is the limit of the plies without a step limit, by Gauss-Seidel sweeps (below;
 * its Python twin is metrics.py's limit_chances, the same doubles).
 * Loaded by gridsolve/native.py; built by pip install as an optional extension module.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int get(PyObject *obj, Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t count, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->itemsize != itemsize || view->len != itemsize * count) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items of %zd bytes expected", what, count, itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

/* The graph both functions read: n positions, m moves (sources, targets, mine_edge), goal and counts. */
typedef struct {
    Py_ssize_t n, m;
    Py_buffer src, dst, mine, goal, counts;
} Graph;

static void release(Graph *gr) {
    PyBuffer_Release(&gr->src); PyBuffer_Release(&gr->dst); PyBuffer_Release(&gr->mine);
    PyBuffer_Release(&gr->goal); PyBuffer_Release(&gr->counts);
}

/* Parse (n, sources, targets, mine_edge, goal, counts, steps, settled) into gr: 0, or -1 with an
 * exception set (nothing held). */
static int parse(PyObject *args, Graph *gr, long long *steps, double *settled) {
    PyObject *o_src, *o_dst, *o_mine, *o_goal, *o_counts;
    if (!PyArg_ParseTuple(args, "nOOOOOLd", &gr->n, &o_src, &o_dst, &o_mine, &o_goal, &o_counts, steps, settled))
        return -1;
    if (PyObject_GetBuffer(o_src, &gr->src, PyBUF_C_CONTIGUOUS) < 0) return -1;
    gr->m = gr->src.len / 8;
    if (gr->src.itemsize != 8) {
        PyBuffer_Release(&gr->src);
        PyErr_Format(PyExc_ValueError, "sources: int64");
        return -1;
    }
    if (get(o_dst, &gr->dst, 8, gr->m, "targets") < 0) { PyBuffer_Release(&gr->src); return -1; }
    if (get(o_mine, &gr->mine, 1, gr->m, "mine_edge") < 0) {
        PyBuffer_Release(&gr->src); PyBuffer_Release(&gr->dst); return -1;
    }
    if (get(o_goal, &gr->goal, 1, gr->n, "goal") < 0) {
        PyBuffer_Release(&gr->src); PyBuffer_Release(&gr->dst); PyBuffer_Release(&gr->mine); return -1;
    }
    if (get(o_counts, &gr->counts, 8, gr->n, "counts") < 0) {
        PyBuffer_Release(&gr->src); PyBuffer_Release(&gr->dst); PyBuffer_Release(&gr->mine);
        PyBuffer_Release(&gr->goal); return -1;
    }
    return 0;
}

/* The graph's sizes and arrays as locals: n, m; s, t (the moves), c (counts), me (mine_edge), g (goal). */
#define VIEW(gr)                                                                  \
    Py_ssize_t n = (gr).n, m = (gr).m;                                            \
    const int64_t *s = (gr).src.buf, *t = (gr).dst.buf, *c = (gr).counts.buf;    \
    const uint8_t *me = (gr).mine.buf, *g = (gr).goal.buf

static PyObject *player_win(PyObject *self, PyObject *args) {
    Graph gr;
    long long left;     /* plies at most */
    double settled;
    if (parse(args, &gr, &left, &settled) < 0) return NULL;
    /* (every ply from the values of the one before) */
    VIEW(gr);
    double *value = malloc(sizeof(double) * (n ? n : 1)), *next = malloc(sizeof(double) * (n ? n : 1));
    uint8_t *mover = calloc(n ? n : 1, 1);      /* the role moves at s (one of its moves is the role's) */
    long long plies = 0;
    if (!value || !next || !mover) {
        free(value); free(next); free(mover);
        release(&gr);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t e = 0; e < m; e++)
        if (me[e]) mover[s[e]] = 1;
    for (Py_ssize_t i = 0; i < n; i++) value[i] = g[i] ? 1.0 : 0.0;
    Py_BEGIN_ALLOW_THREADS
    for (; plies < left; ) {
        for (Py_ssize_t i = 0; i < n; i++) next[i] = mover[i] ? 0.0 : INFINITY;
        for (Py_ssize_t e = 0; e < m; e++) {
            double after = value[t[e]];
            if (me[e]) next[s[e]] += after;
            else if (after < next[s[e]]) next[s[e]] = after;
        }
        int settles = 1;
        for (Py_ssize_t i = 0; i < n; i++) {
            double v;
            if (g[i]) v = 1.0;
            else if (c[i] <= 0) v = 0.0;
            else v = mover[i] ? next[i] / (double)c[i] : next[i];
            if (!(fabs(v - value[i]) <= settled * v)) settles = 0;
            next[i] = v;
        }
        double *swap = value; value = next; next = swap;
        plies++;
        if (settles) break;
    }
    Py_END_ALLOW_THREADS
    PyObject *out = PyBytes_FromStringAndSize((const char *)value, sizeof(double) * n);
    free(value); free(next); free(mover);
    release(&gr);
    if (!out) return NULL;
    return Py_BuildValue("(NL)", out, plies);
}

/* The limit of the plies (no step limit) by Gauss-Seidel sweeps: every position's value in place,
 * the positions that reach a goal in the order a backward search from the goals finds them (the
 * nearer first, so that one sweep carries the goal's value a long way); the others keep 0, the
 * limit there (no move of theirs ever leads to a goal).  A position's moves onto itself are solved
 * for: where the role moves, v = (sum over its other moves) / (moves - moves onto itself), the
 * fixed point of v = (sum + loops * v) / moves (0 where every move stays); where the others move
 * and may stay, 0 (the least fixed point of v = min(v, ...) from 0: they stay forever).  Stopped
 * after the first sweep that changes no value by more than `settled` times its new value, or
 * after `sweeps` sweeps.
 *
 * player_win_limit(n, sources, targets, mine_edge, goal, counts, sweeps, settled) -> (bytes, sweeps)
 *   the arrays as player_win's; `counts`: the moves of each position (its moves' count in
 *   sources, the role's moves counted once each as they are listed). */
static PyObject *player_win_limit(PyObject *self, PyObject *args) {
    Graph gr;
    long long sweeps_most;
    double settled;
    if (parse(args, &gr, &sweeps_most, &settled) < 0) return NULL;
    VIEW(gr);
    size_t cells = n ? (size_t)n : 1, edges = m ? (size_t)m : 1;
    double *value = malloc(sizeof(double) * cells);
    int64_t *out_at = calloc(cells + 1, sizeof(int64_t)), *out_to = malloc(sizeof(int64_t) * edges);
    int64_t *in_at = calloc(cells + 1, sizeof(int64_t)), *in_from = malloc(sizeof(int64_t) * edges);
    int64_t *order = malloc(sizeof(int64_t) * cells), *fill = malloc(sizeof(int64_t) * cells);
    uint8_t *mover = calloc(cells, 1), *seen = calloc(cells, 1);
    long long sweeps = 0;
    PyObject *out = NULL;
    if (!value || !out_at || !out_to || !in_at || !in_from || !order || !fill || !mover || !seen) {
        PyErr_NoMemory();
        goto release;
    }
    /* the moves by source (in their order) and by target */
    for (Py_ssize_t e = 0; e < m; e++) {
        out_at[s[e] + 1]++;
        in_at[t[e] + 1]++;
        if (me[e]) mover[s[e]] = 1;
    }
    for (Py_ssize_t i = 0; i < n; i++) { out_at[i + 1] += out_at[i]; in_at[i + 1] += in_at[i]; }
    memcpy(fill, out_at, sizeof(int64_t) * n);
    for (Py_ssize_t e = 0; e < m; e++) out_to[fill[s[e]]++] = t[e];
    memcpy(fill, in_at, sizeof(int64_t) * n);
    for (Py_ssize_t e = 0; e < m; e++) in_from[fill[t[e]]++] = s[e];
    /* the positions that reach a goal, the nearer first (the goals themselves stay 1) */
    size_t found = 0, head = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        value[i] = g[i] ? 1.0 : 0.0;
        if (g[i]) { seen[i] = 1; order[found++] = i; }
    }
    while (head < found) {
        int64_t here = order[head++];
        for (int64_t k = in_at[here]; k < in_at[here + 1]; k++)
            if (!seen[in_from[k]]) { seen[in_from[k]] = 1; order[found++] = in_from[k]; }
    }
    Py_BEGIN_ALLOW_THREADS
    while (sweeps < sweeps_most) {
        int settles = 1;
        for (size_t k = 0; k < found; k++) {
            int64_t i = order[k];
            if (g[i]) continue;
            double v;
            if (c[i] <= 0) v = 0.0;
            else if (mover[i]) {
                double sum = 0.0;
                int64_t loops = 0;
                for (int64_t e = out_at[i]; e < out_at[i + 1]; e++) {
                    if (out_to[e] == i) loops++;
                    else sum += value[out_to[e]];
                }
                v = loops < c[i] ? sum / (double)(c[i] - loops) : 0.0;
            } else {
                v = INFINITY;
                for (int64_t e = out_at[i]; e < out_at[i + 1]; e++) {
                    double after = out_to[e] == i ? 0.0 : value[out_to[e]];
                    if (after < v) v = after;
                }
            }
            if (!(fabs(v - value[i]) <= settled * v)) settles = 0;
            value[i] = v;
        }
        sweeps++;
        if (settles) break;
    }
    Py_END_ALLOW_THREADS
    {
        PyObject *bytes = PyBytes_FromStringAndSize((const char *)value, sizeof(double) * n);
        if (bytes) out = Py_BuildValue("(NL)", bytes, sweeps);
    }
release:
    free(value); free(out_at); free(out_to); free(in_at); free(in_from); free(order); free(fill); free(mover);
    free(seen);
    release(&gr);
    return out;
}

static PyMethodDef methods[] = {
    {"player_win", player_win, METH_VARARGS, "The random player's win probability at every position."},
    {"player_win_limit", player_win_limit, METH_VARARGS,
     "The random player's win probability at every position without a step limit (Gauss-Seidel)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "chancekernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit_chancekernel(void) { return PyModule_Create(&module); }
