/* The robust search's threshold races in C: gridsolve/solve/hidden/knowing.py's KnowingSolver.forces,
 * the same search in the same order with the same bounds, on arrays (gridsolve/solve/hidden/kernel.py
 * describes them; pyproject.toml builds this file into an extension module that
 * gridsolve/native.py loads).
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
 * keyed (s, knowledge), or (s, knowledge, plies_left) where within == plies_left (the step limit
 * may be the goal), as the Python tables are.  The search, its tables and the module's functions
 * are the threshold races' (gridsolve/solve/threshold/racesearch.h); this file is the game's
 * hooks, the step limit's distances and, for the bounds' retrograde pass, the one ranker's C twin
 * (gridsolve/solve/graph/retrograde.h).  new() takes one KnowingArrays (gridsolve/solve/hidden/kernel.py,
 * made by KnowingSolver.kernel_arrays) and reads its fields by name.
 */
#include <stdint.h>

typedef struct { uint32_t free, found; uint32_t used; } Know;   /* used: 4 bits a mark */

#define RACE_KEY_WORDS 2
#define RACE_TABLE_LOAD 7
#define RACE_EXTRA Know
#include "../threshold/racekernel.h"

#define NO_END (-32768)
#define MAX_MARKS 4
#define MAX_ENTRIES 8
#define MAX_CELLS 64
#define MAX_PLIES 16                /* of one position */
#define MOST_PLIES_LEFT 250

typedef struct {
    int32_t n, max_plies, nbits, nmarks, total, unreachable;
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
} Game;

static inline int used_of(uint32_t used, int mark) { return (used >> (4 * mark)) & 15; }

static inline int used_sum(const Game *k, uint32_t used) {
    int s = 0;
    for (int m = 0; m < k->nmarks; m++) s += used_of(used, m);
    return s;
}

/* KnowingGame._canonical: once every obstacle is placed, the free bits say nothing. */
static inline Know canonical(const Game *k, uint32_t free, uint32_t found, uint32_t used) {
    Know out = {used_sum(k, used) >= k->total ? 0 : free & ~found, found, used};
    return out;
}

