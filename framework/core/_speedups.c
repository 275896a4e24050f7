/* tapete.core._speedups: the few loops where plain Python costs most, written out in C.
 *
 * Each function here has a twin in Python that gives exactly the same result
 * (tests/test_speedups.py checks them against each other), and tapete runs
 * without this module: setuptools builds it when a C compiler is there and
 * skips it quietly when not, and the Python twin is used instead.
 *
 * pcg_shuffle: tapete.core.rng.Random.shuffle. A deal's shuffle is PCG32 (one
 * 64-bit multiply, a shift and a rotation a number) drawn card by card with
 * rejection, in Python about half of dealing a hand of Hearts; every imagined
 * deal of a search shuffles too. Same numbers, same swaps, same final state.
 *
 * seed_of: tapete.core.rng._seed_of, the first 8 bytes of a text's SHA-256 read as
 * a big-endian number: every generator's seed and stream are made so (derive_seed), three
 * hashes a deal begun with Variant.new_deal, each a new text. hashlib's object costs more
 * than the hash of a short text; this is the standard SHA-256 (FIPS 180-4) written out,
 * compared with hashlib by tests/test_speedups.py.
 *
 * pcg_lot, pcg_derived: Random(seed, stream).below(n) and Random.derived(...)'s state, each in one
 * call: the lot for a deal's first dealer and the deal's generator, which every Variant.new_deal
 * makes (two hashes and a few steps of PCG32 each, otherwise some ten Python calls).
 *
 * DealSteps: the base of tapete.play.deal.Deal, whose legal_actions, play, over and
 * to_move a caller stepping through a deal calls for every move. Where the game hands
 * over steps of its own with no Python frame (Game.quick_steps: the trick family's C
 * code), a move through the public API then runs no Python frame at all. The Python
 * twin is tapete.play.deal.DealSteps, line for line; everything it does not settle
 * (a move not among the very objects handed out, a recorder) it asks of the Deal's
 * Python methods, as the twin does. tests/test_deal_steps.py plays both in lockstep.
 * Where the game's quick steps open a session on the state (QuickSteps.session: an
 * object that reads the state once and follows it move by move), the deal keeps it
 * while only its own moves change the state, and drops it otherwise.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <structmember.h>

#define PCG_MULT 6364136223846793005ULL

/* One PCG32 step: the next 32-bit number, the state moved on (Random._next). */
static inline uint32_t
pcg_next(uint64_t *state, uint64_t inc)
{
    uint64_t old = *state;
    *state = old * PCG_MULT + inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

static int
read_u64(PyObject *obj, uint64_t *out, const char *what)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int", what);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(obj);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

/* pcg_shuffle(items: list, state: int, inc: int) -> int
 * Shuffles ``items`` in place as Random.shuffle does and returns the generator's new state. */
static PyObject *
pcg_shuffle(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "pcg_shuffle(items, state, inc) takes 3 arguments");
        return NULL;
    }
    PyObject *items = args[0];
    if (!PyList_CheckExact(items)) {
        PyErr_SetString(PyExc_TypeError, "pcg_shuffle: items must be a list");
        return NULL;
    }
    uint64_t state, inc;
    if (read_u64(args[1], &state, "state") < 0 || read_u64(args[2], &inc, "inc") < 0) {
        return NULL;
    }
    PyObject **cells = ((PyListObject *)items)->ob_item;
    for (Py_ssize_t i = PyList_GET_SIZE(items) - 1; i > 0; i--) {
        uint32_t n = (uint32_t)(i + 1);
        uint32_t threshold = (uint32_t)((0x100000000ULL - n) % n);
        uint32_t r;
        do {
            r = pcg_next(&state, inc);
        } while (r < threshold);
        Py_ssize_t j = (Py_ssize_t)(r % n);
        PyObject *tmp = cells[i];
        cells[i] = cells[j];
        cells[j] = tmp;
    }
    return PyLong_FromUnsignedLongLong((unsigned long long)state);
}


/* deal_hands(zones: dict, names: tuple[str], cards: list, total: int, first: int, step: int) -> None
 * `Game.deal_round_robin`'s hands: the top ``total`` cards of ``cards`` (its end, the top first) dealt one
 * at a time from seat ``first`` in the direction ``step``; seat s, j = (s - first) * step (mod the number
 * of names) places on in the dealing order, gets the j-th card dealt and every n-th after it, as a new
 * list in zones[names[s]], set in seat order; the dealt cards are then gone from ``cards``. */
