/* The robust search's threshold races in C: gridsolve/solve/hidden/knowing.py's KnowingSolver.forces,
 * the same search in the same order with the same bounds, on arrays (gridsolve/solve/hidden/kernel.py
 * builds them from a KnowingSolver; pyproject.toml builds this file into an extension module that
 * gridsolve/solve/bounded/native.py loads).
 *
 * Reads, per abstract position s (pieces, side, lost turns: the game without the role's knowledge):
 *   team[s] (the role's team moves), role_moves[s] (the role itself moves: its plies change
 *   its knowledge), end_score[s] (the role's score at the end that holds, NO_END none), avoid[s]
 *   (that end is one the role must avoid), the plies as (successor, bit of the cell the role aims
 *   at, -1 where it stays or the cell holds no knowledge bit), bumped[s] (where a bump leads),
 *   doom_free[s] and top_free[s] (the bounds of the game without knowledge), and what the step
 *   limit's score reads: a fixed score per position, or per conditional timeout entry whether
 *   it holds but for the role's distance, and the other piece's distance the role's is compared
 *   with (the role's own distance is searched here: the longest the others can make it).
 * Knowledge: free and found bits (at most 32 cells each) and the obstacles placed per hidden mark.
 * Derives: forces(race, s, knowledge, plies_left, within), with one transposition table per race
 * keyed (s, knowledge) -> (most plies known not to force + 1, fewest known to force), or keyed
 * (s, knowledge, plies_left) -> the answer where within == plies_left (the step limit may be the
 * goal), as the Python tables are.  The search runs without the GIL; every check_every positions
 * it takes the GIL and calls back into Python (the limits; a raised exception aborts the search
 * and nothing more is stored).  One search at a time per kernel.
 */
#include "../bounded/kernelcommon.h"

#define NONE_WON 0xFF
#define NO_END (-32768)
#define MAX_MARKS 4
#define MAX_ENTRIES 8
#define MAX_CELLS 64
#define RACE_UP 0
#define RACE_DOWN 1
#define RACE_AVOID 2

/* - Transposition tables keyed by two words --------------------------------------------------- */
typedef struct {
    uint64_t *lo, *hi;  /* hi: key + 1 in the high word (0 = empty) */
    uint8_t *a, *b;     /* a race: lost1 / won (or the answer + 1 where within == plies_left); scores: a + 256 b */
    size_t cap, count;
} Table;


static inline size_t hash2(uint64_t lo, uint64_t hi) { return (size_t)mix(lo ^ mix(hi)); }

static int table_grow(Table *t) {
    size_t cap = t->cap ? t->cap * 2 : 1024;
    uint64_t *lo = malloc(cap * sizeof(uint64_t)), *hi = calloc(cap, sizeof(uint64_t));
    uint8_t *a = malloc(cap), *b = malloc(cap);
    if (!lo || !hi || !a || !b) { free(lo); free(hi); free(a); free(b); return -1; }
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->hi[i]) continue;
        size_t j = hash2(t->lo[i], t->hi[i]) & (cap - 1);
        while (hi[j]) j = (j + 1) & (cap - 1);
        lo[j] = t->lo[i]; hi[j] = t->hi[i]; a[j] = t->a[i]; b[j] = t->b[i];
    }
    free(t->lo); free(t->hi); free(t->a); free(t->b);
    t->lo = lo; t->hi = hi; t->a = a; t->b = b; t->cap = cap;
    return 0;
}

/* The slot of the key (inserted with a = init_a, b = init_b if absent); SIZE_MAX when out of memory. */
static size_t table_slot(Table *t, uint64_t lo, uint64_t hi, uint8_t init_a, uint8_t init_b, int *fresh) {
    if ((t->count + 1) * 10 > t->cap * 7 && table_grow(t) < 0) return SIZE_MAX;
    uint64_t stored = hi + 1;
    size_t j = hash2(lo, stored) & (t->cap - 1);
    while (t->hi[j]) {
        if (t->hi[j] == stored && t->lo[j] == lo) { if (fresh) *fresh = 0; return j; }
        j = (j + 1) & (t->cap - 1);
    }
    t->lo[j] = lo; t->hi[j] = stored; t->a[j] = init_a; t->b[j] = init_b; t->count++;
    if (fresh) *fresh = 1;
    return j;
}

