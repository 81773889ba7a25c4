/* Every start of one layout judged in C: gridsolve/generate/layoutjudge.py builds the arrays and
 * compiles this file once per Python ABI (gridsolve/native.py).
 *
 * Reads:
 *   the layout's ground rules (a circuit: the factored game program of
 *   gridsolve/compile/compiler.py ground once with the walls and marks as external atoms; its
 *   rules in an order where every body atom is decided before the rule), the truth of each
 *   external atom for this layout, and the output atoms: each role's moves from each cell
 *   (piece, cell, aimed cell, cell reached) and the end of each position (position, end);
 *   the turns (the piece that moves in each entry, the pieces it may not aim at), the race
 *   (the entries that attack, the ends it aims at, its levels), the role's piece, side and
 *   goal ends, the plies left and the band of ranks to play out.
 * Derives:
 *   the rank of every position (by the one ranker's C twin, gridsolve/solve/graph/retrograde.h, as
 *   RaceGraph.ranks on the whole position space: a rank depends only on the positions after it), and for each start of the
 *   band (side 0, the pieces apart) the role's shortest paths to its goal with the other
 *   piece frozen and how many of them win against every reply (capped at `limit`), as
 *   gridsolve/generate/startplay.py's OthersPlay.judge counts them.
 * Positions are numbered as gridsolve/solve/graph/factored.py's Numbering: side * N^2 + cell0 * N +
 * cell1 (cell = (x-1) * height + y - 1); two pieces, at most 64 cells, each entry one mover.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../solve/graph/retrograde.h"

#define MAX_TURNS 8
#define MAX_MOVES 64
#define BIG ((int64_t)1 << 60)
#define WON (-1)
#define LOST (-2)

typedef struct {
    int turns, n, role, other, role_side, remaining, limit;
    int32_t *succ_ptr, *succ;      /* distinct successors of each position (none where an end holds) */
    int8_t *outcome;               /* the end that holds (-1: none) */
    const uint8_t *goal;           /* per end: the role's goal */
} Game;

typedef struct {                   /* the memo of winning paths: (cell, ply, frontier) -> count */
    uint64_t *masks;
    uint32_t *tags;                /* 1 << 16 | cell << 8 | ply; 0: empty */
    int64_t *counts;
    size_t cap, used;
} Memo;

static inline int pos_of(const Game *g, int side, int role_cell, int other_cell) {
    int c0 = g->role == 0 ? role_cell : other_cell, c1 = g->role == 0 ? other_cell : role_cell;
    return (side * g->n + c0) * g->n + c1;
}

static inline int cell_of(const Game *g, int pos, int piece) {
    return piece == 0 ? (pos / g->n) % g->n : pos % g->n;
}

/* - The memo --- */

static int memo_init(Memo *m) {
    m->cap = 1 << 12;
    m->used = 0;
    m->masks = calloc(m->cap, sizeof(uint64_t));
    m->tags = calloc(m->cap, sizeof(uint32_t));
    m->counts = calloc(m->cap, sizeof(int64_t));
    return m->masks && m->tags && m->counts;
}

static void memo_free(Memo *m) {
    free(m->masks);
    free(m->tags);
    free(m->counts);
}

static void memo_clear(Memo *m) {
    if (m->used) memset(m->tags, 0, m->cap * sizeof(uint32_t));
    m->used = 0;
}

static inline size_t memo_slot(const Memo *m, uint32_t tag, uint64_t mask) {
    uint64_t h = (mask ^ ((uint64_t)tag * 0x9E3779B97F4A7C15ULL)) * 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 31;
    size_t i = (size_t)h & (m->cap - 1);
    while (m->tags[i] && (m->tags[i] != tag || m->masks[i] != mask)) i = (i + 1) & (m->cap - 1);
    return i;
}

static int memo_grow(Memo *m) {
    Memo bigger = {0};
    bigger.cap = m->cap * 2;
    bigger.masks = calloc(bigger.cap, sizeof(uint64_t));
    bigger.tags = calloc(bigger.cap, sizeof(uint32_t));
    bigger.counts = calloc(bigger.cap, sizeof(int64_t));
    if (!bigger.masks || !bigger.tags || !bigger.counts) {
        memo_free(&bigger);
        return 0;
    }
    for (size_t i = 0; i < m->cap; i++) {
        if (m->tags[i]) {
            size_t j = memo_slot(&bigger, m->tags[i], m->masks[i]);
            bigger.tags[j] = m->tags[i];
            bigger.masks[j] = m->masks[i];
            bigger.counts[j] = m->counts[i];
            bigger.used++;
        }
    }
    memo_free(m);
    *m = bigger;
    return 1;
}