static PyObject *
deal_hands(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 6 || !PyDict_CheckExact(args[0]) || !PyTuple_CheckExact(args[1]) || !PyList_CheckExact(args[2])) {
        PyErr_SetString(PyExc_TypeError, "deal_hands(zones: dict, names: tuple, cards: list, total, first, step)");
        return NULL;
    }
    PyObject *zones = args[0], *names = args[1], *cards = args[2];
    Py_ssize_t n = PyTuple_GET_SIZE(names), left = PyList_GET_SIZE(cards);
    Py_ssize_t total = PyLong_AsSsize_t(args[3]), first = PyLong_AsSsize_t(args[4]), step = PyLong_AsSsize_t(args[5]);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (n < 1 || total < 0 || total > left) {
        PyErr_SetString(PyExc_ValueError, "deal_hands: no seats, or more cards to deal than there are");
        return NULL;
    }
    PyObject **cells = ((PyListObject *)cards)->ob_item;
    for (Py_ssize_t s = 0; s < n; s++) {
        Py_ssize_t j = ((s - first) * step % n + n) % n; /* Python's %: never negative */
        Py_ssize_t size = j < total ? (total - j + n - 1) / n : 0;
        PyObject *hand = PyList_New(size);
        if (hand == NULL) {
            return NULL;
        }
        for (Py_ssize_t i = 0; i < size; i++) {
            PyObject *card = cells[left - 1 - (j + i * n)]; /* the (j + i n)-th card dealt, from the top */
            Py_INCREF(card);
            PyList_SET_ITEM(hand, i, card);
        }
        int rc = PyDict_SetItem(zones, PyTuple_GET_ITEM(names, s), hand);
        Py_DECREF(hand);
        if (rc < 0) {
            return NULL;
        }
        cells = ((PyListObject *)cards)->ob_item; /* a key's __eq__ may have run: read the list again */
        if (PyList_GET_SIZE(cards) != left) {
            PyErr_SetString(PyExc_RuntimeError, "deal_hands: the cards changed while they were dealt");
            return NULL;
        }
    }
    if (PyList_SetSlice(cards, left - total, left, NULL) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}


/* -- seed_of: SHA-256 of a text, its first 8 bytes ----------------------------------------- */
static const uint32_t SHA_K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

/* One 64-byte block into the running hash ``h``: the portable loop. */
static void
sha256_block_portable(uint32_t h[8], const unsigned char *block)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++) {
        w[i] = ((uint32_t)block[4 * i] << 24) | ((uint32_t)block[4 * i + 1] << 16) |
               ((uint32_t)block[4 * i + 2] << 8) | (uint32_t)block[4 * i + 3];
    }
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = k + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + SHA_K[i] + w[i];
        uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += k;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#include <immintrin.h>
#define HAVE_SHA_NI 1

/* One block with the processor's SHA extensions (x86's SHA-NI, where the CPU has them): the same
 * hash as the loop above, some five times quicker. The state is kept as the instructions want it
 * (ABEF, CDGH); each group of four rounds takes its four message words, the later ones made from
 * the earlier by sha256msg1/sha256msg2 (W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16]). */
__attribute__((target("sha,ssse3,sse4.1"))) static void
sha256_block_ni(uint32_t h[8], const unsigned char *block)
{
    const __m128i swap = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL); /* big-endian words */
    __m128i tmp = _mm_loadu_si128((const __m128i *)&h[0]);
    __m128i state1 = _mm_loadu_si128((const __m128i *)&h[4]);
    tmp = _mm_shuffle_epi32(tmp, 0xB1);             /* CDAB */
    state1 = _mm_shuffle_epi32(state1, 0x1B);       /* EFGH */
    __m128i state0 = _mm_alignr_epi8(tmp, state1, 8); /* ABEF */
    state1 = _mm_blend_epi16(state1, tmp, 0xF0);    /* CDGH */
    const __m128i abef = state0, cdgh = state1;
    __m128i msg[4];
    for (int g = 0; g < 16; g++) {
        __m128i m;
        if (g < 4) {
            m = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(block + 16 * g)), swap);
        } else {
            __m128i w7 = _mm_alignr_epi8(msg[(g - 1) & 3], msg[(g - 2) & 3], 4); /* W[t-7 .. t-4] */
            m = _mm_sha256msg1_epu32(msg[(g - 4) & 3], msg[(g - 3) & 3]);
            m = _mm_sha256msg2_epu32(_mm_add_epi32(m, w7), msg[(g - 1) & 3]);
        }
        msg[g & 3] = m;
        __m128i k = _mm_add_epi32(m, _mm_loadu_si128((const __m128i *)&SHA_K[4 * g]));
        state1 = _mm_sha256rnds2_epu32(state1, state0, k);
        state0 = _mm_sha256rnds2_epu32(state0, state1, _mm_shuffle_epi32(k, 0x0E));
    }
    state0 = _mm_add_epi32(state0, abef);
    state1 = _mm_add_epi32(state1, cdgh);
    tmp = _mm_shuffle_epi32(state0, 0x1B);          /* FEBA */
    state1 = _mm_shuffle_epi32(state1, 0xB1);       /* DCHG */
    state0 = _mm_blend_epi16(tmp, state1, 0xF0);    /* DCBA */
    state1 = _mm_alignr_epi8(state1, tmp, 8);       /* HGFE */
    _mm_storeu_si128((__m128i *)&h[0], state0);
    _mm_storeu_si128((__m128i *)&h[4], state1);
}