static void table_free(Table *t) {
    free(t->lo); free(t->hi); free(t->a); free(t->b);
    memset(t, 0, sizeof(*t));
}

static size_t table_bytes(const Table *t) { return t->cap * (2 * sizeof(uint64_t) + 2); }

typedef struct {
    int kind;           /* RACE_UP, RACE_DOWN, RACE_AVOID */
    long threshold;
    Table table;
} Race;

typedef struct { uint32_t free, found; uint32_t used; } Know;   /* used: 4 bits a mark */

typedef struct {
    int32_t n, nbits, nmarks, total, unreachable;
    int32_t counts[MAX_MARKS];
    uint32_t allowed[MAX_MARKS];
    int8_t *team, *role_moves, *avoid;
    int16_t *end_score;
    int32_t *off, *succ, *aim, *bumped, *doom_free, *top_free;
    int32_t prune, top, avoid_best, stuck_top;
    /* the step limit's score */
    int32_t knows_distance, nentries, default_score;
    int16_t *fixed_score;                       /* per position, where the role's distance is not read */
    int32_t entry_score[MAX_ENTRIES];
    int8_t *entry_base;                         /* [entry][s]: the entry holds but for the role's distance */
    int32_t entry_clause[MAX_ENTRIES];          /* -1 none; else 2 * goal + (1: the role's must be the longer) */
    int32_t *entry_other;                       /* [entry][s]: the other piece's distance */
    /* the role's distance */
    int32_t ncells;
    int32_t *adjacent;                          /* [cell][4], -1 none: the open steps in the order of DIRECTIONS */
    int32_t *cellbit;                           /* [cell]: its knowledge bit, -1 none */
    uint64_t goal[MAX_ENTRIES];                 /* cells of each goal mark */
    int32_t *role_cell;                         /* [s] */
    Table scores;                               /* (s, knowledge) -> the step limit's score + 32768 */
    Race *races;
    int32_t nraces;
    Searching g;
} Kernel;

static inline int used_of(uint32_t used, int mark) { return (used >> (4 * mark)) & 15; }

static inline int used_sum(const Kernel *k, uint32_t used) {
    int s = 0;
    for (int m = 0; m < k->nmarks; m++) s += used_of(used, m);
    return s;
}

/* KnowingGame._canonical: once every obstacle is placed, the free bits say nothing. */
static inline Know canonical(const Kernel *k, uint32_t free, uint32_t found, uint32_t used) {
    Know out = {used_sum(k, used) >= k->total ? 0 : free & ~found, found, used};
    return out;
}

/* - The role's distance at a stop: KnowingGame._longest -------------------------------------- */
static int shortest(const Kernel *k, uint64_t goal, int start, uint32_t blocked, int *path) {
    int before[MAX_CELLS], queue[MAX_CELLS], head = 0, tail = 0;
    for (int c = 0; c < k->ncells; c++) before[c] = -2;
    before[start] = -1;
    queue[tail++] = start;
    while (head < tail) {
        int cell = queue[head++];
        if (goal >> cell & 1) {
            int length = 0;
            for (int c = cell; c >= 0; c = before[c]) length++;
            int i = length;
            for (int c = cell; c >= 0; c = before[c]) path[--i] = c;
            return length;
        }
        for (int d = 0; d < 4; d++) {
            int next = k->adjacent[4 * cell + d];
            if (next < 0 || before[next] != -2) continue;
            int bit = k->cellbit[next];
            if (bit >= 0 && (blocked >> bit & 1)) continue;
            before[next] = cell;
            queue[tail++] = next;
        }
    }
    return 0;
}

