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
#include <string.h>

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

/* - Exploring: the states reachable through the circuit, breadth-first ---
 *
 * A state is a set of fluents (a bit each); the circuit with a state's fluents as its ``true``
 * input rows gives its ``terminal`` row, each role's goal rows and legal rows; with a state and a
 * joint move (one legal move a role, as ``does`` input rows) its ``next`` rows: the state after
 * it.  From the root, state by state in the order found (each layer's states in batches of up to
 * 64 x words cases): each state's terminal, goal (the highest value whose row holds, -1 none)
 * and legal moves read; each state not terminal, and within ``depth`` layers, expanded into
 * every joint move (role 0's move the slowest), evaluated in batches; a state reached is looked
 * up by its packed fluents (np.packbits' order) in an open-addressing table and numbered when new.
 * So the states, their numbers and the moves come in the order of the numpy exploration
 * (gridsolve/gdl/engine.py), which tests/test_gdl_engine.py checks. */

typedef struct {
    uint8_t *data;
    size_t len, cap;        /* bytes */
} Bytes;

static int grow(Bytes *b, size_t more) {
    if (b->len + more <= b->cap) return 1;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + more) cap *= 2;
    uint8_t *data = realloc(b->data, cap);
    if (!data) return 0;
    b->data = data;
    b->cap = cap;
    return 1;
}

static int put(Bytes *b, const void *src, size_t n) {
    if (!grow(b, n)) return 0;
    memcpy(b->data + b->len, src, n);
    b->len += n;
    return 1;
}

typedef struct {
    int64_t *slots;         /* state numbers, -1 empty */
    size_t cap;
} Table;