/* Whether this processor has the SHA extensions and the SSE levels the block above uses. */
static int
cpu_has_sha_ni(void)
{
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 9)) || !(c & (1u << 19))) { /* SSSE3, SSE4.1 */
        return 0;
    }
    if (__get_cpuid_max(0, NULL) < 7) {
        return 0;
    }
    __cpuid_count(7, 0, a, b, c, d);
    return (b >> 29) & 1; /* SHA */
}
#endif

/* The block function in use: the SHA extensions where the processor has them (chosen as the module
 * loads, `sha_extensions` says which), else the portable loop. */
static void (*block_fn)(uint32_t h[8], const unsigned char *block) = sha256_block_portable;

/* The first 8 bytes of the SHA-256 of ``size`` bytes, read big-endian. */
static uint64_t
sha64(const unsigned char *data, Py_ssize_t size)
{
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    Py_ssize_t left = size;
    while (left >= 64) {
        block_fn(h, data);
        data += 64;
        left -= 64;
    }
    unsigned char tail[128];
    memset(tail, 0, sizeof(tail));
    memcpy(tail, data, (size_t)left);
    tail[left] = 0x80;
    Py_ssize_t blocks = left + 9 <= 64 ? 1 : 2; /* the 0x80 and the 8-byte length must fit */
    uint64_t bits = (uint64_t)size * 8;
    for (int i = 0; i < 8; i++) {
        tail[blocks * 64 - 1 - i] = (unsigned char)(bits >> (8 * i));
    }
    for (Py_ssize_t b = 0; b < blocks; b++) {
        block_fn(h, tail + 64 * b);
    }
    return ((uint64_t)h[0] << 32) | (uint64_t)h[1];
}

/* sha_extensions(use) -> bool: the block function in use is the processor's SHA extensions; ``use``
 * True or False chooses (True only where the processor has them), None only asks. For the tests, which
 * hold both ways to hashlib's SHA-256. */
static PyObject *
sha_extensions(PyObject *self, PyObject *use)
{
    (void)self;
    if (use != Py_None) {
        int want = PyObject_IsTrue(use);
        if (want < 0) {
            return NULL;
        }
        block_fn = sha256_block_portable;
#ifdef HAVE_SHA_NI
        if (want && cpu_has_sha_ni()) {
            block_fn = sha256_block_ni;
        }
#endif
    }
#ifdef HAVE_SHA_NI
    return PyBool_FromLong(block_fn == sha256_block_ni);
#else
    Py_RETURN_FALSE;
#endif
}

/* seed_of(text: str) -> int: int.from_bytes(sha256(text.encode()).digest()[:8], "big"). */
static PyObject *
seed_of(PyObject *self, PyObject *text)
{
    (void)self;
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "seed_of: the text must be a str");
        return NULL;
    }
    Py_ssize_t size;
    const char *bytes = PyUnicode_AsUTF8AndSize(text, &size); /* strict UTF-8, as str.encode() */
    if (bytes == NULL) {
        return NULL;
    }
    return PyLong_FromUnsignedLongLong((unsigned long long)sha64((const unsigned char *)bytes, size));
}

/* The seed of ``"seed\x1f" + text``, as Random.__init__ hashes it: 1, or 0 with an error set. */
static int
seed_text(PyObject *text, uint64_t *out)
{
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, "the seed's text must be a str");
        return 0;
    }
    Py_ssize_t size;
    const char *bytes = PyUnicode_AsUTF8AndSize(text, &size);
    if (bytes == NULL) {
        return 0;
    }
    unsigned char small[256];
    unsigned char *joined = size + 5 <= (Py_ssize_t)sizeof(small) ? small : PyMem_Malloc((size_t)size + 5);
    if (joined == NULL) {
        PyErr_NoMemory();
        return 0;
    }
    memcpy(joined, "seed\x1f", 5);
    memcpy(joined + 5, bytes, (size_t)size);
    *out = sha64(joined, size + 5);
    if (joined != small) {
        PyMem_Free(joined);
    }
    return 1;
}