static int longest(const Kernel *k, uint64_t goal, int cell, uint32_t known, uint32_t blocked, const int *left) {
    int path[MAX_CELLS];
    int length = shortest(k, goal, cell, blocked, path);
    if (!length) return k->unreachable;
    int best = length - 1;
    for (int i = 1; i < length; i++) {
        int bit = k->cellbit[path[i]];
        if (bit < 0 || (known >> bit & 1)) continue;
        for (int m = 0; m < k->nmarks; m++) {
            if (!left[m] || !(k->allowed[m] >> bit & 1)) continue;
            int fewer[MAX_MARKS];
            memcpy(fewer, left, sizeof(fewer));
            fewer[m]--;
            int got = longest(k, goal, cell, known | 1u << bit, blocked | 1u << bit, fewer);
            if (got > best) best = got;
            if (best >= k->unreachable) return best;
        }
    }
    return best;
}

static int role_distance(const Kernel *k, int goal, int cell, Know know) {
    int left[MAX_MARKS] = {0};
    for (int m = 0; m < k->nmarks; m++) left[m] = k->counts[m] - used_of(know.used, m);
    return longest(k, k->goal[goal], cell, know.found | know.free, know.found, left);
}

/* KnowingGame.timeout_score; -1 aborted (no memory). */
static long timeout_score(Kernel *k, int32_t s, Know know, int *failed) {
    if (!k->knows_distance) return k->fixed_score[s];
    int fresh;
    size_t j = table_slot(&k->scores, (uint64_t)know.free | (uint64_t)know.found << 32,
                          (uint64_t)s | (uint64_t)know.used << 32, 0, 0, &fresh);
    if (j == SIZE_MAX) { *failed = 1; return 0; }
    if (!fresh) return (long)(k->scores.a[j] | k->scores.b[j] << 8) - 32768;
    long score = k->default_score;
    for (int e = 0; e < k->nentries; e++) {
        if (!k->entry_base[(size_t)e * k->n + s]) continue;
        int clause = k->entry_clause[e];
        if (clause >= 0) {
            int mine = role_distance(k, clause >> 1, k->role_cell[s], know);
            int other = k->entry_other[(size_t)e * k->n + s];
            if (!((clause & 1) ? other < mine : mine < other)) continue;
        }
        score = k->entry_score[e];
        break;
    }
    unsigned stored = (unsigned)(score + 32768);
    k->scores.a[j] = stored & 0xFF; k->scores.b[j] = stored >> 8;
    return score;
}

/* KnowingSolver.stop_score: 1 and *score where the game stops. */
static int stop_score(Kernel *k, int32_t s, Know know, int plies_left, long *score, int *failed) {
    if (k->end_score[s] != NO_END) { *score = k->end_score[s]; return 1; }
    if (plies_left == 0 || k->off[s] == k->off[s + 1]) { *score = timeout_score(k, s, know, failed); return 1; }
    return 0;
}

static inline int goal_met(const Kernel *k, const Race *r, int32_t s, long score) {
    if (r->kind == RACE_UP) return score >= r->threshold;
    if (r->kind == RACE_DOWN) return score < r->threshold;
    return k->avoid[s];
}

/* KnowingSolver._bound: 0 or 1 where the game without knowledge decides the race, else -1. */
static int bound(const Kernel *k, const Race *r, int32_t s, int plies_left, int within) {
    if (r->kind == RACE_AVOID) return k->doom_free[s] <= within ? 1 : -1;
    if (k->doom_free[s] <= within && k->avoid_best < r->threshold) return r->kind == RACE_DOWN;
    if (r->kind == RACE_UP && r->threshold == k->top && k->top_free[s] > within && within < plies_left
        && !k->stuck_top)
        return 0;
    return -1;
}

