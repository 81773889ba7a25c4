/* - Searching depth-first: one question forced within a horizon, one call ---
 *
 * Included by circuitkernel.c (after its Machine, Bytes, Table and run_levels): the C twin of
 * the depth-first search of gridsolve/gdl/depthsearch.py, with the same meaning and the same
 * line.  A question is a target for one role: an end hits where its goal for the role lies in
 * [low, high]; ``own_attacks``: the role needs one move forced (else every move); ``others_attack``:
 * after the role's move, the others need one joint move forced (else every one).
 *
 * Reads:
 *   the circuit (Circuit.flat), the game's rows (as explore reads them), the root (packed
 *   fluents), the role, the target, the horizon (-1: none), the deepest depth and the limits'
 *   callback ``check(states, bytes held)`` called every ``check_every`` states judged.
 * Derives:
 *   forced(s, d): whether the target's side forces a hit from state s within d steps, and whether
 *   a false answer depended on d (a state cut off at 0 steps left, ``CUT``).  Iterative deepening
 *   from 0 steps, one at a time, up to the horizon (without one, until no state was cut): the first
 *   depth forced is the fewest steps.  A transposition table per state keeps the depth proven not
 *   enough (lo; DEEP where no state was cut), the depth proven enough (hi) and the move that
 *   decided last (tried first, then the moves by their history: the depths squared of the searches
 *   they decided); among the others' answers those whose answer is known to decide come first.
 *   A state is judged (terminal, goal, legal moves) when first found, its siblings in one
 *   evaluation; expanded (every joint move's next state) when first searched, in one more.  Each
 *   evaluation runs only the rules its outputs depend on (a cone: the judging rows' or the next
 *   rows') and clears only the rows they write.
 *   The line of the fewest steps: the attackers hurry, the defenders delay (depthsearch.line).
 */

#define DEEP (1 << 30)
#define WON 1
#define CUT 2
#define FAILED (-1)

typedef struct {
    int64_t *level_start, *head, *rule_start, *lit_row, *clear;
    uint8_t *recursive, *lit_neg;
    Py_ssize_t levels, clears;
} Cone;

typedef struct {
    int64_t first_group;    /* its groups (one a move of the role) in ``groups``; -1 not expanded */
    int32_t groups, legal_count, lo, hi, best, goal;
    uint8_t terminal;
} StateInfo;

typedef struct {
    int64_t first_child;    /* in ``children`` */
    int32_t count, own;     /* its children; the role's move (its number among the role's) */
} Group;

typedef struct {
    int64_t state, joint;   /* the state after; the joint move's code (explore's) */
} Child;

typedef struct {
    Machine m;
    Cone judge, next;
    Bytes keys, info, legal, groups, children, scratch;
    Table table;
    int64_t count, last_check, visits, expanded, *history_own, *history_joint;
    size_t kept;            /* the bytes of the other targets' tables (kept by the open search) */
    Py_ssize_t role, moves, check_every;
    int own_attacks, others_attack;
    int64_t low, high;
    PyObject *check;
    uint8_t *key;
} Search;

#define HISTORY 65536       /* joint moves' history slots (a code modulo: a collision only reorders) */

static StateInfo *info_of(Search *S, int64_t s) { return (StateInfo *)S->info.data + s; }

static void free_cone(Cone *c) {
    free(c->level_start), free(c->head), free(c->rule_start), free(c->lit_row), free(c->clear);
    free(c->recursive), free(c->lit_neg);
}