/* PCG32 seeded as Random.__init__ seeds it: from state 0 one step (state = inc), the seed added, one more. */
static inline uint64_t
pcg_seeded(uint64_t seed, uint64_t inc)
{
    return (inc + seed) * PCG_MULT + inc;
}

/* pcg_lot(text: str, inc: int, n: int) -> int: Random(text, stream).below(n) for the stream whose
 * increment is ``inc`` (the lot for the first dealer, tapete.play.deal.first_dealer), in one step. */
static PyObject *
pcg_lot(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    uint64_t inc, seed;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "pcg_lot(text, inc, n) takes 3 arguments");
        return NULL;
    }
    long n = PyLong_AsLong(args[2]);
    if ((n == -1 && PyErr_Occurred()) || read_u64(args[1], &inc, "inc") < 0 || !seed_text(args[0], &seed)) {
        return NULL;
    }
    if (n <= 0 || n > 0xFFFFFFFFL) {
        PyErr_SetString(PyExc_ValueError, "below() needs a positive bound");
        return NULL;
    }
    uint64_t state = pcg_seeded(seed, inc);
    uint32_t bound = (uint32_t)n, threshold = (uint32_t)((0x100000000ULL - bound) % bound);
    uint32_t r;
    do {
        r = pcg_next(&state, inc);
    } while (r < threshold);
    return PyLong_FromUnsignedLong((unsigned long)(r % bound));
}

/* pcg_derived(text: str, inc: int) -> int: the state of Random(seed_of(text)) on the stream whose
 * increment is ``inc``: Random.derived's two hashes (the parts', then "seed\x1f" and that number's). */
static PyObject *
pcg_derived(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    uint64_t inc;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "pcg_derived(text, inc) takes 2 arguments");
        return NULL;
    }
    if (!PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "the seed's text must be a str");
        return NULL;
    }
    if (read_u64(args[1], &inc, "inc") < 0) {
        return NULL;
    }
    Py_ssize_t size;
    const char *bytes = PyUnicode_AsUTF8AndSize(args[0], &size);
    if (bytes == NULL) {
        return NULL;
    }
    char number[40];
    int len = snprintf(number, sizeof(number), "seed\x1f%llu",
                       (unsigned long long)sha64((const unsigned char *)bytes, size));
    uint64_t seed = sha64((const unsigned char *)number, len);
    return PyLong_FromUnsignedLongLong((unsigned long long)pcg_seeded(seed, inc));
}

#undef ROTR


/* -- DealSteps ------------------------------------------------------------------------------ */
typedef struct {
    PyObject_HEAD
    PyObject *state;       /* _state: the DealState */
    PyObject *offered;     /* _offered: the moves last handed out, or the session that handed them out (it
                            * knows which they were: `offered(action)`), or None */
    PyObject *quick_legal; /* _quick_legal: legal(state) -> a new list or None; or None */
    PyObject *quick_apply; /* _quick_apply: apply(state, action) -> events or None; or None */
    PyObject *behind;      /* _behind: the copy where a lazy recorder stands, or None */
    PyObject *recorder;    /* _recorder: the Recorder, or None */
    PyObject *moves;       /* _moves: the moves played since the recorder last caught up */
    PyObject *quick_session; /* _quick_session: session(state) -> an object with legal() and play(action), or None */
    PyObject *session;     /* _session: the session following this deal's state, or None */
    /* the session's legal and play, found once a session rather than at every call (bound to the
     * session they were found on, which they keep alive: `session_method` checks it is still _session) */
    PyObject *session_legal, *session_play, *session_offered;
} DealSteps;

static PyObject *s_over, *s_to_move, *s_game, *s_legal_actions, *s_apply, *s_checked, *s_legal, *s_play, *s_offered;

static int
steps_traverse(DealSteps *self, visitproc visit, void *arg)
{
    Py_VISIT(self->state);
    Py_VISIT(self->offered);
    Py_VISIT(self->quick_legal);
    Py_VISIT(self->quick_apply);
    Py_VISIT(self->behind);
    Py_VISIT(self->recorder);
    Py_VISIT(self->moves);
    Py_VISIT(self->quick_session);
    Py_VISIT(self->session);
    Py_VISIT(self->session_legal);
    Py_VISIT(self->session_play);
    Py_VISIT(self->session_offered);
    return 0;
}