/* The plies of (s, know): KnowingGame._make_plies, each as up to 1 + MAX_MARKS answers. */
typedef struct { int32_t count; int32_t succ[1 + MAX_MARKS]; Know know[1 + MAX_MARKS]; int32_t key; } Ply;

static int make_plies(const Kernel *k, int32_t s, Know know, Ply *out) {
    int32_t a = k->off[s], b = k->off[s + 1], n = 0;
    for (int32_t i = a; i < b; i++, n++) {
        Ply *p = &out[n];
        p->count = 1; p->succ[0] = k->succ[i]; p->know[0] = know;
        if (!k->role_moves[s]) continue;
        int bit = k->aim[i];
        if (bit < 0 || (know.free >> bit & 1)) continue;
        if (know.found >> bit & 1) { p->succ[0] = k->bumped[s]; continue; }
        if (used_sum(k, know.used) >= k->total) continue;
        p->know[0].free = know.free | 1u << bit;
        for (int m = 0; m < k->nmarks; m++) {
            if (used_of(know.used, m) < k->counts[m] && (k->allowed[m] >> bit & 1)) {
                p->succ[p->count] = k->bumped[s];
                p->know[p->count] = canonical(k, know.free, know.found | 1u << bit, know.used + (1u << (4 * m)));
                p->count++;
            }
        }
    }
    /* KnowingSolver._ordered: nearest the role's top end (the role's side) or an avoided end
     * (the others') first, stably */
    const int32_t *rank = k->team[s] ? k->top_free : k->doom_free;
    for (int i = 0; i < n; i++) {
        int32_t least = rank[out[i].succ[0]];
        for (int j = 1; j < out[i].count; j++) if (rank[out[i].succ[j]] < least) least = rank[out[i].succ[j]];
        out[i].key = least;
    }
    for (int i = 1; i < n; i++) {
        Ply p = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].key > p.key) { out[j + 1] = out[j]; j--; }
        out[j + 1] = p;
    }
    return n;
}

static int forces(Kernel *k, Race *r, int32_t s, Know know, int plies_left, int within);

static int search(Kernel *k, Race *r, int32_t s, Know know, int plies_left, int within) {
    if (searching_tick(&k->g) < 0) return 0;
    if (k->prune) {
        int decided = bound(k, r, s, plies_left, within);
        if (decided >= 0) return decided;
    }
    int up = r->kind == RACE_UP;
    int attacking = k->team[s] == up;
    Ply plies[16];
    int n = make_plies(k, s, know, plies);
    for (int i = 0; i < n; i++) {
        /* the others answer the role's move: the role's side needs every answer, the others one */
        int done = up;
        for (int j = 0; j < plies[i].count; j++) {
            int got = forces(k, r, plies[i].succ[j], plies[i].know[j], plies_left - 1, within - 1);
            if (k->g.aborted) return 0;
            if (got != up) { done = !up; break; }
        }
        if (done == attacking) return attacking;
    }
    return !attacking;
}

static int forces(Kernel *k, Race *r, int32_t s, Know know, int plies_left, int within) {
    long score;
    int failed = 0;
    if (stop_score(k, s, know, plies_left, &score, &failed)) {
        if (failed) { k->g.aborted = 2; return 0; }
        return goal_met(k, r, s, score);
    }
    if (within == 0) return 0;
    int exact = within == plies_left;
    uint64_t lo = (uint64_t)know.free | (uint64_t)know.found << 32;
    uint64_t hi = (uint64_t)s | (uint64_t)know.used << 32 | (uint64_t)(exact ? plies_left + 1 : 0) << 48;
    size_t j = table_slot(&r->table, lo, hi, 0, NONE_WON, NULL);
    if (j == SIZE_MAX) { k->g.aborted = 2; return 0; }
    if (exact) {
        if (r->table.a[j]) return r->table.a[j] - 1;
    } else {
        int lost_up_to = (int)r->table.a[j] - 1, won_from = r->table.b[j];
        if (within <= lost_up_to) return 0;
        if (within >= won_from) return 1;
    }
    int result = search(k, r, s, know, plies_left, within);
    if (k->g.aborted) return 0;
    j = table_slot(&r->table, lo, hi, 0, NONE_WON, NULL);        /* the table may have grown below */
    if (j == SIZE_MAX) { k->g.aborted = 2; return 0; }
    if (exact) r->table.a[j] = (uint8_t)(result + 1);
    else if (result) { if (within < r->table.b[j]) r->table.b[j] = (uint8_t)within; }
    else if (within + 1 > r->table.a[j]) r->table.a[j] = (uint8_t)(within + 1);
    return result;
}

