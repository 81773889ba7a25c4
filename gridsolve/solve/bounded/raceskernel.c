/* The bounded solver's threshold races in C: gridsolve/solve/bounded/search.py's BoundedSearch.forces,
 * the same search in the same order with the same bounds, on arrays (gridsolve/solve/bounded/kernel.py
 * builds them from a BoundedSearch and compiles this file once per Python ABI, gridsolve/solve/bounded/native.py).
 *
 * Reads, per abstract position s (bisimulation representatives only are searched):
 *   turn[s] (the turns entry to move), team[s] (whether the role's team moves), stop[s] (an end
 *   holds or no move is left), end_kind[s] / out_kind[s] (the score kind at the end that holds,
 *   -1 none; at the step limit), doom[s], team_stops[s], others_stop[s] (retrograde ranks),
 *   and three move lists as (successor representative, items taken): merged (the others' race),
 *   longest (search_order(s, True): the team's attack, item-taking moves first) and shortest
 *   (search_order(s, False)).
 * Per (items left count, turn, plies): the lowest and highest score of a stop within the plies.
 * Per (score kind, items taken): the role's score.
 * Derives: forces(race, s, items, plies_left, within), with one transposition table per race
 * keyed (s, items, within == plies_left) -> (most plies known not to force + 1, fewest known to
 * force), as the Python tables are.  The search runs without the GIL; every check_every
 * positions it takes the GIL and calls back into Python (the limits; a raised exception aborts
 * the search and nothing more is stored).  One search at a time per kernel: another thread's
 * call while one runs is refused (RuntimeError), never interleaved.
 */
#include "kernelcommon.h"

#ifdef _MSC_VER                     /* MSVC (Windows wheels) has no __builtin_popcountll */
#include <intrin.h>
#define popcount64(x) ((int)__popcnt64(x))
#else
#define popcount64(x) __builtin_popcountll(x)
#endif

#define NONE_WON 0xFF

typedef struct {
    uint64_t *keys;     /* key + 1; 0 = empty */
    uint8_t *lost1;     /* most plies known not to force + 1 (0: none) */
    uint8_t *won;       /* fewest plies known to force (NONE_WON: none) */
    size_t cap, count;
} Table;

typedef struct {
    int up;
    long threshold;
    Table table;
} Race;

typedef struct {
    int32_t n, total, turns, max_plies, kinds, item_bits;
    int8_t *turn, *team, *stop;
    int16_t *end_kind, *out_kind;
    int32_t *doom, *team_stops, *others_stop;
    int32_t *off[3];        /* offsets into the lists, n + 1 each */
    int32_t *succ[3];
    uint64_t *taken[3];
    int32_t *low, *high;    /* [left][turn][plies] */
    int32_t *score;         /* [kind][taken] */
    Race *races;
    int32_t nraces;
    Searching g;
} Kernel;

/* - Transposition tables ------------------------------------------------------------------- */

static int table_grow(Table *t) {
    size_t cap = t->cap ? t->cap * 2 : 1024;
    uint64_t *keys = calloc(cap, sizeof(uint64_t));
    uint8_t *lost1 = malloc(cap), *won = malloc(cap);
    if (!keys || !lost1 || !won) { free(keys); free(lost1); free(won); return -1; }
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->keys[i]) continue;
        size_t j = mix(t->keys[i]) & (cap - 1);
        while (keys[j]) j = (j + 1) & (cap - 1);
        keys[j] = t->keys[i]; lost1[j] = t->lost1[i]; won[j] = t->won[i];
    }
    free(t->keys); free(t->lost1); free(t->won);
    t->keys = keys; t->lost1 = lost1; t->won = won; t->cap = cap;
    return 0;
}

