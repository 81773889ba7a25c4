/* The levels of a ground program's circuit evaluated in C: the twin of the numpy evaluation of
 * gridsolve/ground/circuit.py (Circuit.evaluate, which packs the arrays: Circuit.flat).
 * Optional: where this module is not built, numpy evaluates, with the same rows
 * (tests/test_ground_circuit.py compares the two on random stratified programs).
 *
 * Reads:
 *   per level its first rule (levels + 1 starts) and whether it recurs; per rule its head row
 *   and its first literal (rules + 1 starts); per literal its row and whether it is negated;
 *   ``out``: rows x words of uint64 (a bit a case), the true row, the facts and the inputs set.
 * Derives:
 *   every derived row of ``out``, in place: level after level, each rule's body the AND of its
 *   literals (a negated one XOR all ones) ORed into its head's row; a level that recurs is
 *   repeated until no row changes (the least fixpoint; its negated atoms are of lower levels).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>

static void run_levels(Py_ssize_t levels, const int64_t *level_start, const uint8_t *recursive,
                       const int64_t *head, const int64_t *rule_start, const int64_t *lit_row,
                       const uint8_t *lit_neg, uint64_t *out, Py_ssize_t words, uint64_t *acc) {
    for (Py_ssize_t level = 0; level < levels; level++) {
        int changed;
        do {
            changed = 0;
            for (int64_t r = level_start[level]; r < level_start[level + 1]; r++) {
                for (Py_ssize_t w = 0; w < words; w++) acc[w] = ~(uint64_t)0;
                for (int64_t k = rule_start[r]; k < rule_start[r + 1]; k++) {
                    const uint64_t *src = out + lit_row[k] * words;
                    const uint64_t flip = lit_neg[k] ? ~(uint64_t)0 : 0;
                    uint64_t any = 0;
                    for (Py_ssize_t w = 0; w < words; w++) any |= (acc[w] &= src[w] ^ flip);
                    if (!any) break;
                }
                uint64_t *dst = out + head[r] * words;
                for (Py_ssize_t w = 0; w < words; w++) {
                    const uint64_t merged = dst[w] | acc[w];
                    if (merged != dst[w]) {
                        dst[w] = merged;
                        changed = 1;
                    }
                }
            }
        } while (recursive[level] && changed);
    }
}

static PyObject *evaluate(PyObject *self, PyObject *args) {
    Py_buffer b[7];
    Py_ssize_t words;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*w*n", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5], &b[6], &words))
        return NULL;
    PyObject *result = NULL;
    Py_ssize_t levels = b[1].len, rules = b[2].len / 8, lits = b[4].len / 8;
    const int64_t *level_start = b[0].buf, *head = b[2].buf, *rule_start = b[3].buf, *lit_row = b[4].buf;
    uint64_t *out = b[6].buf;
    Py_ssize_t rows = words > 0 ? b[6].len / 8 / words : 0;
    int ok = words > 0 && b[0].len == 8 * (levels + 1) && b[3].len == 8 * (rules + 1) && b[5].len == lits &&
             b[6].len == 8 * rows * words && level_start[levels] == rules && ((const int64_t *)b[3].buf)[rules] == lits;
    for (Py_ssize_t r = 0; ok && r < rules; r++) ok = head[r] >= 0 && head[r] < rows;
    for (Py_ssize_t k = 0; ok && k < lits; k++) ok = lit_row[k] >= 0 && lit_row[k] < rows;
    for (Py_ssize_t l = 0; ok && l < levels; l++) ok = level_start[l] <= level_start[l + 1];
    for (Py_ssize_t r = 0; ok && r < rules; r++) ok = rule_start[r] <= rule_start[r + 1];
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "circuitkernel: buffers of the wrong length or rows out of range");
        goto release;
    }
    uint64_t *acc = malloc(words * sizeof(uint64_t));
    if (!acc) {
        PyErr_NoMemory();
        goto release;
    }
    Py_BEGIN_ALLOW_THREADS
    run_levels(levels, level_start, b[1].buf, head, rule_start, lit_row, b[5].buf, out, words, acc);
    Py_END_ALLOW_THREADS
    free(acc);
    result = Py_None;
    Py_INCREF(result);
release:
    for (int i = 0; i < 7; i++) PyBuffer_Release(&b[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"evaluate", evaluate, METH_VARARGS,
     "evaluate(level_start, recursive, rule_head, rule_start, lit_row, lit_neg, out, words): every derived row "
     "of out (rows x words uint64) in place"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "circuitkernel",
                                    "A ground program's circuit evaluated in C.", -1, methods};

PyMODINIT_FUNC PyInit_circuitkernel(void) { return PyModule_Create(&module); }