/* - Python interface ------------------------------------------------------------------------ */
static void kernel_free(Kernel *k) {
    if (!k) return;
    void *arrays[] = {k->team, k->role_moves, k->avoid, k->end_score, k->off, k->succ, k->aim, k->bumped,
                      k->doom_free, k->top_free, k->fixed_score, k->entry_base, k->entry_other, k->adjacent,
                      k->cellbit, k->role_cell};
    for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) free(arrays[i]);
    for (int i = 0; i < k->nraces; i++) table_free(&k->races[i].table);
    table_free(&k->scores);
    free(k->races);
    free(k);
}

static void capsule_free(PyObject *capsule) { kernel_free(PyCapsule_GetPointer(capsule, "knowingkernel")); }


/* new(sizes, game, plies, bounds, timeout, distance) with
 *   sizes = (n, nbits, unreachable, prune, top, avoid_best, stuck_top)
 *   game = (team, role_moves, avoid, end_score, bumped, counts, allowed)
 *   plies = (offsets, successors, aims)
 *   bounds = (doom_free, top_free)
 *   timeout = (knows_distance, default_score, fixed_score, entry_scores, entry_clauses, entry_base, entry_other)
 *   distance = (ncells, adjacent, cellbit, goals, role_cell) */
static PyObject *py_new(PyObject *self, PyObject *args) {
    int n, nbits, unreachable, prune, top, avoid_best, stuck_top;
    PyObject *team, *role_moves, *avoid, *end_score, *bumped, *counts, *allowed;
    PyObject *offsets, *successors, *aims, *doom_free, *top_free;
    int knows_distance, default_score;
    PyObject *fixed, *entry_scores, *entry_clauses, *entry_base, *entry_other;
    int ncells;
    PyObject *adjacent, *cellbit, *goals, *role_cell;
    if (!PyArg_ParseTuple(args, "(iiiiiii)(OOOOOOO)(OOO)(OO)(iiOOOOO)(iOOOO)", &n, &nbits, &unreachable, &prune, &top,
                          &avoid_best, &stuck_top, &team, &role_moves, &avoid, &end_score, &bumped, &counts, &allowed,
                          &offsets, &successors, &aims, &doom_free, &top_free, &knows_distance, &default_score,
                          &fixed, &entry_scores, &entry_clauses, &entry_base, &entry_other, &ncells, &adjacent,
                          &cellbit, &goals, &role_cell))
        return NULL;
    if (nbits > 32 || ncells > MAX_CELLS || !PyTuple_Check(counts) || !PyTuple_Check(allowed)
        || PyTuple_GET_SIZE(counts) > MAX_MARKS || PyTuple_GET_SIZE(counts) != PyTuple_GET_SIZE(allowed)
        || !PyTuple_Check(entry_scores) || !PyTuple_Check(entry_clauses) || !PyTuple_Check(goals)
        || PyTuple_GET_SIZE(entry_scores) > MAX_ENTRIES || PyTuple_GET_SIZE(goals) > MAX_ENTRIES
        || PyTuple_GET_SIZE(entry_clauses) != PyTuple_GET_SIZE(entry_scores)) {
        PyErr_SetString(PyExc_ValueError, "knowingkernel: a game the kernel does not serve");
        return NULL;
    }
    Kernel *k = calloc(1, sizeof(Kernel));
    if (!k) return PyErr_NoMemory();
    k->n = n; k->nbits = nbits; k->unreachable = unreachable; k->prune = prune; k->top = top;
    k->avoid_best = avoid_best; k->stuck_top = stuck_top; k->knows_distance = knows_distance;
    k->default_score = default_score; k->ncells = ncells;
    k->nmarks = (int)PyTuple_GET_SIZE(counts);
    for (int m = 0; m < k->nmarks; m++) {
        k->counts[m] = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(counts, m));
        k->allowed[m] = (uint32_t)PyLong_AsUnsignedLong(PyTuple_GET_ITEM(allowed, m));
        k->total += k->counts[m];
    }
    k->nentries = (int)PyTuple_GET_SIZE(entry_scores);
    for (int e = 0; e < k->nentries; e++) {
        k->entry_score[e] = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(entry_scores, e));
        k->entry_clause[e] = (int32_t)PyLong_AsLong(PyTuple_GET_ITEM(entry_clauses, e));
    }
    for (Py_ssize_t g = 0; g < PyTuple_GET_SIZE(goals); g++)
        k->goal[g] = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(goals, g));
    if (PyErr_Occurred()) goto fail;
    if (!(k->team = copy_bytes(team, n, "team")) || !(k->role_moves = copy_bytes(role_moves, n, "role_moves"))
        || !(k->avoid = copy_bytes(avoid, n, "avoid")) || !(k->end_score = copy_bytes(end_score, 2 * n, "end_score"))
        || !(k->bumped = copy_bytes(bumped, 4 * n, "bumped")) || !(k->off = copy_bytes(offsets, 4 * ((Py_ssize_t)n + 1), "offsets"))
        || !(k->doom_free = copy_bytes(doom_free, 4 * n, "doom_free")) || !(k->top_free = copy_bytes(top_free, 4 * n, "top_free"))
        || !(k->fixed_score = copy_bytes(fixed, 2 * n, "fixed_score"))
        || !(k->entry_base = copy_bytes(entry_base, (Py_ssize_t)k->nentries * n, "entry_base"))
        || !(k->entry_other = copy_bytes(entry_other, 4 * (Py_ssize_t)k->nentries * n, "entry_other"))
        || !(k->adjacent = copy_bytes(adjacent, 16 * (Py_ssize_t)ncells, "adjacent"))
        || !(k->cellbit = copy_bytes(cellbit, 4 * (Py_ssize_t)ncells, "cellbit"))
        || !(k->role_cell = copy_bytes(role_cell, 4 * (Py_ssize_t)n, "role_cell")))
        goto fail;
    Py_ssize_t m = k->off[n];
    if (!(k->succ = copy_bytes(successors, 4 * m, "successors")) || !(k->aim = copy_bytes(aims, 4 * m, "aims")))
        goto fail;
    for (int s = 0; s < n; s++)
        if (k->off[s + 1] - k->off[s] > 16) { PyErr_SetString(PyExc_ValueError, "knowingkernel: more than 16 plies"); goto fail; }
    PyObject *capsule = PyCapsule_New(k, "knowingkernel", capsule_free);
    if (!capsule) goto fail;
    return capsule;
