/* tapete_plugins.tricks._fast: the trick family's two commonest steps, in C.
 *
 * What a card game's random play, a search's rollouts and a learner's episodes do most in a
 * trick game is ask which cards may be played and play one that does not end the trick. Both
 * are written in Python in game.py (`Tricks.playable`, `Tricks.apply`) and stay the rules'
 * reference: this module does the same on the same state (the hand and trick lists, the
 * counters), and hands back to the Python code every case it does not settle itself:
 *
 *   legal() answers None when a zone holds what is not a card, or a counter what is not a
 *   number (a ban's condition, when it decides, is read from the counter it is the truth of,
 *   ``not broken``, or else by the game's Python: ``judge``);
 *   play() answers None for anything it cannot do exactly as Python would (a zone or a
 *   counter not as the family keeps them), having changed nothing.
 *
 * The module is optional, built where there is a C compiler; tests/tricks/test_fast.py
 * plays every trick variant both ways, move by move, and compares the states.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define MAX_CARDS 64
#define MAX_BANS 16
#define MAX_SEATS 16
#define FOLLOW_FREE 0
#define FOLLOW_MUST 1
#define FOLLOW_TRUMP 2

/* A rule's part as a plain read of the state (`tapete.rules.forms`), compiled: a node of a small tree. */
enum { F_CONST, F_COUNTER, F_SEAT, F_DEALER, F_SIDE_SUM, F_ADD, F_SUB, F_MUL, F_EQ, F_NE, F_LT, F_LE, F_GT, F_GE,
       F_NEXT, F_HOLDER };
#define MAX_FORM 64
#define MAX_PARTS 16
#define FORM_BOUND (1L << 40) /* beyond it a value is left to the script, whose numbers have no bound */

typedef struct {
    int kind;
    long value;     /* F_CONST; F_HOLDER: the card */
    PyObject *name; /* F_COUNTER: the counter's name; F_SIDE_SUM: each seat's counter name (borrowed) */
    int a, b;       /* an operation's two sides; F_NEXT: the seat and the steps; F_HOLDER: a = otherwise */
} FormNode;

typedef struct {
    PyObject_HEAD
    int ncards;
    unsigned char suit_of[MAX_CARDS];
    uint64_t suit_mask[8];
    int nsuits;
    int follow;
    uint64_t first_mask;
    uint64_t breaks;
    int nlead, nplay;
    uint64_t lead_ban[MAX_BANS];
    int lead_always[MAX_BANS];
    PyObject *lead_flag[MAX_BANS]; /* the counter whose truth is the ban's condition, or NULL */
    int lead_truth[MAX_BANS];      /* the condition holds when the counter's truth is this */
    uint64_t play_ban[MAX_BANS];
    int play_always[MAX_BANS];
    PyObject *play_flag[MAX_BANS];
    int play_truth[MAX_BANS];
    PyObject *judge; /* judge(state, seat, lead, index): the game reads a ban's condition (or NULL) */
    PyObject *k_play_word;
    /* the core's phase of hidden choices (the pass), or NULLs: the data key set while it lasts,
     * the move's word, the move choosing each card, and the zones "chosen.0", ... */
    PyObject *choosing_key, *pass_word, *pass_moves, *chosen_keys;
    /* the pass's end, or NULLs: passed(state) -> words, the game's play beginning once the chosen cards
     * are handed on (`Tricks._passed`); the counters whose truth leaves that last choice to Python
     * (the blind nil exchange's); the counter of seats the cards go on by */
    PyObject *passed, *pass_blocked, *k_pass_to;
    /* the pass's end without the game's Python, or leader_at -1: the ``leader`` rule's form (its node;
     * the tuple held, its names borrowed) and what is said of the pass by where it went, as
     * `Tricks.pass_way` words it (nowhere, to the left, to the right, across) */
    int leader_at;
    PyObject *leader_form, *pass_said;
    PyObject *plays;     /* tuple: the Action playing each card */
    PyObject *hand_keys; /* tuple: "hand.0", "hand.1", ... */
    int step;            /* seats the turn moves on by: 1 clockwise, -1 the other way */
    int draws;           /* the winner and then the others draw from the stock after a trick (BR-3.4) */
    unsigned char pos[MAX_CARDS]; /* each card's place in its suit's order: the higher wins */
    PyObject *names;     /* tuple: each card's name, for the words said when a trick is taken */
    PyObject *plays_of;  /* tuple: "plays NAME: seat " for each card, the words' first piece */
    PyObject *takes_of;  /* tuple: "N takes the trick (" for each seat, the second */
    PyObject *spaced, *closed; /* tuples: each card's name and " ", and its name and ")": the cards taken */
    PyObject *empty; /* "": what joins the pieces of the words */
    PyObject *taken_keys, *tricks_keys; /* tuples: "taken.0", ...; "tricks.0", ... */
    PyObject *phase_data, *phase_counters; /* tuples of keys: while any is set, another phase is on */
    PyObject *k_data, *k_over, *k_stock, *k_turned, *k_say, *k_show;
    PyObject *k_trick, *k_played, *k_trump, *k_lead, *k_broken, *one;
    PyObject *k_zones, *k_counters, *k_to_move, *k_players;
    /* the round of bids (OH-4, SP-3), or NULLs: the game's moves(state) -> the legal bids' moves (the
     * script's bans judged in Python); the move's word; each bid's word, by number; what is said of
     * each bid; each seat's bid counter; the counters of the round, of the bids' sum and of the bids made */
    PyObject *bid_moves, *k_bid_word, *bid_words, *bid_says, *bid_keys, *k_bidding, *k_bids, *k_bids_made;
    /* closed(state) -> None: after the last bid is recorded and the round ended, what follows begins (the
     * blind bidders' exchange or the play: `Bidding.closed`), or NULL: the last bid is Python's */
    PyObject *bids_closed;
    /* the legal bids without the script (`Bidding.plain`), or plain_bids 0: the rule's forms compiled
     * (`tapete.rules.forms`: bid_max's, and the parts `no_bid`'s key reads), the answers the game keeps
     * by key, each bid's move, the highest bid a move names, the seats on a side */
    int plain_bids, nforms, most_at, nparts, has_ban;
    int parts_at[MAX_PARTS];
    FormNode forms[MAX_FORM];
    PyObject *bid_plain; /* the tuple the forms' names are borrowed from */
    PyObject *bid_known, *bid_all_moves, *k_dealer;
    long bid_cap, teams;
    /* the state's class whose instances getattr reads from their own dict (see `plain_type`), or
     * NULL, and the version tag the class had when that was checked */
    PyTypeObject *plain;
    unsigned int plain_tag;
} Rules;

static PyTypeObject RulesType;

static int
Rules_traverse(Rules *self, visitproc visit, void *arg)
{
    Py_VISIT(self->judge); /* the game's bound method: the game holds these rules too */
    Py_VISIT(self->passed);
    Py_VISIT(self->bid_moves);
    Py_VISIT(self->bids_closed);
    Py_VISIT(self->bid_plain);
    Py_VISIT(self->bid_known);
    Py_VISIT(self->bid_all_moves);
    return 0;
}

static int
Rules_clear(Rules *self)
{
    Py_CLEAR(self->judge);
    Py_CLEAR(self->passed);
    Py_CLEAR(self->bid_moves);
    Py_CLEAR(self->bids_closed);
    self->plain_bids = 0;
    Py_CLEAR(self->bid_plain);
    Py_CLEAR(self->bid_known);
    Py_CLEAR(self->bid_all_moves);
    return 0;
}