/* The rules of the machine's circuit that the rows ``wanted`` depend on, as a circuit of their own. */
static int make_cone(const Machine *m, const int64_t *wanted, Py_ssize_t n, Cone *c) {
    Py_ssize_t rules = m->level_start[m->levels];
    uint8_t *need = calloc(m->size, 1), *keep = calloc(rules ? rules : 1, 1);
    if (!need || !keep) { free(need), free(keep); return 0; }
    for (Py_ssize_t k = 0; k < n; k++) if (wanted[k] >= 0) need[wanted[k]] = 1;
    for (Py_ssize_t level = m->levels - 1; level >= 0; level--) {
        int changed;
        do {            /* (a level that recurs: its rules read heads of its own) */
            changed = 0;
            for (int64_t r = m->level_start[level]; r < m->level_start[level + 1]; r++) {
                if (keep[r] || !need[m->head[r]]) continue;
                keep[r] = 1, changed = 1;
                for (int64_t k = m->rule_start[r]; k < m->rule_start[r + 1]; k++) need[m->lit_row[k]] = 1;
            }
        } while (m->recursive[level] && changed);
    }
    Py_ssize_t kept = 0, lits = 0;
    for (Py_ssize_t r = 0; r < rules; r++)
        if (keep[r]) kept++, lits += m->rule_start[r + 1] - m->rule_start[r];
    c->level_start = malloc((m->levels + 1) * 8), c->recursive = malloc(m->levels + 1);
    c->head = malloc((kept + 1) * 8), c->rule_start = malloc((kept + 1) * 8), c->clear = malloc((kept + 1) * 8);
    c->lit_row = malloc((lits + 1) * 8), c->lit_neg = malloc(lits + 1);
    int ok = c->level_start && c->recursive && c->head && c->rule_start && c->clear && c->lit_row && c->lit_neg;
    Py_ssize_t r2 = 0, k2 = 0, levels = 0;
    if (ok) {
        c->level_start[0] = 0;
        for (Py_ssize_t level = 0; level < m->levels; level++) {
            Py_ssize_t before = r2;
            for (int64_t r = m->level_start[level]; r < m->level_start[level + 1]; r++) {
                if (!keep[r]) continue;
                c->head[r2] = m->head[r], c->rule_start[r2] = k2;
                for (int64_t k = m->rule_start[r]; k < m->rule_start[r + 1]; k++)
                    c->lit_row[k2] = m->lit_row[k], c->lit_neg[k2++] = m->lit_neg[k];
                r2++;
            }
            if (r2 > before) c->recursive[levels] = m->recursive[level], c->level_start[++levels] = r2;
        }
        c->rule_start[r2] = k2;
        c->levels = levels;
        /* The rows the cone writes, each once (a head's rules are next to each other in a level). */
        c->clears = 0;
        memset(need, 0, m->size);
        for (Py_ssize_t r = 0; r < r2; r++)
            if (!need[c->head[r]]) need[c->head[r]] = 1, c->clear[c->clears++] = c->head[r];
    }
    free(need), free(keep);
    return ok;
}

/* Zero the cone's rows and every input row (fluents' true, moves' does): the facts stay set. */
static void clear_cone(Search *S, const Cone *c) {
    Machine *m = &S->m;
    for (Py_ssize_t k = 0; k < c->clears; k++) m->out[c->clear[k]] = 0;
    for (Py_ssize_t f = 0; f < m->fluents; f++) if (m->true_rows[f] >= 0) m->out[m->true_rows[f]] = 0;
    for (Py_ssize_t k = 0; k < S->moves; k++) if (m->does_rows[k] >= 0) m->out[m->does_rows[k]] = 0;
}

static void run_cone(Search *S, const Cone *c) {
    run_levels(c->levels, c->level_start, c->recursive, c->head, c->rule_start, c->lit_row, c->lit_neg, S->m.out, 1,
               S->m.acc);
}

/* The limits' callback every ``check_every`` states (0: an exception raised, the search stops). */
static int check_limits(Search *S) {
    if (S->check == Py_None || S->count - S->last_check < S->check_every) return 1;
    S->last_check = S->count;
    size_t held = S->keys.cap + S->info.cap + S->legal.cap + S->groups.cap + S->children.cap + S->table.cap * 8 +
                  S->scratch.cap + S->kept;
    PyObject *bytes = PyLong_FromSize_t(held);
    PyObject *back = bytes ? PyObject_CallFunction(S->check, "LO", (long long)S->count, bytes) : NULL;
    Py_XDECREF(bytes);
    if (!back) return 0;
    Py_DECREF(back);
    return 1;
}

/* Judge states first .. last - 1 (terminal, the role's goal, legal moves), 64 at a time. */
static int judge(Search *S, int64_t first, int64_t last) {
    Machine *m = &S->m;
    for (int64_t lo = first; lo < last; lo += 64) {
        int64_t hi = lo + 64 < last ? lo + 64 : last;
        clear_cone(S, &S->judge);
        for (int64_t s = lo; s < hi; s++) set_state(m, S->keys.data + s * m->width, s - lo);
        run_cone(S, &S->judge);
        if (!grow(&S->legal, (size_t)(hi - lo) * S->moves)) return 0;
        for (int64_t s = lo; s < hi; s++) {
            Py_ssize_t c = s - lo;
            StateInfo *in = info_of(S, s);
            in->terminal = (uint8_t)get_bit(m, m->terminal_row, c);
            in->goal = -1;
            for (int64_t k = m->goal_start[S->role]; k < m->goal_start[S->role + 1]; k++)
                if (get_bit(m, m->goal_rows[k], c)) in->goal = (int32_t)m->goal_values[k];
            uint8_t *mine = S->legal.data + s * S->moves;
            for (Py_ssize_t k = 0; k < S->moves; k++) mine[k] = (uint8_t)get_bit(m, m->legal_rows[k], c);
        }
        S->legal.len = (size_t)hi * S->moves;
    }
    return 1;
}