fail:
    kernel_free(k);
    return NULL;
}

/* retrograde(n, offsets, successors, bumped, attackers, target, ended) -> ranks (int32 bytes):
 * AbstractGame.retrograde on the plies with, where the role may bump, a bump beside its moves
 * (bumped[s] >= 0 and s has a move): the fewest plies in which the attackers (attackers[s]: the
 * side to move at s is one) force a position where target[s]; unforced (1 << 30) where they
 * cannot; a position that ended (ended[s]) without the target is lost for them. */
static PyObject *py_retrograde(PyObject *self, PyObject *args) {
    int n; Py_buffer off_b, succ_b, bumped_b, att_b, target_b, ended_b;
    if (!PyArg_ParseTuple(args, "iy*y*y*y*y*y*", &n, &off_b, &succ_b, &bumped_b, &att_b, &target_b, &ended_b))
        return NULL;
    PyObject *out = NULL;
    const int32_t *off = off_b.buf, *succ = succ_b.buf, *bumped = bumped_b.buf;
    const int8_t *att = att_b.buf, *target = target_b.buf, *ended = ended_b.buf;
    int32_t *rank = NULL, *left = NULL, *pred_off = NULL, *preds = NULL, *queue = NULL;
    if (off_b.len != 4 * ((Py_ssize_t)n + 1) || bumped_b.len != 4 * (Py_ssize_t)n || att_b.len != n
        || target_b.len != n || ended_b.len != n || succ_b.len != 4 * (Py_ssize_t)off[n]) {
        PyErr_SetString(PyExc_ValueError, "knowingkernel.retrograde: arrays of the wrong size");
        goto done;
    }
    #define EDGES(s) (off[(s) + 1] - off[s] + (off[(s) + 1] > off[s] && bumped[s] >= 0))
    #define EDGE(s, i) ((i) < off[(s) + 1] - off[s] ? succ[off[s] + (i)] : bumped[s])
    rank = malloc(4 * (size_t)n); left = calloc(n, 4); pred_off = calloc((size_t)n + 1, 4);
    queue = malloc(4 * (size_t)n);
    if (!rank || !left || !pred_off || !queue) { PyErr_NoMemory(); goto done; }
    for (int s = 0; s < n; s++)
        if (!target[s] && !ended[s])
            for (int i = 0; i < EDGES(s); i++) pred_off[EDGE(s, i) + 1]++;
    for (int s = 0; s < n; s++) pred_off[s + 1] += pred_off[s];
    preds = malloc(4 * ((size_t)pred_off[n] + 1));
    if (!preds) { PyErr_NoMemory(); goto done; }
    int32_t *fill = left;              /* the fill position of each list, then the moves left */
    for (int s = 0; s < n; s++) fill[s] = pred_off[s];
    for (int s = 0; s < n; s++)
        if (!target[s] && !ended[s])
            for (int i = 0; i < EDGES(s); i++) preds[fill[EDGE(s, i)]++] = s;
    int head = 0, tail = 0;
    for (int s = 0; s < n; s++) {
        rank[s] = 1 << 30;
        left[s] = !target[s] && !ended[s] ? EDGES(s) : 0;
        if (target[s]) { rank[s] = 0; queue[tail++] = s; }
    }
    while (head < tail) {
        int j = queue[head++];
        for (int32_t p = pred_off[j]; p < pred_off[j + 1]; p++) {
            int i = preds[p];
            if (rank[i] != 1 << 30) continue;
            if (att[i]) { rank[i] = rank[j] + 1; queue[tail++] = i; }
            else if (--left[i] == 0) {
                int32_t most = 0;
                for (int e = 0; e < EDGES(i); e++) if (rank[EDGE(i, e)] > most) most = rank[EDGE(i, e)];
                rank[i] = most + 1;
                queue[tail++] = i;
            }
        }
    }
    #undef EDGES
    #undef EDGE
    out = PyBytes_FromStringAndSize((const char *)rank, 4 * (Py_ssize_t)n);
done:
    free(rank); free(left); free(pred_off); free(preds); free(queue);
    PyBuffer_Release(&off_b); PyBuffer_Release(&succ_b); PyBuffer_Release(&bumped_b);
    PyBuffer_Release(&att_b); PyBuffer_Release(&target_b); PyBuffer_Release(&ended_b);
    return out;
}

