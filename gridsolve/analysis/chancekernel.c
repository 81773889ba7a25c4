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

static PyObject *player_win(PyObject *self, PyObject *args) {
    Py_ssize_t n, m;
    PyObject *o_src, *o_dst, *o_mine, *o_goal, *o_counts;
    long long left;
    double settled;
    if (!PyArg_ParseTuple(args, "nOOOOOLd", &n, &o_src, &o_dst, &o_mine, &o_goal, &o_counts, &left, &settled))
        return NULL;
    Py_buffer src, dst, mine, goal, counts;
    if (PyObject_GetBuffer(o_src, &src, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    m = src.len / 8;
    if (src.itemsize != 8) { PyBuffer_Release(&src); return PyErr_Format(PyExc_ValueError, "sources: int64"); }
    if (get(o_dst, &dst, 8, m, "targets") < 0) { PyBuffer_Release(&src); return NULL; }
    if (get(o_mine, &mine, 1, m, "mine_edge") < 0) { PyBuffer_Release(&src); PyBuffer_Release(&dst); return NULL; }
    if (get(o_goal, &goal, 1, n, "goal") < 0) {
        PyBuffer_Release(&src); PyBuffer_Release(&dst); PyBuffer_Release(&mine); return NULL;
    }
    if (get(o_counts, &counts, 8, n, "counts") < 0) {
        PyBuffer_Release(&src); PyBuffer_Release(&dst); PyBuffer_Release(&mine); PyBuffer_Release(&goal); return NULL;
    }
    const int64_t *s = src.buf, *t = dst.buf, *c = counts.buf;
    const uint8_t *me = mine.buf, *g = goal.buf;
    double *value = malloc(sizeof(double) * (n ? n : 1)), *next = malloc(sizeof(double) * (n ? n : 1));
    uint8_t *mover = calloc(n ? n : 1, 1);      /* the role moves at s (one of its moves is the role's) */
    long long plies = 0;
    if (!value || !next || !mover) {
        free(value); free(next); free(mover);
        PyBuffer_Release(&src); PyBuffer_Release(&dst); PyBuffer_Release(&mine); PyBuffer_Release(&goal);
        PyBuffer_Release(&counts);
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
    PyBuffer_Release(&src); PyBuffer_Release(&dst); PyBuffer_Release(&mine); PyBuffer_Release(&goal);
    PyBuffer_Release(&counts);
    if (!out) return NULL;
    return Py_BuildValue("(NL)", out, plies);
}

static PyMethodDef methods[] = {
    {"player_win", player_win, METH_VARARGS, "The random player's win probability at every position."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "chancekernel", NULL, -1, methods};

PyMODINIT_FUNC PyInit_chancekernel(void) { return PyModule_Create(&module); }