/* The number of the state ``key`` (a new one numbered, its info blank: judged by the caller). */
static int64_t state_of(Search *S, const uint8_t *key) {
    int64_t before = S->count, s = find_or_add(&S->table, &S->keys, S->m.width, key, &S->count);
    if (s >= before) {
        StateInfo blank = {-1, 0, 0, -1, DEEP, 0, -1, 0};
        if (!put(&S->info, &blank, sizeof blank)) return -2;
    }
    return s;
}

/* Expand state s: every joint move (role 0's move the slowest), its next state, grouped by the
 * role's move (in ascending order, as the joint moves first show them); the new states judged. */
static int expand(Search *S, int64_t s) {
    Machine *m = &S->m;
    if (info_of(S, s)->first_group >= 0) return 1;
    S->expanded++;
    Py_ssize_t roles = m->roles, stride = roles + 1;
    uint8_t *mine = malloc(S->moves + m->width);
    int64_t *chosen = malloc(roles * sizeof(int64_t));
    if (!mine || !chosen) { free(mine), free(chosen); return 0; }
    memcpy(mine, S->legal.data + s * S->moves, S->moves);
    uint8_t *own_key = mine + S->moves;
    memcpy(own_key, S->keys.data + s * m->width, m->width);
    /* The joint moves: (code, own move) pairs in ``scratch``. */
    S->scratch.len = 0;
    int empty = 0, ok = 1;
    int32_t legal_count = 0;
    for (int64_t k = m->move_start[S->role]; k < m->move_start[S->role + 1]; k++) legal_count += mine[k];
    for (Py_ssize_t r = 0; r < roles && !empty; r++) {
        chosen[r] = m->move_start[r];
        while (chosen[r] < m->move_start[r + 1] && !mine[chosen[r]]) chosen[r]++;
        empty = chosen[r] == m->move_start[r + 1];
    }
    while (!empty && ok) {
        ok = put(&S->scratch, chosen, roles * 8) && grow(&S->scratch, 8);
        if (!ok) break;
        S->scratch.len += 8;        /* (the slot of the state after) */
        Py_ssize_t r = roles - 1;
        for (; r >= 0; r--) {
            do chosen[r]++; while (chosen[r] < m->move_start[r + 1] && !mine[chosen[r]]);
            if (chosen[r] < m->move_start[r + 1]) break;
            chosen[r] = m->move_start[r];
            while (!mine[chosen[r]]) chosen[r]++;
        }
        empty = r < 0;
    }
    size_t joints = S->scratch.len / (stride * 8);
    int64_t first_new = S->count;
    /* Their next states, 64 at a time. */
    for (size_t p0 = 0; p0 < joints && ok; p0 += 64) {
        size_t p1 = p0 + 64 < joints ? p0 + 64 : joints;
        clear_cone(S, &S->next);
        const uint64_t all = p1 - p0 == 64 ? ~(uint64_t)0 : (((uint64_t)1 << (p1 - p0)) - 1);
        for (Py_ssize_t f = 0; f < m->fluents; f++)
            if (m->true_rows[f] >= 0 && ((own_key[f >> 3] >> (7 - (f & 7))) & 1)) m->out[m->true_rows[f]] = all;
        for (size_t p = p0; p < p1; p++) {
            const int64_t *joint = (const int64_t *)(S->scratch.data + p * stride * 8);
            for (Py_ssize_t r = 0; r < roles; r++) set_bit(m, m->does_rows[joint[r]], p - p0);
        }
        run_cone(S, &S->next);
        for (size_t p = p0; p < p1 && ok; p++) {
            memset(S->key, 0, m->width);
            for (Py_ssize_t f = 0; f < m->fluents; f++)
                if (get_bit(m, m->next_rows[f], p - p0)) S->key[f >> 3] |= (uint8_t)(0x80 >> (f & 7));
            int64_t to = state_of(S, S->key);
            ok = to >= 0;
            ((int64_t *)(S->scratch.data + p * stride * 8))[roles] = to;
        }
    }
    if (ok) ok = judge(S, first_new, S->count);
    /* Grouped by the role's move. */
    Py_ssize_t own_moves = m->move_start[S->role + 1] - m->move_start[S->role];
    int32_t *slot = malloc((own_moves + 1) * sizeof(int32_t));
    ok = ok && slot;
    int64_t first_group = S->groups.len / sizeof(Group), first_child = S->children.len / sizeof(Child);
    int32_t groups = 0;
    if (ok) {
        for (Py_ssize_t k = 0; k < own_moves; k++) slot[k] = -1;
        for (size_t p = 0; p < joints; p++) {       /* the groups, their order and sizes */
            const int64_t *joint = (const int64_t *)(S->scratch.data + p * stride * 8);
            int32_t own = (int32_t)(joint[S->role] - m->move_start[S->role]);
            if (slot[own] < 0) {
                Group g = {0, 0, own};
                slot[own] = groups++;
                ok = ok && put(&S->groups, &g, sizeof g);
            }
            if (ok) ((Group *)S->groups.data)[first_group + slot[own]].count++;
        }
        int64_t at = first_child;
        for (int32_t g = 0; g < groups && ok; g++) {
            Group *group = (Group *)S->groups.data + first_group + g;
            group->first_child = at, at += group->count, group->count = 0;
        }
        ok = ok && grow(&S->children, (size_t)joints * sizeof(Child));
        for (size_t p = 0; p < joints && ok; p++) {
            const int64_t *joint = (const int64_t *)(S->scratch.data + p * stride * 8);
            Group *group = (Group *)S->groups.data + first_group + slot[joint[S->role] - m->move_start[S->role]];
            int64_t code = 0;
            for (Py_ssize_t r = 0; r < roles; r++) code += (joint[r] - m->move_start[r]) * m->weights[r];
            Child child = {joint[roles], code};
            ((Child *)S->children.data)[group->first_child + group->count++] = child;
        }
        if (ok) S->children.len = (size_t)(first_child + joints) * sizeof(Child);
    }
    free(slot), free(mine), free(chosen);
    if (!ok) return 0;
    StateInfo *in = info_of(S, s);
    in->first_group = first_group, in->groups = groups, in->legal_count = legal_count;
    return check_limits(S) ? 1 : -1;
}

