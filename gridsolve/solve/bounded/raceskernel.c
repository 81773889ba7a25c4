/* The bounded solver's threshold races in C: gridsolve/solve/bounded/search.py's BoundedSearch.forces,
 * the same search in the same order with the same bounds, on arrays.  The search, its tables and
 * the module's functions are the threshold races' (gridsolve/solve/threshold/racesearch.h); this
 * file is the game's hooks.  new() takes one RaceArrays (gridsolve/solve/bounded/kernel.py, made
 * by BoundedSearch.kernel_arrays) and reads its fields by name:
 *   per abstract position s (bisimulation representatives only are searched): turn[s] (the turns
 *   entry to move), team[s] (whether the role's team moves), stop[s] (an end holds or no move is
 *   left), end_kind[s] / out_kind[s] (the score kind at the end that holds, -1 none; at the step
 *   limit), doom[s], team_stops[s], others_stop[s] (retrograde ranks), and three move lists
 *   (offsets, successors: representatives, taken: the items each takes): merged (the others'
 *   race), attack (search_order(s, True): the team's attack, item-taking moves first) and
 *   defence (search_order(s, False));
 *   per (items left count, turn, plies): low and high, the lowest and highest score of a stop
 *   within the plies; per (score kind, items taken): score, the role's.
 * Derives: forces(race, s, items, plies_left, within), with one transposition table per race
 * keyed (s, items, within == plies_left), as the Python tables are.
 */
#include <stdint.h>
#define RACE_KEY_WORDS 1
#define RACE_TABLE_LOAD 6
#define RACE_EXTRA uint64_t        /* the items left, a bit each */
#include "../threshold/racekernel.h"

#ifdef _MSC_VER                     /* MSVC (Windows wheels) has no __builtin_popcountll */
#include <intrin.h>
#define popcount64(x) ((int)__popcnt64(x))
#else
#define popcount64(x) __builtin_popcountll(x)
#endif

#define RACE_MAX_OUTCOMES 1         /* a ply's outcomes: the others do not choose */
#define LISTS 3                     /* merged, attack, defence */

typedef struct {
    int32_t n, max_plies, total, turns, kinds, item_bits;
    int8_t *turn, *team, *stop;
    int16_t *end_kind, *out_kind;
    int32_t *doom, *team_stops, *others_stop;
    int32_t *off[LISTS];    /* offsets into the lists, n + 1 each */
    int32_t *succ[LISTS];
    uint64_t *taken[LISTS];
    int32_t *low, *high;    /* [left][turn][plies] */
    int32_t *score;         /* [kind][taken] */
} Game;

/* The moves of a position in a race's order, one at a time: the team's attack takes the moves
 * that take an item first (two passes). */
typedef struct {
    const int32_t *succ;
    const uint64_t *taken;
    int32_t a, b, i;
    int pass;           /* -1: every move in order; the attack: 0 the moves that take an item, 1 the others */
    uint64_t items;
} Cursor;

/* - The game's hooks ------------------------------------------------------------------------- */
static const char *LIST_NAMES[LISTS] = {"merged", "attack", "defence"};

static int game_read(Game *g, PyObject *spec) {
    if (int_field(spec, "n", &g->n) < 0 || int_field(spec, "total", &g->total) < 0
        || int_field(spec, "turns", &g->turns) < 0 || int_field(spec, "max_plies", &g->max_plies) < 0
        || int_field(spec, "kinds", &g->kinds) < 0 || int_field(spec, "item_bits", &g->item_bits) < 0)
        return -1;
    Py_ssize_t n = g->n, spans = (Py_ssize_t)(g->total + 1) * g->turns * (g->max_plies + 1);
    if (!(g->turn = bytes_field(spec, "turn", n)) || !(g->team = bytes_field(spec, "team", n))
        || !(g->stop = bytes_field(spec, "stop", n)) || !(g->end_kind = bytes_field(spec, "end_kind", 2 * n))
        || !(g->out_kind = bytes_field(spec, "out_kind", 2 * n)) || !(g->doom = bytes_field(spec, "doom", 4 * n))
        || !(g->team_stops = bytes_field(spec, "team_stops", 4 * n))
        || !(g->others_stop = bytes_field(spec, "others_stop", 4 * n))
        || !(g->low = bytes_field(spec, "low", 4 * spans)) || !(g->high = bytes_field(spec, "high", 4 * spans))
        || !(g->score = bytes_field(spec, "score", 4 * (Py_ssize_t)g->kinds * (g->total + 1))))
        return -1;
    for (int l = 0; l < LISTS; l++) {
        PyObject *list = field(spec, LIST_NAMES[l]);
        if (!list) return -1;
        int ok = (g->off[l] = bytes_field(list, "offsets", 4 * (n + 1))) != NULL
                 && (g->succ[l] = bytes_field(list, "successors", 4 * (Py_ssize_t)g->off[l][n])) != NULL
                 && (g->taken[l] = bytes_field(list, "taken", 8 * (Py_ssize_t)g->off[l][n])) != NULL;
        Py_DECREF(list);
        if (!ok) return -1;
    }
    return 0;
}