/* - The role's distance at a stop: KnowingGame._longest -------------------------------------- */
static int shortest(const Game *k, uint64_t goal, int start, uint32_t blocked, int *path) {
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

static int longest(const Game *k, uint64_t goal, int cell, uint32_t known, uint32_t blocked, const int *left) {
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

static int role_distance(const Game *k, int goal, int cell, Know know) {
    int left[MAX_MARKS] = {0};
    for (int m = 0; m < k->nmarks; m++) left[m] = k->counts[m] - used_of(know.used, m);
    return longest(k, k->goal[goal], cell, know.found | know.free, know.found, left);
}

/* KnowingGame.timeout_score; *failed where out of memory. */
static long timeout_score(Game *k, int32_t s, Know know, int *failed) {
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

/* - The game's hooks ------------------------------------------------------------------------- */
static int game_read(Game *k, PyObject *spec) {
    uint64_t counts[MAX_MARKS], allowed[MAX_MARKS], scores[MAX_ENTRIES], clauses[MAX_ENTRIES];
    k->max_plies = MOST_PLIES_LEFT;
    if (int_field(spec, "n", &k->n) < 0 || int_field(spec, "nbits", &k->nbits) < 0
        || int_field(spec, "unreachable", &k->unreachable) < 0 || int_field(spec, "prune", &k->prune) < 0
        || int_field(spec, "top", &k->top) < 0 || int_field(spec, "avoid_best", &k->avoid_best) < 0
        || int_field(spec, "stuck_top", &k->stuck_top) < 0 || int_field(spec, "knows_distance", &k->knows_distance) < 0
        || int_field(spec, "default_score", &k->default_score) < 0 || int_field(spec, "ncells", &k->ncells) < 0)
        return -1;
    int nmarks = ints_field(spec, "counts", MAX_MARKS, counts), nallowed = ints_field(spec, "allowed", MAX_MARKS, allowed);
    int nentries = ints_field(spec, "entry_scores", MAX_ENTRIES, scores);
    int nclauses = ints_field(spec, "entry_clauses", MAX_ENTRIES, clauses);
    int ngoals = ints_field(spec, "goals", MAX_ENTRIES, k->goal);
    if (nmarks < 0 || nallowed < 0 || nentries < 0 || nclauses < 0 || ngoals < 0) return -1;
    if (k->nbits > 32 || k->ncells > MAX_CELLS || nallowed != nmarks || nclauses != nentries) {
        PyErr_SetString(PyExc_ValueError, "knowingkernel: a game the kernel does not serve");
        return -1;
    }
    k->nmarks = nmarks;
    for (int m = 0; m < nmarks; m++) {
        k->counts[m] = (int32_t)counts[m];
        k->allowed[m] = (uint32_t)allowed[m];
        k->total += k->counts[m];
    }
    k->nentries = nentries;
    for (int e = 0; e < nentries; e++) { k->entry_score[e] = (int32_t)scores[e]; k->entry_clause[e] = (int32_t)clauses[e]; }
    Py_ssize_t n = k->n, ncells = k->ncells;
    if (!(k->team = bytes_field(spec, "team", n)) || !(k->role_moves = bytes_field(spec, "role_moves", n))
        || !(k->avoid = bytes_field(spec, "avoid", n)) || !(k->end_score = bytes_field(spec, "end_score", 2 * n))
        || !(k->bumped = bytes_field(spec, "bumped", 4 * n)) || !(k->off = bytes_field(spec, "offsets", 4 * (n + 1)))
        || !(k->doom_free = bytes_field(spec, "doom_free", 4 * n)) || !(k->top_free = bytes_field(spec, "top_free", 4 * n))
        || !(k->fixed_score = bytes_field(spec, "fixed_score", 2 * n))
        || !(k->entry_base = bytes_field(spec, "entry_base", nentries * n))
        || !(k->entry_other = bytes_field(spec, "entry_other", 4 * nentries * n))
        || !(k->adjacent = bytes_field(spec, "adjacent", 16 * ncells))
        || !(k->cellbit = bytes_field(spec, "cellbit", 4 * ncells))
        || !(k->role_cell = bytes_field(spec, "role_cell", 4 * n))
        || !(k->succ = bytes_field(spec, "successors", 4 * (Py_ssize_t)k->off[n]))
        || !(k->aim = bytes_field(spec, "aims", 4 * (Py_ssize_t)k->off[n])))
        return -1;
    for (int s = 0; s < n; s++)
        if (k->off[s + 1] - k->off[s] > MAX_PLIES) {
            PyErr_SetString(PyExc_ValueError, "knowingkernel: more than 16 plies");
            return -1;
        }
    return 0;
}

static void game_free(Game *k) {
    void *arrays[] = {k->team, k->role_moves, k->avoid, k->end_score, k->off, k->succ, k->aim, k->bumped,
                      k->doom_free, k->top_free, k->fixed_score, k->entry_base, k->entry_other, k->adjacent,
                      k->cellbit, k->role_cell};
    for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) free(arrays[i]);
    table_free(&k->scores);
}

static int game_extra(PyObject *know, Extra *x) {
    return PyArg_ParseTuple(know, "III;knowingkernel: the knowledge is (free, found, used)", &x->free, &x->found,
                            &x->used) ? 0 : -1;
}

/* KnowingSolver.stop_score: 1 and *score where the game stops. */
static inline int game_stop(Game *k, int32_t s, Know know, int plies_left, long *score, int *failed) {
    if (k->end_score[s] != NO_END) { *score = k->end_score[s]; return 1; }
    if (plies_left == 0 || k->off[s] == k->off[s + 1]) { *score = timeout_score(k, s, know, failed); return 1; }
    return 0;
}

static inline int game_avoided(const Game *k, int32_t s) { return k->avoid[s]; }

static inline int game_team(const Game *k, int32_t s) { return k->team[s]; }

static inline void game_key(const Game *k, int32_t s, Know know, int plies_left, int exact, uint64_t *lo, uint64_t *hi) {
    *lo = (uint64_t)know.free | (uint64_t)know.found << 32;
    *hi = (uint64_t)s | (uint64_t)know.used << 32 | (uint64_t)(exact ? plies_left + 1 : 0) << 48;
}

/* KnowingSolver.bound: 0 or 1 where the game without knowledge decides the race, else -1. */
static inline int game_bound(const Game *k, const Race *r, int32_t s, Know know, int plies_left, int within) {
    if (!k->prune) return -1;
    if (r->kind == RACE_AVOID) return k->doom_free[s] <= within ? 1 : -1;
    if (k->doom_free[s] <= within && k->avoid_best < r->threshold) return r->kind == RACE_DOWN;
    if (r->kind == RACE_UP && r->threshold == k->top && k->top_free[s] > within && within < plies_left
        && !k->stuck_top)
        return 0;
    return -1;
}

/* The plies of (s, know): KnowingGame._make_plies, each as up to 1 + MAX_MARKS answers, ordered. */
typedef struct { int32_t count; Outcome out[1 + MAX_MARKS]; int32_t key; } Ply;
typedef struct { Ply plies[MAX_PLIES]; int n, i; } Cursor;
#define RACE_OUTCOMES_KEPT          /* game_next points at a ply's outcomes in the cursor */

static inline void game_plies(Game *k, const Race *r, int32_t s, Know know, int attacking, Cursor *c) {
    Ply *out = c->plies;
    int32_t a = k->off[s], b = k->off[s + 1], n = 0;
    for (int32_t i = a; i < b; i++, n++) {
        Ply *p = &out[n];
        p->count = 1; p->out[0].s = k->succ[i]; p->out[0].x = know;
        if (!k->role_moves[s]) continue;
        int bit = k->aim[i];
        if (bit < 0 || (know.free >> bit & 1)) continue;
        if (know.found >> bit & 1) { p->out[0].s = k->bumped[s]; continue; }
        if (used_sum(k, know.used) >= k->total) continue;
        p->out[0].x.free = know.free | 1u << bit;
        for (int m = 0; m < k->nmarks; m++) {
            if (used_of(know.used, m) < k->counts[m] && (k->allowed[m] >> bit & 1)) {
                p->out[p->count].s = k->bumped[s];
                p->out[p->count].x = canonical(k, know.free, know.found | 1u << bit, know.used + (1u << (4 * m)));
                p->count++;
            }
        }
    }
    /* KnowingSolver.race_plies: nearest the role's top end (the role's side) or an avoided end
     * (the others') first, stably */
    const int32_t *rank = k->team[s] ? k->top_free : k->doom_free;
    for (int i = 0; i < n; i++) {
        int32_t least = rank[out[i].out[0].s];
        for (int j = 1; j < out[i].count; j++) if (rank[out[i].out[j].s] < least) least = rank[out[i].out[j].s];
        out[i].key = least;
    }
    for (int i = 1; i < n; i++) {
        Ply p = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].key > p.key) { out[j + 1] = out[j]; j--; }
        out[j + 1] = p;
    }
    c->n = n; c->i = 0;
}

static inline int game_next(const Game *k, Cursor *c, const Outcome **out) {
    if (c->i >= c->n) return 0;
    const Ply *p = &c->plies[c->i++];
    *out = p->out;
    return p->count;
}

static inline const Table *game_table(const Game *k) { return &k->scores; }

/* - The bounds of the game without knowledge ------------------------------------------------ */
/* ranks(...): the one ranker's C twin (gridsolve/solve/graph/retrograde.h) over bytes; kernel.py's
 * _bounds gives it the plies with, where the role may bump, a bump beside its moves. */
#define RETRO_PYTHON
#include "../graph/retrograde.h"


#define RACE_MODULE "knowingkernel"
#define RACE_DOC "The robust search's races in C."
#define RACE_METHODS RETRO_METHOD,
#include "../threshold/racesearch.h"

PyMODINIT_FUNC PyInit_knowingkernel(void) { return PyModule_Create(&race_module); }