static int
steps_clear(DealSteps *self)
{
    Py_CLEAR(self->state);
    Py_CLEAR(self->offered);
    Py_CLEAR(self->quick_legal);
    Py_CLEAR(self->quick_apply);
    Py_CLEAR(self->behind);
    Py_CLEAR(self->recorder);
    Py_CLEAR(self->moves);
    Py_CLEAR(self->quick_session);
    Py_CLEAR(self->session);
    Py_CLEAR(self->session_legal);
    Py_CLEAR(self->session_play);
    Py_CLEAR(self->session_offered);
    return 0;
}

static void
steps_dealloc(DealSteps *self)
{
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    steps_clear(self);
    tp->tp_free((PyObject *)self);
}

/* An attribute of the deal that Deal.__init__ sets; AttributeError naming it when it is not. */
static PyObject *
steps_field(PyObject *value, const char *name)
{
    if (value == NULL) {
        PyErr_Format(PyExc_AttributeError, "the deal has no %s yet", name);
    }
    return value;
}

/* The state's class when getattr reads ``over`` from the instance's own dict whenever it holds it
 * (the generic getattr, an instance dict, no data descriptor named ``over`` along the MRO), and the
 * class's version tag then: any change to the class or a base invalidates the tag, and the class is
 * checked again. */
static PyTypeObject *plain_over_type;
static unsigned int plain_over_tag;

static int
plain_over(PyTypeObject *tp)
{
    if (tp == plain_over_type && (tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) && tp->tp_version_tag == plain_over_tag &&
        tp->tp_getattro == PyObject_GenericGetAttr) {
        return 1;
    }
    if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || tp->tp_getattro != PyObject_GenericGetAttr) {
        return 0; /* no tag yet: the generic getattr gives it one, and the next call checks again */
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
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(mro); j++) {
        PyTypeObject *base = (PyTypeObject *)PyTuple_GET_ITEM(mro, j);
        PyObject *dict = base->tp_dict;
        if (dict == NULL || !PyDict_Check(dict)) {
            if (base == &PyBaseObject_Type) {
                continue; /* object has no ``over`` */
            }
            return 0;
        }
        PyObject *found = PyDict_GetItemWithError(dict, s_over);
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
    if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || tp->tp_version_tag != tag) {
        return 0;
    }
    Py_INCREF(tp);
    Py_XSETREF(plain_over_type, tp);
    plain_over_tag = tag;
    return 1;
}

/* ``state.over``, a new reference: from the instance dict when it answers for getattr, else getattr. */
static PyObject *
state_over(PyObject *state)
{
    if (plain_over(Py_TYPE(state))) {
        PyObject *dict = PyObject_GenericGetDict(state, NULL);
        if (dict != NULL && PyDict_CheckExact(dict)) {
            PyObject *over = PyDict_GetItemWithError(dict, s_over);
            Py_XINCREF(over);
            Py_DECREF(dict);
            if (over != NULL || PyErr_Occurred()) {
                return over;
            }
        }
        else {
            Py_XDECREF(dict);
            PyErr_Clear();
        }
    }
    return PyObject_GetAttr(state, s_over);
}

/* The session's method ``name`` (a new reference, so that a call reaching back into the deal cannot free it
 * under itself): the one kept in ``*kept`` while it is bound to the session now
 * in ``_session`` (which Python may have set), else found again and kept. */
static PyObject *
session_method(DealSteps *self, PyObject **kept, PyObject *name)
{
    PyObject *m = *kept;
    if (m != NULL && ((PyCFunction_Check(m) && PyCFunction_GET_SELF(m) == self->session) ||
                      (PyMethod_Check(m) && PyMethod_GET_SELF(m) == self->session))) {
        return Py_NewRef(m);
    }
    Py_XSETREF(*kept, PyObject_GetAttr(self->session, name));
    return Py_XNewRef(*kept);
}

/* Whether the deal is over (``state.over``'s truth): 1, 0, or -1 on an error. */
static int
steps_over_now(PyObject *state)
{
    PyObject *over = state_over(state);
    if (over == NULL) {
        return -1;
    }
    int done = PyObject_IsTrue(over);
    Py_DECREF(over);
    return done;
}

/* A session's method called with no argument or one: straight through its C function when it is a
 * builtin method taking exactly that (the trick session's, every move), else by the call protocol. */
static inline PyObject *
call_none(PyObject *m)
{
    if (PyCFunction_Check(m) && (PyCFunction_GET_FLAGS(m) & ~METH_COEXIST) == METH_NOARGS) {
        return PyCFunction_GET_FUNCTION(m)(PyCFunction_GET_SELF(m), NULL);
    }
    return PyObject_CallNoArgs(m);
}