static void game_free(Game *g) {
    void *arrays[] = {g->turn, g->team, g->stop, g->end_kind, g->out_kind, g->doom, g->team_stops,
                      g->others_stop, g->low, g->high, g->score};
    for (size_t i = 0; i < sizeof(arrays) / sizeof(arrays[0]); i++) free(arrays[i]);
    for (int l = 0; l < LISTS; l++) { free(g->off[l]); free(g->succ[l]); free(g->taken[l]); }
}

static int game_extra(PyObject *items, Extra *x) {
    *x = PyLong_AsUnsignedLongLong(items);
    return *x == (uint64_t)-1 && PyErr_Occurred() ? -1 : 0;
}

static inline int taken_of(const Game *g, uint64_t items) { return g->total - popcount64(items); }

static inline int game_stop(Game *g, int32_t s, uint64_t items, int plies_left, long *score, int *failed) {
    if (plies_left != 0 && !g->stop[s]) return 0;
    int kind = g->end_kind[s] >= 0 ? g->end_kind[s] : g->out_kind[s];
    *score = g->score[kind * (g->total + 1) + taken_of(g, items)];
    return 1;
}

static inline int game_avoided(const Game *g, int32_t s) { return 0; }     /* no such race here */

static inline int game_team(const Game *g, int32_t s) { return g->team[s]; }

static inline void game_key(const Game *g, int32_t s, uint64_t items, int plies_left, int exact,
                            uint64_t *lo, uint64_t *hi) {
    *lo = ((((uint64_t)s << g->item_bits) | items) << 1) | (uint64_t)exact;
    *hi = 0;
}

static inline int32_t span_index(const Game *g, int left, int turn, int plies) {
    return (left * g->turns + turn) * (g->max_plies + 1) + plies;
}

/* The race's answer where the bounds decide it: 0 or 1, else -1 (BoundedSearch.bound). */
static inline int game_bound(const Game *g, const Race *r, int32_t s, uint64_t items, int plies_left, int within) {
    int up = r->kind == RACE_UP;
    if (within < plies_left && (up ? g->team_stops : g->others_stop)[s] > within) return 0;
    int left = popcount64(items), turn = g->turn[s];
    if (up) {
        int doom = g->doom[s];
        if (g->high[span_index(g, left, turn, within < doom ? within : doom)] < r->threshold) return 0;
        if (g->low[span_index(g, left, turn, within)] >= r->threshold)
            return 1;      /* a stop in time is forced: the first test above */
        return -1;
    }
    int32_t i = span_index(g, left, turn, within);
    if (g->low[i] >= r->threshold) return 0;
    if (g->high[i] < r->threshold) return 1;
    return -1;
}

static inline void game_plies(Game *g, const Race *r, int32_t s, uint64_t items, int attacking, Cursor *c) {
    int list = r->kind != RACE_UP ? 0 : attacking ? 1 : 2;
    c->succ = g->succ[list]; c->taken = g->taken[list];
    c->a = c->i = g->off[list][s]; c->b = g->off[list][s + 1];
    c->pass = list == 1 ? 0 : -1;
    c->items = items;
}

static inline int game_next(const Game *g, Cursor *c, Outcome *out) {
    int32_t i = c->i;
    if (c->pass < 0) {
        if (i >= c->b) return 0;
    } else {
        for (;; i++) {
            if (i >= c->b) {
                if (c->pass) return 0;
                c->pass = 1; i = c->a - 1;      /* the team's attack: then the moves that take no item */
                continue;
            }
            if (((c->items & c->taken[i]) != 0) == (c->pass == 0)) break;
        }
    }
    c->i = i + 1;
    out->s = c->succ[i]; out->x = c->items & ~c->taken[i];
    return 1;
}

static inline const Table *game_table(const Game *g) { return NULL; }

#define RACE_MODULE "raceskernel"
#define RACE_DOC "The bounded solver's races in C."
#define RACE_METHODS
#include "../threshold/racesearch.h"

PyMODINIT_FUNC PyInit_raceskernel(void) { return PyModule_Create(&race_module); }