static int hit(const Search *S, int32_t goal) { return goal >= 0 && S->low <= goal && goal <= S->high; }

static int search_state(Search *S, int64_t s, int depth);

/* The role's move ``g`` (a group of s) committed: the others' answers (depth counts this step). */
static int search_choice(Search *S, int64_t s, int32_t g, int depth) {
    const Group group = ((Group *)S->groups.data)[info_of(S, s)->first_group + g];
    int32_t n = group.count, order[n > 0 ? n : 1], rank[n > 0 ? n : 1];
    int64_t hist[n > 0 ? n : 1];
    for (int32_t i = 0; i < n; i++) {
        const Child c = ((Child *)S->children.data)[group.first_child + i];
        const StateInfo *in = info_of(S, c.state);
        int decides;
        if (in->terminal) decides = hit(S, in->goal) == S->others_attack;
        else if (depth - 1 >= in->hi || depth - 1 <= in->lo) decides = (depth - 1 >= in->hi) == S->others_attack;
        else decides = -1;
        rank[i] = decides < 0 ? 1 : decides ? 0 : 2;
        hist[i] = S->history_joint[c.joint % HISTORY];
        int32_t j = i;          /* (insertion: rank ascending, history descending, stable) */
        while (j > 0 && (rank[order[j - 1]] > rank[i] || (rank[order[j - 1]] == rank[i] && hist[order[j - 1]] < hist[i])))
            order[j] = order[j - 1], j--;
        order[j] = i;
    }
    int cut = 0;
    for (int32_t k = 0; k < n; k++) {
        const Child c = ((Child *)S->children.data)[group.first_child + order[k]];
        int r = search_state(S, c.state, depth - 1);
        if (r < 0) return r;
        int won = r & WON;
        if (won == S->others_attack) {
            S->history_joint[c.joint % HISTORY] += (int64_t)depth * depth;
            return won ? WON : (r & CUT);
        }
        cut |= r & CUT;
    }
    return S->others_attack ? cut : WON;
}

