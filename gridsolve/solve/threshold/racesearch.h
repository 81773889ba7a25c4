/* What the C kernels of the threshold races share, second half: the search and the module's
 * Python interface, written once.  gridsolve/solve/threshold/racesearch.py's
 * ThresholdSearch.forces in C: a position is an abstract position s and what the game keeps
 * beside it (Extra: the items left, the role's knowledge); each race has its table keyed by
 * the game's key -> (the most plies known not to force + 1, the fewest known to force), a race
 * to the step limit (within == plies_left) under keys of its own; a ply is the outcomes the
 * others choose among (the role's team needs every one forced, the others one).
 *
 * A kernel includes racekernel.h (after defining RACE_KEY_WORDS, RACE_TABLE_LOAD and RACE_EXTRA,
 * its Extra), defines its Game (with int32_t fields n and max_plies) and Cursor, its hooks
 *   game_read(Game *, spec)       read the fields of the object new() takes (0, or -1 with the error set)
 *   game_free(Game *)             free what game_read allocated (also after a failed read)
 *   game_extra(obj, Extra *)      forces()'s extra argument (0, or -1 with the error set)
 *   game_stop(...)                1 and the role's score where the game stops (*failed: out of memory)
 *   game_avoided(Game *, s)       whether the end at s is one the role must avoid
 *   game_key(...)                 the table key of a position (exact: in a race to the step limit)
 *   game_bound(...)               0 or 1 where the game's bounds decide a race, else -1
 *   game_team(Game *, s)          whether the role's team moves at s
 *   game_plies(...), game_next()  the plies of s in the order the race tries them, one at a time:
 *                                 game_next writes a ply's outcomes (at most RACE_MAX_OUTCOMES) and
 *                                 returns their count, or (RACE_OUTCOMES_KEPT defined) points at
 *                                 the outcomes it keeps; 0 after the last
 *   game_table(Game *)            another table whose entries count in stats(), or NULL
 * and RACE_MODULE (its name), RACE_DOC and RACE_METHODS (its other functions, may be empty),
 * then includes this file and defines PyInit_<name> as PyModule_Create(&race_module). */
#ifndef GRIDSOLVE_RACESEARCH_H
#define GRIDSOLVE_RACESEARCH_H

typedef struct {
    Game game;
    Race *races;
    int32_t nraces;
    Searching g;
} Kernel;

static inline int goal(const Kernel *k, const Race *r, int32_t s, long score) {
    if (r->kind == RACE_UP) return score >= r->threshold;
    if (r->kind == RACE_DOWN) return score < r->threshold;
    return game_avoided(&k->game, s);
}

static int forces(Kernel *k, Race *r, int32_t s, Extra x, int plies_left, int within);