static void
Rules_dealloc(Rules *self)
{
    PyObject_GC_UnTrack(self);
    Rules_clear(self);
    for (int i = 0; i < MAX_BANS; i++) {
        Py_XDECREF(self->lead_flag[i]);
        Py_XDECREF(self->play_flag[i]);
    }
    Py_XDECREF(self->k_play_word);
    Py_XDECREF(self->k_bid_word);
    Py_XDECREF(self->bid_words);
    Py_XDECREF(self->bid_says);
    Py_XDECREF(self->bid_keys);
    Py_XDECREF(self->k_bidding);
    Py_XDECREF(self->k_bids);
    Py_XDECREF(self->k_bids_made);
    Py_XDECREF(self->k_dealer);
    Py_XDECREF(self->choosing_key);
    Py_XDECREF(self->pass_word);
    Py_XDECREF(self->pass_moves);
    Py_XDECREF(self->chosen_keys);
    Py_XDECREF(self->plays);
    Py_XDECREF(self->hand_keys);
    Py_XDECREF(self->k_trick);
    Py_XDECREF(self->k_played);
    Py_XDECREF(self->k_trump);
    Py_XDECREF(self->k_lead);
    Py_XDECREF(self->k_broken);
    Py_XDECREF(self->one);
    Py_XDECREF(self->k_zones);
    Py_XDECREF(self->k_counters);
    Py_XDECREF(self->k_to_move);
    Py_XDECREF(self->k_players);
    Py_XDECREF(self->names);
    Py_XDECREF(self->plays_of);
    Py_XDECREF(self->takes_of);
    Py_XDECREF(self->spaced);
    Py_XDECREF(self->closed);
    Py_XDECREF(self->empty);
    Py_XDECREF(self->taken_keys);
    Py_XDECREF(self->tricks_keys);
    Py_XDECREF(self->phase_data);
    Py_XDECREF(self->phase_counters);
    Py_XDECREF(self->k_data);
    Py_XDECREF(self->k_over);
    Py_XDECREF(self->k_stock);
    Py_XDECREF(self->k_turned);
    Py_XDECREF(self->k_say);
    Py_XDECREF(self->k_show);
    Py_XDECREF(self->plain);
    Py_XDECREF(self->pass_blocked);
    Py_XDECREF(self->k_pass_to);
    Py_XDECREF(self->leader_form);
    Py_XDECREF(self->pass_said);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int
read_mask(PyObject *obj, uint64_t *out)
{
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

/* bans: a sequence of (mask, always) or (mask, always, flag) where flag is None or
 * (counter: str, truth: bool): the ban's condition holds when the counter's truth is ``truth``. */
static int
read_bans(PyObject *seq, uint64_t *masks, int *always, PyObject **flags, int *truths, int *count)
{
    PyObject *fast = PySequence_Fast(seq, "bans must be a sequence");
    if (fast == NULL) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAX_BANS) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many bans for the fast path");
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *pair = PySequence_Fast_GET_ITEM(fast, i);
        PyObject *mask, *flag, *reads = Py_None;
        if (!PyArg_ParseTuple(pair, "OO|O", &mask, &flag, &reads) || read_mask(mask, &masks[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        int truth = PyObject_IsTrue(flag);
        if (truth < 0) {
            Py_DECREF(fast);
            return -1;
        }
        always[i] = truth;
        if (reads != Py_None) {
            PyObject *key;
            int want;
            if (!PyArg_ParseTuple(reads, "O!p", &PyUnicode_Type, &key, &want)) {
                Py_DECREF(fast);
                return -1;
            }
            Py_INCREF(key);
            Py_XSETREF(flags[i], key);
            truths[i] = want;
        }
    }
    *count = (int)n;
    Py_DECREF(fast);
    return 0;
}

/* Rules(suit_of: bytes, suit_masks: tuple[int], follow: int, first_mask: int, breaks: int,
 *       lead_bans, play_bans, plays: tuple[Action], hand_keys: tuple[str], step: int,
 *       pos: bytes, names: tuple[str], taken_keys: tuple[str], tricks_keys: tuple[str], draws: bool,
 *       phase_data: tuple[str], phase_counters: tuple[str][, judge[, choices]]) where choices is
 *       None or (data key: str, move word: str, moves: tuple[Action] a card, chosen zones: tuple[str]) */
/* ``form`` compiled into r->forms: its node's index, -1 when it is not a form read here (the rules then
 * leave the bids to the script), -2 on an error. The names stay borrowed from the tuple r->bid_plain. */
static int
form_read(Rules *r, PyObject *form, int depth)
{
    if (!PyTuple_Check(form) || PyTuple_GET_SIZE(form) < 1 || !PyUnicode_Check(PyTuple_GET_ITEM(form, 0)) ||
        r->nforms >= MAX_FORM || depth > 16) {
        return -1;
    }
    const char *kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(form, 0));
    if (kind == NULL) {
        return -2;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(form);
    /* the operations on two forms; ``next`` too: (seat + step * steps) % players */
    static const char *ops[] = {"+", "-", "*", "==", "!=", "<", "<=", ">", ">=", "next"};
    static const int op_kinds[] = {F_ADD, F_SUB, F_MUL, F_EQ, F_NE, F_LT, F_LE, F_GT, F_GE, F_NEXT};
    FormNode node = {0, 0, NULL, -1, -1};
    if (strcmp(kind, "const") == 0 && size == 2 && PyLong_Check(PyTuple_GET_ITEM(form, 1))) {
        int overflow = 0;
        node.kind = F_CONST;
        node.value = PyLong_AsLongAndOverflow(PyTuple_GET_ITEM(form, 1), &overflow);
        if (node.value == -1 && PyErr_Occurred()) {
            return -2;
        }
        if (overflow || node.value > FORM_BOUND || node.value < -FORM_BOUND) {
            return -1;
        }
    } else if (strcmp(kind, "counter") == 0 && size == 2 && PyUnicode_CheckExact(PyTuple_GET_ITEM(form, 1))) {
        node.kind = F_COUNTER, node.name = PyTuple_GET_ITEM(form, 1);
    } else if (strcmp(kind, "seat") == 0 && size == 1) {
        node.kind = F_SEAT;
    } else if (strcmp(kind, "dealer") == 0 && size == 1) {
        node.kind = F_DEALER;
    } else if (strcmp(kind, "side_sum") == 0 && size == 2 && PyTuple_CheckExact(PyTuple_GET_ITEM(form, 1)) &&
               PyTuple_GET_SIZE(PyTuple_GET_ITEM(form, 1)) >= PyTuple_GET_SIZE(r->hand_keys)) {
        PyObject *names = PyTuple_GET_ITEM(form, 1);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); i++) {
            if (!PyUnicode_CheckExact(PyTuple_GET_ITEM(names, i))) {
                return -1;
            }
        }
        node.kind = F_SIDE_SUM, node.name = names;
    } else if (strcmp(kind, "holder") == 0 && size == 3 && PyLong_CheckExact(PyTuple_GET_ITEM(form, 1))) {
        long card = PyLong_AsLong(PyTuple_GET_ITEM(form, 1));
        if (card == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return -1;
        }
        if (card < 0 || card >= r->ncards) {
            return -1;
        }
        int a = form_read(r, PyTuple_GET_ITEM(form, 2), depth + 1);
        if (a < 0) {
            return a;
        }
        node.kind = F_HOLDER, node.value = card, node.a = a;
    } else {
        int found = -1;
        for (int i = 0; i < 10; i++) {
            if (strcmp(kind, ops[i]) == 0) {
                found = op_kinds[i];
            }
        }
        if (found < 0 || size != 3) {
            return -1;
        }
        int a = form_read(r, PyTuple_GET_ITEM(form, 1), depth + 1);
        if (a < 0) {
            return a;
        }
        int b = form_read(r, PyTuple_GET_ITEM(form, 2), depth + 1);
        if (b < 0) {
            return b;
        }
        node.kind = found, node.a = a, node.b = b;
    }
    if (r->nforms >= MAX_FORM) {
        return -1;
    }
    r->forms[r->nforms] = node;
    return r->nforms++;
}

/* `Bidding.plain`'s tuple read: (each bid's move, the answers kept by key, the highest bid a move names,
 * bid_max's form, the forms of the parts no_bid's key reads or None without a ban, the seats on a side).
 * 0 when the rules cannot answer the bids themselves (the script then does), -1 on an error. */
static int
plain_bids_read(Rules *r, PyObject *plain)
{
    PyObject *moves, *known, *most, *parts;
    long cap, teams;
    if (!PyArg_ParseTuple(plain, "O!O!lOOl", &PyTuple_Type, &moves, &PyDict_Type, &known, &cap, &most, &parts,
                          &teams)) {
        return -1;
    }
    if (cap < 0 || cap >= PyTuple_GET_SIZE(moves) || teams < 0 || teams > MAX_SEATS ||
        (parts != Py_None && (!PyTuple_Check(parts) || PyTuple_GET_SIZE(parts) > MAX_PARTS))) {
        return 0;
    }
    r->bid_plain = Py_NewRef(plain); /* holds the forms whose names the nodes borrow */
    int at = form_read(r, most, 0);
    if (at < 0) {
        return at == -2 ? -1 : 0;
    }
    r->most_at = at;
    r->has_ban = parts != Py_None;
    r->nparts = r->has_ban ? (int)PyTuple_GET_SIZE(parts) : 0;
    for (int i = 0; i < r->nparts; i++) {
        at = form_read(r, PyTuple_GET_ITEM(parts, i), 0);
        if (at < 0) {
            return at == -2 ? -1 : 0;
        }
        r->parts_at[i] = at;
    }
    r->bid_known = Py_NewRef(known), r->bid_all_moves = Py_NewRef(moves);
    r->bid_cap = cap, r->teams = teams;
    r->plain_bids = 1;
    return 0;
}

/* An exact int read as a long within FORM_BOUND: 1, or 0 when it is not one (left to the script). */
static int
form_long(PyObject *v, long *out)
{
    if (!PyLong_CheckExact(v)) {
        return 0;
    }
    int overflow = 0;
    long x = PyLong_AsLongAndOverflow(v, &overflow);
    if (overflow || x > FORM_BOUND || x < -FORM_BOUND) {
        PyErr_Clear();
        return 0;
    }
    *out = x;
    return 1;
}

/* A counter as `forms.value` reads it (0 when not set): 1, 0 when not a plain number, -1 on an error. */
static int
form_counter(PyObject *counters, PyObject *name, long *out)
{
    PyObject *v = PyDict_GetItemWithError(counters, name);
    if (v == NULL) {
        if (PyErr_Occurred()) {
            return -1;
        }
        *out = 0;
        return 1;
    }
    return form_long(v, out);
}

static inline long small_value(PyObject *item);

/* What the node ``at`` reads, for the seat ``seat`` (-1: a deal-wide rule, which reads no seat) of a state
 * whose instance dict (or NULL: not read from it), zones and counters are given: 1 with *out set, 0 when a
 * value is not one read here (left to the script), -1 on an error. */
static int
form_value(Rules *r, int at, PyObject *dict, PyObject *zones, PyObject *counters, long players, long seat, long *out)
{
    const FormNode *node = &r->forms[at];
    long a, b;
    int ok;
    switch (node->kind) {
    case F_CONST:
        *out = node->value;
        return 1;
    case F_COUNTER:
        return form_counter(counters, node->name, out);
    case F_SEAT:
        *out = seat;
        return seat >= 0;
    case F_DEALER: {
        if (dict == NULL) {
            return 0;
        }
        PyObject *v = PyDict_GetItemWithError(dict, r->k_dealer);
        return v == NULL ? (PyErr_Occurred() ? -1 : 0) : form_long(v, out);
    }
    case F_SIDE_SUM: { /* Game.team_seats: the seat alone without teams, else every teams-th seat from its own */
        long sum = 0;
        long first = r->teams ? seat % r->teams : seat, by = r->teams ? r->teams : players;
        for (long k = first; k < players; k += by) {
            long v;
            ok = form_counter(counters, PyTuple_GET_ITEM(node->name, k), &v);
            if (ok <= 0) {
                return ok;
            }
            sum += v;
        }
        if (sum > FORM_BOUND || sum < -FORM_BOUND) {
            return 0;
        }
        *out = sum;
        return 1;
    }
    case F_HOLDER: /* the first seat whose hand holds the card (`card in zones["hand.N"]`), else otherwise */
        for (long k = 0; k < players; k++) {
            PyObject *hand = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->hand_keys, k));
            if (hand == NULL || !PyList_CheckExact(hand)) {
                return PyErr_Occurred() ? -1 : 0; /* no such hand, or not a list: the script's KeyError, or its `in` */
            }
            for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hand); i++) {
                long c = small_value(PyList_GET_ITEM(hand, i));
                if (c < 0) {
                    return 0; /* not a card as the family keeps them: `in` is the script's */
                }
                if (c == node->value) {
                    *out = k;
                    return 1;
                }
            }
        }
        return form_value(r, node->a, dict, zones, counters, players, seat, out);
    default:
        break;
    }
    ok = form_value(r, node->a, dict, zones, counters, players, seat, &a);
    if (ok <= 0) {
        return ok;
    }
    ok = form_value(r, node->b, dict, zones, counters, players, seat, &b);
    if (ok <= 0) {
        return ok;
    }
    switch (node->kind) {
    case F_ADD: *out = a + b; break;
    case F_SUB: *out = a - b; break;
    case F_MUL:
        if ((a > (1L << 20) || a < -(1L << 20) || b > (1L << 20) || b < -(1L << 20))) {
            return 0;
        }
        *out = a * b;
        break;
    case F_EQ: *out = a == b; break;
    case F_NE: *out = a != b; break;
    case F_LT: *out = a < b; break;
    case F_LE: *out = a <= b; break;
    case F_GT: *out = a > b; break;
    case F_GE: *out = a >= b; break;
    case F_NEXT: /* Python's % on a positive count: never negative */
        if (b > (1L << 20) || b < -(1L << 20)) {
            return 0;
        }
        *out = ((a + (long)r->step * b) % players + players) % players;
        break;
    default: return 0;
    }
    return *out <= FORM_BOUND && *out >= -FORM_BOUND;
}

static PyObject *
Rules_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    (void)kwds;
    unsigned char self_pos_buffer[MAX_CARDS] = {0};
    Py_buffer suits;
    Py_buffer ranks;
    PyObject *suit_masks, *first, *breaks, *lead_bans, *play_bans, *plays, *hand_keys;
    PyObject *names, *taken_keys, *tricks_keys, *phase_data, *phase_counters, *judge = NULL, *choices = NULL;
    PyObject *bids = NULL;
    int follow, step, draws;
    if (!PyArg_ParseTuple(args, "y*O!iOOOOO!O!iy*O!O!O!pO!O!|OOO", &suits, &PyTuple_Type, &suit_masks, &follow, &first,
                          &breaks, &lead_bans, &play_bans, &PyTuple_Type, &plays, &PyTuple_Type, &hand_keys, &step,
                          &ranks, &PyTuple_Type, &names, &PyTuple_Type, &taken_keys, &PyTuple_Type, &tricks_keys, &draws,
                          &PyTuple_Type, &phase_data, &PyTuple_Type, &phase_counters, &judge, &choices, &bids)) {
        return NULL;
    }
    if (ranks.len != suits.len || PyTuple_GET_SIZE(names) != suits.len ||
        PyTuple_GET_SIZE(taken_keys) != PyTuple_GET_SIZE(hand_keys) ||
        PyTuple_GET_SIZE(tricks_keys) != PyTuple_GET_SIZE(hand_keys)) {
        PyBuffer_Release(&suits);
        PyBuffer_Release(&ranks);
        PyErr_SetString(PyExc_ValueError, "these rules do not fit the fast path");
        return NULL;
    }
    if (ranks.len <= MAX_CARDS) {
        memcpy(self_pos_buffer, ranks.buf, (size_t)ranks.len);
    }
    PyBuffer_Release(&ranks);
    Rules *self = (Rules *)type->tp_alloc(type, 0);
    if (self == NULL) {
        PyBuffer_Release(&suits);
        return NULL;
    }
    memcpy(self->pos, self_pos_buffer, sizeof self->pos);
    if (suits.len > MAX_CARDS || PyTuple_GET_SIZE(plays) != suits.len || PyTuple_GET_SIZE(suit_masks) > 8 ||
        PyTuple_GET_SIZE(hand_keys) > MAX_SEATS || follow < FOLLOW_FREE || follow > FOLLOW_TRUMP || step < -MAX_SEATS ||
        step > MAX_SEATS) {
        PyBuffer_Release(&suits);
        Py_DECREF(self);
        PyErr_SetString(PyExc_ValueError, "these rules do not fit the fast path");
        return NULL;
    }
    self->ncards = (int)suits.len;
    memcpy(self->suit_of, suits.buf, (size_t)suits.len);
    PyBuffer_Release(&suits);
    self->nsuits = (int)PyTuple_GET_SIZE(suit_masks);
    for (int i = 0; i < self->nsuits; i++) {
        if (read_mask(PyTuple_GET_ITEM(suit_masks, i), &self->suit_mask[i]) < 0) {
            Py_DECREF(self);
            return NULL;
        }
    }
    for (int c = 0; c < self->ncards; c++) {
        if (self->suit_of[c] >= self->nsuits || !PyUnicode_Check(PyTuple_GET_ITEM(names, c))) {
            Py_DECREF(self);
            PyErr_SetString(PyExc_ValueError, "a card's suit is out of range, or its name is not a str");
            return NULL;
        }
    }
    self->follow = follow;
    self->step = step;
    self->draws = draws;
    PyObject *held[] = {names, taken_keys, tricks_keys, phase_data, phase_counters};
    for (size_t i = 0; i < sizeof held / sizeof held[0]; i++) {
        Py_INCREF(held[i]);
    }
    self->names = names, self->taken_keys = taken_keys, self->tricks_keys = tricks_keys;
    self->phase_data = phase_data, self->phase_counters = phase_counters;
    if (read_mask(first, &self->first_mask) < 0 || read_mask(breaks, &self->breaks) < 0 ||
        read_bans(lead_bans, self->lead_ban, self->lead_always, self->lead_flag, self->lead_truth, &self->nlead) < 0 ||
        read_bans(play_bans, self->play_ban, self->play_always, self->play_flag, self->play_truth, &self->nplay) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    Py_INCREF(plays);
    self->plays = plays;
    Py_INCREF(hand_keys);
    self->hand_keys = hand_keys;
    self->k_trick = PyUnicode_InternFromString("trick");
    self->k_played = PyUnicode_InternFromString("played");
    self->k_trump = PyUnicode_InternFromString("trump");
    self->k_lead = PyUnicode_InternFromString("lead");
    self->k_broken = PyUnicode_InternFromString("broken");
    self->one = PyLong_FromLong(1);
    self->k_zones = PyUnicode_InternFromString("zones");
    self->k_counters = PyUnicode_InternFromString("counters");
    self->k_to_move = PyUnicode_InternFromString("to_move");
    self->k_players = PyUnicode_InternFromString("players");
    self->k_data = PyUnicode_InternFromString("data");
    self->k_over = PyUnicode_InternFromString("over");
    self->k_stock = PyUnicode_InternFromString("stock");
    self->k_turned = PyUnicode_InternFromString("turned");
    self->k_say = PyUnicode_InternFromString("say");
    self->k_dealer = PyUnicode_InternFromString("dealer");
    self->leader_at = -1;
    self->k_show = PyUnicode_InternFromString("show");
    self->empty = PyUnicode_FromString("");
    self->plays_of = PyTuple_New(self->ncards);
    self->takes_of = PyTuple_New(PyTuple_GET_SIZE(hand_keys));
    for (int c = 0; self->plays_of != NULL && c < self->ncards; c++) {
        PyObject *piece = PyUnicode_FromFormat("plays %U: seat ", PyTuple_GET_ITEM(names, c));
        if (piece == NULL) {
            Py_CLEAR(self->plays_of);
            break;
        }
        PyTuple_SET_ITEM(self->plays_of, c, piece);
    }
    self->spaced = PyTuple_New(self->ncards);
    self->closed = PyTuple_New(self->ncards);
    for (int c = 0; self->spaced != NULL && self->closed != NULL && c < self->ncards; c++) {
        PyObject *spaced = PyUnicode_FromFormat("%U ", PyTuple_GET_ITEM(names, c));
        PyObject *closed = PyUnicode_FromFormat("%U)", PyTuple_GET_ITEM(names, c));
        if (spaced == NULL || closed == NULL) {
            Py_XDECREF(spaced);
            Py_XDECREF(closed);
            Py_CLEAR(self->spaced);
            break;
        }
        PyTuple_SET_ITEM(self->spaced, c, spaced);
        PyTuple_SET_ITEM(self->closed, c, closed);
    }
    for (Py_ssize_t seat = 0; self->takes_of != NULL && seat < PyTuple_GET_SIZE(hand_keys); seat++) {
        PyObject *piece = PyUnicode_FromFormat("%zd takes the trick (", seat);
        if (piece == NULL) {
            Py_CLEAR(self->takes_of);
            break;
        }
        PyTuple_SET_ITEM(self->takes_of, seat, piece);
    }
    self->k_play_word = PyUnicode_InternFromString("play");
    if (judge != NULL && judge != Py_None) {
        Py_INCREF(judge);
        self->judge = judge;
    }
    if (choices != NULL && choices != Py_None) {
        PyObject *key, *word, *moves, *chosen, *passed = NULL, *blocked = NULL, *pass_to = NULL;
        PyObject *leader = NULL, *said = NULL;
        if (!PyArg_ParseTuple(choices, "O!O!O!O!|OO!O!OO", &PyUnicode_Type, &key, &PyUnicode_Type, &word, &PyTuple_Type,
                              &moves, &PyTuple_Type, &chosen, &passed, &PyTuple_Type, &blocked, &PyUnicode_Type,
                              &pass_to, &leader, &said)) {
            Py_DECREF(self);
            return NULL;
        }
        if (PyTuple_GET_SIZE(moves) != self->ncards || PyTuple_GET_SIZE(chosen) != PyTuple_GET_SIZE(hand_keys)) {
            Py_DECREF(self);
            PyErr_SetString(PyExc_ValueError, "these rules do not fit the fast path");
            return NULL;
        }
        Py_INCREF(key), Py_INCREF(word), Py_INCREF(moves), Py_INCREF(chosen);
        self->choosing_key = key, self->pass_word = word, self->pass_moves = moves, self->chosen_keys = chosen;
        if (passed != NULL && passed != Py_None && blocked != NULL && pass_to != NULL) {
            Py_INCREF(passed), Py_INCREF(blocked), Py_INCREF(pass_to);
            self->passed = passed, self->pass_blocked = blocked, self->k_pass_to = pass_to;
            /* the leader's form and the pass's words: the play begun in C where the form is read here */
            if (leader != NULL && leader != Py_None && said != NULL && PyTuple_CheckExact(said) &&
                PyTuple_GET_SIZE(said) == 4 && PyUnicode_CheckExact(PyTuple_GET_ITEM(said, 0)) &&
                PyUnicode_CheckExact(PyTuple_GET_ITEM(said, 1)) && PyUnicode_CheckExact(PyTuple_GET_ITEM(said, 2)) &&
                PyUnicode_CheckExact(PyTuple_GET_ITEM(said, 3))) {
                int at = form_read(self, leader, 0);
                if (at == -2) {
                    Py_DECREF(self);
                    return NULL;
                }
                if (at >= 0) {
                    self->leader_form = Py_NewRef(leader), self->pass_said = Py_NewRef(said);
                    self->leader_at = at;
                }
            }
        }
    }
    if (bids != NULL && bids != Py_None) {
        PyObject *moves, *word, *words, *keys, *phase, *sum, *made, *closed = NULL, *plain = NULL;
        if (!PyArg_ParseTuple(bids, "OO!O!O!O!O!O!|OO", &moves, &PyUnicode_Type, &word, &PyTuple_Type, &words,
                              &PyTuple_Type, &keys, &PyUnicode_Type, &phase, &PyUnicode_Type, &sum, &PyUnicode_Type,
                              &made, &closed, &plain)) {
            Py_DECREF(self);
            return NULL;
        }
        if (PyTuple_GET_SIZE(keys) < PyTuple_GET_SIZE(hand_keys)) {
            Py_DECREF(self);
            PyErr_SetString(PyExc_ValueError, "these rules do not fit the fast path");
            return NULL;
        }
        PyObject *says = PyTuple_New(PyTuple_GET_SIZE(words));
        for (Py_ssize_t i = 0; says != NULL && i < PyTuple_GET_SIZE(words); i++) {
            PyObject *said = PyUnicode_FromFormat("bids %zd", i); /* Bidding.apply's words */
            if (said == NULL) {
                Py_CLEAR(says);
                break;
            }
            PyTuple_SET_ITEM(says, i, said);
        }
        if (says == NULL) {
            Py_DECREF(self);
            return NULL;
        }
        Py_INCREF(moves), Py_INCREF(word), Py_INCREF(words), Py_INCREF(keys);
        Py_INCREF(phase), Py_INCREF(sum), Py_INCREF(made);
        self->bid_moves = moves, self->k_bid_word = word, self->bid_words = words, self->bid_says = says;
        self->bid_keys = keys, self->k_bidding = phase, self->k_bids = sum, self->k_bids_made = made;
        if (closed != NULL && closed != Py_None) {
            self->bids_closed = Py_NewRef(closed);
        }
        if (plain != NULL && plain != Py_None && plain_bids_read(self, plain) < 0) {
            Py_DECREF(self);
            return NULL;
        }
    }
    if (!self->k_trick || !self->k_played || !self->k_trump || !self->k_lead || !self->k_broken || !self->one ||
        !self->k_zones || !self->k_counters || !self->k_to_move || !self->k_players || !self->k_data ||
        !self->k_over || !self->k_stock || !self->k_turned || !self->k_say || !self->k_show || !self->k_dealer ||
        !self->empty || !self->plays_of || !self->takes_of || !self->spaced || !self->closed ||
        !self->k_play_word) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}