/* - The blind play (analysis/beeline.py's definition) --- */

/* Let the game run from the positions with the role on `cell`, the other piece on the cells of
 * `mask`, `side` to move at `ply`, until the role is to move: WON, LOST or the ply reached (the
 * frontier's cells in *mask). */
static int settle(const Game *g, int cell, uint64_t *mask, int side, int ply) {
    uint64_t level = *mask;
    for (;;) {
        uint64_t alive = 0, next = 0;
        for (uint64_t rest = level; rest; rest &= rest - 1) {
            int m = __builtin_ctzll(rest), pos = pos_of(g, side, cell, m);
            int end = g->outcome[pos];
            if (end >= 0) {
                if (g->goal[end]) continue;
                return LOST;
            }
            if (ply >= g->remaining || g->succ_ptr[pos] == g->succ_ptr[pos + 1]) return LOST;
            alive |= (uint64_t)1 << m;
            if (side != g->role_side)
                for (int k = g->succ_ptr[pos]; k < g->succ_ptr[pos + 1]; k++)
                    next |= (uint64_t)1 << cell_of(g, g->succ[k], g->other);
        }
        if (!alive) return WON;
        if (side == g->role_side) {
            *mask = alive;
            return ply;
        }
        level = next;
        side = (side + 1) % g->turns;
        ply++;
    }
}

/* Does the role's move from `cell` to `target` stay legal from every position of the frontier? */
static int moves_all(const Game *g, int cell, int target, uint64_t frontier) {
    for (uint64_t rest = frontier; rest; rest &= rest - 1) {
        int pos = pos_of(g, g->role_side, cell, __builtin_ctzll(rest)), found = 0;
        for (int k = g->succ_ptr[pos]; k < g->succ_ptr[pos + 1] && !found; k++)
            found = cell_of(g, g->succ[k], g->role) == target;
        if (!found) return 0;
    }
    return 1;
}

typedef struct {
    const int32_t *distance;       /* the role's steps to its goal, the other frozen (-1: none) */
    const int32_t *dag_ptr, *dag;  /* the next cells on a shortest path */
    const int64_t *paths;          /* shortest paths from each cell (saturating) */
} Paths;

static int64_t winning(const Game *g, const Paths *p, Memo *memo, int cell, uint64_t frontier, int ply, int *failed) {
    if (p->distance[cell] == 0) return 0;
    uint32_t tag = (1u << 16) | ((uint32_t)cell << 8) | (uint32_t)(ply & 0xFF);
    size_t slot = memo_slot(memo, tag, frontier);
    if (memo->tags[slot]) return memo->counts[slot];
    int64_t total = 0;
    for (int k = p->dag_ptr[cell]; k < p->dag_ptr[cell + 1]; k++) {
        int target = p->dag[k];
        if (!moves_all(g, cell, target, frontier)) continue;
        uint64_t moved = frontier;
        int out = settle(g, target, &moved, (g->role_side + 1) % g->turns, ply + 1);
        if (out == WON) total += p->paths[target];
        else if (out != LOST) total += winning(g, p, memo, target, moved, out, failed);
        if (total > BIG) total = BIG;
        if (total >= g->limit) break;
    }
    if (memo->used * 2 >= memo->cap && !memo_grow(memo)) {
        *failed = 1;
        return total;
    }
    slot = memo_slot(memo, tag, frontier);
    memo->tags[slot] = tag;
    memo->masks[slot] = frontier;
    memo->counts[slot] = total;
    memo->used++;
    return total;
}

