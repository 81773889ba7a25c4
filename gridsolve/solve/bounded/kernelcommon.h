/* What the C kernels (raceskernel.c, knowingkernel.c) share: the hash of their transposition
 * tables, the arrays copied in from Python bytes, and a search that runs without the GIL and
 * takes it every check_every positions to call back into Python (the limits; a raised exception
 * aborts the search).  pyproject.toml lists it under each kernel's depends (an edit builds them again). */
#ifndef GRIDSOLVE_KERNELCOMMON_H
#define GRIDSOLVE_KERNELCOMMON_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 30; x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27; x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* A copy of a bytes object's contents of exactly ``size`` bytes. */
static void *copy_bytes(PyObject *b, Py_ssize_t size, const char *what) {
    if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) != size) {
        PyErr_Format(PyExc_ValueError, "kernel: %s must be bytes of size %zd", what, size);
        return NULL;
    }
    void *out = malloc(size ? size : 1);
    if (!out) { PyErr_NoMemory(); return NULL; }
    memcpy(out, PyBytes_AS_STRING(b), size);
    return out;
}

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