/* The value of an exact int when it is a small one (in [0, 2**30)), read from its digits; -1 else. */
static inline long
small_value(PyObject *item)
{
#if PY_VERSION_HEX >= 0x030C0000 /* the documented (unstable) C API of 3.12 on */
    if (!PyUnstable_Long_IsCompact((PyLongObject *)item)) {
        return -1;
    }
    Py_ssize_t v = PyUnstable_Long_CompactValue((PyLongObject *)item);
    return v >= 0 ? (long)v : -1;
#else
    Py_ssize_t size = Py_SIZE(item);
    return size == 0 ? 0 : size == 1 ? (long)((PyLongObject *)item)->ob_digit[0] : -1;
#endif
}

/* The card an item of a zone holds, or -1 when it is not a card of this deck. */
static inline int
card_of(Rules *r, PyObject *item)
{
    if (!PyLong_CheckExact(item)) {
        return -1;
    }
    long c = small_value(item); /* a card is a small int; anything else (negative, large) is none */
    if (c < 0 || c >= r->ncards) {
        return -1;
    }
    return (int)c;
}

/* A counter read as a C long: ``fallback`` when absent, -1 with ok=0 when not a plain int. */
static inline long
counter(PyObject *counters, PyObject *key, long fallback, int *ok)
{
    PyObject *v = PyDict_GetItemWithError(counters, key);
    if (v == NULL) {
        if (PyErr_Occurred()) {
            PyErr_Clear();
            *ok = 0;
        }
        return fallback;
    }
    if (!PyLong_CheckExact(v)) {
        *ok = 0;
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        *ok = 0;
    }
    return x;
}

/* Whether getattr reads the state's attributes (zones, counters, to_move, players, data, over) from
 * the instance's own dict whenever it holds them: a class with the generic getattr, an instance
 * dict, and no data descriptor (a property, a slot) for any of those names along its MRO. Checked
 * once for a class and remembered with the class's version tag, which any change to the class or a
 * base (a property set on it later, another __getattribute__) invalidates: checked again then. */
static int
plain_type(Rules *r, PyTypeObject *tp)
{
    if (tp == r->plain && (tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) && tp->tp_version_tag == r->plain_tag &&
        tp->tp_getattro == PyObject_GenericGetAttr) {
        return 1;
    }
    if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || tp->tp_getattro != PyObject_GenericGetAttr) {
        return 0; /* no tag yet: the generic getattr gives it one, and the next step checks again */
    }
#ifdef Py_TPFLAGS_MANAGED_DICT
    int has_dict = tp->tp_dictoffset != 0 || (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT);
#else
    int has_dict = tp->tp_dictoffset != 0;
#endif
    PyObject *mro = tp->tp_mro;
    if (!has_dict || mro == NULL || !PyTuple_Check(mro)) {
        return 0;
    }
    unsigned int tag = tp->tp_version_tag;
    PyObject *names[6] = {r->k_zones, r->k_counters, r->k_to_move, r->k_players, r->k_data, r->k_over};
    for (int i = 0; i < 6; i++) {
        for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(mro); j++) {
            PyTypeObject *base = (PyTypeObject *)PyTuple_GET_ITEM(mro, j);
            PyObject *dict = base->tp_dict;
            if (dict == NULL || !PyDict_Check(dict)) {
                if (base == &PyBaseObject_Type) {
                    continue; /* object has none of these names */
                }
                return 0;
            }
            PyObject *found = PyDict_GetItemWithError(dict, names[i]);
            if (found == NULL) {
                if (PyErr_Occurred()) {
                    PyErr_Clear();
                    return 0;
                }
                continue;
            }
            if (Py_TYPE(found)->tp_descr_set != NULL) {
                return 0; /* a data descriptor: it, not the instance dict, answers */
            }
            break; /* a class default (or a non-data descriptor): the instance dict comes first */
        }
    }
    if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || tp->tp_version_tag != tag) {
        return 0;
    }
    Py_INCREF(tp);
    Py_XSETREF(r->plain, tp);
    r->plain_tag = tag;
    return 1;
}

/* The parts of a DealState the steps read: new references to its zones, its counters and the seat
 * to move, and the number of players; the instance dict (a new reference, or NULL) when getattr
 * reads the state's attributes from it (`plain_type`). 0 when the state is not as expected. */
typedef struct {
    PyObject *zones, *counters, *seat, *dict;
    PyObject *data; /* state.data, a new reference, when read from the instance dict with the rest; or NULL */
    long to_move, players;
} Parts;

/* The instance dict of a state whose class is plain (`plain_type`), a new reference, or NULL. */
static PyObject *
plain_dict(Rules *r, PyObject *state)
{
    if (!plain_type(r, Py_TYPE(state))) {
        return NULL;
    }
    PyObject *dict = PyObject_GenericGetDict(state, NULL);
    if (dict == NULL || !PyDict_CheckExact(dict)) {
        PyErr_Clear();
        Py_XDECREF(dict);
        return NULL;
    }
    return dict;
}

/* getattr(state, name), a new reference, from the instance dict when it answers for getattr (`dict`
 * not NULL, read from `plain_dict`) and holds the name; else by getattr itself. */
static inline PyObject *
state_attr(PyObject *dict, PyObject *state, PyObject *name)
{
    if (dict != NULL) {
        PyObject *v = PyDict_GetItemWithError(dict, name);
        if (v != NULL) {
            Py_INCREF(v);
            return v;
        }
        if (PyErr_Occurred()) {
            return NULL;
        }
    }
    return PyObject_GetAttr(state, name);
}

/* setattr(state, name, value) into the instance dict when getattr reads it from there (`plain_type`)
 * and setattr is the generic one, which stores it there (no data descriptor for the name); else setattr. */
static inline int
state_set(Parts *p, PyObject *state, PyObject *name, PyObject *value)
{
    if (p->dict != NULL && Py_TYPE(state)->tp_setattro == PyObject_GenericSetAttr) {
        return PyDict_SetItem(p->dict, name, value);
    }
    return PyObject_SetAttr(state, name, value);
}

/* state.data, a new reference: as `read_state` found it in the instance dict (no Python code has run
 * since), else by getattr. */
static PyObject *
parts_data(Rules *r, PyObject *state, Parts *p)
{
    if (p->data != NULL) {
        Py_INCREF(p->data);
        return p->data;
    }
    return state_attr(p->dict, state, r->k_data);
}

static int
read_state(Rules *r, PyObject *state, Parts *p)
{
    p->zones = p->counters = p->seat = p->data = NULL;
    PyObject *dict = plain_dict(r, state);
    /* the names as the dataclass's __init__ stored them (the same interned strings): one pass over the
     * instance dict finds them all; a name not found so is looked up (then getattr, `state_attr`) */
    PyObject *got[5] = {NULL, NULL, NULL, NULL, NULL};
    if (dict != NULL) {
        PyObject *names[5] = {r->k_zones, r->k_counters, r->k_to_move, r->k_players, r->k_data};
        Py_ssize_t pos = 0;
        PyObject *key, *value;
        int left = 5;
        while (left && PyDict_Next(dict, &pos, &key, &value)) {
            for (int i = 0; i < 5; i++) {
                if (key == names[i]) {
                    Py_INCREF(value);
                    got[i] = value;
                    left--;
                    break;
                }
            }
        }
    }
    PyObject *zones = got[0] ? got[0] : state_attr(dict, state, r->k_zones);
    PyObject *counters = got[1] ? got[1] : state_attr(dict, state, r->k_counters);
    PyObject *seat = got[2] ? got[2] : state_attr(dict, state, r->k_to_move);
    PyObject *players = got[3] ? got[3] : state_attr(dict, state, r->k_players);
    p->data = got[4];
    int ok = zones && counters && seat && players && PyDict_CheckExact(zones) && PyDict_CheckExact(counters) &&
             PyLong_CheckExact(seat) && PyLong_CheckExact(players);
    if (ok) {
        p->to_move = PyLong_AsLong(seat);
        p->players = PyLong_AsLong(players);
        ok = !PyErr_Occurred() && p->to_move >= 0 && p->to_move < PyTuple_GET_SIZE(r->hand_keys) && p->players > 0 &&
             p->players <= MAX_SEATS;
    }
    if (PyErr_Occurred()) {
        PyErr_Clear();
    }
    Py_XDECREF(players);
    if (!ok) {
        Py_XDECREF(zones);
        Py_XDECREF(counters);
        Py_XDECREF(seat);
        Py_XDECREF(dict);
        Py_CLEAR(p->data);
        return 0;
    }
    p->zones = zones, p->counters = counters, p->seat = seat, p->dict = dict;
    return 1;
}