static Kernel *kernel_of(PyObject *capsule) { return PyCapsule_GetPointer(capsule, "knowingkernel"); }

static PyObject *py_race(PyObject *self, PyObject *args) {
    PyObject *capsule; int kind; long threshold;
    if (!PyArg_ParseTuple(args, "Oil", &capsule, &kind, &threshold)) return NULL;
    Kernel *k = kernel_of(capsule);
    if (!k) return NULL;
    if (searching_idle(&k->g, "knowingkernel.race") < 0) return NULL;
    Race *races = realloc(k->races, sizeof(Race) * (k->nraces + 1));
    if (!races) return PyErr_NoMemory();
    k->races = races;
    memset(&races[k->nraces], 0, sizeof(Race));
    races[k->nraces].kind = kind; races[k->nraces].threshold = threshold;
    return PyLong_FromLong(k->nraces++);
}

static PyObject *py_forces(PyObject *self, PyObject *args) {
    PyObject *capsule, *check; int slot, state, plies_left, within; unsigned int free, found, used; long long every;
    if (!PyArg_ParseTuple(args, "Oii(III)iiOL", &capsule, &slot, &state, &free, &found, &used, &plies_left, &within,
                          &check, &every))
        return NULL;
    Kernel *k = kernel_of(capsule);
    if (!k) return NULL;
    if (slot < 0 || slot >= k->nraces || state < 0 || state >= k->n || within < 0 || within > plies_left
        || plies_left > 250) {
        PyErr_SetString(PyExc_ValueError, "knowingkernel.forces: race, state or plies out of range");
        return NULL;
    }
    if (searching_begin(&k->g, check, every, "knowingkernel.forces") < 0) return NULL;
    Know know = {free, found, used};
    int result = forces(k, &k->races[slot], state, know, plies_left, within);
    return searching_end(&k->g, result);
}