/* A state's key hashed eight bytes at a time (the tail byte by byte). */
static uint64_t hash_key(const uint8_t *key, size_t n) {
    uint64_t h = 1469598103934665603ULL;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t word;
        memcpy(&word, key + i, 8);
        h = (h ^ word) * 0x9E3779B97F4A7C15ULL;
        h ^= h >> 32;
    }
    for (; i < n; i++) h = (h ^ key[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

/* The number of state ``key`` (count: the states so far; a new one is appended to ``keys``). */
static int64_t find_or_add(Table *t, Bytes *keys, size_t width, const uint8_t *key, int64_t *count) {
    if ((size_t)(*count + 1) * 2 > t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 1024;
        int64_t *slots = malloc(cap * sizeof(int64_t));
        if (!slots) return -2;
        for (size_t i = 0; i < cap; i++) slots[i] = -1;
        for (int64_t s = 0; s < *count; s++) {
            size_t i = hash_key(keys->data + s * width, width) & (cap - 1);
            while (slots[i] >= 0) i = (i + 1) & (cap - 1);
            slots[i] = s;
        }
        free(t->slots);
        t->slots = slots;
        t->cap = cap;
    }
    size_t i = hash_key(key, width) & (t->cap - 1);
    while (t->slots[i] >= 0) {
        if (!memcmp(keys->data + t->slots[i] * width, key, width)) return t->slots[i];
        i = (i + 1) & (t->cap - 1);
    }
    if (!put(keys, key, width)) return -2;
    t->slots[i] = *count;
    return (*count)++;
}

typedef struct {
    Py_ssize_t levels, size, words, fluents, roles, width, facts;
    const int64_t *level_start, *head, *rule_start, *lit_row, *fact_rows, *true_rows, *next_rows;
    const uint8_t *recursive, *lit_neg;
    const int64_t *move_start, *does_rows, *legal_rows, *goal_start, *goal_rows, *goal_values, *weights;
    int64_t terminal_row;
    uint64_t *out, *acc;
} Machine;

static void clear_rows(Machine *m) {
    memset(m->out, 0, m->size * m->words * sizeof(uint64_t));
    for (Py_ssize_t w = 0; w < m->words; w++) m->out[w] = ~(uint64_t)0;     /* row 0: true */
    for (Py_ssize_t k = 0; k < m->facts; k++)
        for (Py_ssize_t w = 0; w < m->words; w++) m->out[m->fact_rows[k] * m->words + w] = ~(uint64_t)0;
}

static inline void set_bit(Machine *m, int64_t row, Py_ssize_t c) {
    if (row >= 0) m->out[row * m->words + (c >> 6)] |= (uint64_t)1 << (c & 63);
}

static inline int get_bit(const Machine *m, int64_t row, Py_ssize_t c) {
    return row >= 0 && (m->out[row * m->words + (c >> 6)] >> (c & 63)) & 1;
}

/* State ``key``'s fluents set as case ``c``'s true rows: its set bits only (a state holds few of
 * the fluents; eight zero bytes skipped at once). */
static void set_state(Machine *m, const uint8_t *key, Py_ssize_t c) {
    Py_ssize_t i = 0;
    while (i < m->width) {
        if (i + 8 <= m->width) {
            uint64_t word;
            memcpy(&word, key + i, 8);
            if (!word) {
                i += 8;
                continue;
            }
        }
        for (unsigned byte = key[i]; byte; byte &= byte - 1)
            set_bit(m, m->true_rows[i * 8 + 7 - __builtin_ctz(byte)], c);
        i++;
    }
}

/* The rows ``rows`` (``count`` of them) of the first ``n`` cases as bits of ``dst``: case p's bit
 * k at byte p * stride + (k >> 3), packbits' order (``bytes``: 1 a bit as one byte at p * stride + k
 * instead); a row at a time, its set bits only (dst cleared by the caller). */
static void read_rows(const Machine *m, const int64_t *rows, Py_ssize_t count, size_t n, uint8_t *dst,
                      size_t stride, int bytes) {
    const Py_ssize_t words = (Py_ssize_t)((n + 63) / 64);
    for (Py_ssize_t k = 0; k < count; k++) {
        if (rows[k] < 0) continue;
        const uint64_t *row = m->out + rows[k] * m->words;
        for (Py_ssize_t w = 0; w < words; w++) {
            uint64_t x = row[w];
            if (w == words - 1 && (n & 63)) x &= ((uint64_t)1 << (n & 63)) - 1;
            for (; x; x &= x - 1) {
                size_t p = (size_t)w * 64 + (size_t)__builtin_ctzll(x);
                if (bytes) dst[p * stride + k] = 1;
                else dst[p * stride + (k >> 3)] |= (uint8_t)(0x80 >> (k & 7));
            }
        }
    }
}

/* The next states of the (state, joint move) pairs in ``pairs`` (at most 64 x words), each
 * numbered (a new one added) and its move appended to src, dst and code; 0 where out of memory
 * (``next``: room for 64 x words keys). */
/* Move ``k``'s bit of a state's legal moves (packed bits, np.packbits' order). */
#define LEGAL_AT(mine, k) (((mine)[(k) >> 3] >> (7 - ((k) & 7))) & 1)

static int next_batch(Machine *m, Bytes *pairs, Bytes *keys, Table *table, int64_t *count, Bytes *src, Bytes *dst,
                      Bytes *code, uint8_t *next) {
    size_t stride = (m->roles + 1) * 8, n = pairs->len / stride;
    clear_rows(m);
    for (size_t p = 0; p < n; p++) {
        const int64_t *pair = (const int64_t *)(pairs->data + p * stride);
        set_state(m, keys->data + pair[0] * m->width, p);
        for (Py_ssize_t r = 0; r < m->roles; r++) set_bit(m, m->does_rows[pair[1 + r]], p);
    }
    run_levels(m->levels, m->level_start, m->recursive, m->head, m->rule_start, m->lit_row, m->lit_neg, m->out, m->words,
               m->acc);
    memset(next, 0, n * m->width);
    read_rows(m, m->next_rows, m->fluents, n, next, m->width, 0);
    for (size_t p = 0; p < n; p++) {
        const int64_t *pair = (const int64_t *)(pairs->data + p * stride);
        int64_t to = find_or_add(table, keys, m->width, next + p * m->width, count), joint = 0;
        for (Py_ssize_t r = 0; r < m->roles; r++) joint += (pair[1 + r] - m->move_start[r]) * m->weights[r];
        if (to < 0 || !put(src, pair, 8) || !put(dst, &to, 8) || !put(code, &joint, 8)) return 0;
    }
    return 1;
}

static PyObject *explore(PyObject *self, PyObject *args) {
    enum { NB = 18 };
    Py_buffer b[NB];
    Machine m = {0};
    Py_ssize_t depth, check_every;
    PyObject *check;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*nLnnO", &b[0], &b[1], &b[2], &b[3], &b[4],
                          &b[5], &b[6], &b[7], &b[8], &b[9], &b[10], &b[11], &b[12], &b[13], &b[14], &b[15], &b[16],
                          &b[17], &m.words, &m.terminal_row, &depth, &check_every, &check))
        return NULL;
    /* level_start, recursive, rule_head, rule_start, lit_row, lit_neg (Circuit.flat); fact_rows; true_rows,
     * next_rows (a fluent each); move_start (roles + 1), does_rows, legal_rows (a move each); goal_start
     * (roles + 1), goal_rows, goal_values (ascending a role); weights (a role: its move's weight in the
     * joint move's code); root (packed fluents); size (one int64: the circuit's rows) */
    PyObject *result = NULL;
    m.levels = b[1].len;
    m.level_start = b[0].buf, m.recursive = b[1].buf, m.head = b[2].buf, m.rule_start = b[3].buf;
    m.lit_row = b[4].buf, m.lit_neg = b[5].buf, m.fact_rows = b[6].buf, m.facts = b[6].len / 8;
    m.true_rows = b[7].buf, m.next_rows = b[8].buf, m.fluents = b[7].len / 8;
    m.move_start = b[9].buf, m.roles = b[9].len / 8 - 1, m.does_rows = b[10].buf, m.legal_rows = b[11].buf;
    m.goal_start = b[12].buf, m.goal_rows = b[13].buf, m.goal_values = b[14].buf, m.weights = b[15].buf;
    const uint8_t *root = b[16].buf;
    m.size = b[17].len == 8 ? ((const int64_t *)b[17].buf)[0] : 0;
    m.width = (m.fluents + 7) / 8;
    Py_ssize_t moves = m.roles >= 0 ? m.move_start[m.roles] : 0, cases = 64 * m.words;
    const size_t legal_width = (size_t)(moves + 7) / 8;     /* a state's legal moves: a bit each */
    int ok = m.words > 0 && m.roles > 0 && m.size > 0 && b[8].len == b[7].len && b[16].len == m.width &&
             b[10].len == 8 * moves && b[11].len == 8 * moves && b[12].len == b[9].len && b[15].len == 8 * m.roles &&
             b[14].len == b[13].len && m.terminal_row < m.size;
    for (Py_ssize_t f = 0; ok && f < m.fluents; f++) ok = m.true_rows[f] < m.size && m.next_rows[f] < m.size;
    for (Py_ssize_t k = 0; ok && k < moves; k++) ok = m.does_rows[k] < m.size && m.legal_rows[k] < m.size;
    for (Py_ssize_t k = 0; ok && k < b[13].len / 8; k++) ok = m.goal_rows[k] >= 0 && m.goal_rows[k] < m.size;
    for (Py_ssize_t k = 0; ok && k < m.facts; k++) ok = m.fact_rows[k] >= 0 && m.fact_rows[k] < m.size;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "circuitkernel.explore: buffers of the wrong length or rows out of range");
        for (int i = 0; i < NB; i++) PyBuffer_Release(&b[i]);
        return NULL;
    }
    Bytes keys = {0}, terminal = {0}, goal = {0}, legal = {0}, src = {0}, dst = {0}, code = {0}, pairs = {0};
    Table table = {0};
    int64_t count = 0, head = 0, layer = 0, layer_end = 1, last_check = 0;
    uint8_t *key = malloc(m.width + 1), *next = malloc((size_t)cases * m.width + 1);
    int64_t *chosen = malloc((m.roles + 1) * sizeof(int64_t));
    m.out = malloc(m.size * m.words * sizeof(uint64_t));
    m.acc = malloc(m.words * sizeof(uint64_t));
    int failed = !(key && next && chosen && m.out && m.acc);
    if (!failed) failed = find_or_add(&table, &keys, m.width, root, &count) < 0;
    while (!failed && head < count) {
        if (head == layer_end) layer++, layer_end = count;
        if (check != Py_None && count - last_check >= check_every) {
            last_check = count;
            PyObject *held = PyLong_FromSize_t(keys.cap + table.cap * 8 + terminal.cap + goal.cap + legal.cap +
                                               src.cap + dst.cap + code.cap);
            PyObject *back = held ? PyObject_CallFunction(check, "LO", (long long)count, held) : NULL;
            Py_XDECREF(held);
            if (!back) goto done;
            Py_DECREF(back);
        }
        int64_t lo = head, hi = head + cases < layer_end ? head + cases : layer_end;
        int expand = depth < 0 || layer < depth;
        /* The states' terminal, goals and legal moves. */
        clear_rows(&m);
        for (int64_t s = lo; s < hi; s++) set_state(&m, keys.data + s * m.width, s - lo);
        run_levels(m.levels, m.level_start, m.recursive, m.head, m.rule_start, m.lit_row, m.lit_neg, m.out, m.words, m.acc);
        for (int64_t s = lo; s < hi && !failed; s++) {
            Py_ssize_t c = s - lo;
            uint8_t ends = (uint8_t)get_bit(&m, m.terminal_row, c);
            failed |= !put(&terminal, &ends, 1);
            for (Py_ssize_t r = 0; r < m.roles; r++) {
                int32_t value = -1;
                for (int64_t k = m.goal_start[r]; k < m.goal_start[r + 1]; k++)
                    if (get_bit(&m, m.goal_rows[k], c)) value = (int32_t)m.goal_values[k];
                failed |= !put(&goal, &value, 4);
            }
        }
        failed |= !grow(&legal, (size_t)(hi - lo) * legal_width);
        if (!failed) {
            memset(legal.data + legal.len, 0, (size_t)(hi - lo) * legal_width);
            read_rows(&m, m.legal_rows, moves, (size_t)(hi - lo), legal.data + legal.len, legal_width, 0);
            legal.len += (size_t)(hi - lo) * legal_width;
        }
        /* Every joint move of each state (its legal moves' combinations, role 0's the slowest) and
         * its next state, a batch of cases at a time: the limits checked after each batch. */
        size_t stride = (m.roles + 1) * 8;
        pairs.len = 0;
        for (int64_t s = lo; s <= hi && !failed; s++) {
            if (s < hi && expand && !terminal.data[s]) {
                const uint8_t *mine = legal.data + s * legal_width;
                int empty = 0;
                for (Py_ssize_t r = 0; r < m.roles && !empty; r++) {
                    chosen[r] = m.move_start[r];
                    while (chosen[r] < m.move_start[r + 1] && !LEGAL_AT(mine, chosen[r])) chosen[r]++;
                    empty = chosen[r] == m.move_start[r + 1];
                }
                while (!empty && !failed) {
                    failed |= !put(&pairs, &s, 8) || !put(&pairs, chosen, m.roles * 8);
                    Py_ssize_t r = m.roles - 1;
                    for (; r >= 0; r--) {
                        do chosen[r]++; while (chosen[r] < m.move_start[r + 1] && !LEGAL_AT(mine, chosen[r]));
                        if (chosen[r] < m.move_start[r + 1]) break;
                        chosen[r] = m.move_start[r];
                        while (!LEGAL_AT(mine, chosen[r])) chosen[r]++;
                    }
                    empty = r < 0;
                    if (pairs.len / stride == (size_t)cases && !(failed = !next_batch(&m, &pairs, &keys, &table,
                                                                                     &count, &src, &dst, &code, next))) {
                        pairs.len = 0;
                        if (check != Py_None) {
                            PyObject *held = PyLong_FromSize_t(keys.cap + table.cap * 8 + terminal.cap + goal.cap +
                                                               legal.cap + src.cap + dst.cap + code.cap + pairs.cap);
                            PyObject *back = held ? PyObject_CallFunction(check, "LO", (long long)count, held) : NULL;
                            Py_XDECREF(held);
                            if (!back) goto done;
                            Py_DECREF(back);
                        }
                    }
                }
            }
            if (s == hi && pairs.len && !failed) failed = !next_batch(&m, &pairs, &keys, &table, &count, &src, &dst, &code, next);
        }
        head = hi;
    }
    if (failed) {
        PyErr_NoMemory();
        goto done;
    }
    /* Each part copied into its bytes and freed before the next (the peak: the parts and the largest once more). */
    free(table.slots), table.slots = NULL;
    Bytes *parts[7] = {&keys, &terminal, &goal, &legal, &src, &dst, &code};
    result = PyTuple_New(7);
    for (int i = 0; result && i < 7; i++) {
        PyObject *part = PyBytes_FromStringAndSize((char *)parts[i]->data, (Py_ssize_t)parts[i]->len);
        free(parts[i]->data), parts[i]->data = NULL;
        if (!part) Py_CLEAR(result);
        else PyTuple_SET_ITEM(result, i, part);
    }