/* The references `read_state` took, given back. */
static void
release_state(Parts *p)
{
    Py_DECREF(p->zones);
    Py_DECREF(p->counters);
    Py_DECREF(p->seat);
    Py_XDECREF(p->dict);
    Py_XDECREF(p->data);
}

static PyObject *legal_parts(Rules *r, PyObject *state, PyObject *judge, Parts *p);
static PyObject *play_parts(Rules *r, PyObject *state, PyObject *card_obj, Parts *p);

/* Where ``card`` lies in ``hand`` as list.remove finds it (the first equal item), or -1: not there,
 * or an item that is not a plain int (list.remove compares it with ==: Python's to judge). */
static Py_ssize_t
place_in(PyObject *hand, PyObject *card_obj, int card)
{
    Py_ssize_t n = PyList_GET_SIZE(hand);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(hand, i);
        if (!PyLong_CheckExact(item)) {
            return -1;
        }
        if (item == card_obj || small_value(item) == card) {
            return i;
        }
    }
    return -1;
}

/* Whether the phase of hidden choices is on, as `HiddenChoices.active` reads it (the truth of
 * ``data[key]``): 1 with *value a new reference to its value, 0 when off, 2 when the data is not
 * a dict (Python decides), -1 on an error; *value is NULL but for 1. */
static int
choosing(Rules *r, PyObject *state, Parts *p, PyObject **value, int *quiet)
{
    *value = NULL;
    *quiet = 0;
    PyObject *data = parts_data(r, state, p);
    if (data == NULL || !PyDict_CheckExact(data)) {
        Py_XDECREF(data);
        PyErr_Clear();
        return 2;
    }
    PyObject *v = PyDict_GetItemWithError(data, r->choosing_key);
    Py_XINCREF(v); /* held on its own: nothing says the state keeps this dict */
    Py_DECREF(data);
    /* absent, or a value whose truth runs no Python code */
    *quiet = v == NULL || PyLong_CheckExact(v) || PyBool_Check(v) || v == Py_None;
    int on = v == NULL ? (PyErr_Occurred() ? -1 : 0) : PyObject_IsTrue(v);
    if (on == 1) {
        *value = v;
    } else {
        Py_XDECREF(v);
    }
    return on;
}

/* The chooser's moves while the pass is on, as `HiddenChoices.actions`: one a card of its hand. */
static PyObject *
pass_legal(Rules *r, PyObject *zones, long seat)
{
    PyObject *hand = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->hand_keys, seat));
    if (hand == NULL || !PyList_CheckExact(hand)) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    Py_ssize_t n = PyList_GET_SIZE(hand);
    PyObject *out = PyList_New(n);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        int c = card_of(r, PyList_GET_ITEM(hand, i));
        if (c < 0) { /* not a card (a negative index reads from the end in Python): Python's */
            Py_DECREF(out);
            Py_RETURN_NONE;
        }
        PyObject *move = PyTuple_GET_ITEM(r->pass_moves, c);
        Py_INCREF(move);
        PyList_SET_ITEM(out, i, move);
    }
    return out;
}

static long exact_counter(PyObject *counters, PyObject *key, int *ok);
static int set_long(PyObject *dict, PyObject *key, long value);

/* [event]: the words of a move that says one thing, a new list that takes the event's reference (NULL on
 * an error, the event let go). */
static PyObject *
one_event(PyObject *event)
{
    PyObject *out = PyList_New(1);
    if (out == NULL) {
        Py_DECREF(event);
        return NULL;
    }
    PyList_SET_ITEM(out, 0, event);
    return out;
}

/* Where a pass of ``steps`` seats went, as `Tricks.pass_way` words it: the index of its words in
 * r->pass_said (0 nowhere, 1 to the left, 2 to the right, 3 across). */
static int
pass_way(Rules *r, long steps, long players)
{
    if (steps == 0) {
        return 0;
    }
    if (steps == 1) {
        return r->step == 1 ? 1 : 2;
    }
    if (steps == players - 1) {
        return r->step == 1 ? 2 : 1;
    }
    return 3;
}

/* `Tricks._passed` with the leader rule's form (`Tricks._lead_now`): the seat it names to move, the
 * counter ``lead`` set to it, and the words [{"say": "the cards are passed ..."}]. None, having changed
 * nothing, when the form reads a value it does not settle (the game's Python then does it all). */
static PyObject *
pass_lead(Rules *r, PyObject *state, Parts *p, long steps)
{
    long leader;
    int ok = form_value(r, r->leader_at, p->dict, p->zones, p->counters, p->players, -1, &leader);
    if (ok <= 0) {
        if (ok < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    leader = (leader % p->players + p->players) % p->players; /* int(leader(ctx)) % players */
    PyObject *seat = PyLong_FromLong(leader);
    if (seat == NULL || state_set(p, state, r->k_to_move, seat) < 0 || PyDict_SetItem(p->counters, r->k_lead, seat) < 0) {
        Py_XDECREF(seat);
        return NULL;
    }
    Py_DECREF(seat);
    PyObject *event = PyDict_New();
    if (event == NULL ||
        PyDict_SetItem(event, r->k_say, PyTuple_GET_ITEM(r->pass_said, pass_way(r, steps, p->players))) < 0) {
        Py_XDECREF(event);
        return NULL;
    }
    return one_event(event);
}

/* The last card chosen in the pass, as `Tricks.apply` plays it: `HiddenChoices.choose`, then
 * `HiddenChoices.hand_on` (each seat's chosen cards onto the hand ``pass_to`` seats on, the chosen
 * zones removed, the phase's data key popped), then the game's ``passed(state)`` (the leader, the
 * words). None, having changed nothing, when the rules were made without it, when a counter leaves
 * this choice to Python (the blind nil exchange) or when anything is not as the family keeps it. */
static PyObject *
pass_end(Rules *r, PyObject *state, PyObject *card_obj, Parts *p, PyObject *hand, Py_ssize_t at, PyObject *mine)
{
    PyObject *zones = p->zones, *counters = p->counters;
    long players = p->players;
    if (r->passed == NULL || players > PyTuple_GET_SIZE(r->hand_keys)) {
        Py_RETURN_NONE;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(r->pass_blocked); i++) {
        PyObject *v = PyDict_GetItemWithError(counters, PyTuple_GET_ITEM(r->pass_blocked, i));
        if (v == NULL && PyErr_Occurred()) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        if (v != NULL && (!PyLong_CheckExact(v) || PyObject_IsTrue(v))) {
            Py_RETURN_NONE; /* set (or not a plain int): Python's */
        }
    }
    int ok = 1;
    long steps = exact_counter(counters, r->k_pass_to, &ok);
    if (!ok || steps < -(1L << 20) || steps > (1L << 20)) {
        Py_RETURN_NONE;
    }
    PyObject *data = parts_data(r, state, p);
    if (data == NULL || !PyDict_CheckExact(data)) {
        Py_XDECREF(data);
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    long targets[MAX_SEATS];
    for (long s = 0; s < players; s++) { /* every zone the hand-on reads or extends, as the family keeps it */
        targets[s] = ((s + (long)r->step * steps) % players + players) % players;
        PyObject *chosen = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->chosen_keys, s));
        PyObject *target = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->hand_keys, targets[s]));
        if (PyErr_Occurred() || (chosen != NULL && !PyList_CheckExact(chosen)) || target == NULL ||
            !PyList_CheckExact(target)) {
            PyErr_Clear();
            Py_DECREF(data);
            Py_RETURN_NONE;
        }
    }
    /* HiddenChoices.choose: the card from the hand to the chooser's chosen cards */
    if (PySequence_DelItem(hand, at) < 0 || PyList_Append(mine, card_obj) < 0) {
        Py_DECREF(data);
        return NULL;
    }
    /* HiddenChoices.hand_on: zones.pop(chosen.s, []) onto zones[target], seat by seat; data.pop(key) */
    for (long s = 0; s < players; s++) {
        PyObject *name = PyTuple_GET_ITEM(r->chosen_keys, s);
        PyObject *cards = PyDict_GetItemWithError(zones, name);
        if (cards == NULL) {
            if (PyErr_Occurred()) {
                Py_DECREF(data);
                return NULL;
            }
            continue; /* popped as []: nothing handed on */
        }
        Py_INCREF(cards);
        if (PyDict_DelItem(zones, name) < 0) {
            Py_DECREF(cards);
            Py_DECREF(data);
            return NULL;
        }
        PyObject *target = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->hand_keys, targets[s]));
        int rc = -1;
        if (target == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetObject(PyExc_KeyError, PyTuple_GET_ITEM(r->hand_keys, targets[s]));
            }
        } else if (PyList_CheckExact(target)) {
            rc = PyList_SetSlice(target, PyList_GET_SIZE(target), PyList_GET_SIZE(target), cards);
        } else { /* a hand the hand-on replaced (a chosen zone named as one): extended as Python does */
            PyObject *done = PyObject_CallMethod(target, "extend", "O", cards);
            rc = done == NULL ? -1 : 0;
            Py_XDECREF(done);
        }
        Py_DECREF(cards);
        if (rc < 0) {
            Py_DECREF(data);
            return NULL;
        }
    }
    PyObject *was = PyDict_GetItemWithError(data, r->choosing_key);
    if ((was == NULL && PyErr_Occurred()) || (was != NULL && PyDict_DelItem(data, r->choosing_key) < 0)) {
        Py_DECREF(data);
        return NULL;
    }
    Py_DECREF(data);
    if (r->leader_at >= 0) { /* `Tricks._passed` where the leader rule has a form: the play begins here */
        PyObject *out = pass_lead(r, state, p, steps);
        if (out != Py_None) {
            return out; /* the words, or NULL on an error */
        }
        Py_DECREF(out); /* a value the form does not read: the game's Python, as without it */
    }
    return PyObject_CallOneArg(r->passed, state);
}

/* A card chosen in the pass, as `HiddenChoices.choose` chooses it, when the phase goes on after
 * it: [] (the words of a choice: none). None, having changed nothing, for the choice that ends
 * the phase (the family hands the cards on) and for any state not as the phase keeps it. */
static PyObject *
pass_play(Rules *r, PyObject *state, PyObject *card_obj, Parts *p)
{
    PyObject *zones = p->zones;
    long seat = p->to_move, players = p->players;
    PyObject *v = NULL;
    int quiet;
    int on = choosing(r, state, p, &v, &quiet);
    if (on < 0) {
        return NULL;
    }
    if (on != 1 || !PyLong_CheckExact(v)) {
        Py_XDECREF(v);
        Py_RETURN_NONE;
    }
    long count = PyLong_AsLong(v);
    Py_DECREF(v);
    if (count == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    int card = card_of(r, card_obj);
    if (card < 0 || players > PyTuple_GET_SIZE(r->chosen_keys)) {
        Py_RETURN_NONE;
    }
    PyObject *hand = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->hand_keys, seat));
    PyObject *mine = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->chosen_keys, seat));
    if (hand == NULL || mine == NULL || !PyList_CheckExact(hand) || !PyList_CheckExact(mine)) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    Py_ssize_t at = place_in(hand, card_obj, card);
    if (at < 0) {
        Py_RETURN_NONE; /* not in the hand, or a hand not all cards: Python's list.remove to judge */
    }
    Py_ssize_t after = PyList_GET_SIZE(mine) + 1;
    long next = -1;
    if (count > after) {
        next = seat; /* more to choose: the same seat again */
    } else {           /* the next seat still choosing, in the direction of play (Game.next_seat) */
        long s = seat;
        for (long k = 0; k < players; k++) {
            s = ((s + r->step) % players + players) % players;
            PyObject *chosen = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->chosen_keys, s));
            if (chosen == NULL) {
                if (PyErr_Occurred()) {
                    PyErr_Clear();
                    Py_RETURN_NONE;
                }
                continue;
            }
            if (!PyList_CheckExact(chosen)) {
                Py_RETURN_NONE;
            }
            Py_ssize_t size = s == seat ? after : PyList_GET_SIZE(chosen);
            if (count > size) {
                next = s;
                break;
            }
        }
        if (next < 0) { /* every seat has chosen: the phase ends, and the family's play begins */
            return pass_end(r, state, card_obj, p, hand, at, mine);
        }
    }
    if (PySequence_DelItem(hand, at) < 0 || PyList_Append(mine, card_obj) < 0) {
        return NULL;
    }
    if (next != seat) {
        PyObject *who = PyLong_FromLong(next);
        if (who == NULL || state_set(p, state, r->k_to_move, who) < 0) {
            Py_XDECREF(who);
            return NULL;
        }
        Py_DECREF(who);
    }
    return PyList_New(0);
}

/* Whether another phase than the play is on (the pass, a round of bids, blind bids): any of the
 * keys set to a true value, as the phases' own ``active`` reads them. -1 on an error. */