static PyObject *py_stats(PyObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Kernel *k = kernel_of(capsule);
    if (!k) return NULL;
    long long entries = k->scores.count, bytes = table_bytes(&k->scores), doubling = 0;
    long long every = k->g.check_every > 0 ? k->g.check_every : 1;
    for (int i = -1; i < k->nraces; i++) {
        const Table *t = i < 0 ? &k->scores : &k->races[i].table;
        if (i >= 0) { entries += t->count; bytes += table_bytes(t); }
        if ((t->count + every) * 10 > t->cap * 7)      /* may grow before the next check: twice the size */
            doubling += 2 * table_bytes(t);
    }
    return Py_BuildValue("LLLL", k->g.nodes, entries, bytes, doubling);
}

static PyObject *py_clear(PyObject *self, PyObject *args) {
    PyObject *capsule;
    if (!PyArg_ParseTuple(args, "O", &capsule)) return NULL;
    Kernel *k = kernel_of(capsule);
    if (!k) return NULL;
    if (searching_idle(&k->g, "knowingkernel.clear") < 0) return NULL;
    for (int i = 0; i < k->nraces; i++) table_free(&k->races[i].table);
    free(k->races);
    k->races = NULL; k->nraces = 0;
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"new", py_new, METH_VARARGS, "A kernel from the arrays of a KnowingSolver (a capsule)."},
    {"race", py_race, METH_VARARGS, "race(kernel, kind, threshold) -> slot: a new race with an empty table."},
    {"forces", py_forces, METH_VARARGS, "forces(kernel, slot, state, (free, found, used), plies_left, within, check, check_every) -> bool."},
    {"clear", py_clear, METH_VARARGS, "clear(kernel): drop every race and its table (the step limit's scores stay)."},
    {"stats", py_stats, METH_VARARGS, "stats(kernel) -> (positions searched, table entries, table bytes, bytes the tables may grow by before the next check)."},
    {"retrograde", py_retrograde, METH_VARARGS, "retrograde(n, offsets, successors, bumped, attackers, target, ended) -> ranks as int32 bytes."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "knowingkernel", "The robust search's races in C.", -1, methods};

PyMODINIT_FUNC PyInit_knowingkernel(void) { return PyModule_Create(&module); }