static int search_state(Search *S, int64_t s, int depth) {
    StateInfo *in = info_of(S, s);
    if (in->terminal) return hit(S, in->goal) ? WON : 0;
    if (depth >= in->hi) return WON;
    if (depth <= in->lo) return in->lo < DEEP ? CUT : 0;
    if (depth <= 0) return CUT;
    S->visits++;
    int e = expand(S, s);
    if (e <= 0) return e == 0 ? (PyErr_NoMemory(), FAILED) : FAILED;
    in = info_of(S, s);
    int32_t n = in->groups, best = in->best;
    if (!n) {                   /* (no joint move: nothing forced, at any depth) */
        in->lo = DEEP;
        return 0;
    }
    int32_t order[n];
    const Group *groups = (Group *)S->groups.data + in->first_group;
    for (int32_t i = 0; i < n; i++) {       /* the moves by history (descending, stable) */
        int64_t h = S->history_own[groups[i].own];
        int32_t j = i;
        while (j > 0 && S->history_own[groups[order[j - 1]].own] < h) order[j] = order[j - 1], j--;
        order[j] = i;
    }
    if (best < n) {             /* the move that decided last, first */
        int32_t k = n - 1;
        while (k > 0 && order[k] != best) k--;
        for (; k > 0; k--) order[k] = order[k - 1];
        order[0] = best;
    }
    int cut = 0, result = !S->own_attacks;
    for (int32_t k = 0; k < n; k++) {
        int r = search_choice(S, s, order[k], depth);
        if (r < 0) return r;
        int won = r & WON;
        if (won == S->own_attacks) {
            in = info_of(S, s);
            in->best = order[k];
            S->history_own[((Group *)S->groups.data)[in->first_group + order[k]].own] += (int64_t)depth * depth;
            result = won, cut = won ? 0 : (r & CUT);
            break;
        }
        cut |= r & CUT;
    }
    in = info_of(S, s);
    if (result) {
        if (depth < in->hi) in->hi = depth;
        return WON;
    }
    int lo = cut ? depth : DEEP;
    if (lo > in->lo) in->lo = lo;
    return cut ? CUT : 0;
}

/* forced after the role commits to its move ``g`` (a group of s), within ``depth`` steps counting this one. */
static int search_after(Search *S, int64_t s, int32_t g, int depth) {
    if (depth <= 0) return CUT;
    int e = expand(S, s);
    if (e <= 0) return e == 0 ? (PyErr_NoMemory(), FAILED) : FAILED;
    return search_choice(S, s, g, depth);
}

/* The line forced in exactly ``steps`` steps from s (depthsearch.line): (code, state, the role's legal moves). */
static int search_line(Search *S, int64_t s, int steps, Bytes *line) {
    while (!info_of(S, s)->terminal && steps > 0) {
        int e = expand(S, s);
        if (e <= 0) return e == 0 ? (PyErr_NoMemory(), FAILED) : FAILED;
        int32_t groups = info_of(S, s)->groups, legal_count = info_of(S, s)->legal_count;
        int64_t pick_state = -1, pick_joint = 0;
        for (int32_t g = 0; g < groups && pick_state < 0; g++) {
            int r;
            if (S->own_attacks) {
                if ((r = search_after(S, s, g, steps)) < 0) return r;
                if (!(r & WON)) continue;
            } else {
                if ((r = search_after(S, s, g, steps - 1)) < 0) return r;
                if (r & WON) continue;
            }
            const Group group = ((Group *)S->groups.data)[info_of(S, s)->first_group + g];
            for (int32_t i = 0; i < group.count; i++) {
                const Child c = ((Child *)S->children.data)[group.first_child + i];
                int within = search_state(S, c.state, steps - 1), sooner = 0;
                if (within < 0) return within;
                if (steps >= 2 && (sooner = search_state(S, c.state, steps - 2)) < 0) return sooner;
                if (S->others_attack ? (within & WON) : ((within & WON) && !(sooner & WON))) {
                    pick_state = c.state, pick_joint = c.joint;
                    break;
                }
            }
        }
        if (pick_state < 0) {
            PyErr_SetString(PyExc_RuntimeError, "circuitkernel.search: no move of the line (the depth was not forced)");
            return FAILED;
        }
        int64_t step[3] = {pick_joint, pick_state, legal_count};
        if (!put(line, step, sizeof step)) return (PyErr_NoMemory(), FAILED);
        s = pick_state, steps--;
    }
    return 1;
}