static int
other_phase(Rules *r, PyObject *state, Parts *p, PyObject *counters, PyObject *known_off)
{
    int unread = 0; /* the data keys still to read: ``known_off`` was just read off, from the same dict */
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(r->phase_data); i++) {
        unread += PyTuple_GET_ITEM(r->phase_data, i) != known_off;
    }
    if (unread) {
        PyObject *data = parts_data(r, state, p);
        if (data == NULL || !PyDict_CheckExact(data)) {
            Py_XDECREF(data);
            PyErr_Clear();
            return 1; /* not as expected: Python decides */
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(r->phase_data); i++) {
            if (PyTuple_GET_ITEM(r->phase_data, i) == known_off) {
                continue;
            }
            PyObject *v = PyDict_GetItemWithError(data, PyTuple_GET_ITEM(r->phase_data, i));
            int on = v == NULL ? (PyErr_Occurred() ? -1 : 0) : PyObject_IsTrue(v);
            if (on != 0) {
                Py_DECREF(data);
                return on;
            }
        }
        Py_DECREF(data);
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(r->phase_counters); i++) {
        PyObject *v = PyDict_GetItemWithError(counters, PyTuple_GET_ITEM(r->phase_counters, i));
        int on = v == NULL ? (PyErr_Occurred() ? -1 : 0) : PyObject_IsTrue(v);
        if (on != 0) {
            return on;
        }
    }
    return 0;
}

/* legal(rules, state, judge) -> list[Action] | None: `Tricks.playable`'s moves for the seat to move,
 * or None to ask Python. A ban whose condition decides is judged by ``judge(state, seat, lead, index)``,
 * the game reading the script's condition of ban ``index`` (of the lead bans, or of the play bans). */
static PyObject *
legal(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3 || !PyObject_TypeCheck(args[0], &RulesType)) {
        PyErr_SetString(PyExc_TypeError, "legal(rules, state, judge)");
        return NULL;
    }
    Rules *r = (Rules *)args[0];
    Parts p;
    if (!read_state(r, args[1], &p)) {
        Py_RETURN_NONE;
    }
    PyObject *out = legal_parts(r, args[1], args[2], &p);
    release_state(&p);
    return out;
}

/* The moves playing the cards of ``cards`` (``n`` of them, in that order) that ``allowed`` holds: a new list. */
static PyObject *
plays_of(Rules *r, const unsigned char *cards, int n, uint64_t allowed)
{
    Py_ssize_t count = 0;
    for (int i = 0; i < n; i++) {
        count += (allowed >> cards[i]) & 1;
    }
    PyObject *out = PyList_New(count);
    if (out == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0, k = 0; k < count; i++) {
        if ((allowed >> cards[i]) & 1) {
            PyObject *move = PyTuple_GET_ITEM(r->plays, cards[i]);
            Py_INCREF(move);
            PyList_SET_ITEM(out, k++, move);
        }
    }
    return out;
}

/* The cards of ``held`` (a mask) the seat to move may play, into *allowed (`Tricks.playable`): a lead
 * (``led_card`` -1: the first card of the deal, HE-3.1, and the lead bans) or a follow of ``led_card``
 * (the suit led, HE-3.2, else trumps when the rules say so), then the bans. The counters ``played`` and
 * ``trump`` are read from ``known`` (the two, in that order) when given, else from ``counters``; a
 * ban's condition from its counter, or by ``judge(state, seat, lead, index)``. 1 done, 0 when Python
 * decides (a counter not as the family keeps it, a condition with no judge), -1 on an error. */
static int
allowed_cards(Rules *r, uint64_t held, int led_card, const long *known, PyObject *counters, PyObject *judge,
              PyObject *state, PyObject *seat, uint64_t *allowed_out)
{
    int ok = 1;
    uint64_t allowed = held;
    const uint64_t *bans;
    const int *always, *truths;
    PyObject *const *flags;
    int nbans;
    int lead = led_card < 0;
    if (lead) { /* a lead: the first card of the deal (HE-3.1), the lead bans */
        bans = r->lead_ban, always = r->lead_always, nbans = r->nlead;
        flags = r->lead_flag, truths = r->lead_truth;
        if (r->first_mask && (known ? known[0] : counter(counters, r->k_played, 0, &ok)) == 0) {
            uint64_t m = held & r->first_mask;
            if (m) {
                allowed = m;
            }
        }
    } else { /* a follow: the suit led (HE-3.2), else trumps when the rules say so */
        bans = r->play_ban, always = r->play_always, nbans = r->nplay;
        flags = r->play_flag, truths = r->play_truth;
        if (r->follow != FOLLOW_FREE) {
            uint64_t m = held & r->suit_mask[r->suit_of[led_card]];
            if (!m && r->follow == FOLLOW_TRUMP) {
                long t = known ? known[1] : counter(counters, r->k_trump, 0, &ok);
                if (t > 0 && t <= r->nsuits) {
                    m = held & r->suit_mask[t - 1];
                } else if (t != 0) {
                    ok = 0;
                }
            }
            if (m) {
                allowed = m;
            }
        }
    }
    if (!ok) {
        return 0;
    }
    /* A ban decides only when it would keep some cards and take others: then its condition is read. */
    for (int i = 0; i < nbans; i++) {
        if ((allowed & (allowed - 1)) == 0) {
            break; /* one card or none: Python reads no condition either */
        }
        uint64_t kept = allowed & ~bans[i];
        if (kept == allowed || kept == 0) {
            continue;
        }
        if (!always[i] && flags[i] != NULL) { /* the condition is a counter's truth (``not broken``) */
            PyObject *v = PyDict_GetItemWithError(counters, flags[i]);
            int t = v == NULL ? (PyErr_Occurred() ? -1 : 0) : PyObject_IsTrue(v);
            if (t < 0) {
                return -1;
            }
            if (t != truths[i]) {
                continue;
            }
        } else if (!always[i]) { /* the script's condition decides: the game reads it (judge) */
            if (judge == NULL) {
                return 0;
            }
            PyObject *index = PyLong_FromLong(i);
            if (index == NULL) {
                return -1;
            }
            PyObject *call[4] = {state, seat, lead ? Py_True : Py_False, index};
            PyObject *verdict = PyObject_Vectorcall(judge, call, 4, NULL);
            Py_DECREF(index);
            if (verdict == NULL) {
                return -1;
            }
            int holds = PyObject_IsTrue(verdict);
            Py_DECREF(verdict);
            if (holds < 0) {
                return -1;
            }
            if (!holds) {
                continue;
            }
        }
        allowed = kept;
    }
    *allowed_out = allowed;
    return 1;
}

static PyObject *
legal_parts(Rules *r, PyObject *state, PyObject *judge, Parts *p)
{
    PyObject *zones = p->zones, *counters = p->counters;
    long seat = p->to_move;
    PyObject *known_off = NULL;
    if (r->choosing_key != NULL) {
        PyObject *v = NULL;
        int quiet;
        int on = choosing(r, state, p, &v, &quiet);
        Py_XDECREF(v);
        if (on < 0) {
            return NULL;
        }
        if (on == 2) {
            Py_RETURN_NONE;
        }
        if (on == 1) {
            return pass_legal(r, zones, seat);
        }
        /* off, read from the instance dict with no Python code run since: not read again below */
        if (quiet && p->dict != NULL) {
            known_off = r->choosing_key;
        }
    }
    int phase = other_phase(r, state, p, counters, known_off);
    if (phase != 0) {
        if (phase < 0) {
            return NULL;
        }
        Py_RETURN_NONE; /* the pass or the bids: their moves are the phases' own */
    }
    PyObject *hand = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->hand_keys, seat));
    PyObject *trick = PyDict_GetItemWithError(zones, r->k_trick);
    if (hand == NULL || trick == NULL || !PyList_CheckExact(hand) || !PyList_CheckExact(trick)) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    Py_ssize_t n = PyList_GET_SIZE(hand);
    unsigned char cards[MAX_CARDS];
    if (n > MAX_CARDS) {
        Py_RETURN_NONE;
    }
    uint64_t held = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        int c = card_of(r, PyList_GET_ITEM(hand, i));
        if (c < 0) {
            Py_RETURN_NONE;
        }
        cards[i] = (unsigned char)c;
        held |= (uint64_t)1 << c;
    }
    uint64_t allowed;
    int lead = PyList_GET_SIZE(trick) == 0;
    int led_card = -1;
    if (!lead) {
        led_card = card_of(r, PyList_GET_ITEM(trick, 0));
        if (led_card < 0) {
            Py_RETURN_NONE;
        }
    }
    int found = allowed_cards(r, held, led_card, NULL, counters, judge, state, p->seat, &allowed);
    if (found <= 0) {
        if (found < 0) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    return plays_of(r, cards, (int)n, allowed);
}

/* A card played (`play_parts`, for ``rules.play``): the card as `Tricks.apply` plays it, and the
 * words said (none, or the trick taken); None: not done, Python plays it. Everything the step reads
 * is checked before anything changes, so a state the C code does not settle is left as it was. */

/* An exact int of ``counters`` (-1 absent or not one: *ok cleared). */
static long
exact_counter(PyObject *counters, PyObject *key, int *ok)
{
    PyObject *v = PyDict_GetItemWithError(counters, key);
    if (v == NULL || !PyLong_CheckExact(v)) {
        PyErr_Clear();
        *ok = 0;
        return -1;
    }
    long x = PyLong_AsLong(v);
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        *ok = 0;
    }
    return x;
}

static int
set_long(PyObject *dict, PyObject *key, long value)
{
    PyObject *v = PyLong_FromLong(value);
    if (v == NULL) {
        return -1;
    }
    int rc = PyDict_SetItem(dict, key, v);
    Py_DECREF(v);
    return rc;
}

/* The seat that takes a trick of ``n`` cards led by seat ``lead`` (HE-3.4, BR-3.3): the highest trump
 * when trumps (``trump``, 1 + the suit's index; 0 none) were played, else the highest of the suit led. */
static long
trick_winner(Rules *r, const int *cards, int n, long lead, long trump, long players)
{
    int best = 0;
    for (int i = 1; i < n; i++) {
        int c = cards[i], b = cards[best];
        if (r->suit_of[c] == r->suit_of[b]) {
            if (r->pos[c] > r->pos[b]) {
                best = i;
            }
        } else if (trump && r->suit_of[c] == trump - 1) {
            best = i;
        }
    }
    return ((lead + (long)r->step * best) % players + players) % players;
}

/* The words said as a full trick (a list of cards) is taken by ``winner``, as a new list of one event:
 * "plays NAME: seat W takes the trick (NAME NAME ...)", made of pieces made with the rules, joined once,
 * and the cards' names shown. */
static PyObject *
trick_words(Rules *r, PyObject *trick, long winner)
{
    Py_ssize_t size = PyList_GET_SIZE(trick);
    PyObject *names = PyList_New(size);
    PyObject *pieces = names == NULL ? NULL : PyList_New(size + 2);
    if (pieces == NULL) {
        Py_XDECREF(names);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long c = PyLong_AsLong(PyList_GET_ITEM(trick, i));
        PyObject *name = PyTuple_GET_ITEM(r->names, c);
        Py_INCREF(name);
        PyList_SET_ITEM(names, i, name);
        PyObject *piece = PyTuple_GET_ITEM(i + 1 < size ? r->spaced : r->closed, c); /* "NAME " or "NAME)" */
        Py_INCREF(piece);
        PyList_SET_ITEM(pieces, 2 + i, piece);
    }
    PyObject *first = PyTuple_GET_ITEM(r->plays_of, PyLong_AsLong(PyList_GET_ITEM(trick, size - 1)));
    PyObject *second = PyTuple_GET_ITEM(r->takes_of, winner);
    Py_INCREF(first);
    Py_INCREF(second);
    PyList_SET_ITEM(pieces, 0, first);
    PyList_SET_ITEM(pieces, 1, second);
    PyObject *said = PyUnicode_Join(r->empty, pieces);
    Py_DECREF(pieces);
    PyObject *event = said == NULL ? NULL : PyDict_New();
    if (event == NULL || PyDict_SetItem(event, r->k_say, said) < 0 || PyDict_SetItem(event, r->k_show, names) < 0) {
        Py_XDECREF(said);
        Py_XDECREF(event);
        Py_DECREF(names);
        return NULL;
    }
    Py_DECREF(said);
    Py_DECREF(names);
    return one_event(event);
}