/* The slot of key (key + 1 stored), inserted empty if absent; SIZE_MAX when out of memory. */
static size_t table_slot(Table *t, uint64_t key) {
    if ((t->count + 1) * 10 > t->cap * 6 && table_grow(t) < 0) return SIZE_MAX;
    uint64_t stored = key + 1;
    size_t j = mix(stored) & (t->cap - 1);
    while (t->keys[j]) {
        if (t->keys[j] == stored) return j;
        j = (j + 1) & (t->cap - 1);
    }
    t->keys[j] = stored; t->lost1[j] = 0; t->won[j] = NONE_WON; t->count++;
    return j;
}

static void table_free(Table *t) {
    free(t->keys); free(t->lost1); free(t->won);
    memset(t, 0, sizeof(*t));
}

/* - Races --------------------------------------------------------------------------------- */
static inline int goal(const Race *r, long score) { return r->up ? score >= r->threshold : score < r->threshold; }

static inline int taken_of(const Kernel *k, uint64_t items) { return k->total - popcount64(items); }

static long stop_score(const Kernel *k, int32_t s, uint64_t items) {
    int kind = k->end_kind[s] >= 0 ? k->end_kind[s] : k->out_kind[s];
    return k->score[kind * (k->total + 1) + taken_of(k, items)];
}

static inline int32_t span_index(const Kernel *k, int left, int turn, int plies) {
    return (left * k->turns + turn) * (k->max_plies + 1) + plies;
}

/* The race's answer where the bounds decide it: 0 or 1, else -1 (BoundedSearch._bound). */
static int bound(const Kernel *k, const Race *r, int32_t s, uint64_t items, int plies_left, int within) {
    if (within < plies_left && (r->up ? k->team_stops : k->others_stop)[s] > within) return 0;
    int left = popcount64(items), turn = k->turn[s];
    if (r->up) {
        int doom = k->doom[s];
        if (k->high[span_index(k, left, turn, within < doom ? within : doom)] < r->threshold) return 0;
        if (k->low[span_index(k, left, turn, within)] >= r->threshold)
            return 1;      /* a stop in time is forced: the first test above */
        return -1;
    }
    int32_t i = span_index(k, left, turn, within);
    if (k->low[i] >= r->threshold) return 0;
    if (k->high[i] < r->threshold) return 1;
    return -1;
}

static int forces(Kernel *k, Race *r, int32_t s, uint64_t items, int plies_left, int within);

static int search(Kernel *k, Race *r, int32_t s, uint64_t items, int plies_left, int within) {
    if (searching_tick(&k->g) < 0) return 0;
    int decided = bound(k, r, s, items, plies_left, within);
    if (decided >= 0) return decided;
    int attacking = k->team[s] == r->up;
    int list = !r->up ? 0 : attacking ? 1 : 2;
    const int32_t *succ = k->succ[list];
    const uint64_t *taken = k->taken[list];
    int32_t a = k->off[list][s], b = k->off[list][s + 1];
    if (list == 1) {                  /* the team's attack: moves that take an item first */
        for (int pass = 0; pass < 2; pass++)
            for (int32_t i = a; i < b; i++) {
                if (((items & taken[i]) != 0) != (pass == 0)) continue;
                int got = forces(k, r, succ[i], items & ~taken[i], plies_left - 1, within - 1);
                if (k->g.aborted) return 0;
                if (got == attacking) return attacking;
            }
        return !attacking;
    }
    for (int32_t i = a; i < b; i++) {
        int got = forces(k, r, succ[i], items & ~taken[i], plies_left - 1, within - 1);
        if (k->g.aborted) return 0;
        if (got == attacking) return attacking;
    }
    return !attacking;
}

