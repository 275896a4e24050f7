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
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

#define PCG_MULT 6364136223846793005ULL

static int
read_u64(PyObject *obj, uint64_t *out, const char *what)
{
    if (!PyLong_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "pcg_shuffle: %s must be an int", what);
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
        for (;;) {
            uint64_t old = state;
            state = old * PCG_MULT + inc;
            uint32_t xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
            uint32_t rot = (uint32_t)(old >> 59);
            r = (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
            if (r >= threshold) {
                break;
            }
        }
        Py_ssize_t j = (Py_ssize_t)(r % n);
        PyObject *tmp = cells[i];
        cells[i] = cells[j];
        cells[j] = tmp;
    }
    return PyLong_FromUnsignedLongLong((unsigned long long)state);
}

static PyMethodDef methods[] = {
    {"pcg_shuffle", (PyCFunction)(void (*)(void))pcg_shuffle, METH_FASTCALL,
     "pcg_shuffle(items, state, inc) -> state: Random.shuffle in C, in place"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    .m_base = PyModuleDef_HEAD_INIT,
    .m_name = "tapete.core._speedups",
    .m_doc = "The few loops where plain Python costs most, in C.",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    return PyModule_Create(&module);
}