/* - The searches of one role from one root: opened once, asked many targets, closed ---
 *
 * ``search_open`` reads the circuit and the game's rows (the buffers as explore reads them, kept
 * until closed), the terminal row, the role and the root, judges the root and returns the search as
 * a capsule; each ``search_run`` asks one target (the states judged and expanded so far kept: they
 * do not depend on the target); ``search`` is one run of a search of its own.  The table's bounds
 * (lo, hi, best) are facts about a state and the target alone, whatever the horizon or the move
 * committed: each target's are kept, set aside while another target is asked and set back when it
 * is asked again (its states found since, blank), so that asking a target again (another horizon,
 * a move committed, its line) deepens through what it proved before. */

#define NB 18

typedef struct {
    int32_t lo, hi, best;
} Bounds;

typedef struct {
    int own_attacks, others_attack;
    int64_t low, high;
    Bytes bounds;           /* a Bounds a state, the states found when it was set aside */
} TargetTable;

typedef struct {
    Search S;
    Py_buffer b[NB];
    int64_t start;
    Bytes targets;          /* the TargetTables asked so far */
    Py_ssize_t current;     /* the one in the StateInfos (-1: none yet) */
} OpenSearch;

static TargetTable *target_table(OpenSearch *O, Py_ssize_t k) { return (TargetTable *)O->targets.data + k; }

/* The current target's bounds set aside into its table; 0 where memory failed. */
static int set_aside(OpenSearch *O) {
    Search *S = &O->S;
    TargetTable *t = target_table(O, O->current);
    size_t before = t->bounds.cap;
    t->bounds.len = 0;
    if (!grow(&t->bounds, S->count * sizeof(Bounds))) return 0;
    Bounds *out = (Bounds *)t->bounds.data;
    for (int64_t s = 0; s < S->count; s++) {
        const StateInfo *in = info_of(S, s);
        out[s] = (Bounds){in->lo, in->hi, in->best};
    }
    t->bounds.len = S->count * sizeof(Bounds);
    S->kept += t->bounds.cap - before;
    return 1;
}

/* The StateInfos' bounds those of the target asked (its table, set back; a new target: blank); 0 where memory failed. */
static int switch_target(OpenSearch *O, int own_attacks, int others_attack, int64_t low, int64_t high) {
    Search *S = &O->S;
    Py_ssize_t n = O->targets.len / sizeof(TargetTable), k = 0;
    while (k < n && !(target_table(O, k)->own_attacks == own_attacks && target_table(O, k)->others_attack ==
                      others_attack && target_table(O, k)->low == low && target_table(O, k)->high == high)) k++;
    if (k == O->current) return 1;          /* (its bounds in place; the states found since, blank) */
    if (O->current >= 0 && !set_aside(O)) return 0;
    if (k == n) {
        TargetTable fresh = {own_attacks, others_attack, low, high, {0}};
        if (!put(&O->targets, &fresh, sizeof fresh)) return 0;
    }
    const TargetTable *t = target_table(O, k);
    int64_t saved = t->bounds.len / sizeof(Bounds);
    for (int64_t s = 0; s < S->count; s++) {
        StateInfo *in = info_of(S, s);
        Bounds b = s < saved ? ((const Bounds *)t->bounds.data)[s] : (Bounds){-1, DEEP, 0};
        in->lo = b.lo, in->hi = b.hi, in->best = b.best;
    }
    O->current = k;
    return 1;
}

static void free_search(OpenSearch *O) {
    Search *S = &O->S;
    Machine *m = &S->m;
    free(m->out), free(m->acc), free(S->key), free(S->history_own), free(S->history_joint), free(S->keys.data);
    free(S->info.data), free(S->legal.data), free(S->groups.data), free(S->children.data), free(S->scratch.data);
    free(S->table.slots);
    free_cone(&S->judge), free_cone(&S->next);
    for (Py_ssize_t k = 0; k < (Py_ssize_t)(O->targets.len / sizeof(TargetTable)); k++) free(target_table(O, k)->bounds.data);
    free(O->targets.data);
    for (int i = 0; i < NB; i++) PyBuffer_Release(&O->b[i]);
    free(O);
}