static PyObject *
play_parts(Rules *r, PyObject *state, PyObject *card_obj, Parts *p)
{
    PyObject *zones = p->zones, *counters = p->counters, *seat_obj = p->seat;
    long seat = p->to_move, players = p->players;
    int card = card_of(r, card_obj);
    if (card < 0) {
        Py_RETURN_NONE;
    }
    PyObject *hand = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->hand_keys, seat));
    PyObject *trick = PyDict_GetItemWithError(zones, r->k_trick);
    if (hand == NULL || trick == NULL || !PyList_CheckExact(hand) || !PyList_CheckExact(trick)) {
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    Py_ssize_t led = PyList_GET_SIZE(trick);
    if (led + 1 > players) {
        Py_RETURN_NONE;
    }
    Py_ssize_t at = place_in(hand, card_obj, card);
    if (at < 0) {
        Py_RETURN_NONE; /* not in the hand, or a hand not all cards: Python's list.remove to judge */
    }
    int last = led + 1 == players;
    long winner = -1;
    PyObject *taken = NULL, *stock = NULL, *turned = NULL;
    if (last) { /* the trick is taken: read all the step needs first (HE-3.4, BR-3.3, BR-3.4) */
        int ok = 1;
        int cards[MAX_SEATS];
        for (Py_ssize_t i = 0; i < led; i++) {
            cards[i] = card_of(r, PyList_GET_ITEM(trick, i));
            if (cards[i] < 0) {
                Py_RETURN_NONE;
            }
        }
        cards[led] = card;
        long lead = led == 0 ? seat : exact_counter(counters, r->k_lead, &ok);
        long t = 0;
        PyObject *tv = PyDict_GetItemWithError(counters, r->k_trump);
        if (tv != NULL) {
            t = PyLong_CheckExact(tv) ? PyLong_AsLong(tv) : -1;
        }
        PyErr_Clear();
        if (!ok || t < 0 || t > r->nsuits) {
            Py_RETURN_NONE;
        }
        winner = trick_winner(r, cards, (int)led + 1, lead, t, players);
        taken = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->taken_keys, winner));
        exact_counter(counters, PyTuple_GET_ITEM(r->tricks_keys, winner), &ok);
        exact_counter(counters, r->k_played, &ok);
        if (taken == NULL || !PyList_CheckExact(taken) || !ok) {
            PyErr_Clear();
            Py_RETURN_NONE;
        }
        if (r->draws) {
            stock = PyDict_GetItemWithError(zones, r->k_stock);
            turned = PyDict_GetItemWithError(zones, r->k_turned);
            PyErr_Clear();
            if (stock == Py_None) {
                stock = NULL;
            }
            if ((stock != NULL && !PyList_CheckExact(stock)) || (turned != NULL && !PyList_CheckExact(turned))) {
                Py_RETURN_NONE;
            }
            for (long s = 0; stock != NULL && s < players; s++) {
                PyObject *h = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->hand_keys, s));
                if (h == NULL || !PyList_CheckExact(h)) {
                    PyErr_Clear();
                    Py_RETURN_NONE;
                }
            }
        }
    }
    /* the card leaves the hand for the trick, as Tricks.apply plays it */
    if (PySequence_DelItem(hand, at) < 0) {
        return NULL;
    }
    if (led == 0 && PyDict_SetItem(counters, r->k_lead, seat_obj) < 0) {
        return NULL;
    }
    if (PyList_Append(trick, card_obj) < 0) {
        return NULL;
    }
    if ((r->breaks >> card) & 1) {
        if (PyDict_SetItem(counters, r->k_broken, r->one) < 0) {
            return NULL;
        }
    }
    if (!last) {
        PyObject *next = PyLong_FromLong(((seat + r->step) % players + players) % players);
        if (next == NULL || state_set(p, state, r->k_to_move, next) < 0) {
            Py_XDECREF(next);
            return NULL;
        }
        Py_DECREF(next);
        return PyList_New(0);
    }
    /* the trick is taken: the words said, the cards to the winner, the counts, the draw, the lead */
    PyObject *out = trick_words(r, trick, winner);
    if (out == NULL) {
        return NULL;
    }
    Py_ssize_t size = PyList_GET_SIZE(trick);
    int ok = 1;
    PyObject *tricks_key = PyTuple_GET_ITEM(r->tricks_keys, winner);
    long won = exact_counter(counters, tricks_key, &ok);
    long played = exact_counter(counters, r->k_played, &ok);
    if (PyList_SetSlice(taken, PyList_GET_SIZE(taken), PyList_GET_SIZE(taken), trick) < 0 ||
        PyList_SetSlice(trick, 0, size, NULL) < 0 || set_long(counters, tricks_key, won + 1) < 0 ||
        set_long(counters, r->k_played, played + 1) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    if (stock != NULL && (PyList_GET_SIZE(stock) || (turned != NULL && PyList_GET_SIZE(turned)))) {
        long s = winner; /* BR-3.4: the winner draws first, then the others in order; the turned card last */
        for (long k = 0; k < players; k++) {
            PyObject *source = PyList_GET_SIZE(stock) ? stock : turned;
            if (source == NULL || PyList_GET_SIZE(source) == 0) {
                break;
            }
            Py_ssize_t top = PyList_GET_SIZE(source) - 1;
            PyObject *drawn = PyList_GET_ITEM(source, top);
            Py_INCREF(drawn);
            PyObject *h = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->hand_keys, s));
            if (h == NULL || PyList_SetSlice(source, top, top + 1, NULL) < 0 || PyList_Append(h, drawn) < 0) {
                Py_DECREF(drawn);
                Py_DECREF(out);
                return NULL;
            }
            Py_DECREF(drawn);
            s = ((s + r->step) % players + players) % players;
        }
    }
    PyObject *w = PyLong_FromLong(winner);
    if (w == NULL || state_set(p, state, r->k_to_move, w) < 0 || PyDict_SetItem(counters, r->k_lead, w) < 0) {
        Py_XDECREF(w);
        Py_DECREF(out);
        return NULL;
    }
    Py_DECREF(w);
    PyObject *own = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->hand_keys, winner));
    if (own == NULL) {
        Py_DECREF(out);
        if (!PyErr_Occurred()) {
            PyErr_SetObject(PyExc_KeyError, PyTuple_GET_ITEM(r->hand_keys, winner));
        }
        return NULL;
    }
    int empty = PyObject_Not(own);
    if (empty < 0 || (empty && state_set(p, state, r->k_over, Py_True) < 0)) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

/* rules.legal(state): as legal(rules, state, judge) with the judge the rules were made with. A
 * built-in method, so a caller that holds it (`tapete.Deal`) asks the C code with no Python frame. */
static PyObject *
Rules_legal(Rules *self, PyObject *state)
{
    Parts p;
    if (!read_state(self, state, &p)) {
        Py_RETURN_NONE;
    }
    PyObject *out = legal_parts(self, state, self->judge, &p);
    release_state(&p);
    return out;
}

/* rules.play(state, action): an Action ``play CARD`` played as `Tricks.apply` plays it (`play_parts`);
 * None for any other move (or a state it does not settle), as `Tricks.apply` reads it. */
static PyObject *
Rules_play(Rules *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "play(state, action)");
        return NULL;
    }
    PyObject *action = args[1];
    if (!PyTuple_Check(action) || PyTuple_GET_SIZE(action) < 2) {
        Py_RETURN_NONE;
    }
    PyObject *kind = PyTuple_GET_ITEM(action, 0), *cards = PyTuple_GET_ITEM(action, 1);
    if (!PyUnicode_CheckExact(kind) || !PyTuple_CheckExact(cards) || PyTuple_GET_SIZE(cards) < 1) {
        Py_RETURN_NONE;
    }
    int is_play = kind == self->k_play_word || PyUnicode_Compare(kind, self->k_play_word) == 0;
    int is_pass = !is_play && self->pass_word != NULL && PyUnicode_Compare(kind, self->pass_word) == 0;
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (!is_play && !is_pass) {
        Py_RETURN_NONE;
    }
    Parts p;
    if (!read_state(self, args[0], &p)) {
        Py_RETURN_NONE;
    }
    PyObject *card = PyTuple_GET_ITEM(cards, 0);
    PyObject *out = is_play ? play_parts(self, args[0], card, &p) : pass_play(self, args[0], card, &p);
    release_state(&p);
    return out;
}

/* -- a deal's own steps: Rules.session(state) ---------------------------------------------------
 *
 * `legal` and `play` above find everything they need in the state at every call: its attributes,
 * the hand and the trick by name, every card of the hand turned into a number. Over a deal played
 * through one `tapete.Deal` nothing else changes the state between two of its moves, so a Session
 * reads the state once, in the pass, the bids or the play, and keeps beside it what the steps read:
 * each hand's cards in order, each seat's chosen cards, the bids made, the trick, the counters the
 * play changes (the legal bids, which the script's bans decide, it asks of the game). It
 * writes every change into the state as `pass_play` and `play_parts` do, in the same order (the
 * state is at every moment what it would be without it), and reads nothing back but twice: when
 * the pass's last card has handed the cards on (`pass_end`, the game's Python beginning the play)
 * and when the last bid has ended the round (`Bidding.closed`). The deal drops it whenever anything
 * else may touch the state
 * (``deal.state``, a move Python plays, a recorder); a hand or trick whose length it did not make
 * makes it answer None, and it stays silent from then on. */
typedef struct {
    PyObject_HEAD
    Rules *r;
    PyObject *state, *dict, *zones, *counters, *trick;
    PyObject *hands[MAX_SEATS], *taken[MAX_SEATS];
    PyObject *chosen[MAX_SEATS]; /* in the pass: each seat's chosen cards (NULL: the seat does not choose) */
    PyObject *stock, *turned; /* what is drawn after each trick (BR-3.4), the stock first (NULL: none) */
    Py_ssize_t in_stock, in_turned; /* their lengths, as the session made them */
    long players, to_move, lead, played, trump;
    long tricks[MAX_SEATS];
    unsigned char cards[MAX_SEATS][MAX_CARDS]; /* each hand, in the order of its list */
    int count[MAX_SEATS];
    int trick_cards[MAX_SEATS];
    int led;      /* cards in the trick */
    int passing;  /* the pass is on (HE-2.3): the moves choose cards */
    long choose;  /* in the pass: the cards each seat chooses */
    int picked[MAX_SEATS]; /* in the pass: the cards each seat has chosen */
    int bidding;  /* the round of bids is on (OH-4.1, SP-3.1): the moves are bids */
    long bids_sum, bids_made; /* in the round of bids: the counters of the bids' sum and of the bids made */
    uint32_t bid; /* in the round of bids: the seats that have bid (a counter bid.N) */
    int dead;     /* it answered None once: from then on, always */
    /* what the last legal() handed out, while nothing has moved since: the cards (a mask) whose move it
     * offered, and which moves (0 none that `offered` vouches for, 1 the plays, 2 the pass's choices, 3 the
     * bids in offered_bids: a tuple of the very moves, made only in the round of bids) */
    uint64_t offered;
    int offering;
    PyObject *offered_bids;
    /* the counters ``lead`` and ``broken`` hold what the session last wrote there (lead: s->lead; broken:
     * 1): writing the same again changes nothing, and is skipped */
    int lead_kept, broken_kept;
} Session;

static PyTypeObject SessionType;

static int
Session_traverse(Session *self, visitproc visit, void *arg)
{
    Py_VISIT(self->r);
    Py_VISIT(self->state);
    Py_VISIT(self->dict);
    Py_VISIT(self->zones);
    Py_VISIT(self->counters);
    Py_VISIT(self->trick);
    for (int s = 0; s < MAX_SEATS; s++) {
        Py_VISIT(self->hands[s]);
        Py_VISIT(self->taken[s]);
        Py_VISIT(self->chosen[s]);
    }
    Py_VISIT(self->stock);
    Py_VISIT(self->turned);
    Py_VISIT(self->offered_bids);
    return 0;
}

/* Everything the session holds of the state given back (the rules kept). */
static void
session_forget(Session *self)
{
    self->offering = 0;
    self->lead_kept = self->broken_kept = 0;
    Py_CLEAR(self->offered_bids);
    Py_CLEAR(self->state);
    Py_CLEAR(self->dict);
    Py_CLEAR(self->zones);
    Py_CLEAR(self->counters);
    Py_CLEAR(self->trick);
    for (int s = 0; s < MAX_SEATS; s++) {
        Py_CLEAR(self->hands[s]);
        Py_CLEAR(self->taken[s]);
        Py_CLEAR(self->chosen[s]);
    }
    Py_CLEAR(self->stock);
    Py_CLEAR(self->turned);
}

static int
Session_clear(Session *self)
{
    self->dead = 1;
    session_forget(self);
    Py_CLEAR(self->r);
    return 0;
}