static int search(Kernel *k, Race *r, int32_t s, Extra x, int plies_left, int within) {
    if (searching_tick(&k->g) < 0) return 0;
    int decided = game_bound(&k->game, r, s, x, plies_left, within);
    if (decided >= 0) return decided;
    int up = r->kind == RACE_UP;
    int attacking = game_team(&k->game, s) == up;
    Cursor plies;
    game_plies(&k->game, r, s, x, attacking, &plies);
    int count;
#ifdef RACE_OUTCOMES_KEPT
    const Outcome *outcomes;            /* the game's own: it keeps its plies' outcomes */
    while ((count = game_next(&k->game, &plies, &outcomes)) > 0) {
#else
    Outcome outcomes[RACE_MAX_OUTCOMES];  /* the game writes each ply's outcomes here (faster in C than a pointer into the cursor) */
    while ((count = game_next(&k->game, &plies, outcomes)) > 0) {
#endif
        int done = up;          /* the role's team needs every outcome, the others one */
        for (int i = 0; i < count; i++) {
            int got = forces(k, r, outcomes[i].s, outcomes[i].x, plies_left - 1, within - 1);
            if (k->g.aborted) return 0;
            if (got != up) { done = !up; break; }
        }
        if (done == attacking) return attacking;
    }
    return !attacking;
}

static int forces(Kernel *k, Race *r, int32_t s, Extra x, int plies_left, int within) {
    long score;
    int failed = 0;
    if (game_stop(&k->game, s, x, plies_left, &score, &failed)) {
        if (failed) { k->g.aborted = 2; return 0; }          /* no GIL here: reported by py_forces */
        return goal(k, r, s, score);
    }
    if (within == 0) return 0;
    uint64_t lo, hi;
    game_key(&k->game, s, x, plies_left, within == plies_left, &lo, &hi);
    Table *t = &r->table;
    size_t j = table_slot(t, lo, hi, 0, NONE_WON, NULL);
    if (j == SIZE_MAX) { k->g.aborted = 2; return 0; }
    int lost_up_to = (int)t->a[j] - 1, won_from = t->b[j];
    if (within <= lost_up_to) return 0;
    if (within >= won_from) return 1;
    int result = search(k, r, s, x, plies_left, within);
    if (k->g.aborted) return 0;
    j = table_slot(t, lo, hi, 0, NONE_WON, NULL);             /* the table may have grown below */
    if (j == SIZE_MAX) { k->g.aborted = 2; return 0; }
    if (result) { if (within < t->b[j]) t->b[j] = (uint8_t)within; }
    else if (within + 1 > t->a[j]) t->a[j] = (uint8_t)(within + 1);
    return result;
}

/* - Python interface ------------------------------------------------------------------------ */
static void kernel_free(Kernel *k) {
    if (!k) return;
    game_free(&k->game);
    for (int i = 0; i < k->nraces; i++) table_free(&k->races[i].table);
    free(k->races);
    free(k);
}

static void capsule_free(PyObject *capsule) { kernel_free(PyCapsule_GetPointer(capsule, RACE_MODULE)); }

static Kernel *kernel_of(PyObject *capsule) { return PyCapsule_GetPointer(capsule, RACE_MODULE); }

static PyObject *py_new(PyObject *self, PyObject *spec) {
    Kernel *k = calloc(1, sizeof(Kernel));
    if (!k) return PyErr_NoMemory();
    PyObject *capsule = NULL;
    if (game_read(&k->game, spec) == 0) capsule = PyCapsule_New(k, RACE_MODULE, capsule_free);
    if (!capsule) kernel_free(k);
    return capsule;
}

static PyObject *py_race(PyObject *self, PyObject *args) {
    PyObject *capsule; int kind; long threshold;
    if (!PyArg_ParseTuple(args, "Oil", &capsule, &kind, &threshold)) return NULL;
    Kernel *k = kernel_of(capsule);
    if (!k) return NULL;
    if (searching_idle(&k->g, RACE_MODULE ".race") < 0) return NULL;   /* the races may move: not while a search runs */
    Race *races = realloc(k->races, sizeof(Race) * (k->nraces + 1));
    if (!races) return PyErr_NoMemory();
    k->races = races;
    memset(&races[k->nraces], 0, sizeof(Race));
    races[k->nraces].kind = kind; races[k->nraces].threshold = threshold;
    return PyLong_FromLong(k->nraces++);
}

static PyObject *py_forces(PyObject *self, PyObject *args) {
    PyObject *capsule, *extra, *check; int slot, state, plies_left, within; long long every;
    if (!PyArg_ParseTuple(args, "OiiOiiOL", &capsule, &slot, &state, &extra, &plies_left, &within, &check, &every))
        return NULL;
    Kernel *k = kernel_of(capsule);
    if (!k) return NULL;
    Extra x;
    if (game_extra(extra, &x) < 0) return NULL;
    if (slot < 0 || slot >= k->nraces || state < 0 || state >= k->game.n || within < 0 || within > plies_left
        || plies_left > k->game.max_plies) {
        PyErr_SetString(PyExc_ValueError, RACE_MODULE ".forces: race, state or plies out of range");
        return NULL;
    }
    if (searching_begin(&k->g, check, every, RACE_MODULE ".forces") < 0) return NULL;
    int result = forces(k, &k->races[slot], state, x, plies_left, within);
    return searching_end(&k->g, result);
}

static PyObject *py_stats(PyObject *self, PyObject *capsule) {
    Kernel *k = kernel_of(capsule);
    if (!k) return NULL;
    long long entries = 0, bytes = 0, doubling = 0, every = k->g.check_every > 0 ? k->g.check_every : 1;
    const Table *other = game_table(&k->game);
    for (int i = other ? -1 : 0; i < k->nraces; i++) {
        const Table *t = i < 0 ? other : &k->races[i].table;
        entries += t->count;
        bytes += table_bytes(t);
        if (table_may_grow(t, every)) doubling += 2 * table_bytes(t);   /* may grow before the next check */
    }
    return Py_BuildValue("LLLL", k->g.nodes, entries, bytes, doubling);
}

static PyObject *py_clear(PyObject *self, PyObject *capsule) {
    Kernel *k = kernel_of(capsule);
    if (!k) return NULL;
    if (searching_idle(&k->g, RACE_MODULE ".clear") < 0) return NULL;
    for (int i = 0; i < k->nraces; i++) table_free(&k->races[i].table);
    free(k->races);
    k->races = NULL; k->nraces = 0;
    Py_RETURN_NONE;
}

static PyMethodDef race_methods[] = {
    {"new", py_new, METH_O, "new(spec) -> a kernel (a capsule) from the one object describing the game, read by field name."},
    {"race", py_race, METH_VARARGS, "race(kernel, kind, threshold) -> slot: a new race (0 up, 1 down, 2 avoid) with an empty table."},
    {"forces", py_forces, METH_VARARGS, "forces(kernel, slot, state, extra, plies_left, within, check, check_every) -> bool."},
    {"clear", py_clear, METH_O, "clear(kernel): drop every race and its table."},
    {"stats", py_stats, METH_O, "stats(kernel) -> (positions searched, table entries, table bytes, bytes the tables may grow by before the next check)."},
    RACE_METHODS
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef race_module = {PyModuleDef_HEAD_INIT, RACE_MODULE, RACE_DOC, -1, race_methods};
#endif