static int forces(Kernel *k, Race *r, int32_t s, uint64_t items, int plies_left, int within) {
    if (plies_left == 0 || k->stop[s]) return goal(r, stop_score(k, s, items));
    if (within == 0) return 0;
    uint64_t key = ((((uint64_t)s << k->item_bits) | items) << 1) | (uint64_t)(within == plies_left);
    size_t j = table_slot(&r->table, key);
    if (j == SIZE_MAX) { k->g.aborted = 2; return 0; }     /* no GIL here: reported by py_forces */
    int lost_up_to = (int)r->table.lost1[j] - 1, won_from = r->table.won[j];
    if (within <= lost_up_to) return 0;
    if (within >= won_from) return 1;
    int result = search(k, r, s, items, plies_left, within);
    if (k->g.aborted) return 0;
    j = table_slot(&r->table, key);            /* the table may have grown below */
    if (j == SIZE_MAX) { k->g.aborted = 2; return 0; }     /* no GIL here: reported by py_forces */
    if (result) { if (within < r->table.won[j]) r->table.won[j] = (uint8_t)within; }
    else if (within + 1 > r->table.lost1[j]) r->table.lost1[j] = (uint8_t)(within + 1);
    return result;
}

/* - Python interface ------------------------------------------------------------------------ */
static void kernel_free(Kernel *k) {
    if (!k) return;
    void *arrays[] = {k->turn, k->team, k->stop, k->end_kind, k->out_kind, k->doom, k->team_stops,
                      k->others_stop, k->low, k->high, k->score};
    for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) free(arrays[i]);
    for (int l = 0; l < 3; l++) { free(k->off[l]); free(k->succ[l]); free(k->taken[l]); }
    for (int i = 0; i < k->nraces; i++) table_free(&k->races[i].table);
    free(k->races);
    free(k);
}

static void capsule_free(PyObject *capsule) { kernel_free(PyCapsule_GetPointer(capsule, "raceskernel")); }


static PyObject *py_new(PyObject *self, PyObject *args) {
    int n, total, turns, max_plies, kinds, item_bits;
    PyObject *turn, *team, *stop, *end_kind, *out_kind, *doom, *team_stops, *others_stop, *low, *high, *score, *lists;
    if (!PyArg_ParseTuple(args, "iiiiiiOOOOOOOOOOOO", &n, &total, &turns, &max_plies, &kinds, &item_bits,
                          &turn, &team, &stop, &end_kind, &out_kind, &doom, &team_stops, &others_stop,
                          &low, &high, &score, &lists))
        return NULL;
    Kernel *k = calloc(1, sizeof(Kernel));
    if (!k) return PyErr_NoMemory();
    k->n = n; k->total = total; k->turns = turns; k->max_plies = max_plies; k->kinds = kinds; k->item_bits = item_bits;
    Py_ssize_t spans = (Py_ssize_t)(total + 1) * turns * (max_plies + 1);
    if (!(k->turn = copy_bytes(turn, n, "turn")) || !(k->team = copy_bytes(team, n, "team"))
        || !(k->stop = copy_bytes(stop, n, "stop")) || !(k->end_kind = copy_bytes(end_kind, 2 * n, "end_kind"))
        || !(k->out_kind = copy_bytes(out_kind, 2 * n, "out_kind")) || !(k->doom = copy_bytes(doom, 4 * n, "doom"))
        || !(k->team_stops = copy_bytes(team_stops, 4 * n, "team_stops"))
        || !(k->others_stop = copy_bytes(others_stop, 4 * n, "others_stop"))
        || !(k->low = copy_bytes(low, 4 * spans, "low")) || !(k->high = copy_bytes(high, 4 * spans, "high"))
        || !(k->score = copy_bytes(score, 4 * (Py_ssize_t)kinds * (total + 1), "score")))
        goto fail;
    if (!PyTuple_Check(lists) || PyTuple_GET_SIZE(lists) != 9) {
        PyErr_SetString(PyExc_ValueError, "raceskernel: lists must be 9 bytes objects (offsets, successors, taken) x 3");
        goto fail;
    }
    for (int l = 0; l < 3; l++) {
        if (!(k->off[l] = copy_bytes(PyTuple_GET_ITEM(lists, 3 * l), 4 * ((Py_ssize_t)n + 1), "offsets"))) goto fail;
        Py_ssize_t m = k->off[l][n];
        if (!(k->succ[l] = copy_bytes(PyTuple_GET_ITEM(lists, 3 * l + 1), 4 * m, "successors"))
            || !(k->taken[l] = copy_bytes(PyTuple_GET_ITEM(lists, 3 * l + 2), 8 * m, "taken")))
            goto fail;
    }
    PyObject *capsule = PyCapsule_New(k, "raceskernel", capsule_free);
    if (!capsule) goto fail;
    return capsule;
fail:
    kernel_free(k);
    return NULL;
}