/* A search opened from ``args`` (the buffers, terminal_row, role), its root judged; NULL with an exception set. */
static OpenSearch *open_search(PyObject *args) {
    OpenSearch *O = calloc(1, sizeof(OpenSearch));
    if (!O) return (OpenSearch *)PyErr_NoMemory();
    Py_buffer *b = O->b;
    Search *S = &O->S;
    Machine *m = &S->m;
    O->current = -1;
    Py_ssize_t role;
    long long terminal_row;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*Ln", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5],
                          &b[6], &b[7], &b[8], &b[9], &b[10], &b[11], &b[12], &b[13], &b[14], &b[15], &b[16], &b[17],
                          &terminal_row, &role)) {
        free(O);
        return NULL;
    }
    m->words = 1, m->terminal_row = terminal_row, m->levels = b[1].len;
    m->level_start = b[0].buf, m->recursive = b[1].buf, m->head = b[2].buf, m->rule_start = b[3].buf;
    m->lit_row = b[4].buf, m->lit_neg = b[5].buf, m->fact_rows = b[6].buf, m->facts = b[6].len / 8;
    m->true_rows = b[7].buf, m->next_rows = b[8].buf, m->fluents = b[7].len / 8;
    m->move_start = b[9].buf, m->roles = b[9].len / 8 - 1, m->does_rows = b[10].buf, m->legal_rows = b[11].buf;
    m->goal_start = b[12].buf, m->goal_rows = b[13].buf, m->goal_values = b[14].buf, m->weights = b[15].buf;
    const uint8_t *root = b[16].buf;
    m->size = b[17].len == 8 ? ((const int64_t *)b[17].buf)[0] : 0;
    m->width = (m->fluents + 7) / 8;
    S->role = role;
    S->check = Py_None;
    S->moves = m->roles >= 0 ? m->move_start[m->roles] : 0;
    Py_ssize_t rules = m->levels >= 0 && b[0].len == 8 * (m->levels + 1) ? m->level_start[m->levels] : -1;
    int ok = m->roles > 0 && role >= 0 && role < m->roles && m->size > 0 && rules >= 0 && b[2].len == 8 * rules &&
             b[3].len == 8 * (rules + 1) && b[5].len * 8 == b[4].len && m->rule_start[rules] == b[5].len &&
             b[8].len == b[7].len && b[16].len == m->width && b[10].len == 8 * S->moves && b[11].len == 8 * S->moves &&
             b[12].len == b[9].len && b[15].len == 8 * m->roles && b[14].len == b[13].len && m->terminal_row < m->size;
    for (Py_ssize_t r = 0; ok && r < rules; r++) ok = m->head[r] >= 0 && m->head[r] < m->size;
    for (Py_ssize_t k = 0; ok && k < b[5].len; k++) ok = m->lit_row[k] >= 0 && m->lit_row[k] < m->size;
    for (Py_ssize_t f = 0; ok && f < m->fluents; f++) ok = m->true_rows[f] < m->size && m->next_rows[f] < m->size;
    for (Py_ssize_t k = 0; ok && k < S->moves; k++) ok = m->does_rows[k] < m->size && m->legal_rows[k] < m->size;
    for (Py_ssize_t k = 0; ok && k < b[13].len / 8; k++) ok = m->goal_rows[k] >= 0 && m->goal_rows[k] < m->size;
    for (Py_ssize_t k = 0; ok && k < m->facts; k++) ok = m->fact_rows[k] >= 0 && m->fact_rows[k] < m->size;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "circuitkernel.search_open: buffers of the wrong length or rows out of range");
        free_search(O);
        return NULL;
    }
    Py_ssize_t wanted_judge = 1 + (m->goal_start[role + 1] - m->goal_start[role]) + S->moves;
    int64_t *wanted = malloc((wanted_judge + m->fluents + 1) * 8);
    Py_ssize_t own_moves = m->move_start[role + 1] - m->move_start[role];
    m->out = malloc(m->size * sizeof(uint64_t)), m->acc = malloc(sizeof(uint64_t));
    S->key = malloc(m->width + 1);
    S->history_own = calloc(own_moves + 1, sizeof(int64_t)), S->history_joint = calloc(HISTORY, sizeof(int64_t));
    int failed = !(wanted && m->out && m->acc && S->key && S->history_own && S->history_joint);
    if (!failed) {
        Py_ssize_t n = 0;
        wanted[n++] = m->terminal_row;
        for (int64_t k = m->goal_start[role]; k < m->goal_start[role + 1]; k++) wanted[n++] = m->goal_rows[k];
        for (Py_ssize_t k = 0; k < S->moves; k++) wanted[n++] = m->legal_rows[k];
        failed = !make_cone(m, wanted, n, &S->judge) || !make_cone(m, m->next_rows, m->fluents, &S->next);
    }
    free(wanted);
    if (!failed) {
        clear_rows(m);          /* (row 0 and the facts, once: the cones clear only what they write) */
        O->start = state_of(S, root);
        failed = O->start < 0 || !judge(S, 0, S->count);
    }
    if (failed) {
        PyErr_NoMemory();
        free_search(O);
        return NULL;
    }
    return O;
}