done:
    free(keys.data), free(terminal.data), free(goal.data), free(legal.data), free(src.data), free(dst.data);
    free(code.data), free(pairs.data), free(table.slots), free(key), free(next), free(chosen);
    free(m.out), free(m.acc);
    for (int i = 0; i < NB; i++) PyBuffer_Release(&b[i]);
    return result;
}

#include "circuitdepth.h"

static PyMethodDef methods[] = {
    {"evaluate", evaluate, METH_VARARGS,
     "evaluate(level_start, recursive, rule_head, rule_start, lit_row, lit_neg, out, words): every derived row "
     "of out (rows x words uint64) in place"},
    {"explore", explore, METH_VARARGS,
     "explore(level_start, recursive, rule_head, rule_start, lit_row, lit_neg, fact_rows, true_rows, next_rows, "
     "move_start, does_rows, legal_rows, goal_start, goal_rows, goal_values, weights, root, size, words, "
     "terminal_row, depth, check_every, check) -> (packed states, terminal, goal, legal, src, dst, joint codes)"},
    {"search_open", search_open, METH_VARARGS,
     "search_open(the buffers of explore, terminal_row, role) -> a search from the root, its states kept over "
     "its runs (circuitdepth.h)"},
    {"search_run", search_run, METH_VARARGS,
     "search_run(search, own_attacks, others_attack, low, high, horizon, deepest, check_every, check[, own_move]) "
     "-> (plies, line steps, line keys, states, expanded, visits): a target forced within the horizon, "
     "depth-first, from the root or after the role's move own_move there"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "circuitkernel",
                                    "A ground program's circuit evaluated in C.", -1, methods};

PyMODINIT_FUNC PyInit_circuitkernel(void) { return PyModule_Create(&module); }