static Kernel *kernel_of(PyObject *capsule) { return PyCapsule_GetPointer(capsule, "raceskernel"); }

static PyObject *py_race(PyObject *self, PyObject *args) {
    PyObject *capsule; int up; long threshold;
    if (!PyArg_ParseTuple(args, "Opl", &capsule, &up, &threshold)) return NULL;
    Kernel *k = kernel_of(capsule);
    if (!k) return NULL;
    if (searching_idle(&k->g, "raceskernel.race") < 0) return NULL; /* the races array may move: not while a search runs */
    Race *races = realloc(k->races, sizeof(Race) * (k->nraces + 1));
    if (!races) return PyErr_NoMemory();
    k->races = races;
    memset(&races[k->nraces], 0, sizeof(Race));
    races[k->nraces].up = up; races[k->nraces].threshold = threshold;
    return PyLong_FromLong(k->nraces++);
}

static PyObject *py_forces(PyObject *self, PyObject *args) {
    PyObject *capsule, *check; int slot, state, plies_left, within; unsigned long long items; long long every;
    if (!PyArg_ParseTuple(args, "OiiKiiOL", &capsule, &slot, &state, &items, &plies_left, &within, &check, &every))
        return NULL;
    Kernel *k = kernel_of(capsule);
    if (!k) return NULL;
    if (slot < 0 || slot >= k->nraces || state < 0 || state >= k->n || within < 0 || within > plies_left
        || plies_left > k->max_plies) {
        PyErr_SetString(PyExc_ValueError, "raceskernel.forces: race, state or plies out of range");
        return NULL;
    }
    if (searching_begin(&k->g, check, every, "raceskernel.forces") < 0) return NULL;
    int result = forces(k, &k->races[slot], state, items, plies_left, within);
    return searching_end(&k->g, result);
}

static PyObject *py_stats(PyObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Kernel *k = kernel_of(capsule);
    if (!k) return NULL;
    long long entries = 0, bytes = 0, doubling = 0, every = k->g.check_every > 0 ? k->g.check_every : 1;
    for (int i = 0; i < k->nraces; i++) {
        const Table *t = &k->races[i].table;
        entries += t->count;
        bytes += t->cap * (sizeof(uint64_t) + 2);
        if ((t->count + every) * 10 > t->cap * 6)      /* may grow before the next check: twice the size */
            doubling += 2 * t->cap * (sizeof(uint64_t) + 2);
    }
    return Py_BuildValue("LLLL", k->g.nodes, entries, bytes, doubling);
}

static PyObject *py_clear(PyObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Kernel *k = kernel_of(capsule);
    if (!k) return NULL;
    if (searching_idle(&k->g, "raceskernel.clear") < 0) return NULL;
    for (int i = 0; i < k->nraces; i++) table_free(&k->races[i].table);
    free(k->races);
    k->races = NULL; k->nraces = 0;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"new", py_new, METH_VARARGS, "A kernel from the arrays of a BoundedSearch (a capsule)."},
    {"race", py_race, METH_VARARGS, "race(kernel, up, threshold) -> slot: a new race with an empty table."},
    {"forces", py_forces, METH_VARARGS, "forces(kernel, slot, state, items, plies_left, within, check, check_every) -> bool."},
    {"clear", py_clear, METH_VARARGS, "clear(kernel): drop every race and its table."},
    {"stats", py_stats, METH_VARARGS, "stats(kernel) -> (positions searched, table entries, table bytes, bytes the tables may grow by before the next check)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "raceskernel", "The bounded solver's races in C.", -1, methods};

PyMODINIT_FUNC PyInit_raceskernel(void) { return PyModule_Create(&module); }