/* One target asked of an open search (``args``: own_attacks, others_attack, low, high, horizon,
 * deepest, check_every, check[, own_move]): its answer (below), NULL with an exception set. */
static PyObject *run_search(OpenSearch *O, PyObject *args) {
    Search *S = &O->S;
    Machine *m = &S->m;
    Py_ssize_t horizon, deepest, check_every, own_move = -1;
    int own_attacks, others_attack;
    long long low, high;
    PyObject *check;
    if (!PyArg_ParseTuple(args, "ppLLnnnO|n", &own_attacks, &others_attack, &low, &high, &horizon, &deepest,
                          &check_every, &check, &own_move))
        return NULL;
    S->own_attacks = own_attacks, S->others_attack = others_attack, S->low = low, S->high = high;
    S->check = check, S->check_every = check_every > 0 ? check_every : 1, S->last_check = S->count;
    S->visits = 0;
    if (!switch_target(O, own_attacks, others_attack, low, high)) return PyErr_NoMemory();
    memset(S->history_own, 0, (m->move_start[S->role + 1] - m->move_start[S->role] + 1) * sizeof(int64_t));
    memset(S->history_joint, 0, HISTORY * sizeof(int64_t));
    int64_t start = O->start;
    PyObject *result = NULL;
    Bytes line = {0}, line_keys = {0};
    /* Deepening one step at a time: the first depth forced is the fewest steps. */
    long long plies = -1;
    int too_deep = 0;
    for (Py_ssize_t depth = 0; horizon < 0 || depth <= horizon; depth++) {
        if (depth > deepest) {
            too_deep = 1;
            break;
        }
        int r;
        if (own_move < 0) r = search_state(S, start, (int)depth);
        else if (depth == 0) r = CUT;           /* (the move's step needs one) */
        else if ((r = expand(S, start)) <= 0) {
            if (r == 0) PyErr_NoMemory();
            goto done;
        } else if (info_of(S, start)->terminal || own_move >= info_of(S, start)->groups) {
            PyErr_SetString(PyExc_ValueError, "circuitkernel.search: no such move of the role at the root");
            goto done;
        } else r = search_after(S, start, (int32_t)own_move, (int)depth);
        if (r < 0) goto done;
        if (r & WON) {
            plies = depth;
            break;
        }
        if (!(r & CUT)) break;
    }
    if (plies >= 0 && own_move < 0 && search_line(S, start, (int)plies, &line) < 0) goto done;
    for (size_t k = 0; k < line.len / 24; k++)
        if (!put(&line_keys, S->keys.data + ((int64_t *)line.data)[3 * k + 1] * m->width, m->width)) {
            PyErr_NoMemory();
            goto done;
        }
    /* plies (-1 none, -2 deeper than ``deepest``), the line's steps (int64: the joint move's code,
     * the state after's number, the role's legal moves before), the keys of the states after
     * (packed fluents), and the states judged, expanded (both so far, over the runs) and searched */
    result = Py_BuildValue("Ly#y#LLL", too_deep ? -2LL : plies, (char *)line.data, (Py_ssize_t)line.len,
                           (char *)line_keys.data, (Py_ssize_t)line_keys.len, (long long)S->count,
                           (long long)S->expanded, (long long)S->visits);
done:
    S->check = Py_None;
    free(line.data), free(line_keys.data);
    return result;
}

static void close_capsule(PyObject *capsule) {
    OpenSearch *O = PyCapsule_GetPointer(capsule, "circuitkernel.search");
    if (O) free_search(O);
}

static PyObject *search_open(PyObject *self, PyObject *args) {
    OpenSearch *O = open_search(args);
    if (!O) return NULL;
    PyObject *capsule = PyCapsule_New(O, "circuitkernel.search", close_capsule);
    if (!capsule) free_search(O);
    return capsule;
}

static PyObject *search_run(PyObject *self, PyObject *args) {
    Py_ssize_t n = PyTuple_Size(args);
    if (n < 1) {
        PyErr_SetString(PyExc_TypeError, "search_run(search, the target...)");
        return NULL;
    }
    OpenSearch *O = PyCapsule_GetPointer(PyTuple_GET_ITEM(args, 0), "circuitkernel.search");
    if (!O) return NULL;
    PyObject *rest = PyTuple_GetSlice(args, 1, n);
    if (!rest) return NULL;
    PyObject *result = run_search(O, rest);
    Py_DECREF(rest);
    return result;
}