/* The shortest paths of the role with the other piece frozen on `m` (startplay.OthersPlay). */
static void shortest_paths(const Game *g, int m, int32_t *distance, int32_t *dag_ptr, int32_t *dag, int64_t *paths,
                           int32_t *queue, int32_t *rev_ptr, int32_t *rev, int32_t *rev_fill) {
    int n = g->n, head = 0, tail = 0;
    for (int c = 0; c < n; c++) {
        rev_fill[c] = 0;
        distance[c] = -1;
        int end = g->outcome[pos_of(g, g->role_side, c, m)];
        if (end >= 0 && g->goal[end]) {
            distance[c] = 0;
            queue[tail++] = c;
        }
    }
    /* backwards: c reaches t by one of its moves (none from an end); rev lists c under t */
    for (int t = 0; t <= n; t++) rev_ptr[t] = 0;
    for (int c = 0; c < n; c++) {
        int pos = pos_of(g, g->role_side, c, m);
        if (g->outcome[pos] >= 0) continue;
        for (int k = g->succ_ptr[pos]; k < g->succ_ptr[pos + 1]; k++) rev_ptr[cell_of(g, g->succ[k], g->role) + 1]++;
    }
    for (int t = 0; t < n; t++) rev_ptr[t + 1] += rev_ptr[t];
    for (int c = 0; c < n; c++) {
        int pos = pos_of(g, g->role_side, c, m);
        if (g->outcome[pos] >= 0) continue;
        for (int k = g->succ_ptr[pos]; k < g->succ_ptr[pos + 1]; k++) {
            int t = cell_of(g, g->succ[k], g->role);
            rev[rev_ptr[t] + rev_fill[t]++] = c;
        }
    }
    while (head < tail) {
        int t = queue[head++];
        for (int k = rev_ptr[t]; k < rev_ptr[t + 1]; k++) {
            int c = rev[k];
            if (distance[c] < 0) {
                distance[c] = distance[t] + 1;
                queue[tail++] = c;
            }
        }
    }
    int at = 0;
    for (int c = 0; c < n; c++) {
        dag_ptr[c] = at;
        if (distance[c] <= 0) continue;
        int pos = pos_of(g, g->role_side, c, m);
        for (int k = g->succ_ptr[pos]; k < g->succ_ptr[pos + 1]; k++) {
            int t = cell_of(g, g->succ[k], g->role);
            if (distance[t] == distance[c] - 1) dag[at++] = t;
        }
    }
    dag_ptr[n] = at;
    for (int d = 0; d < tail; d++) {      /* the queue holds the cells by distance */
        int c = queue[d];
        if (distance[c] == 0) {
            paths[c] = 1;
            continue;
        }
        int64_t total = 0;
        for (int k = dag_ptr[c]; k < dag_ptr[c + 1]; k++) total += paths[dag[k]];
        paths[c] = total > BIG ? BIG : total;
    }
}

/* - Buffers --- */

static int view(PyObject *obj, Py_buffer *buf, int writable, Py_ssize_t item) {
    if (PyObject_GetBuffer(obj, buf, writable ? PyBUF_WRITABLE : PyBUF_SIMPLE) < 0) return 0;
    if (buf->len % item) {
        PyErr_SetString(PyExc_ValueError, "layoutkernel: a buffer of the wrong item size");
        PyBuffer_Release(buf);
        return 0;
    }
    return 1;
}

#define BUFFERS 18