static inline PyObject *
call_one(PyObject *m, PyObject *arg)
{
    if (PyCFunction_Check(m) && (PyCFunction_GET_FLAGS(m) & ~METH_COEXIST) == METH_O) {
        return PyCFunction_GET_FUNCTION(m)(PyCFunction_GET_SELF(m), arg);
    }
    return PyObject_CallOneArg(m, arg);
}

/* The legal moves of ``state`` as a new list: none once it is over, else the game's quick steps'
 * own new list, or (when they leave the state to the game) a copy of the game's. */
static PyObject *
steps_moves_now(DealSteps *self, PyObject *state, int *by_session)
{
    *by_session = 0;
    /* a session following the state has made every change since it was opened on a deal not over, so it
     * knows when the deal is over (no card left to play: it offers none); only without one is it read */
    int followed = self->session != NULL && self->session != Py_None;
    if (!followed) {
        int done = steps_over_now(state);
        if (done != 0) {
            return done < 0 ? NULL : PyList_New(0);
        }
    }
    /* the session following the state, or a new one where the game opens one (not under an eager recorder,
     * which plays every move in Python and so would drop it at once) */
    if ((self->session == NULL || self->session == Py_None) && self->quick_session != NULL &&
        self->quick_session != Py_None &&
        (self->recorder == NULL || self->recorder == Py_None || (self->behind != NULL && self->behind != Py_None))) {
        PyObject *opened = PyObject_CallOneArg(self->quick_session, state);
        if (opened == NULL) {
            return NULL;
        }
        Py_XSETREF(self->session, opened);
    }
    if (self->session != NULL && self->session != Py_None) {
        PyObject *legal = session_method(self, &self->session_legal, s_legal);
        PyObject *found = legal == NULL ? NULL : call_none(legal);
        Py_XDECREF(legal);
        if (found == NULL || PyList_CheckExact(found)) {
            *by_session = found != NULL;
            return found;
        }
        Py_DECREF(found);
        Py_XSETREF(self->session, Py_NewRef(Py_None)); /* it no longer answers: dropped */
        if (followed) { /* and the deal read as it would have been without it */
            int done = steps_over_now(state);
            if (done != 0) {
                return done < 0 ? NULL : PyList_New(0);
            }
        }
    }
    if (self->quick_legal != NULL && self->quick_legal != Py_None) {
        PyObject *found = PyObject_CallOneArg(self->quick_legal, state);
        if (found == NULL || PyList_CheckExact(found)) {
            return found;
        }
        if (found != Py_None) {
            Py_SETREF(found, PySequence_List(found));
            return found;
        }
        Py_DECREF(found);
    }
    PyObject *game = PyObject_GetAttr((PyObject *)self, s_game);
    if (game == NULL) {
        return NULL;
    }
    PyObject *legal = PyObject_CallMethodOneArg(game, s_legal_actions, state);
    Py_DECREF(game);
    if (legal == NULL) {
        return NULL;
    }
    Py_SETREF(legal, PySequence_List(legal));
    return legal;
}

/* legal_actions(): the legal moves now (none once the deal is over), remembered for play's check. */
static PyObject *
steps_legal_actions(DealSteps *self, PyObject *Py_UNUSED(ignored))
{
    if (self->offered == NULL || !PyList_Check(self->offered)) {
        PyObject *state = steps_field(self->state, "_state");
        if (state == NULL) {
            return NULL;
        }
        int by_session;
        PyObject *found = steps_moves_now(self, state, &by_session);
        if (found == NULL) {
            return NULL;
        }
        if (by_session) {
            /* a session that can say which moves it handed out (`offered`): the caller has the list as its
             * own, and no copy is kept */
            PyObject *offered = session_method(self, &self->session_offered, s_offered);
            if (offered != NULL) {
                Py_DECREF(offered);
                Py_XSETREF(self->offered, Py_NewRef(self->session));
                return found;
            }
            if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
                Py_DECREF(found);
                return NULL;
            }
            PyErr_Clear(); /* a session without `offered`: the moves kept, and a copy handed out */
        }
        Py_XSETREF(self->offered, found);
    }
    PyObject *offered = self->offered;
    if (PyList_CheckExact(offered)) {
        return PyList_GetSlice(offered, 0, PyList_GET_SIZE(offered));
    }
    return PySequence_GetSlice(offered, 0, PY_SSIZE_T_MAX); /* ``offered[:]``, whatever was set there */
}