static void
Session_dealloc(Session *self)
{
    PyObject_GC_UnTrack(self);
    Session_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Whether the session may still answer: never silenced, the state's class as plain as when it began
 * (`plain_type`'s remembered tag), and the trick, the hand to move and (in the pass) its chosen cards
 * as long as the session made them. */
static inline int
session_fits(Session *s)
{
    if (s->dead) {
        return 0;
    }
    PyTypeObject *tp = Py_TYPE(s->state);
    long seat = s->to_move;
    if (tp != s->r->plain || !(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || tp->tp_version_tag != s->r->plain_tag ||
        PyList_GET_SIZE(s->trick) != s->led || PyList_GET_SIZE(s->hands[seat]) != s->count[seat] ||
        (s->passing && (s->chosen[seat] == NULL || PyList_GET_SIZE(s->chosen[seat]) != s->picked[seat])) ||
        (s->stock != NULL && PyList_GET_SIZE(s->stock) != s->in_stock) ||
        (s->turned != NULL && PyList_GET_SIZE(s->turned) != s->in_turned)) {
        s->dead = 1;
        return 0;
    }
    return 1;
}

/* Whether the phase on is the round of bids and nothing else, read into the session: 1 (the bids' sum,
 * the bids made, the seats that have bid), 0 when it is another phase or not as the family keeps it, -1
 * on an error. ``pass_off``: the pass was read off (the data's phase keys are then known off). */
static int
session_bids(Session *s, Rules *r, PyObject *counters, int pass_off, long players)
{
    if (r->bid_moves == NULL || !pass_off || PyTuple_GET_SIZE(r->phase_data) != 1) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(r->phase_counters); i++) {
        PyObject *key = PyTuple_GET_ITEM(r->phase_counters, i);
        PyObject *v = PyDict_GetItemWithError(counters, key);
        int on = v == NULL ? (PyErr_Occurred() ? -1 : 0) : PyObject_IsTrue(v);
        int bids = key == r->k_bidding || PyUnicode_Compare(key, r->k_bidding) == 0;
        if (on < 0 || PyErr_Occurred()) {
            return -1;
        }
        if (on != bids) {
            return 0; /* another phase on (blind bids), or the round of bids not on */
        }
    }
    int ok = 1;
    s->bids_sum = exact_counter(counters, r->k_bids, &ok);
    s->bids_made = exact_counter(counters, r->k_bids_made, &ok);
    s->bid = 0;
    for (long k = 0; ok && k < players; k++) {
        int has = PyDict_Contains(counters, PyTuple_GET_ITEM(r->bid_keys, k));
        if (has < 0) {
            return -1;
        }
        s->bid |= (uint32_t)has << k;
    }
    return ok && s->bids_made >= 0 && s->bids_made < players;
}

/* The state read into the session: 1 when it is followed from now on (in the pass, the round of bids or
 * the play), 0 when it is not one the session follows (blind bids, a class not plain, a hand, pile, card
 * to draw or count not as the family keeps them), -1 on an error. What it held before is given back. */
static int
session_read(Session *s, Rules *r, PyObject *state)
{
    session_forget(s);
    s->dead = 1;
    Parts p;
    if (!read_state(r, state, &p)) {
        return 0;
    }
    PyObject *zones = p.zones, *counters = p.counters;
    long players = p.players;
    int rc = 0;
    if (p.dict == NULL || Py_TYPE(state)->tp_setattro != PyObject_GenericSetAttr ||
        players > PyTuple_GET_SIZE(r->hand_keys) || p.to_move >= players) {
        goto done;
    }
    if (PyDict_GetItemWithError(p.dict, r->k_over) != Py_False) {
        goto done;
    }
    if (r->draws) { /* the stock, then the turned card, drawn after each trick (BR-3.4), as `play_parts` draws */
        PyObject *stock = PyDict_GetItemWithError(zones, r->k_stock);
        PyObject *turned = stock == NULL && PyErr_Occurred() ? NULL : PyDict_GetItemWithError(zones, r->k_turned);
        if (PyErr_Occurred() || (stock != NULL && stock != Py_None && !PyList_CheckExact(stock)) ||
            (turned != NULL && !PyList_CheckExact(turned))) {
            goto done;
        }
        PyObject *piles[2] = {stock == Py_None ? NULL : stock, turned};
        for (int i = 0; i < 2; i++) {
            for (Py_ssize_t k = 0; piles[i] != NULL && k < PyList_GET_SIZE(piles[i]); k++) {
                if (card_of(r, PyList_GET_ITEM(piles[i], k)) < 0) {
                    goto done; /* a drawn card must be a card the session can keep */
                }
            }
        }
        s->stock = Py_XNewRef(piles[0]), s->turned = Py_XNewRef(turned);
        s->in_stock = stock != NULL && stock != Py_None ? PyList_GET_SIZE(stock) : 0;
        s->in_turned = turned != NULL ? PyList_GET_SIZE(turned) : 0;
    }
    PyObject *known_off = NULL;
    s->passing = 0;
    if (r->choosing_key != NULL) {
        PyObject *v = NULL;
        int quiet;
        int on = choosing(r, state, &p, &v, &quiet);
        if (on == 1 && PyLong_CheckExact(v) && r->pass_word != NULL && players <= PyTuple_GET_SIZE(r->chosen_keys)) {
            s->choose = PyLong_AsLong(v); /* the pass (HE-2.3): so many cards each */
            s->passing = !(s->choose == -1 && PyErr_Occurred());
        }
        Py_XDECREF(v);
        if (on < 0) {
            rc = -1;
            goto done;
        }
        if (on != 0 && !s->passing) {
            goto done;
        }
        if (quiet) {
            known_off = r->choosing_key;
        }
    }
    s->bidding = 0;
    if (!s->passing) {
        int phase = other_phase(r, state, &p, counters, known_off);
        if (phase < 0) {
            rc = -1;
            goto done;
        }
        if (phase != 0) { /* followed only when it is the round of bids alone */
            s->bidding = session_bids(s, r, counters, known_off != NULL, players);
            if (s->bidding <= 0) {
                rc = s->bidding;
                goto done;
            }
        }
    }
    int ok = 1;
    for (long k = 0; k < players; k++) {
        PyObject *hand = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->hand_keys, k));
        PyObject *taken = PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->taken_keys, k));
        PyObject *mine = s->passing ? PyDict_GetItemWithError(zones, PyTuple_GET_ITEM(r->chosen_keys, k)) : NULL;
        if (hand == NULL || taken == NULL || !PyList_CheckExact(hand) || !PyList_CheckExact(taken) ||
            PyList_GET_SIZE(hand) > MAX_CARDS || (mine != NULL && !PyList_CheckExact(mine)) || PyErr_Occurred()) {
            goto done;
        }
        s->count[k] = (int)PyList_GET_SIZE(hand);
        for (int i = 0; i < s->count[k]; i++) {
            int c = card_of(r, PyList_GET_ITEM(hand, i));
            if (c < 0) {
                goto done;
            }
            s->cards[k][i] = (unsigned char)c;
        }
        s->tricks[k] = exact_counter(counters, PyTuple_GET_ITEM(r->tricks_keys, k), &ok);
        Py_INCREF(hand), Py_INCREF(taken), Py_XINCREF(mine);
        s->hands[k] = hand, s->taken[k] = taken, s->chosen[k] = mine;
        s->picked[k] = mine != NULL ? (int)PyList_GET_SIZE(mine) : 0;
    }
    if (s->passing && s->chosen[p.to_move] == NULL) {
        goto done;
    }
    PyObject *trick = PyDict_GetItemWithError(zones, r->k_trick);
    if (trick == NULL || !PyList_CheckExact(trick) || PyList_GET_SIZE(trick) >= players) {
        goto done;
    }
    s->led = (int)PyList_GET_SIZE(trick);
    for (int i = 0; i < s->led; i++) {
        s->trick_cards[i] = card_of(r, PyList_GET_ITEM(trick, i));
        if (s->trick_cards[i] < 0) {
            goto done;
        }
    }
    s->played = exact_counter(counters, r->k_played, &ok);
    s->lead = s->led ? exact_counter(counters, r->k_lead, &ok) : p.to_move;
    s->trump = counter(counters, r->k_trump, 0, &ok);
    if (!ok || s->trump < 0 || s->trump > r->nsuits || s->lead < 0 || s->lead >= players) {
        goto done;
    }
    Py_INCREF(state), Py_INCREF(trick);
    s->state = state, s->trick = trick;
    s->dict = p.dict, s->zones = zones, s->counters = counters; /* the references read_state took */
    p.dict = p.zones = p.counters = NULL;
    s->players = players, s->to_move = p.to_move;
    s->dead = 0;
    rc = 1;
done:
    if (rc == 0) {
        PyErr_Clear();
    }
    if (rc != 1) {
        session_forget(s);
    }
    Py_XDECREF(p.zones);
    Py_XDECREF(p.counters);
    Py_XDECREF(p.dict);
    Py_DECREF(p.seat);
    Py_XDECREF(p.data);
    return rc;
}

/* rules.session(state) -> Session | None: None unless the state is in the pass, the round of bids or the
 * play, its class plain, and every hand, taken pile, card to draw and count as the family keeps them. */