static PyObject *judge(PyObject *self, PyObject *args) {
    PyObject *objs[BUFFERS];
    int natoms, turns, n, role, role_side, levels, remaining, limit, low, high, survey;
    if (!PyArg_ParseTuple(args, "iOOOOOOOOOOOOOOOOOOiiiiiiiiii", &natoms, &objs[0], &objs[1], &objs[2], &objs[3],
                          &objs[4], &objs[5], &objs[6], &objs[7], &objs[8], &objs[9], &objs[10], &objs[11], &objs[12],
                          &objs[13], &objs[14], &objs[15], &objs[16], &objs[17], &turns, &n, &role, &role_side,
                          &levels, &remaining, &limit, &low, &high, &survey))
        return NULL;
    /* rule_head, body_ptr, body, ext_atom (i32); inputs (u8); move atom, piece, from, aim, dest (i32);
     * end atom, position, index (i32); turn mover, turn avoid (i32); end flags (u8: 1 race target,
     * 2 role's goal); attack (u8); rank (i32, out); paths and winning (i32, out) share one buffer. */
    static const int sizes[BUFFERS] = {4, 4, 4, 4, 1, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 1, 1, 4};
    static const int writable[BUFFERS] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    Py_buffer b[BUFFERS];
    int got = 0;
    for (; got < BUFFERS; got++)
        if (!view(objs[got], &b[got], writable[got], sizes[got])) break;
    PyObject *result = NULL;
    if (got < BUFFERS) goto release;
    if (n > 64 || turns > MAX_TURNS || turns < 1 || role < 0 || role > 1) {
        PyErr_SetString(PyExc_ValueError, "layoutkernel: two pieces, at most 64 cells and 8 turns entries");
        goto release;
    }
    const int32_t *head = b[0].buf, *body_ptr = b[1].buf, *body = b[2].buf, *ext = b[3].buf;
    const uint8_t *inputs = b[4].buf;
    const int32_t *mv_atom = b[5].buf, *mv_piece = b[6].buf, *mv_from = b[7].buf, *mv_aim = b[8].buf,
                  *mv_dest = b[9].buf, *end_atom = b[10].buf, *end_pos = b[11].buf, *end_index = b[12].buf,
                  *mover = b[13].buf, *avoid = b[14].buf;
    const uint8_t *end_flags = b[15].buf, *attack = b[16].buf;
    int32_t *out = b[17].buf;
    Py_ssize_t rules = b[0].len / 4, exts = b[3].len / 4, moves = b[5].len / 4, ends = b[10].len / 4;
    int positions = turns * n * n, ncodes = (int)(b[15].len);
    if (b[17].len / 4 < positions + 2 * n * n || b[4].len < exts || ncodes > 127) {
        PyErr_SetString(PyExc_ValueError, "layoutkernel: buffers of the wrong length");
        goto release;
    }
    int32_t *rank = out, *paths_out = out + positions, *winning_out = out + positions + n * n;
    uint8_t goal[128];
    for (int e = 0; e < ncodes; e++) goal[e] = (end_flags[e] & 2) != 0;

    uint8_t *value = calloc(natoms + 1, 1);
    int8_t *outcome = malloc(positions);
    int32_t *table_ptr = calloc(2 * n + 1, sizeof(int32_t)), *table = malloc((moves + 1) * 2 * sizeof(int32_t));
    int32_t *succ_ptr = malloc((positions + 1) * sizeof(int32_t)), *succ = malloc(((size_t)positions * MAX_MOVES + 1) * 4);
    int32_t *pred_ptr = malloc((positions + 1) * sizeof(int32_t)), *pred = NULL, *left = malloc(positions * 4);
    int32_t *distance = malloc(n * 4), *dag_ptr = malloc((n + 1) * 4), *dag = malloc(n * MAX_MOVES * 4),
            *queue = malloc(n * 4), *rev_ptr = malloc((n + 1) * 4), *rev = malloc(n * MAX_MOVES * 4),
            *rev_fill = malloc(n * 4);
    int64_t *paths = malloc(n * 8);
    Memo memo = {0};
    int ok = value && outcome && table_ptr && table && succ_ptr && succ && pred_ptr && left &&
             distance && dag_ptr && dag && queue && rev_ptr && rev && rev_fill && paths && memo_init(&memo);
    if (!ok) {
        PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    /* The circuit: the externals, then every rule in order (a fact's body is empty; atom 0 holds). */
    value[0] = 1;
    for (Py_ssize_t i = 0; i < exts; i++) value[ext[i]] = inputs[i] != 0;
    for (Py_ssize_t r = 0; r < rules; r++) {
        if (value[head[r]]) continue;
        int holds = 1;
        for (int k = body_ptr[r]; k < body_ptr[r + 1] && holds; k++) {
            int lit = body[k];
            holds = lit > 0 ? value[lit] : !value[-lit];
        }
        if (holds) value[head[r]] = 1;
    }
    /* Each piece's moves from each cell: (aimed cell, cell reached), distinct. */
    for (Py_ssize_t i = 0; i < moves; i++)
        if (value[mv_atom[i]]) table_ptr[mv_piece[i] * n + mv_from[i] + 1]++;
    for (int k = 0; k < 2 * n; k++) table_ptr[k + 1] += table_ptr[k];
    {
        int32_t *fill = malloc(2 * n * sizeof(int32_t));
        if (fill) {
            memcpy(fill, table_ptr, 2 * n * sizeof(int32_t));
            for (Py_ssize_t i = 0; i < moves; i++)
                if (value[mv_atom[i]]) {
                    int at = fill[mv_piece[i] * n + mv_from[i]]++;
                    table[2 * at] = mv_aim[i];
                    table[2 * at + 1] = mv_dest[i];
                }
            free(fill);
        } else ok = 0;
    }
    memset(outcome, -1, positions);
    for (Py_ssize_t i = 0; i < ends; i++)
        if (value[end_atom[i]]) outcome[end_pos[i]] = (int8_t)end_index[i];
    /* The distinct successors of every position. */
    int total = 0;
    for (int pos = 0; ok && pos < positions; pos++) {
        succ_ptr[pos] = total;
        if (outcome[pos] >= 0) continue;
        int side = pos / (n * n), cells[2] = {(pos / n) % n, pos % n}, piece = mover[side];
        int base = pos - side * n * n + ((side + 1) % turns) * n * n, stride = piece == 0 ? n : 1;
        base -= cells[piece] * stride;
        for (int k = table_ptr[piece * n + cells[piece]]; k < table_ptr[piece * n + cells[piece] + 1]; k++) {
            int aim = table[2 * k], dest = table[2 * k + 1];
            if ((avoid[side] & (1 << (1 - piece))) && aim == cells[1 - piece]) continue;
            int next = base + dest * stride, seen = 0;
            for (int j = succ_ptr[pos]; j < total && !seen; j++) seen = succ[j] == next;
            if (!seen && total - succ_ptr[pos] < MAX_MOVES) succ[total++] = next;
        }
    }
    succ_ptr[positions] = total;
    /* The race's ranks: the one ranker (retrograde.h), the side of each position attacking or not. */
    if (ok) {
        uint8_t *attacks = malloc(positions), *target = malloc(positions);
        ok = attacks && target && retro_predecessors(positions, succ_ptr, succ, NULL, pred_ptr, &pred, left);
        for (int pos = 0; ok && pos < positions; pos++) {
            attacks[pos] = attack[pos / (n * n)] != 0;
            target[pos] = outcome[pos] >= 0 && (end_flags[outcome[pos]] & 1);
        }
        if (ok) ok = retro_ranks(positions, pred_ptr, pred, attacks, target, left, NULL, levels, -1, rank) >= 0;
        free(attacks);
        free(target);
    }
    /* Every start of the band: its shortest paths, and how many win against every reply. */
    for (int k = 0; k < 2 * n * n; k++) paths_out[k] = -1;      /* and winning_out, which follows it */
    if (ok && survey) {
        Game g = {turns, n, role, 1 - role, role_side, remaining, limit, succ_ptr, succ, outcome, goal};
        Paths p = {distance, dag_ptr, dag, paths};
        for (int m = 0; m < n && ok; m++) {
            int ready = 0;
            for (int c = 0; c < n; c++) {
                int start = pos_of(&g, 0, c, m), r = rank[start];
                if (c == m || r < 0 || r < low || r > high) continue;
                if (!ready) {
                    shortest_paths(&g, m, distance, dag_ptr, dag, paths, queue, rev_ptr, rev, rev_fill);
                    memo_clear(&memo);
                    ready = 1;
                }
                int index = start;        /* side 0: the position's number is c0 * n + c1 */
                if (distance[c] < 0) {
                    paths_out[index] = winning_out[index] = 0;
                    continue;
                }
                int64_t capped = paths[c] < limit ? paths[c] : limit, won;
                uint64_t mask = (uint64_t)1 << m;
                int opening = settle(&g, c, &mask, 0, 0);
                if (opening == WON || opening == LOST) won = opening == WON ? capped : 0;
                else {
                    int failed = 0;
                    won = winning(&g, &p, &memo, c, mask, opening, &failed);
                    if (failed) ok = 0;
                    if (won > capped) won = capped;
                }
                paths_out[index] = (int32_t)capped;
                winning_out[index] = (int32_t)won;
            }
        }
    }
    Py_END_ALLOW_THREADS
    if (!ok) PyErr_NoMemory();
    else result = PyLong_FromLong(succ_ptr[positions]);
done:
    free(value); free(outcome); free(table_ptr); free(table); free(succ_ptr); free(succ); free(pred_ptr);
    free(pred); free(left); free(distance); free(dag_ptr); free(dag);
    free(queue); free(rev_ptr); free(rev); free(rev_fill); free(paths);
    memo_free(&memo);
release:
    for (int i = 0; i < got; i++) PyBuffer_Release(&b[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"judge", judge, METH_VARARGS,
     "judge(natoms, rule_head, body_ptr, body, ext_atom, inputs, move_atom, move_piece, move_from, move_aim, "
     "move_dest, end_atom, end_pos, end_index, mover, avoid, end_flags, attack, out, turns, n, role, role_side, "
     "levels, remaining, limit, low, high, survey) -> successors; out: ranks of every position, then paths and "
     "winning paths of each start (-1: not surveyed)"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "layoutkernel", "Every start of a layout judged in C.",
                                    -1, methods};

PyMODINIT_FUNC PyInit_layoutkernel(void) { return PyModule_Create(&module); }