/* play(action): make a move; an illegal one raises IllegalAction saying why and changes nothing. */
static PyObject *
steps_play(DealSteps *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *action = NULL;
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs == 1 && nkw == 0) {
        action = args[0];
    }
    else if (nargs == 0 && nkw == 1 && PyUnicode_Check(PyTuple_GET_ITEM(kwnames, 0)) &&
             PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), "action") == 0) {
        action = args[0];
    }
    else {
        PyErr_SetString(PyExc_TypeError, "play() takes one move: play(action)");
        return NULL;
    }
    PyObject *move = NULL;
    PyObject *offered = self->offered;
    if (offered != NULL && offered != Py_None && offered == self->session) { /* the session vouches for its own */
        PyObject *ask = session_method(self, &self->session_offered, s_offered);
        PyObject *said = ask == NULL ? NULL : call_one(ask, action);
        Py_XDECREF(ask);
        if (said == NULL) {
            return NULL;
        }
        int yes = said == Py_True;
        Py_DECREF(said);
        if (yes) {
            move = Py_NewRef(action);
        }
    }
    else if (offered != NULL && PyList_CheckExact(offered)) {
        /* the very object handed out: the commonest case, checked first and quickest */
        Py_ssize_t n = PyList_GET_SIZE(offered);
        for (Py_ssize_t i = 0; i < n; i++) {
            if (PyList_GET_ITEM(offered, i) == action) {
                move = Py_NewRef(action);
                break;
            }
        }
    }
    if (move == NULL) {
        move = PyObject_CallMethodOneArg((PyObject *)self, s_checked, action);
        if (move == NULL) {
            return NULL;
        }
    }
    Py_XSETREF(self->offered, Py_NewRef(Py_None)); /* whatever happens next, the state is another */
    PyObject *state = steps_field(self->state, "_state");
    if (state == NULL) {
        Py_DECREF(move);
        return NULL;
    }
    Py_INCREF(state);
    PyObject *events = NULL;
    if (self->behind != NULL && self->behind != Py_None) {
        PyObject *moves = steps_field(self->moves, "_moves");
        if (moves == NULL) {
            goto done;
        }
        if (PyList_CheckExact(moves)) {
            if (PyList_Append(moves, move) < 0) {
                goto done;
            }
        }
        else {
            PyObject *appended = PyObject_CallMethod(moves, "append", "O", move);
            if (appended == NULL) {
                goto done;
            }
            Py_DECREF(appended);
        }
    }
    else if (self->recorder != NULL && self->recorder != Py_None) {
        Py_XSETREF(self->session, Py_NewRef(Py_None)); /* the recorder plays the move in Python */
        PyObject *recorder = Py_NewRef(self->recorder);
        events = PyObject_CallMethodObjArgs(recorder, s_apply, state, move, NULL);
        Py_DECREF(recorder);
        goto done;
    }
    if (self->session != NULL && self->session != Py_None) {
        PyObject *played = session_method(self, &self->session_play, s_play);
        events = played == NULL ? NULL : call_one(played, move);
        Py_XDECREF(played);
        if (events == NULL || events != Py_None) {
            goto done;
        }
        Py_CLEAR(events);
        Py_XSETREF(self->session, Py_NewRef(Py_None)); /* not its move: dropped, and the move played below */
    }
    if (self->quick_apply != NULL && self->quick_apply != Py_None) {
        PyObject *args[2] = {state, move};
        events = PyObject_Vectorcall(self->quick_apply, args, 2, NULL);
        if (events == NULL) {
            goto done;
        }
        if (events != Py_None) {
            goto done;
        }
        Py_CLEAR(events);
    }
    {
        PyObject *game = PyObject_GetAttr((PyObject *)self, s_game);
        if (game == NULL) {
            goto done;
        }
        events = PyObject_CallMethodObjArgs(game, s_apply, state, move, NULL);
        Py_DECREF(game);
    }
done:
    Py_DECREF(state);
    Py_DECREF(move);
    return events;
}

static PyObject *
steps_state_attr(DealSteps *self, PyObject *name)
{
    PyObject *state = steps_field(self->state, "_state");
    return state == NULL ? NULL : PyObject_GetAttr(state, name);
}

static PyObject *
steps_get_over(DealSteps *self, void *Py_UNUSED(closure))
{
    PyObject *state = steps_field(self->state, "_state");
    return state == NULL ? NULL : state_over(state);
}

static PyObject *
steps_get_to_move(DealSteps *self, void *Py_UNUSED(closure))
{
    return steps_state_attr(self, s_to_move);
}