static PyObject *
Rules_session(Rules *r, PyObject *state)
{
    Session *s = PyObject_GC_New(Session, &SessionType);
    if (s == NULL) {
        return NULL;
    }
    s->r = NULL, s->state = s->dict = s->zones = s->counters = s->trick = NULL;
    for (int k = 0; k < MAX_SEATS; k++) {
        s->hands[k] = s->taken[k] = s->chosen[k] = NULL;
    }
    s->stock = s->turned = s->offered_bids = NULL;
    s->offering = s->lead_kept = s->broken_kept = 0;
    s->dead = 1;
    Py_INCREF(r);
    s->r = r;
    PyObject_GC_Track((PyObject *)s);
    int rc = session_read(s, r, state);
    if (rc == 1) {
        return (PyObject *)s;
    }
    Py_DECREF(s);
    if (rc < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The legal bids' moves as `Bidding.actions` gives them, found without the script where the rules can
 * (`Bidding.plain`): bid_max read, and with a ban the answers the game kept for the key its parts make
 * (`Compiled.key`, the same tuple). A new list; NULL with no error set when the game must be asked. */
static PyObject *
session_plain_bids(Session *s)
{
    Rules *r = s->r;
    long most;
    if (!r->plain_bids || form_value(r, r->most_at, s->dict, s->zones, s->counters, s->players, s->to_move, &most) <= 0 ||
        most < 0) {
        return NULL;
    }
    long count = (most < r->bid_cap ? most : r->bid_cap) + 1;
    if (!r->has_ban) { /* every bid from 0 to bid_max */
        PyObject *out = PyList_New(count);
        for (long i = 0; out != NULL && i < count; i++) {
            PyObject *move = PyTuple_GET_ITEM(r->bid_all_moves, i);
            Py_INCREF(move);
            PyList_SET_ITEM(out, i, move);
        }
        return out;
    }
    PyObject *values = PyTuple_New(r->nparts);
    if (values == NULL) {
        return NULL;
    }
    for (int i = 0; i < r->nparts; i++) {
        long v;
        int ok = form_value(r, r->parts_at[i], s->dict, s->zones, s->counters, s->players, s->to_move, &v);
        PyObject *item = ok > 0 ? PyLong_FromLong(v) : NULL;
        if (item == NULL) {
            Py_DECREF(values);
            return NULL;
        }
        PyTuple_SET_ITEM(values, i, item);
    }
    PyObject *bound = PyLong_FromLong(count);
    PyObject *key = bound == NULL ? NULL : PyTuple_Pack(2, bound, values);
    Py_XDECREF(bound);
    Py_DECREF(values);
    if (key == NULL) {
        return NULL;
    }
    PyObject *found = PyDict_GetItemWithError(r->bid_known, key); /* (bids, their moves) */
    Py_DECREF(key);
    if (found == NULL || !PyTuple_CheckExact(found) || PyTuple_GET_SIZE(found) != 2 ||
        !PyTuple_CheckExact(PyTuple_GET_ITEM(found, 1))) {
        return NULL; /* not kept yet: the game judges them, and keeps them */
    }
    return PySequence_List(PyTuple_GET_ITEM(found, 1));
}

/* session.legal() -> the moves `Tricks.playable` allows the seat to move, as rules.legal(state) finds
 * them; None when the session no longer answers. */
static PyObject *
Session_legal(Session *s, PyObject *Py_UNUSED(ignored))
{
    if (!session_fits(s)) {
        Py_RETURN_NONE;
    }
    Rules *r = s->r;
    long seat = s->to_move;
    int n = s->count[seat];
    const unsigned char *cards = s->cards[seat];
    if (s->bidding) { /* the bids the script allows the seat to move (Bidding.actions) */
        PyObject *moves = session_plain_bids(s);
        if (moves == NULL && !PyErr_Occurred()) {
            moves = PyObject_CallOneArg(r->bid_moves, s->state);
            if (moves != NULL && !PyList_CheckExact(moves)) {
                Py_DECREF(moves);
                s->dead = 1;
                Py_RETURN_NONE;
            }
        }
        if (moves != NULL) { /* the very moves kept, for `offered`: a round of bids is a few moves a deal */
            Py_XSETREF(s->offered_bids, PyList_AsTuple(moves));
            if (s->offered_bids == NULL) {
                Py_DECREF(moves);
                return NULL;
            }
            s->offering = 3;
        }
        return moves;
    }
    if (s->passing) { /* the pass: every card of the hand may be chosen (HiddenChoices.actions) */
        PyObject *out = PyList_New(n);
        if (out == NULL) {
            return NULL;
        }
        uint64_t held = 0;
        for (int i = 0; i < n; i++) {
            PyObject *move = PyTuple_GET_ITEM(r->pass_moves, cards[i]);
            Py_INCREF(move);
            PyList_SET_ITEM(out, i, move);
            held |= (uint64_t)1 << cards[i];
        }
        s->offered = held, s->offering = 2;
        return out;
    }
    uint64_t held = 0;
    for (int i = 0; i < n; i++) {
        held |= (uint64_t)1 << cards[i];
    }
    long known[2] = {s->played, s->trump};
    PyObject *seat_obj = PyLong_FromLong(seat);
    if (seat_obj == NULL) {
        return NULL;
    }
    uint64_t allowed;
    int found = allowed_cards(r, held, s->led ? s->trick_cards[0] : -1, known, s->counters, r->judge, s->state,
                              seat_obj, &allowed);
    Py_DECREF(seat_obj);
    if (found <= 0) {
        if (found < 0) {
            return NULL;
        }
        s->dead = 1;
        Py_RETURN_NONE;
    }
    PyObject *out = plays_of(r, cards, n, allowed);
    if (out != NULL) {
        s->offered = allowed & held, s->offering = 1;
    }
    return out;
}

/* session.offered(action) -> bool: whether ``action`` is the very move the last legal() handed out (a
 * card's, or a bid), nothing having moved since: the deal then plays it unchecked (`tapete.Deal.play`).
 * False for anything else, which the deal then checks itself. */
static PyObject *
Session_offered(Session *s, PyObject *action)
{
    if (s->offering == 0 || !session_fits(s)) {
        Py_RETURN_FALSE;
    }
    if (s->offering == 3) { /* a bid: one of the very moves handed out */
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(s->offered_bids); i++) {
            if (PyTuple_GET_ITEM(s->offered_bids, i) == action) {
                Py_RETURN_TRUE;
            }
        }
        Py_RETURN_FALSE;
    }
    if (!PyTuple_Check(action) || PyTuple_GET_SIZE(action) < 2) {
        Py_RETURN_FALSE;
    }
    PyObject *cards = PyTuple_GET_ITEM(action, 1);
    if (!PyTuple_CheckExact(cards) || PyTuple_GET_SIZE(cards) < 1) {
        Py_RETURN_FALSE;
    }
    Rules *r = s->r;
    int card = card_of(r, PyTuple_GET_ITEM(cards, 0));
    PyObject *moves = s->offering == 1 ? r->plays : r->pass_moves;
    if (card < 0 || card >= r->ncards || !((s->offered >> card) & 1) || PyTuple_GET_ITEM(moves, card) != action) {
        Py_RETURN_FALSE;
    }
    Py_RETURN_TRUE;
}

static int
session_set_seat(Session *s, PyObject *dict, PyObject *key, long seat)
{
    PyObject *v = PyLong_FromLong(seat);
    if (v == NULL) {
        return -1;
    }
    int rc = PyDict_SetItem(dict, key, v);
    Py_DECREF(v);
    return rc;
}

/* A card chosen in the pass, as `pass_play` chooses it: into the chooser's chosen cards, the turn to the
 * next seat still choosing; the last card of the phase hands every seat's cards on and begins the play
 * (`pass_end`), and the session then reads the state again to follow the play. */
static PyObject *
session_pass(Session *s, PyObject *card_obj, int at)
{
    Rules *r = s->r;
    long seat = s->to_move, players = s->players;
    int after = s->picked[seat] + 1;
    long next = -1;
    if (s->choose > after) {
        next = seat; /* more to choose: the same seat again */
    } else {         /* the next seat still choosing, in the direction of play (Game.next_seat) */
        long k = seat;
        for (long i = 0; i < players; i++) {
            k = ((k + r->step) % players + players) % players;
            if (s->chosen[k] != NULL && s->choose > (k == seat ? after : s->picked[k])) {
                next = k;
                break;
            }
        }
    }
    PyObject *hand = s->hands[seat];
    if (next < 0) { /* every seat has chosen: the cards are handed on, and the family's play begins */
        Parts p = {s->zones, s->counters, NULL, s->dict, NULL, seat, players};
        p.seat = PyLong_FromLong(seat);
        if (p.seat == NULL) {
            return NULL;
        }
        PyObject *out = pass_end(r, s->state, card_obj, &p, hand, at, s->chosen[seat]);
        Py_DECREF(p.seat);
        if (out == NULL || out == Py_None) {
            s->dead = 1; /* None: nothing changed, Python hands the cards on */
            return out;
        }
        PyObject *state = Py_NewRef(s->state); /* held: reading the state again lets go of the session's */
        int rc = session_read(s, r, state);     /* the hands as they are now, in play */
        Py_DECREF(state);
        if (rc < 0) {
            Py_DECREF(out);
            return NULL;
        }
        return out;
    }
    if (PyList_SetSlice(hand, at, at + 1, NULL) < 0 || PyList_Append(s->chosen[seat], card_obj) < 0) {
        return NULL;
    }
    memmove(&s->cards[seat][at], &s->cards[seat][at + 1], (size_t)(s->count[seat] - at - 1));
    s->count[seat]--;
    s->picked[seat] = after;
    if (next != seat) {
        s->to_move = next;
        if (session_set_seat(s, s->dict, r->k_to_move, next) < 0) {
            return NULL;
        }
    }
    return PyList_New(0);
}

/* A bid, as `Bidding.apply` records it (OH-4.1, OH-4.2, SP-3.1): the seat's bid counter, the bids' sum
 * and the bids made, the turn to the next seat that has not bid; "bids N" said. After the last bid of
 * the round the round's counter goes to 0 and the game's ``closed(state)`` begins what follows (the play,
 * or the blind bidders' exchange); the session then reads the state again. Any other move: None,
 * nothing changed. */
static PyObject *
session_bid(Session *s, PyObject *action)
{
    Rules *r = s->r;
    long seat = s->to_move, players = s->players;
    PyObject *kind = PyTuple_GET_ITEM(action, 0), *cards = PyTuple_GET_ITEM(action, 1);
    PyObject *detail = PyTuple_GET_SIZE(action) > 2 ? PyTuple_GET_ITEM(action, 2) : NULL;
    long bid = -1;
    if (detail != NULL && PyUnicode_CheckExact(kind) && PyUnicode_CheckExact(detail) && PyTuple_CheckExact(cards) &&
        PyTuple_GET_SIZE(cards) == 0 && (kind == r->k_bid_word || PyUnicode_Compare(kind, r->k_bid_word) == 0)) {
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(r->bid_words); i++) {
            PyObject *w = PyTuple_GET_ITEM(r->bid_words, i);
            if (w == detail || PyUnicode_Compare(w, detail) == 0) {
                bid = (long)i;
                break;
            }
        }
    }
    PyErr_Clear();
    int closing = s->bids_made + 1 == players; /* the last bid of the round */
    if (bid < 0 || s->bids_made + 1 > players || ((s->bid >> seat) & 1) || (closing && r->bids_closed == NULL)) {
        s->dead = 1;
        Py_RETURN_NONE;
    }
    long next = seat; /* Bidding._next_bidder: the next seat after this one that has not bid */
    uint32_t bid_now = s->bid | ((uint32_t)1 << seat);
    long k = ((seat + r->step) % players + players) % players;
    for (long i = 0; i < players; i++) {
        if (!((bid_now >> k) & 1)) {
            break;
        }
        k = ((k + r->step) % players + players) % players;
    }
    next = k;
    PyObject *event = PyDict_New();
    PyObject *out = event == NULL ? NULL : PyList_New(1);
    if (out == NULL || PyDict_SetItem(event, r->k_say, PyTuple_GET_ITEM(r->bid_says, bid)) < 0) {
        Py_XDECREF(event);
        Py_XDECREF(out);
        return NULL;
    }
    PyList_SET_ITEM(out, 0, event);
    if (set_long(s->counters, PyTuple_GET_ITEM(r->bid_keys, seat), bid) < 0 ||
        set_long(s->counters, r->k_bids, s->bids_sum + bid) < 0 ||
        set_long(s->counters, r->k_bids_made, s->bids_made + 1) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    if (closing) { /* the round ends (its counter to 0) and the game begins what follows; the session reads
                    * the state again, as after the pass */
        PyObject *state = Py_NewRef(s->state); /* held: reading the state again lets go of the session's */
        PyObject *done = set_long(s->counters, r->k_bidding, 0) < 0 ? NULL : PyObject_CallOneArg(r->bids_closed, state);
        int rc = done == NULL ? -1 : session_read(s, r, state);
        Py_XDECREF(done);
        Py_DECREF(state);
        if (rc < 0) {
            Py_DECREF(out);
            return NULL;
        }
        return out;
    }
    if (session_set_seat(s, s->dict, r->k_to_move, next) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    s->bid = bid_now, s->bids_sum += bid, s->bids_made++;
    s->to_move = next;
    return out;
}

/* BR-3.4: after a trick the winner draws first, then the others in order, the stock's top card each and
 * the turned card last, as `play_parts` draws. */
static int
session_draw(Session *s, long winner)
{
    Rules *r = s->r;
    long k = winner;
    for (long i = 0; i < s->players; i++) {
        PyObject *source = s->in_stock ? s->stock : s->turned;
        Py_ssize_t *left = s->in_stock ? &s->in_stock : &s->in_turned;
        if (source == NULL || *left == 0) {
            break;
        }
        PyObject *drawn = Py_NewRef(PyList_GET_ITEM(source, *left - 1));
        if (PyList_SetSlice(source, *left - 1, *left, NULL) < 0 || PyList_Append(s->hands[k], drawn) < 0) {
            Py_DECREF(drawn);
            return -1;
        }
        (*left)--;
        s->cards[k][s->count[k]++] = (unsigned char)card_of(r, drawn);
        Py_DECREF(drawn);
        k = ((k + r->step) % s->players + s->players) % s->players;
    }
    return 0;
}

/* session.play(action) -> the words said, a 'play' move played as `play_parts` plays it (HE-3.2,
 * HE-3.4); None, having changed nothing, for any other move or when the session no longer answers
 * (then it never answers again: the deal plays the move otherwise and drops it). */
static PyObject *
Session_play(Session *s, PyObject *action)
{
    if (!session_fits(s)) {
        Py_RETURN_NONE;
    }
    Rules *r = s->r;
    s->offering = 0; /* whatever happens next, what legal() offered is of another state */
    Py_CLEAR(s->offered_bids);
    if (!PyTuple_Check(action) || PyTuple_GET_SIZE(action) < 2) {
        s->dead = 1;
        Py_RETURN_NONE;
    }
    if (s->bidding) {
        return session_bid(s, action);
    }
    PyObject *kind = PyTuple_GET_ITEM(action, 0), *cards = PyTuple_GET_ITEM(action, 1);
    PyObject *word = s->passing ? r->pass_word : r->k_play_word;
    if (!PyUnicode_CheckExact(kind) || !PyTuple_CheckExact(cards) || PyTuple_GET_SIZE(cards) < 1 ||
        (kind != word && PyUnicode_Compare(kind, word) != 0)) {
        PyErr_Clear();
        s->dead = 1;
        Py_RETURN_NONE;
    }
    PyObject *card_obj = PyTuple_GET_ITEM(cards, 0);
    int card = card_of(r, card_obj);
    long seat = s->to_move, players = s->players;
    PyObject *hand = s->hands[seat];
    int n = s->count[seat], at = -1;
    for (int i = 0; card >= 0 && i < n; i++) {
        if (s->cards[seat][i] == card) {
            at = i;
            break;
        }
    }
    if (at < 0) {
        s->dead = 1;
        Py_RETURN_NONE; /* not in the hand: Python's list.remove to judge */
    }
    if (s->passing) {
        return session_pass(s, card_obj, at);
    }
    int last = s->led + 1 == players;
    long winner = -1;
    if (last) {
        for (long k = 0; s->stock != NULL && k < players; k++) {
            if (s->count[k] + 1 > MAX_CARDS) { /* a hand the draw would make longer than the session keeps */
                s->dead = 1;
                Py_RETURN_NONE;
            }
        }
        int trick[MAX_SEATS];
        for (int i = 0; i < s->led; i++) {
            trick[i] = s->trick_cards[i];
        }
        trick[s->led] = card;
        winner = trick_winner(r, trick, s->led + 1, s->led ? s->lead : seat, s->trump, players);
    }
    /* the card leaves the hand for the trick, as Tricks.apply plays it */
    if (PyList_SetSlice(hand, at, at + 1, NULL) < 0) {
        return NULL;
    }
    memmove(&s->cards[seat][at], &s->cards[seat][at + 1], (size_t)(n - at - 1));
    s->count[seat] = n - 1;
    if (s->led == 0 && !(s->lead_kept && s->lead == seat)) { /* the winner leads: the counter says so already */
        s->lead = seat;
        if (session_set_seat(s, s->counters, r->k_lead, seat) < 0) {
            return NULL;
        }
        s->lead_kept = 1;
    }
    if (PyList_Append(s->trick, card_obj) < 0) {
        return NULL;
    }
    s->trick_cards[s->led++] = card;
    if (((r->breaks >> card) & 1) && !s->broken_kept) {
        if (PyDict_SetItem(s->counters, r->k_broken, r->one) < 0) {
            return NULL;
        }
        s->broken_kept = 1;
    }
    if (!last) {
        s->to_move = ((seat + r->step) % players + players) % players;
        if (session_set_seat(s, s->dict, r->k_to_move, s->to_move) < 0) {
            return NULL;
        }
        return PyList_New(0);
    }
    /* the trick is taken: the words said, the cards to the winner, the counts, the lead */
    PyObject *out = trick_words(r, s->trick, winner);
    if (out == NULL) {
        return NULL;
    }
    PyObject *taken = s->taken[winner];
    Py_ssize_t size = PyList_GET_SIZE(s->trick);
    if (PyList_SetSlice(taken, PyList_GET_SIZE(taken), PyList_GET_SIZE(taken), s->trick) < 0 ||
        PyList_SetSlice(s->trick, 0, size, NULL) < 0 ||
        set_long(s->counters, PyTuple_GET_ITEM(r->tricks_keys, winner), s->tricks[winner] + 1) < 0 ||
        set_long(s->counters, r->k_played, s->played + 1) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    s->tricks[winner]++, s->played++, s->led = 0;
    if (s->stock != NULL && session_draw(s, winner) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    s->to_move = s->lead = winner;
    s->lead_kept = 1;
    if (session_set_seat(s, s->dict, r->k_to_move, winner) < 0 || session_set_seat(s, s->counters, r->k_lead, winner) < 0 ||
        (s->count[winner] == 0 && PyDict_SetItem(s->dict, r->k_over, Py_True) < 0)) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

static PyMethodDef Session_methods[] = {
    {"offered", (PyCFunction)Session_offered, METH_O,
     "offered($self, action, /)\n--\n\nWhether the action is the very move the last legal() handed out, nothing moved since."},
    {"legal", (PyCFunction)Session_legal, METH_NOARGS,
     "legal() -> the moves rules.legal(state) would find, or None when the session no longer answers"},
    {"play", (PyCFunction)Session_play, METH_O,
     "play(action) -> the words said when a 'play' move was played as rules.play plays it, or None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SessionType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tapete_plugins.tricks._fast.Session",
    .tp_basicsize = sizeof(Session),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_dealloc = (destructor)Session_dealloc,
    .tp_traverse = (traverseproc)Session_traverse,
    .tp_clear = (inquiry)Session_clear,
    .tp_free = PyObject_GC_Del,
    .tp_doc = "One deal's play, read once and followed move by move (Rules.session).",
    .tp_methods = Session_methods,
};

static PyMethodDef Rules_methods[] = {
    {"legal", (PyCFunction)Rules_legal, METH_O,
     "legal(state) -> the moves Tricks.playable allows, or None to ask Python"},
    {"play", (PyCFunction)(void (*)(void))Rules_play, METH_FASTCALL,
     "play(state, action) -> the words said when a 'play' move was played as Tricks.apply plays it, or None"},
    {"session", (PyCFunction)Rules_session, METH_O,
     "session(state) -> a Session following this deal's play from its state as it is now, or None"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject RulesType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tapete_plugins.tricks._fast.Rules",
    .tp_basicsize = sizeof(Rules),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_new = Rules_new,
    .tp_dealloc = (destructor)Rules_dealloc,
    .tp_traverse = (traverseproc)Rules_traverse,
    .tp_clear = (inquiry)Rules_clear,
    .tp_free = PyObject_GC_Del,
    .tp_doc = "A trick game's play rules, read once: suits, following, the first card, the bans.",
    .tp_methods = Rules_methods,
};

static PyMethodDef methods[] = {
    {"legal", (PyCFunction)(void (*)(void))legal, METH_FASTCALL,
     "legal(rules, state, judge) -> the moves Tricks.playable allows, or None to ask Python"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "tapete_plugins.tricks._fast",
    .m_doc = "The trick family's commonest steps, in C.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__fast(void)
{
    if (PyType_Ready(&RulesType) < 0 || PyType_Ready(&SessionType) < 0) {
        return NULL;
    }
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) {
        return NULL;
    }
    Py_INCREF(&RulesType);
    if (PyModule_AddObject(m, "Rules", (PyObject *)&RulesType) < 0) {
        Py_DECREF(&RulesType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