static PyMethodDef steps_methods[] = {
    {"legal_actions", (PyCFunction)steps_legal_actions, METH_NOARGS,
     "legal_actions($self, /)\n--\n\nThe legal moves now (none once the deal is over), remembered for `play`'s check."},
    {"play", (PyCFunction)(void (*)(void))steps_play, METH_FASTCALL | METH_KEYWORDS,
     "play($self, action)\n--\n\nMake a move; an illegal one raises IllegalAction saying why and changes nothing."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef steps_members[] = {
    {"_state", T_OBJECT_EX, offsetof(DealSteps, state), 0, NULL},
    {"_offered", T_OBJECT_EX, offsetof(DealSteps, offered), 0, NULL},
    {"_quick_legal", T_OBJECT_EX, offsetof(DealSteps, quick_legal), 0, NULL},
    {"_quick_apply", T_OBJECT_EX, offsetof(DealSteps, quick_apply), 0, NULL},
    {"_behind", T_OBJECT_EX, offsetof(DealSteps, behind), 0, NULL},
    {"_recorder", T_OBJECT_EX, offsetof(DealSteps, recorder), 0, NULL},
    {"_moves", T_OBJECT_EX, offsetof(DealSteps, moves), 0, NULL},
    {"_quick_session", T_OBJECT_EX, offsetof(DealSteps, quick_session), 0, NULL},
    {"_session", T_OBJECT_EX, offsetof(DealSteps, session), 0, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef steps_getset[] = {
    {"over", (getter)steps_get_over, NULL, "Whether the deal is over.", NULL},
    {"to_move", (getter)steps_get_to_move, NULL, "The seat to move.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject DealStepsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "tapete.core._speedups.DealSteps",
    .tp_doc = "The base of tapete.play.deal.Deal: its commonest steps in C (the twin: tapete.play.deal.DealSteps).",
    .tp_basicsize = sizeof(DealSteps),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_new = PyType_GenericNew,
    .tp_dealloc = (destructor)steps_dealloc,
    .tp_traverse = (traverseproc)steps_traverse,
    .tp_clear = (inquiry)steps_clear,
    .tp_methods = steps_methods,
    .tp_members = steps_members,
    .tp_getset = steps_getset,
};

static PyMethodDef methods[] = {
    {"pcg_shuffle", (PyCFunction)(void (*)(void))pcg_shuffle, METH_FASTCALL,
     "pcg_shuffle(items, state, inc) -> state: Random.shuffle in C, in place"},
    {"pcg_lot", (PyCFunction)(void (*)(void))pcg_lot, METH_FASTCALL,
     "pcg_lot(text, inc, n) -> Random(text, stream).below(n), the stream's increment being inc"},
    {"pcg_derived", (PyCFunction)(void (*)(void))pcg_derived, METH_FASTCALL,
     "pcg_derived(text, inc) -> the state of Random(seed_of(text)) on the stream whose increment is inc"},
    {"deal_hands", (PyCFunction)(void (*)(void))deal_hands, METH_FASTCALL,
     "deal_hands(zones, names, cards, total, first, step) -> None: Game.deal_round_robin's hands in C"},
    {"sha_extensions", (PyCFunction)sha_extensions, METH_O,
     "sha_extensions(use: bool | None) -> bool: whether SHA-256 uses the processor's SHA extensions; "
     "True or False asks for them (where the processor has them) or for the portable loop"},
    {"seed_of", (PyCFunction)seed_of, METH_O,
     "seed_of(text) -> int: the first 8 bytes of the text's SHA-256 (UTF-8), big-endian: rng._seed_of in C"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "tapete.core._speedups",
    .m_doc = "The few loops and steps where plain Python costs most, in C.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    if ((s_over = PyUnicode_InternFromString("over")) == NULL ||
        (s_to_move = PyUnicode_InternFromString("to_move")) == NULL ||
        (s_game = PyUnicode_InternFromString("game")) == NULL ||
        (s_legal_actions = PyUnicode_InternFromString("legal_actions")) == NULL ||
        (s_apply = PyUnicode_InternFromString("apply")) == NULL ||
        (s_checked = PyUnicode_InternFromString("_checked")) == NULL ||
        (s_legal = PyUnicode_InternFromString("legal")) == NULL ||
        (s_play = PyUnicode_InternFromString("play")) == NULL ||
        (s_offered = PyUnicode_InternFromString("offered")) == NULL) {
        return NULL;
    }
    if (PyType_Ready(&DealStepsType) < 0) {
        return NULL;
    }
#ifdef HAVE_SHA_NI
    if (cpu_has_sha_ni()) {
        block_fn = sha256_block_ni;
    }
#endif
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) {
        return NULL;
    }
    if (PyModule_AddObjectRef(m, "DealSteps", (PyObject *)&DealStepsType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
