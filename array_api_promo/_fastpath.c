/* The compiled fast paths of array_api_promo: the hot calls' plain case, in C.
 *
 * Each fast path is a FastPath object that wraps the Python function it mirrors
 * (its "fallback") and replaces it where the Python function was (an Array
 * operator, an elementwise function of the runtime, __getitem__, result_type).
 * The C code does only what the Python function's own fast path does -- one
 * lookup in the runtime's table of plans that were already decided (skipped when
 * the plan is the one this path found last: LastPlan), one NumPy call (for a small
 * ufunc call, the very inner loop NumPy's call would run: direct_call), one new
 * array -- and hands every other call, unchanged, to the Python function.  No
 * rule lives here: the tables are filled by the Python code, and a miss, a
 * foreign operand or an error that the Python code words (ValueError of shapes
 * that do not broadcast) goes back to it.  Without this module (no compiler, or
 * ARRAY_API_PROMO_PURE_PYTHON=1) the Python functions run alone, with the same
 * results.
 *
 * FastPath is a method descriptor (Py_TPFLAGS_METHOD_DESCRIPTOR): Python's
 * operator slots and bound methods call it with self as the first argument,
 * without making a bound-method object per call.
 *
 * register_array() also changes the Array class, once, before it has an
 * instance: its instances leave the garbage collector on CPython 3.10/3.11
 * (untrack_arrays) and its subscript, item assignment and float slots call the
 * compiled __getitem__, __setitem__ and __float__ directly (subscript_by_fast_path,
 * slots_by_fast_paths).  Small ufunc calls run NumPy's own inner loop
 * (direct_call: element-wise ufuncs, vecdot, matmul; direct_inplace_call).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
/* NumPy's C API, for what Python's would do slowly: an array's ndim and shape, a 0-d array of one element */
#define NPY_NO_DEPRECATED_API NPY_2_0_API_VERSION
#define NPY_TARGET_VERSION NPY_2_0_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>
#include <float.h>
#include <math.h>
#include <fenv.h> /* the floating-point flags around NumPy loops run block by block (clip_arrays, Guarded) */

/* The kinds of fast path (_core.py names the same numbers); args[0] is an Array for the operators, the runtime for the functions. */
enum {
    BINARY_OPERATOR,    /* x <op> other */
    REFLECTED_OPERATOR, /* other <op> x */
    INPLACE_OPERATOR,   /* x <op>= other */
    UNARY_OPERATOR,     /* <op> x */
    BINARY_FUNCTION,    /* runtime.name(x1, x2) */
    UNARY_FUNCTION,     /* runtime.name(x) */
    GETITEM,            /* x[key], key an int, a slice or a boolean mask of x's shape */
    RESULT_TYPE,        /* runtime.result_type(x1, x2) */
    ASTYPE,             /* runtime.astype(x, dtype), a cast the Python function has allowed before */
    ASARRAY,            /* runtime.asarray(obj): one of ours, an ndarray of our dtypes, a list of Python floats; or (x, copy=True) */
    CONSTANT,           /* runtime.zeros(shape), ones(shape) or empty(shape): the policy's default float or
                         * dtype= one of the runtime's; zeros_like(x), ones_like(x), empty_like(x) */
    SETITEM,            /* x[key] = value, key basic or a boolean mask of x's shape, value an array of x's
                         * dtype or a Python scalar whose store the Python function allowed before */
    FLOAT,              /* float(x), x a 0-d float64 array */
    MATRIX_VIEW,        /* x.T, x.mT or matrix_transpose(x) (self->name): NumPy's view of x's data with the last two axes swapped */
    SHAPE,              /* x.shape: the tuple of x's NumPy data's dimensions */
    ARANGE,             /* runtime.arange(n) or (start, stop[, step]) of Python ints, or of Python floats
                         * and ints, one a float: the policy's default int or float, or dtype= an integer
                         * dtype that holds every value or float32 or float64 */
    RESHAPE,            /* runtime.reshape(x, shape), shape a tuple of Python ints, each -1 or more */
    FLIP,               /* runtime.flip(x) or (x, axis=i), i a Python int within x's dimensions */
    CONCAT,             /* runtime.concat(arrays[, axis=i or None]), arrays a list or tuple of arrays of the
                         * runtime of one dtype and one device */
    WHERE,              /* runtime.where(condition, x1, x2), three arrays of the runtime or two and a Python
                         * scalar, of a signature the Python function has met (runtime._where_plans) */
    FULL,               /* runtime.full(shape, fill_value) or full_like(x, fill_value) of a Python scalar,
                         * with dtype= one of the runtime's or none */
    SQUEEZE,            /* runtime.squeeze(x, axis), axis a Python int naming an axis of size 1 */
    KIND_COUNT
};

/* What register_array() was given: the Array class, where its slots are, and NumPy's pieces. */
static PyTypeObject *Array = NULL;
static Py_ssize_t DATA, DTYPE, RUNTIME, DEVICE; /* offsets of the slots _data, _dtype, _runtime, _device */
static Py_ssize_t WEAKLIST = 0; /* offset of its __weakref__ slot (where arrays are untracked) */
static PyTypeObject *NDArray = NULL;
static PyObject *asarray = NULL; /* numpy.asarray */
static PyObject *array_func = NULL; /* numpy.array */
static PyObject *numpy_matmul = NULL; /* numpy.matmul */
static PyObject *numpy_arange = NULL; /* numpy.arange */
static PyObject *numpy_concatenate = NULL; /* numpy.concatenate's C function (without NEP 18's dispatch) */
static PyObject *dtype_keyword = NULL; /* ("dtype",): the keyword of numpy.asarray(x, dtype=...) */
static PyObject *numpy_ufunc = NULL; /* numpy.ufunc */
static PyObject *getweakrefcount = NULL; /* weakref.getweakrefcount */
static int binary_op_code = -1; /* the interpreter's BINARY_OP instruction (opcode.opmap), -1: no elision */
static PyObject *cpu_device = NULL; /* array_api_promo's CPU device */
static PyObject *quiet_context = NULL; /* _runtime.quiet_context: this thread's quiet NumPy context */
static PyObject *bool_dtype = NULL; /* array_api_promo's bool DType */
/* promotion._policy.ScalarConverter, and where its slots are */
static PyTypeObject *ScalarConverter = NULL;
static Py_ssize_t CONV_MAKE, CONV_LO, CONV_HI, CONV_TO_FLOAT;
static PyObject *str_fast, *str_flat_keys, *str_result_types, *str_ndim;
static PyObject *str_native_dtypes, *str_dtype;
static PyObject *str_boolean_indexing, *str_setitem_converters, *str_key_refusals;
static PyObject *str_casts, *str_numpy, *str_policy, *str_default_float, *str_quiet_context;
static PyObject *str_default_int, *str_dtype_set, *str_device, *str_stop, *str_step, *str_copy, *str_axis;
static PyObject *str_where_plans, *str_create_scalar, *str_full, *str_full_like;
static PyObject *forward_slice = NULL, *backward_slice = NULL; /* slice(None), slice(None, None, -1) */

/* Outcome of a fast path: a result, or FALL_BACK to the Python function (no error set). */
static char fall_back_marker;
#define FALL_BACK ((PyObject *)&fall_back_marker) /* a sentinel, never returned to Python */

#define SLOT(obj, offset) (*(PyObject **)((char *)(obj) + (offset)))

/* A function kept out of its callers' code: a branch the plain cases rarely take, which inlined
 * would spread a hot path over more cache lines (measured: 10 ns of a 200 ns slice store). */
#if defined(__GNUC__) || defined(__clang__)
#define NOINLINE __attribute__((noinline))
#else
#define NOINLINE
#endif

/* An Array with its four slots set. One made by object.__new__ and never filled, or with a
 * slot deleted, goes to the Python function (which raises its AttributeError). */
static inline int
is_array(PyObject *obj)
{
    return Py_TYPE(obj) == Array && SLOT(obj, DATA) != NULL && SLOT(obj, DTYPE) != NULL &&
           SLOT(obj, RUNTIME) != NULL && SLOT(obj, DEVICE) != NULL;
}

/* The plan a fast path found last, with what it was found by: a call with the same runtime
 * and the same key skips the table (building the key tuple, hashing it, comparing it: half of
 * what the C code adds to a small operation).  A plan never changes once in a runtime's table
 * (the Python code only adds plans), so it stays right while its runtime lives; the runtime is
 * held by a weak reference, so that a dropped namespace is freed as before. */
typedef struct {
    PyObject *runtime; /* a weak reference to it, or NULL: nothing remembered */
    PyObject *first;   /* the key after the name: a dtype */
    PyObject *second;  /* a dtype, a Python scalar's type, or NULL (a unary plan) */
    int zero_d_bits;   /* which operands were 0-d, for a plan that depends on it (result_type under
                        * torch); -1 for one that does not */
    PyObject *plan;
} LastPlan;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    int kind;
    int variant;        /* which function of its kind, from its name (CONSTANT: ZEROS, ONES, EMPTY) */
    PyObject *name;     /* the operation's name in the runtime's tables ("add") */
    PyObject *fallback; /* the Python function this mirrors */
    PyObject *dict;     /* __name__, __doc__, __wrapped__ ... (functools.update_wrapper) */
    LastPlan last;
} FastPath;

static PyObject *
call_fallback(FastPath *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    return PyObject_Vectorcall(self->fallback, args, nargsf, kwnames);
}

/* A call's keyword arguments by name: values[i] is the value given for names[i] (interned), NULL
 * where none is; 0, or -1 for a keyword that is none of them (the Python function words it). */
static int
keywords(PyObject *kwnames, PyObject *const *kwvalues, PyObject *const *names, int count, PyObject **values)
{
    for (int i = 0; i < count; i++) {
        values[i] = NULL;
    }
    if (kwnames == NULL) {
        return 0;
    }
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); k++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, k);
        int i = 0;
        while (i < count && key != names[i]) { /* the names of a call's code are interned */
            i++;
        }
        for (int j = 0; i == count && j < count; j++) {
            if (PyUnicode_CheckExact(key) && PyUnicode_Compare(key, names[j]) == 0) {
                i = j;
            }
        }
        if (i == count) {
            return -1;
        }
        values[i] = kwvalues[k];
    }
    return 0;
}

/* -- small calls: the ufunc's own inner loop, without its call's set-up --------------------------
 * On 10 elements a ufunc's call is nearly all set-up (its arguments, the loop's resolution, the
 * iterator, the floating-point flags), the loop itself a few nanoseconds.  For a small call of a
 * NumPy ufunc on plain operands of one NumPy type (each C-contiguous, aligned and native, of one
 * shape or one of them 0-d; or one of two a Python or NumPy scalar of the array's kind),
 * direct_call runs the very loop NumPy's call would run: the one NumPy's own resolution names
 * (ufunc.resolve_dtypes, asked once per ufunc, type and Python scalar's position, whose
 * answer must leave the operands uncast), found as NumPy's legacy loop selector finds it, into a
 * new C-contiguous array of the resolved output dtype.  Where the loop raised a floating-point
 * flag or set an error, its result is dropped and NumPy's call runs instead, so that the warning
 * or error is NumPy's own under the caller's np.errstate.  Small: the loop runs with the GIL held,
 * as NumPy's does below its threshold. */
#define DIRECT_MAX_BYTES 8192
#define DIRECT_SLOTS 4096 /* NumPy's ufuncs and types make about 2,000 pairs; a full table hands the rest to NumPy's call */
#define FP_FLAGS (FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID)

typedef struct {
    PyObject *ufunc; /* a strong reference (a ufunc freed would free its loops); NULL: a free slot */
    int type_num;    /* the operands' NumPy type */
    int weak;        /* which operand is a Python scalar (NEP 50's weak scalar: 1 the first, 2 the second), 0 none */
    PyUFuncGenericFunction loop; /* NULL: no direct call for these operands */
    void *data;
    PyArray_Descr *out_descr; /* the resolved output dtype (a reference) */
} DirectLoop;
static DirectLoop direct_loops[DIRECT_SLOTS];

static int plain_array(PyObject *obj);
/* x86 with AVX: the upper halves of the vector registers cleared before a loop, as on a return from
 * AVX code.  Left dirty, every SSE instruction of the loop pays a transition (measured: NumPy's
 * float64 sin loop on 200 elements took 2.8 us from here, 1.6 us in NumPy's own call; equal
 * once cleared).  The registers are the caller's to save across a call, so clearing them is free. */
#if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define HAVE_ZERO_UPPER 1
__attribute__((target("avx"))) static void
zero_upper(void)
{
    __builtin_ia32_vzeroupper();
}
static int has_avx = 0; /* set at import, from the CPU */
#endif

/* Whether u is a generalized ufunc of signature (n),(n)->() (vecdot): one core dimension, shared
 * by its two inputs, neither frozen nor optional; its loop takes the outer count and n, and after the
 * three outer steps the two inputs' core steps. */
static int
is_vector_pair_gufunc(PyUFuncObject *u)
{
    return u->core_enabled && u->nin == 2 && u->nout == 1 && u->core_num_dim_ix == 1 && u->core_num_dims[0] == 1 &&
           u->core_num_dims[1] == 1 && u->core_num_dims[2] == 0 && u->core_dim_ixs[0] == 0 &&
           u->core_dim_ixs[1] == 0 && (u->core_dim_sizes == NULL || u->core_dim_sizes[0] == -1) &&
           (u->core_dim_flags == NULL || (u->core_dim_flags[0] & UFUNC_CORE_DIM_CAN_IGNORE) == 0);
}

/* Whether u is a generalized ufunc of matmul's signature, (n?,k),(k,m?)->(n?,m?): three core
 * dimensions, the outer two optional, none frozen; its loop takes the outer count and n, k, m, and
 * after the three outer steps each operand's two core steps. */
static int
is_matmul_gufunc(PyUFuncObject *u)
{
    static const int ixs[6] = {0, 1, 1, 2, 0, 2};
    if (!(u->core_enabled && u->nin == 2 && u->nout == 1 && u->core_num_dim_ix == 3 && u->core_dim_flags != NULL &&
          u->core_num_dims[0] == 2 && u->core_num_dims[1] == 2 && u->core_num_dims[2] == 2)) {
        return 0;
    }
    for (int i = 0; i < 6; i++) {
        if (u->core_dim_ixs[i] != ixs[i]) {
            return 0;
        }
    }
    for (int d = 0; d < 3; d++) {
        int optional = (u->core_dim_flags[d] & UFUNC_CORE_DIM_CAN_IGNORE) != 0;
        if (optional != (d != 1) || (u->core_dim_sizes != NULL && u->core_dim_sizes[d] != -1)) {
            return 0;
        }
    }
    return 1;
}

/* Fill entry with ufunc's loop for operands of type_num (one of them, weak, a Python scalar of
 * that type's kind), where NumPy resolves them uncast: a weak scalar may take another loop
 * (logical_and's of bools for a float32 array and a Python float). */
static void
resolve_direct_loop(DirectLoop *entry, PyUFuncObject *u, int type_num, int weak)
{
    int nin = u->nin, nargs = u->nin + 1;
    if (u->nout != 1 || nin < 1 || nin > 2 || (u->core_enabled && !is_vector_pair_gufunc(u) && !is_matmul_gufunc(u)) ||
        u->functions == NULL ||
        u->types == NULL || !PyTypeNum_ISNUMBER(type_num) || (u->core_enabled && weak)) { /* (bool included) */
        return;
    }
    PyArray_Descr *descr = PyArray_DescrFromType(type_num);
    PyObject *given = descr == NULL ? NULL : PyTuple_New(nargs);
    if (given == NULL) {
        Py_XDECREF(descr);
        PyErr_Clear();
        return;
    }
    PyObject *python_type = PyTypeNum_ISCOMPLEX(type_num) ? (PyObject *)&PyComplex_Type
                            : PyTypeNum_ISFLOAT(type_num) ? (PyObject *)&PyFloat_Type
                                                          : (PyObject *)&PyLong_Type;
    for (int k = 0; k < nin; k++) {
        PyTuple_SET_ITEM(given, k, Py_NewRef(weak == k + 1 ? python_type : (PyObject *)descr));
    }
    PyTuple_SET_ITEM(given, nin, Py_NewRef(Py_None));
    Py_DECREF(descr);
    PyObject *resolved = PyObject_CallMethod((PyObject *)u, "resolve_dtypes", "(O)", given);
    Py_DECREF(given);
    if (resolved == NULL || !PyTuple_CheckExact(resolved) || PyTuple_GET_SIZE(resolved) != nargs) {
        Py_XDECREF(resolved);
        PyErr_Clear(); /* (no loop for this type: NumPy's call words it) */
        return;
    }
    int types[3];
    for (int k = 0; k < nargs; k++) {
        PyObject *d = PyTuple_GET_ITEM(resolved, k);
        if (!PyArray_DescrCheck(d) || !PyArray_ISNBO(((PyArray_Descr *)d)->byteorder) ||
            ((PyArray_Descr *)d)->type_num >= NPY_NTYPES_LEGACY || ((PyArray_Descr *)d)->type_num == NPY_OBJECT ||
            (k < nin && ((PyArray_Descr *)d)->type_num != type_num)) {
            Py_DECREF(resolved);
            return; /* an operand cast, or an output NumPy makes its own way */
        }
        types[k] = ((PyArray_Descr *)d)->type_num;
    }
    for (int j = 0; j < u->ntypes; j++) { /* NumPy's legacy loop selector: the first exact match */
        const char *t = u->types + nargs * j;
        int k = 0;
        while (k < nargs && t[k] == types[k]) {
            k++;
        }
        if (k == nargs) {
            entry->loop = u->functions[j];
            entry->data = u->data == NULL ? NULL : u->data[j];
            entry->out_descr = (PyArray_Descr *)Py_NewRef(PyTuple_GET_ITEM(resolved, nin));
            break;
        }
    }
    Py_DECREF(resolved);
}

/* The entry for ufunc (an exact numpy.ufunc) and type_num, resolved the first time; NULL when the
 * table is full. */
static DirectLoop *
direct_loop(PyObject *ufunc, int type_num, int weak)
{
    size_t i = (((size_t)ufunc >> 4) * 31 + (size_t)type_num * 3 + (size_t)weak) % DIRECT_SLOTS;
    for (int probe = 0; probe < DIRECT_SLOTS; probe++, i = (i + 1) % DIRECT_SLOTS) {
        DirectLoop *entry = &direct_loops[i];
        if (entry->ufunc == ufunc && entry->type_num == type_num && entry->weak == weak) {
            return entry;
        }
        if (entry->ufunc == NULL) {
            entry->ufunc = Py_NewRef(ufunc);
            entry->type_num = type_num;
            entry->weak = weak;
            entry->loop = NULL;
            resolve_direct_loop(entry, (PyUFuncObject *)ufunc, type_num, weak);
            return entry;
        }
    }
    return NULL;
}

/* value, a Python scalar NumPy takes as an item of like's type (NEP 50: a weak scalar of the
 * array's own kind, its value within that type; float32 and complex64 round as NumPy's cast does)
 * or a NumPy scalar of that very type, as that item in item: 1, or 0 for any other value. */
static int
scalar_item(PyObject *value, PyArrayObject *like, char *item)
{
    PyArray_Descr *descr = PyArray_DESCR(like);
    if (Py_TYPE(value) == descr->typeobj) {
        PyArray_ScalarAsCtype(value, item);
        return 1;
    }
    int type_num = descr->type_num, overflow = 0;
    if (type_num == NPY_BOOL) {
        if (!PyBool_Check(value)) {
            return 0;
        }
        *(npy_bool *)item = value == Py_True;
        return 1;
    }
    if (PyTypeNum_ISINTEGER(type_num)) {
        if (!PyLong_CheckExact(value)) {
            return 0;
        }
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            return 0; /* (beyond int64: NumPy's own call, also for uint64's upper half) */
        }
        switch (type_num) {
#define INTEGER_ITEM(TYPE, CTYPE, LO, HI)                                                                              \
    case TYPE:                                                                                                         \
        if (v < (long long)(LO) || (v > 0 && (unsigned long long)v > (unsigned long long)(HI))) {                     \
            return 0; /* out of range: NumPy raises its OverflowError */                                              \
        }                                                                                                              \
        *(CTYPE *)item = (CTYPE)v;                                                                                     \
        return 1;
            INTEGER_ITEM(NPY_BYTE, npy_byte, NPY_MIN_BYTE, NPY_MAX_BYTE)
            INTEGER_ITEM(NPY_SHORT, npy_short, NPY_MIN_SHORT, NPY_MAX_SHORT)
            INTEGER_ITEM(NPY_INT, npy_int, NPY_MIN_INT, NPY_MAX_INT)
            INTEGER_ITEM(NPY_LONG, npy_long, NPY_MIN_LONG, NPY_MAX_LONG)
            INTEGER_ITEM(NPY_LONGLONG, npy_longlong, NPY_MIN_LONGLONG, NPY_MAX_LONGLONG)
            INTEGER_ITEM(NPY_UBYTE, npy_ubyte, 0, NPY_MAX_UBYTE)
            INTEGER_ITEM(NPY_USHORT, npy_ushort, 0, NPY_MAX_USHORT)
            INTEGER_ITEM(NPY_UINT, npy_uint, 0, NPY_MAX_UINT)
            INTEGER_ITEM(NPY_ULONG, npy_ulong, 0, NPY_MAX_ULONG)
            INTEGER_ITEM(NPY_ULONGLONG, npy_ulonglong, 0, NPY_MAX_ULONGLONG)
#undef INTEGER_ITEM
        default: return 0;
        }
    }
    double re, im = 0.0;
    if ((type_num == NPY_DOUBLE || type_num == NPY_FLOAT) && PyFloat_CheckExact(value)) {
        re = PyFloat_AS_DOUBLE(value);
    }
    else if ((type_num == NPY_CDOUBLE || type_num == NPY_CFLOAT) && PyComplex_CheckExact(value)) {
        Py_complex c = PyComplex_AsCComplex(value);
        re = c.real;
        im = c.imag;
    }
    else {
        return 0;
    }
    if (type_num == NPY_FLOAT || type_num == NPY_CFLOAT) {
        if ((fabs(re) > FLT_MAX && isfinite(re)) || (fabs(im) > FLT_MAX && isfinite(im))) {
            return 0; /* NumPy's cast overflows: its call warns */
        }
        float parts[2] = {(float)re, (float)im};
        memcpy(item, parts, type_num == NPY_FLOAT ? sizeof(float) : 2 * sizeof(float));
        return 1;
    }
    double parts[2] = {re, im};
    memcpy(item, parts, type_num == NPY_DOUBLE ? sizeof(double) : 2 * sizeof(double));
    return 1;
}

/* Run entry's loop, its FP flags cleared first as NumPy's call clears them; 0, or -1 where the
 * loop raised a flag or set an error (then cleared: NumPy's own call is to warn or raise). */
static int
run_direct_loop(DirectLoop *entry, char **data, npy_intp *dimensions, npy_intp *steps)
{
    if (fetestexcept(FP_FLAGS)) { /* (as NumPy's call does before its loop: cleared where raised) */
        feclearexcept(FP_FLAGS);
    }
#ifdef HAVE_ZERO_UPPER
    if (has_avx) {
        zero_upper();
    }
#endif
    entry->loop(data, dimensions, steps, entry->data);
    if (fetestexcept(FP_FLAGS) || PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return 0;
}

/* A gufunc's result by entry's loop: a new C-contiguous array of entry's output dtype and this
 * shape, the loop run over in1, in2 and it with these dimensions (the outer count first: none,
 * no run) and steps; FALL_BACK where the loop raised a flag or set an error. */
static PyObject *
gufunc_loop_into_new(DirectLoop *entry, int ndim, npy_intp *shape, char *in1, char *in2, npy_intp *dimensions,
                     npy_intp *steps)
{
    Py_INCREF(entry->out_descr); /* stolen */
    PyObject *out = PyArray_NewFromDescr(&PyArray_Type, entry->out_descr, ndim, shape, NULL, NULL, 0, NULL);
    if (out == NULL) {
        return NULL;
    }
    char *data[3] = {in1, in2, PyArray_DATA((PyArrayObject *)out)};
    if (dimensions[0] > 0 && run_direct_loop(entry, data, dimensions, steps) < 0) {
        Py_DECREF(out);
        return FALL_BACK;
    }
    return out;
}

/* ufunc(a, b) of a (n),(n)->() gufunc (vecdot) by its loop, as direct_call below: a and b plain
 * arrays of one type and one shape of at least one dimension; the result has their shape less the
 * last dimension (the core one). */
static PyObject *
direct_vector_pair_call(PyObject *ufunc, PyObject *a, PyObject *b)
{
    if (b == NULL || !PyArray_CheckExact(a) || !PyArray_CheckExact(b) || !plain_array(a) || !plain_array(b)) {
        return FALL_BACK;
    }
    PyArrayObject *x = (PyArrayObject *)a, *y = (PyArrayObject *)b;
    int ndim = PyArray_NDIM(x);
    if (ndim == 0 || PyArray_TYPE(x) != PyArray_TYPE(y) || !PyArray_SAMESHAPE(x, y)) {
        return FALL_BACK;
    }
    npy_intp size = PyArray_SIZE(x), itemsize = PyArray_ITEMSIZE(x);
    npy_intp n = PyArray_DIM(x, ndim - 1);
    if (n == 0 || size * itemsize > DIRECT_MAX_BYTES) {
        return FALL_BACK; /* (an empty core: NumPy's call) */
    }
    DirectLoop *entry = direct_loop(ufunc, PyArray_TYPE(x), 0);
    if (entry == NULL || entry->loop == NULL) {
        return FALL_BACK;
    }
    npy_intp dimensions[2] = {size / n, n};
    npy_intp steps[5] = {n * itemsize, n * itemsize, entry->out_descr->elsize, itemsize, itemsize};
    return gufunc_loop_into_new(entry, ndim - 1, PyArray_DIMS(x), PyArray_DATA(x), PyArray_DATA(y), dimensions, steps);
}

/* matmul(a, b) by its loop, as direct_call below: a and b plain arrays of one type, of one or two
 * dimensions each, sharing the contracted one, none empty.  A vector's missing dimension counts 1,
 * with a step of 0 (the loop's choice of BLAS routine reads no step of a dimension of 1); the result
 * is C-contiguous, of the shape NumPy gives. */
static PyObject *
direct_matmul_call(PyObject *ufunc, PyObject *a, PyObject *b)
{
    if (b == NULL || !PyArray_CheckExact(a) || !PyArray_CheckExact(b) || !plain_array(a) || !plain_array(b)) {
        return FALL_BACK;
    }
    PyArrayObject *x = (PyArrayObject *)a, *y = (PyArrayObject *)b;
    int nx = PyArray_NDIM(x), ny = PyArray_NDIM(y);
    if (nx < 1 || nx > 2 || ny < 1 || ny > 2 || PyArray_TYPE(x) != PyArray_TYPE(y)) {
        return FALL_BACK;
    }
    npy_intp itemsize = PyArray_ITEMSIZE(x);
    npy_intp m = nx == 2 ? PyArray_DIM(x, 0) : 1, k = PyArray_DIM(x, nx - 1);
    npy_intp n = ny == 2 ? PyArray_DIM(y, 1) : 1;
    if (PyArray_DIM(y, 0) != k || m == 0 || k == 0 || n == 0 || PyArray_NBYTES(x) > DIRECT_MAX_BYTES ||
        PyArray_NBYTES(y) > DIRECT_MAX_BYTES || m * n * itemsize > DIRECT_MAX_BYTES) {
        return FALL_BACK;
    }
    DirectLoop *entry = direct_loop(ufunc, PyArray_TYPE(x), 0);
    if (entry == NULL || entry->loop == NULL) {
        return FALL_BACK;
    }
    npy_intp shape[2];
    int ndim = 0;
    if (nx == 2) {
        shape[ndim++] = m;
    }
    if (ny == 2) {
        shape[ndim++] = n;
    }
    npy_intp out_item = entry->out_descr->elsize;
    npy_intp dimensions[4] = {1, m, k, n};
    npy_intp steps[9] = {0, 0, 0,
                         nx == 2 ? PyArray_STRIDE(x, 0) : 0, itemsize,          /* a: along m, along k */
                         ny == 2 ? PyArray_STRIDE(y, 0) : itemsize, ny == 2 ? itemsize : 0, /* b: k, n */
                         nx == 2 ? (ny == 2 ? n * out_item : out_item) : 0, ny == 2 ? out_item : 0}; /* out: m, n */
    return gufunc_loop_into_new(entry, ndim, shape, PyArray_DATA(x), PyArray_DATA(y), dimensions, steps);
}

/* ufunc(a) or ufunc(a, b) (b NULL: a unary ufunc) by the loop NumPy's call runs (see above), each
 * operand a plain array, or one of two a Python or NumPy scalar the other's type takes
 * (scalar_item): the new array, NULL with an error set, or FALL_BACK for a call this does not make
 * (then nothing was set: the caller calls the ufunc). */
static PyObject *
direct_call(PyObject *ufunc, PyObject *a, PyObject *b)
{
#ifdef Py_GIL_DISABLED
    return FALL_BACK; /* (the table is filled with the GIL's protection) */
#else
    if (Py_TYPE(ufunc) != (PyTypeObject *)numpy_ufunc || ((PyUFuncObject *)ufunc)->nin != (b == NULL ? 1 : 2)) {
        return FALL_BACK;
    }
    if (((PyUFuncObject *)ufunc)->core_enabled) {
        return is_matmul_gufunc((PyUFuncObject *)ufunc) ? direct_matmul_call(ufunc, a, b)
                                                         : direct_vector_pair_call(ufunc, a, b);
    }
    union {
        npy_clongdouble widest;
        char bytes[sizeof(npy_clongdouble)];
    } item;
    PyObject *operands[2] = {a, b};
    char *data[3] = {NULL, NULL, NULL};
    npy_intp steps[3] = {0, 0, 0};
    PyArrayObject *shaped = NULL; /* the operand whose shape the result has */
    int nin = b == NULL ? 1 : 2, weak = 0;
    for (int k = 0; k < nin; k++) {
        if (!PyArray_CheckExact(operands[k])) {
            continue;
        }
        if (!plain_array(operands[k])) {
            return FALL_BACK;
        }
        PyArrayObject *x = (PyArrayObject *)operands[k];
        data[k] = PyArray_DATA(x);
        if (shaped == NULL) {
            shaped = x;
        }
        else if (PyArray_TYPE(x) != PyArray_TYPE(shaped)) {
            return FALL_BACK;
        }
        else if (PyArray_NDIM(x) == 0 && PyArray_NDIM(shaped) != 0) {
            continue; /* (a step of 0) */
        }
        else if (PyArray_NDIM(shaped) == 0 && PyArray_NDIM(x) != 0) {
            steps[0] = 0;
            shaped = x;
        }
        else if (!PyArray_SAMESHAPE(x, shaped)) {
            return FALL_BACK;
        }
        steps[k] = PyArray_ITEMSIZE(x);
    }
    if (shaped == NULL) {
        return FALL_BACK;
    }
    for (int k = 0; k < nin; k++) {
        if (data[k] == NULL) { /* a scalar of the array's type, a step of 0 */
            if (!scalar_item(operands[k], shaped, item.bytes)) {
                return FALL_BACK;
            }
            data[k] = item.bytes;
            if (PyLong_CheckExact(operands[k]) || PyFloat_CheckExact(operands[k]) || PyComplex_CheckExact(operands[k])) {
                weak = k + 1;
            }
        }
    }
    npy_intp n = PyArray_SIZE(shaped);
    if (n * PyArray_ITEMSIZE(shaped) > DIRECT_MAX_BYTES) {
        return FALL_BACK;
    }
    DirectLoop *entry = direct_loop(ufunc, PyArray_TYPE(shaped), weak);
    if (entry == NULL || entry->loop == NULL) {
        return FALL_BACK;
    }
    Py_INCREF(entry->out_descr); /* stolen */
    PyObject *out = PyArray_NewFromDescr(&PyArray_Type, entry->out_descr, PyArray_NDIM(shaped), PyArray_DIMS(shaped),
                                         NULL, NULL, 0, NULL);
    if (out == NULL) {
        return NULL;
    }
    if (n > 0) {
        data[nin] = PyArray_DATA((PyArrayObject *)out);
        steps[nin] = PyArray_ITEMSIZE((PyArrayObject *)out);
        if (run_direct_loop(entry, data, &n, steps) < 0) {
            Py_DECREF(out);
            return FALL_BACK; /* NumPy's call warns, raises or calls as np.errstate says */
        }
    }
    return out;
#endif
}

/* ufunc(a, b, out=a), NumPy's x op= y, by the loop NumPy's call runs (as direct_call): a a plain
 * writeable array of 2 elements to DIRECT_MAX_BYTES, b a itself, a plain array of a's type and shape or
 * 0-d not sharing a's memory, or a scalar scalar_item takes; the loop's output type a's.  The loop
 * runs on a's own memory, as NumPy's does (a loop can take another branch in place: NumPy's complex
 * multiply differs in the last place).  a's bytes are kept first and put back where the loop raised
 * a flag or set an error, so that NumPy's own call then runs on the a it was given, and warns or
 * raises as np.errstate says.  1 done, 0 not made (a as it was). */
static int
direct_inplace_call(PyObject *ufunc, PyObject *a, PyObject *b)
{
#ifdef Py_GIL_DISABLED
    return 0;
#else
    if (Py_TYPE(ufunc) != (PyTypeObject *)numpy_ufunc || ((PyUFuncObject *)ufunc)->nin != 2 ||
        ((PyUFuncObject *)ufunc)->core_enabled || !plain_array(a) || !PyArray_ISWRITEABLE((PyArrayObject *)a)) {
        return 0;
    }
    PyArrayObject *x = (PyArrayObject *)a;
    npy_intp n = PyArray_SIZE(x), itemsize = PyArray_ITEMSIZE(x), nbytes = n * itemsize;
    if (n < 2 || nbytes > DIRECT_MAX_BYTES) {
        return 0; /* (one element: NumPy's in-place call gives other last bits, complex multiply's) */
    }
    union {
        npy_clongdouble widest;
        char bytes[sizeof(npy_clongdouble)];
    } item;
    char *data[3] = {PyArray_DATA(x), NULL, PyArray_DATA(x)};
    npy_intp steps[3] = {itemsize, 0, itemsize};
    int weak = 0;
    if (b == a) {
        data[1] = data[0];
        steps[1] = itemsize;
    }
    else if (PyArray_CheckExact(b)) {
        PyArrayObject *y = (PyArrayObject *)b;
        if (!plain_array(b) || PyArray_TYPE(y) != PyArray_TYPE(x) ||
            (PyArray_NDIM(y) != 0 && !PyArray_SAMESHAPE(x, y))) {
            return 0;
        }
        char *start = PyArray_BYTES(y), *end = start + PyArray_NBYTES(y);
        if (start < data[0] + nbytes && data[0] < end) {
            return 0; /* memory shared with a: NumPy's call copies first */
        }
        data[1] = start;
        steps[1] = PyArray_NDIM(y) == 0 ? 0 : itemsize;
    }
    else {
        if (!scalar_item(b, x, item.bytes)) {
            return 0;
        }
        data[1] = item.bytes;
        weak = PyLong_CheckExact(b) || PyFloat_CheckExact(b) || PyComplex_CheckExact(b) ? 2 : 0;
    }
    DirectLoop *entry = direct_loop(ufunc, PyArray_TYPE(x), weak);
    if (entry == NULL || entry->loop == NULL || entry->out_descr->type_num != PyArray_TYPE(x)) {
        return 0;
    }
    char kept[DIRECT_MAX_BYTES];
    memcpy(kept, data[0], nbytes);
    if (run_direct_loop(entry, data, &n, steps) < 0) {
        memcpy(data[0], kept, nbytes);
        return 0;
    }
    return 1;
#endif
}

/* kernel(a, b): a ufunc's small call by its loop (direct_call) */
static PyObject *quiet_function(PyObject *kernel);

/* The operators' matmul kernel, functools.partial(numpy.matmul) (no ufunc to the in-place paths:
 * numpy.matmul(x, y, out=x) would broadcast a vector's product into x), known once met. */
static PyObject *matmul_partial = NULL;

/* Whether kernel is numpy.matmul or the operators' partial of it (no arguments bound). */
static int
is_matmul_kernel(PyObject *kernel)
{
    if (kernel == numpy_matmul || kernel == matmul_partial) {
        return numpy_matmul != NULL;
    }
    if (matmul_partial != NULL || strcmp(Py_TYPE(kernel)->tp_name, "functools.partial") != 0) {
        return 0;
    }
    PyObject *func = PyObject_GetAttrString(kernel, "func");
    PyObject *args = PyObject_GetAttrString(kernel, "args");
    PyObject *keywords = PyObject_GetAttrString(kernel, "keywords");
    int is_matmul = func != NULL && func == numpy_matmul && args != NULL && PyTuple_Check(args) &&
                    PyTuple_GET_SIZE(args) == 0 && keywords != NULL && PyDict_Check(keywords) &&
                    PyDict_GET_SIZE(keywords) == 0;
    Py_XDECREF(func);
    Py_XDECREF(args);
    Py_XDECREF(keywords);
    PyErr_Clear();
    if (is_matmul) {
        matmul_partial = Py_NewRef(kernel);
    }
    return is_matmul;
}

static PyObject *
call2(PyObject *kernel, PyObject *a, PyObject *b)
{
    /* A Quiet ufunc's loop too (a raised flag hands the call back to the kernel, in its context),
     * and the operators' matmul's. */
    PyObject *ufunc = Py_TYPE(kernel) == (PyTypeObject *)numpy_ufunc ? kernel
                      : is_matmul_kernel(kernel)                      ? numpy_matmul
                                                                      : quiet_function(kernel);
    PyObject *out = direct_call(ufunc, a, b);
    if (out != FALL_BACK) {
        return out;
    }
    PyObject *args[2] = {a, b};
    return PyObject_Vectorcall(kernel, args, 2, NULL);
}

/* Arrays untracked by the garbage collector, with a release of their own (untrack_arrays). */
#if PY_VERSION_HEX < 0x030C0000 && !defined(Py_GIL_DISABLED)
#define UNTRACKED_ARRAYS 1
#else
#define UNTRACKED_ARRAYS 0
#endif

#if UNTRACKED_ARRAYS
static void array_dealloc(PyObject *self);

/* Released arrays kept for the next ones, as CPython keeps floats and tuples: a small result
 * otherwise pays the allocator twice, a tenth of x.T.  Their slots are all NULL. */
#define SPARE_ARRAYS 16
static PyObject *spare_arrays[SPARE_ARRAYS];
static int spare_array_count = 0;

/* The 0-d ndarrays of released arrays, for the next 0-d result of their dtype (x[i]): a new one
 * costs NumPy's allocation of its data through the memory handler and its release, a third of
 * x[i].  One is kept only when nothing but the array held it and it is as NumPy makes it (its own
 * data, no base, no weak reference, the flags of a new array): then it is a new array in all but
 * its address.  It is handed out only under the memory handler it was made with. */
#define SPARE_SCALARS 8
#define NEW_ARRAY_FLAGS (NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_F_CONTIGUOUS | NPY_ARRAY_OWNDATA | NPY_ARRAY_ALIGNED | NPY_ARRAY_WRITEABLE)
static PyObject *spare_scalars[SPARE_SCALARS];
static int spare_scalar_count = 0;

static inline int
as_new(PyArrayObject *a)
{
    return PyArray_NDIM(a) == 0 && PyArray_FLAGS(a) == NEW_ARRAY_FLAGS && PyArray_BASE(a) == NULL &&
           ((PyArrayObject_fields *)a)->weakreflist == NULL && PyArray_ITEMSIZE(a) <= 16;
}

/* Keep data, a released array's data held by nothing else, if it is a spare 0-d array: 1 if kept. */
static int
keep_spare_scalar(PyObject *data)
{
    if (spare_scalar_count == SPARE_SCALARS || Py_REFCNT(data) != 1 || Py_TYPE(data) != NDArray ||
        !as_new((PyArrayObject *)data)) {
        return 0;
    }
    spare_scalars[spare_scalar_count++] = data;
    return 1;
}

/* A spare 0-d ndarray of descr (a new reference), NULL if none. */
static PyObject *
take_spare_scalar(PyArray_Descr *descr)
{
    for (int i = spare_scalar_count - 1; i >= 0; i--) {
        PyObject *spare = spare_scalars[i];
        if (PyArray_DESCR((PyArrayObject *)spare) == descr) {
            PyObject *handler = PyDataMem_GetHandler();
            if (handler == NULL) {
                PyErr_Clear();
                return NULL;
            }
            Py_DECREF(handler); /* (the context holds it) */
            if (((PyArrayObject_fields *)spare)->mem_handler != handler) {
                return NULL;
            }
            spare_scalars[i] = spare_scalars[--spare_scalar_count];
            return spare;
        }
    }
    return NULL;
}
#endif

/* A new 0-d ndarray of descr (borrowed) holding the item at bytes, NULL with an error set. */
static PyObject *
new_scalar_array(PyArray_Descr *descr, const char *bytes)
{
    PyObject *element = NULL;
#if UNTRACKED_ARRAYS
    element = take_spare_scalar(descr);
#endif
    if (element == NULL) {
        Py_INCREF(descr); /* stolen by PyArray_NewFromDescr */
        element = PyArray_NewFromDescr(&PyArray_Type, descr, 0, NULL, NULL, NULL, 0, NULL);
        if (element == NULL) {
            return NULL;
        }
    }
    memcpy(PyArray_DATA((PyArrayObject *)element), bytes, descr->elsize);
    return element;
}

/* A new Array with the given slots (references are borrowed; the array takes its own). */
static inline PyObject *
new_array(PyObject *data, PyObject *dtype, PyObject *runtime, PyObject *device)
{
    PyObject *array;
#if UNTRACKED_ARRAYS
    if (spare_array_count > 0 && Array->tp_dealloc == array_dealloc) { /* (the layout untrack_arrays checked) */
        array = PyObject_Init(spare_arrays[--spare_array_count], Array);
    }
    else
#endif
        array = Array->tp_alloc(Array, 0);
    if (array == NULL) {
        return NULL;
    }
    Py_INCREF(data);
    SLOT(array, DATA) = data;
    Py_INCREF(dtype);
    SLOT(array, DTYPE) = dtype;
    Py_INCREF(runtime);
    SLOT(array, RUNTIME) = runtime;
    Py_INCREF(device);
    SLOT(array, DEVICE) = device;
    return array;
}

/* NumPy gives a NumPy scalar for 0-d operands: the result is an array all the same, as
 * numpy.asarray makes it (for a number or bool, without calling it). */
static NOINLINE PyObject *
scalar_as_ndarray(PyObject *out)
{
    PyObject *arr = NULL;
    PyArray_Descr *descr = PyArray_IsScalar(out, Generic) ? PyArray_DescrFromScalar(out) : NULL;
    if (descr != NULL && PyTypeNum_ISNUMBER(descr->type_num) && descr->elsize <= 16) {
        union {
            npy_clongdouble widest;
            char bytes[16];
        } item;
        PyArray_ScalarAsCtype(out, &item);
        arr = new_scalar_array(descr, item.bytes);
    }
    else if (!PyErr_Occurred()) {
        arr = PyObject_CallOneArg(asarray, out);
    }
    Py_XDECREF(descr);
    Py_DECREF(out);
    return arr;
}

static inline PyObject *
as_ndarray(PyObject *out)
{
    return out == NULL || Py_TYPE(out) == NDArray ? out : scalar_as_ndarray(out);
}

/* Whether runtime.boolean_indexing is true: 1, 0, or -1 with an error set. */
static int
boolean_indexing_allowed(PyObject *runtime)
{
    PyObject *flag = PyObject_GetAttr(runtime, str_boolean_indexing);
    if (flag == NULL) {
        return -1;
    }
    int allowed = PyObject_IsTrue(flag);
    Py_DECREF(flag);
    return allowed;
}

/* A new reference to the wrapped result, or NULL with an error set; steals out. */
static inline PyObject *
wrap(PyObject *out, PyObject *dtype, PyObject *runtime, PyObject *device)
{
    out = as_ndarray(out);
    if (out == NULL) {
        return NULL;
    }
    PyObject *array = new_array(out, dtype, runtime, device);
    Py_DECREF(out);
    return array;
}

/* runtime._fast.get(key): a borrowed plan tuple, NULL for a miss (no error) or with an error set. */
static PyObject *
lookup(PyObject *table, PyObject *key)
{
    if (key == NULL) {
        return NULL;
    }
    PyObject *found = PyDict_GetItemWithError(table, key);
    Py_DECREF(key);
    if (found != NULL && !(PyTuple_CheckExact(found) && PyTuple_GET_SIZE(found) >= 2)) {
        return NULL; /* not a plan of ours: the Python path decides */
    }
    return found;
}

/* The fast table of a runtime (new reference), NULL with an error set, or FALL_BACK when it
 * is not a dict (the Python function reads it as it reads any mapping). */
static PyObject *
fast_table(PyObject *runtime)
{
    PyObject *table = PyObject_GetAttr(runtime, str_fast);
    if (table != NULL && !PyDict_CheckExact(table)) {
        Py_DECREF(table);
        return FALL_BACK;
    }
    return table;
}

/* Whether a Python scalar operand takes the fast table (the Python operators' test:
 * float, bool, or an int at most 2**63 - 1); -1 with an error set. */
static int
plain_scalar(PyObject *value)
{
    PyTypeObject *t = Py_TYPE(value);
    if (t == &PyFloat_Type || t == &PyBool_Type) {
        return 1;
    }
    if (t == &PyLong_Type) {
        int overflow;
        PyLong_AsLongLongAndOverflow(value, &overflow);
        if (overflow == 0 && PyErr_Occurred()) {
            return -1;
        }
        return overflow <= 0;
    }
    return 0;
}

/* Whether data is a native float64 ndarray: NumPy computes such an array with a Python float
 * exactly as with numpy.float64 of it (NEP 50: both operands are float64, one loop, the same
 * double), so the float is passed as it is, with no NumPy scalar made in between. */
static inline int
takes_python_float(PyObject *data)
{
    return Py_TYPE(data) == NDArray && PyArray_TYPE((PyArrayObject *)data) == NPY_DOUBLE &&
           PyArray_ISNOTSWAPPED((PyArrayObject *)data);
}

/* Whether a ufunc given data and the Python scalar arg computes as with make(arg): make is the
 * scalar type of data's own dtype and arg a Python scalar of that dtype's kind, so NumPy's weak
 * scalar (NEP 50) takes data's dtype and converts arg as make does, without the NumPy scalar
 * (making one costs about as much as the ufunc's call on 10 elements). */
static inline int
takes_python_scalar(PyObject *data, PyObject *make, PyObject *arg)
{
    if (Py_TYPE(data) != NDArray || !PyArray_ISNOTSWAPPED((PyArrayObject *)data)) {
        return 0;
    }
    PyArray_Descr *descr = PyArray_DESCR((PyArrayObject *)data);
    if ((PyObject *)descr->typeobj != make) {
        return 0;
    }
    switch (descr->kind) {
    case 'b': return PyBool_Check(arg);
    case 'i':
    case 'u': return PyLong_CheckExact(arg);
    case 'f': return PyFloat_CheckExact(arg);
    case 'c': return PyComplex_CheckExact(arg);
    default: return 0;
    }
}

/* lo <= value <= hi: 1, 0, or -1 with an error set (two C doubles where all three are floats). */
static inline int
in_bounds(PyObject *lo, PyObject *value, PyObject *hi)
{
    if (PyFloat_CheckExact(value) && PyFloat_CheckExact(lo) && PyFloat_CheckExact(hi)) {
        double v = PyFloat_AS_DOUBLE(value);
        return PyFloat_AS_DOUBLE(lo) <= v && v <= PyFloat_AS_DOUBLE(hi);
    }
    int inside = PyObject_RichCompareBool(lo, value, Py_LE);
    return inside > 0 ? PyObject_RichCompareBool(value, hi, Py_LE) : inside;
}

/* A plan's conversion of a Python scalar: ScalarConverter's in-range case done here
 * (make(value), or make(float(value)); the Python scalar itself where the other operand takes
 * it: ufunc_operand, the data a ufunc computes it with (takes_python_scalar), or NULL and
 * float64_operand (takes_python_float)), anything else by calling the converter. */
static PyObject *
convert_scalar(PyObject *converter, PyObject *value, int float64_operand, PyObject *ufunc_operand)
{
    if (Py_TYPE(converter) == ScalarConverter && SLOT(converter, CONV_LO) != NULL && SLOT(converter, CONV_HI) != NULL &&
        SLOT(converter, CONV_MAKE) != NULL && SLOT(converter, CONV_TO_FLOAT) != NULL) {
        int inside = in_bounds(SLOT(converter, CONV_LO), value, SLOT(converter, CONV_HI));
        if (inside < 0) {
            return NULL;
        }
        if (inside) {
            PyObject *make = SLOT(converter, CONV_MAKE);
            PyObject *arg = SLOT(converter, CONV_TO_FLOAT) == Py_True ? PyNumber_Float(value) : Py_NewRef(value);
            if (arg == NULL) {
                return NULL;
            }
            if ((float64_operand && make == (PyObject *)&PyDoubleArrType_Type && PyFloat_CheckExact(arg)) ||
                (ufunc_operand != NULL && takes_python_scalar(ufunc_operand, make, arg))) {
                return arg;
            }
            PyObject *made = PyObject_CallOneArg(make, arg);
            Py_DECREF(arg);
            return made;
        }
    }
    return PyObject_CallOneArg(converter, value);
}

/* x.ndim == 0 for an array's data; -1 with an error set. */
static int
zero_d(PyObject *data)
{
    if (Py_TYPE(data) == NDArray) {
        return PyArray_NDIM((PyArrayObject *)data) == 0;
    }
    PyObject *ndim = PyObject_GetAttr(data, str_ndim);
    if (ndim == NULL) {
        return -1;
    }
    long n = PyLong_AsLong(ndim);
    Py_DECREF(ndim);
    if (n == -1 && PyErr_Occurred()) {
        return -1;
    }
    return n == 0;
}

/* Which of two arrays are 0-d, as the tables' keys say it (1: the first, 2: the second); -1 with an error set. */
static int
zero_d_bits(PyObject *x1, PyObject *x2)
{
    int z1 = zero_d(SLOT(x1, DATA));
    int z2 = z1 < 0 ? -1 : zero_d(SLOT(x2, DATA));
    return z2 < 0 ? -1 : z1 | (z2 << 1);
}

/* The object a weak reference points to (borrowed), or NULL for a dead one. */
static inline PyObject *
referent(PyObject *ref)
{
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *obj;
    if (PyWeakref_GetRef(ref, &obj) <= 0) {
        PyErr_Clear();
        return NULL;
    }
    Py_DECREF(obj); /* only compared; the caller holds the live one */
    return obj;
#else
    PyObject *obj = PyWeakref_GET_OBJECT(ref);
    return obj == Py_None ? NULL : obj;
#endif
}

/* The plan self found last if it was for this runtime and key (borrowed), else NULL. */
static inline PyObject *
recall(FastPath *self, PyObject *runtime, PyObject *first, PyObject *second)
{
    LastPlan *last = &self->last;
    if (last->plan != NULL && last->first == first && last->second == second && last->zero_d_bits < 0 &&
        referent(last->runtime) == runtime) {
        return last->plan;
    }
    return NULL;
}

/* The plan self found last if it was for this runtime and the dtypes of x1 and x2, and, for a
 * plan that depends on which operands are 0-d, for theirs (borrowed); NULL otherwise, with an
 * error set if reading an operand's dimensions failed. */
static inline PyObject *
recall_two(FastPath *self, PyObject *runtime, PyObject *x1, PyObject *x2)
{
    LastPlan *last = &self->last;
    if (last->plan != NULL && last->first == SLOT(x1, DTYPE) && last->second == SLOT(x2, DTYPE) &&
        referent(last->runtime) == runtime && (last->zero_d_bits < 0 || last->zero_d_bits == zero_d_bits(x1, x2))) {
        return last->plan;
    }
    return NULL;
}

static void
forget(LastPlan *last)
{
    LastPlan old = *last;
    *last = (LastPlan){NULL, NULL, NULL, -1, NULL};
    Py_XDECREF(old.runtime);
    Py_XDECREF(old.first);
    Py_XDECREF(old.second);
    Py_XDECREF(old.plan);
}

/* Remember plan as the one of (runtime, first, second[, zero_d_bits]); a runtime without weak
 * references is not remembered. */
static void
remember(FastPath *self, PyObject *runtime, PyObject *first, PyObject *second, int zero_d_bits, PyObject *plan)
{
    PyObject *ref = PyWeakref_NewRef(runtime, NULL);
    if (ref == NULL) {
        PyErr_Clear();
        return;
    }
    Py_INCREF(first);
    Py_XINCREF(second);
    Py_INCREF(plan);
    LastPlan old = self->last; /* replaced before the old one is released (that may run Python code) */
    self->last = (LastPlan){ref, first, second, zero_d_bits, plan};
    Py_XDECREF(old.runtime);
    Py_XDECREF(old.first);
    Py_XDECREF(old.second);
    Py_XDECREF(old.plan);
}

/* The plan of (self->name, first[, second]) in runtime's fast table: a new reference; NULL for a
 * miss (no error) or with an error set; FALL_BACK for a table that is no dict. */
static PyObject *
find_plan(FastPath *self, PyObject *runtime, PyObject *first, PyObject *second)
{
    PyObject *plan = recall(self, runtime, first, second);
    if (plan != NULL) {
        Py_INCREF(plan);
        return plan;
    }
    PyObject *table = fast_table(runtime);
    if (table == NULL || table == FALL_BACK) {
        return table;
    }
    plan = lookup(table, second == NULL ? PyTuple_Pack(2, self->name, first)
                                        : PyTuple_Pack(3, self->name, first, second));
    Py_XINCREF(plan);
    Py_DECREF(table);
    if (plan != NULL) {
        remember(self, runtime, first, second, -1, plan);
    }
    return plan;
}

/* Whether runtime's policy tells 0-d arrays apart in its tables' keys (runtime._flat_keys
 * false): 1 or 0, -1 with an error set. */
static int
keys_by_dimensions(PyObject *runtime)
{
    PyObject *flat = PyObject_GetAttr(runtime, str_flat_keys);
    int is_flat = flat == NULL ? -1 : PyObject_IsTrue(flat);
    Py_XDECREF(flat);
    return is_flat < 0 ? -1 : !is_flat;
}

/* The plan of name(x1, x2) under a policy that tells 0-d arrays apart, for operand dtypes
 * whose plan depends on it: by (name, dtype, dtype, zero_d bits), remembered with those bits.
 * A new reference; NULL for a miss (no error) or with an error set. */
static PyObject *
plan_by_dimensions(FastPath *self, PyObject *runtime, PyObject *x1, PyObject *x2)
{
    if (keys_by_dimensions(runtime) != 1) {
        return NULL;
    }
    int bits = zero_d_bits(x1, x2);
    PyObject *bits_obj = bits < 0 ? NULL : PyLong_FromLong(bits);
    if (bits_obj == NULL) {
        return NULL;
    }
    PyObject *table = fast_table(runtime);
    PyObject *plan = NULL;
    if (table != NULL && table != FALL_BACK) {
        plan = lookup(table, PyTuple_Pack(4, self->name, SLOT(x1, DTYPE), SLOT(x2, DTYPE), bits_obj));
        Py_XINCREF(plan);
        Py_DECREF(table);
    }
    Py_DECREF(bits_obj);
    if (plan != NULL) {
        remember(self, runtime, SLOT(x1, DTYPE), SLOT(x2, DTYPE), bits, plan);
    }
    return plan;
}

/* The outcome of a plan lookup as a fast path's: FALL_BACK for a miss, NULL for an error. */
#define MISSED() (PyErr_Occurred() ? NULL : FALL_BACK)

/* The plan of x <op> scalar: (name, x's dtype, the scalar's type), which holds the scalar's
 * conversion.  A new reference; FALL_BACK (not a plain scalar, a miss, a table that is no
 * dict); NULL with an error set. */
static PyObject *
scalar_plan(FastPath *self, PyObject *x, PyObject *scalar)
{
    int plain = plain_scalar(scalar);
    if (plain <= 0) {
        return plain < 0 ? NULL : FALL_BACK;
    }
    PyObject *plan = find_plan(self, SLOT(x, RUNTIME), SLOT(x, DTYPE), (PyObject *)Py_TYPE(scalar));
    if (plan == NULL) {
        return MISSED();
    }
    if (plan != FALL_BACK && PyTuple_GET_SIZE(plan) < 3) {
        Py_DECREF(plan);
        return FALL_BACK;
    }
    return plan;
}

/* Temporary elision, as NumPy's own operators do it: in `x * 2.0 + y` the array `x * 2.0` is
 * held by nothing but the interpreter's stack, so `+` may compute into its buffer instead of
 * allocating a new one (at 10**6 elements a fresh 8 MB allocation is a page fault per 4 kB).
 * Every condition below must hold; any doubt computes into a new array as always:
 *  - the Array's reference count is 1: the stack's (a name, a container, an argument, a view's
 *    base, another operand would each hold one more), and it has no weak reference;
 *  - the running Python frame is executing a BINARY_OP instruction: the call comes from the
 *    interpreter's own `a <op> b`, not from C code holding the array in a variable of its own
 *    (PyNumber_Add(tmp, y) called from a C function reached by a CALL), which NumPy rules out by
 *    a backtrace;
 *  - its ndarray is exactly an ndarray held by this Array alone (reference count 1: no view of it
 *    exists, since a view holds its base), owns its buffer, is writeable, aligned and native,
 *    and at least 256 KiB (NumPy's threshold: below it the checks cost more than they save);
 *  - the plan's result dtype is the array's own and its kernel is an elementwise ufunc (not
 *    matmul), and the other operand broadcasts to the array's shape, so that the result has the
 *    buffer's shape and dtype.
 * Not on CPython 3.14 or later (its interpreter may hold borrowed references to stack values,
 * as NumPy found), nor on free-threaded builds. */
#define ELIDE_MIN_BYTES (256 * 1024)

/* Whether the running frame is at a BINARY_OP instruction: 1 or 0 (never an error). */
static int
at_binary_op(void)
{
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030E0000 && !defined(Py_GIL_DISABLED)
    if (binary_op_code < 0) {
        return 0;
    }
    PyFrameObject *frame = PyEval_GetFrame(); /* borrowed */
    if (frame == NULL) {
        return 0;
    }
    int lasti = PyFrame_GetLasti(frame);
    PyCodeObject *code = PyFrame_GetCode(frame);
    PyObject *bytes = PyCode_GetCode(code); /* the unspecialized instructions */
    Py_DECREF(code);
    if (bytes == NULL) {
        PyErr_Clear();
        return 0;
    }
    int at = PyBytes_Check(bytes) && lasti >= 0 && lasti < PyBytes_GET_SIZE(bytes) &&
             (unsigned char)PyBytes_AS_STRING(bytes)[lasti] == binary_op_code;
    Py_DECREF(bytes);
    return at;
#else
    return 0;
#endif
}

/* Whether the shape of other (an ndarray, or NULL for a scalar) broadcasts to data's own. */
static int
broadcasts_into(PyArrayObject *data, PyObject *other)
{
    if (other == NULL) {
        return 1;
    }
    if (Py_TYPE(other) != NDArray) {
        return 0;
    }
    PyArrayObject *o = (PyArrayObject *)other;
    int nd = PyArray_NDIM(data), no = PyArray_NDIM(o);
    if (no > nd) {
        return 0;
    }
    for (int i = 1; i <= no; i++) {
        npy_intp d = PyArray_DIM(data, nd - i), e = PyArray_DIM(o, no - i);
        if (e != d && e != 1) {
            return 0;
        }
    }
    return 1;
}

/* Whether x <op> other may compute into x's buffer (see above): 1 or 0, never an error. */
static int
may_elide(PyObject *x, PyObject *plan, PyObject *other_data)
{
    PyObject *data = SLOT(x, DATA);
    if (Py_REFCNT(x) != 1 || Py_TYPE(data) != NDArray || Py_REFCNT(data) != 1 || getweakrefcount == NULL) {
        return 0;
    }
    PyArrayObject *a = (PyArrayObject *)data;
    if (PyArray_NBYTES(a) < ELIDE_MIN_BYTES || !PyArray_CHKFLAGS(a, NPY_ARRAY_OWNDATA) || PyArray_BASE(a) != NULL ||
        !PyArray_ISWRITEABLE(a) || !PyArray_ISALIGNED(a) || !PyArray_ISNOTSWAPPED(a) ||
        PyTuple_GET_ITEM(plan, 1) != SLOT(x, DTYPE) || other_data == data || !broadcasts_into(a, other_data)) {
        return 0;
    }
    PyObject *kernel = PyTuple_GET_ITEM(plan, 0);
    if (kernel == numpy_matmul || Py_TYPE(kernel) != (PyTypeObject *)numpy_ufunc ||
        ((PyUFuncObject *)kernel)->nin != 2 || ((PyUFuncObject *)kernel)->nout != 1 ||
        ((PyUFuncObject *)kernel)->core_enabled) {
        return 0;
    }
    /* x's dtype is its ndarray's (the array's invariant, checked: the result must be that dtype) */
    PyObject *numpy_dtype = PyObject_GetAttr(SLOT(x, DTYPE), str_numpy);
    int same = numpy_dtype != NULL && PyArray_DescrCheck(numpy_dtype) &&
               PyArray_EquivTypes((PyArray_Descr *)numpy_dtype, PyArray_DESCR(a));
    Py_XDECREF(numpy_dtype);
    if (!same) {
        PyErr_Clear();
        return 0;
    }
    PyObject *refs = PyObject_CallOneArg(getweakrefcount, x);
    int unreferenced = refs != NULL && PyLong_CheckExact(refs) && PyLong_AsLong(refs) == 0;
    Py_XDECREF(refs);
    if (!unreferenced) {
        PyErr_Clear();
        return 0;
    }
    return at_binary_op();
}

/* kernel(a, b, out=SLOT(x, DATA)) and x itself, the elided temporary (a new reference), or NULL
 * with an error set. */
static PyObject *
into_temporary(PyObject *x, PyObject *kernel, PyObject *a, PyObject *b)
{
    PyObject *args[3] = {a, b, SLOT(x, DATA)};
    PyObject *out = PyObject_Vectorcall(kernel, args, 3, NULL);
    if (out == NULL) {
        return NULL;
    }
    Py_DECREF(out);
    Py_INCREF(x);
    return x;
}

/* x <op> scalar, or scalar <op> x (reflected): the scalar converted by the plan, one kernel
 * call in operand order. */
static PyObject *
with_scalar(FastPath *self, PyObject *x, PyObject *other, int reflected)
{
    PyObject *runtime = SLOT(x, RUNTIME);
    if (SLOT(x, DEVICE) != cpu_device) {
        return FALL_BACK; /* the Python path checks the device holds the result's dtype */
    }
    PyObject *plan = scalar_plan(self, x, other);
    if (plan == NULL || plan == FALL_BACK) {
        return plan;
    }
    PyObject *kernel = PyTuple_GET_ITEM(plan, 0);
    PyObject *value = convert_scalar(PyTuple_GET_ITEM(plan, 2), other, takes_python_float(SLOT(x, DATA)),
                                     Py_TYPE(kernel) == (PyTypeObject *)numpy_ufunc ? SLOT(x, DATA) : NULL);
    PyObject *result = NULL;
    if (value != NULL) {
        PyObject *a = reflected ? value : SLOT(x, DATA), *b = reflected ? SLOT(x, DATA) : value;
        if (may_elide(x, plan, NULL)) {
            result = into_temporary(x, kernel, a, b);
        }
        else {
            PyObject *out = call2(kernel, a, b);
            result = out == NULL ? NULL : wrap(out, PyTuple_GET_ITEM(plan, 1), runtime, SLOT(x, DEVICE));
        }
        Py_DECREF(value);
    }
    Py_DECREF(plan);
    return result;
}

/* x1 <op> x2 or name(x1, x2), two arrays of one runtime and device: the plan, one kernel call
 * (a ValueError, shapes that do not broadcast, goes to the Python path, which words it). */
static PyObject *
of_two_arrays(FastPath *self, PyObject *runtime, PyObject *x1, PyObject *x2, int zero_d_keys, int elide)
{
    if (SLOT(x1, DEVICE) != cpu_device) {
        return FALL_BACK; /* the Python path checks the device holds the result's dtype */
    }
    PyObject *plan = recall_two(self, runtime, x1, x2);
    if (plan != NULL) {
        Py_INCREF(plan);
    }
    else if (PyErr_Occurred()) {
        return NULL;
    }
    else if ((plan = find_plan(self, runtime, SLOT(x1, DTYPE), SLOT(x2, DTYPE))) == FALL_BACK) {
        return FALL_BACK;
    }
    if (plan == NULL && zero_d_keys && !PyErr_Occurred()) {
        plan = plan_by_dimensions(self, runtime, x1, x2);
    }
    if (plan == NULL) {
        return MISSED();
    }
    if (elide) { /* an operator: either operand may be the expression's temporary */
        PyObject *temporary = may_elide(x1, plan, SLOT(x2, DATA))   ? x1
                              : may_elide(x2, plan, SLOT(x1, DATA)) ? x2
                                                                    : NULL;
        if (temporary != NULL) {
            PyObject *result = into_temporary(temporary, PyTuple_GET_ITEM(plan, 0), SLOT(x1, DATA), SLOT(x2, DATA));
            Py_DECREF(plan);
            return result;
        }
    }
    /* (numpy.dot for a gemm: the operator's alone, whose warnings may name "dot"; the function's name "matmul") */
    PyObject *out = call2(PyTuple_GET_ITEM(plan, 0), SLOT(x1, DATA), SLOT(x2, DATA));
    if (out == NULL && PyErr_ExceptionMatches(PyExc_ValueError)) {
        PyErr_Clear();
        Py_DECREF(plan);
        return FALL_BACK;
    }
    PyObject *result = out == NULL ? NULL : wrap(out, PyTuple_GET_ITEM(plan, 1), runtime, SLOT(x1, DEVICE));
    Py_DECREF(plan);
    return result;
}

static PyObject *
binary_operator(FastPath *self, PyObject *x, PyObject *other)
{
    if (!is_array(other)) {
        return with_scalar(self, x, other, 0);
    }
    PyObject *runtime = SLOT(x, RUNTIME);
    if (SLOT(other, RUNTIME) != runtime || SLOT(other, DEVICE) != SLOT(x, DEVICE)) {
        return FALL_BACK;
    }
    return of_two_arrays(self, runtime, x, other, 1, 1);
}

static PyObject *
binary_function(FastPath *self, PyObject *runtime, PyObject *x1, PyObject *x2)
{
    if (!is_array(x1) || !is_array(x2) || SLOT(x1, RUNTIME) != runtime || SLOT(x2, RUNTIME) != runtime ||
        SLOT(x2, DEVICE) != SLOT(x1, DEVICE)) {
        return FALL_BACK;
    }
    return of_two_arrays(self, runtime, x1, x2, 0, 0);
}

static PyObject *
inplace_operator(FastPath *self, PyObject *x, PyObject *other)
{
    PyObject *runtime = SLOT(x, RUNTIME);
    PyObject *plan = NULL, *value = NULL;
    if (is_array(other)) {
        if (SLOT(other, RUNTIME) != runtime || SLOT(other, DEVICE) != SLOT(x, DEVICE)) {
            return FALL_BACK;
        }
        plan = find_plan(self, runtime, SLOT(x, DTYPE), SLOT(other, DTYPE));
    }
    else {
        plan = scalar_plan(self, x, other);
    }
    if (plan == NULL || plan == FALL_BACK) {
        return plan == NULL ? MISSED() : FALL_BACK;
    }
    if (is_array(other)) {
        value = SLOT(other, DATA);
        Py_INCREF(value);
    }
    else if ((value = convert_scalar(PyTuple_GET_ITEM(plan, 2), other, takes_python_float(SLOT(x, DATA)),
                                     Py_TYPE(PyTuple_GET_ITEM(plan, 0)) == (PyTypeObject *)numpy_ufunc ? SLOT(x, DATA)
                                                                                                       : NULL)) == NULL) {
        Py_DECREF(plan);
        return NULL;
    }
    PyObject *out = NULL;
    PyObject *kernel = PyTuple_GET_ITEM(plan, 0);
    /* the result's dtype is x's: straight into x (a special-value kernel, no ufunc, takes no out: the Python path) */
    if (PyTuple_GET_ITEM(plan, 1) == SLOT(x, DTYPE) && Py_TYPE(kernel) == (PyTypeObject *)numpy_ufunc) {
        /* out positional, as NumPy's own x += y does */
        PyObject *args[3] = {SLOT(x, DATA), value, SLOT(x, DATA)};
        out = direct_inplace_call(kernel, args[0], value) ? Py_NewRef(args[0]) : PyObject_Vectorcall(kernel, args, 3, NULL);
        if (out == NULL && PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear(); /* a shape or a read-only x: the Python path words it */
        }
    }
    Py_DECREF(plan);
    Py_DECREF(value);
    if (out == NULL) {
        return PyErr_Occurred() ? NULL : FALL_BACK;
    }
    Py_DECREF(out);
    Py_INCREF(x);
    return x;
}

static PyObject *
unary(FastPath *self, PyObject *runtime, PyObject *x)
{
    if (SLOT(x, DEVICE) != cpu_device) {
        return FALL_BACK; /* the Python path checks the device holds the result's dtype */
    }
    PyObject *plan = find_plan(self, runtime, SLOT(x, DTYPE), NULL);
    if (plan == NULL || plan == FALL_BACK) {
        return plan == NULL ? MISSED() : FALL_BACK;
    }
    PyObject *out = direct_call(PyTuple_GET_ITEM(plan, 0), SLOT(x, DATA), NULL);
    if (out == FALL_BACK) {
        out = PyObject_CallOneArg(PyTuple_GET_ITEM(plan, 0), SLOT(x, DATA));
    }
    PyObject *result = out == NULL ? NULL : wrap(out, PyTuple_GET_ITEM(plan, 1), runtime, SLOT(x, DEVICE));
    Py_DECREF(plan);
    return result;
}

/* x[i] of a 1-d array: a new 0-d array holding a copy of the element, as NumPy's
 * numpy.asarray(data[i]) gives, without the NumPy scalar in between; NULL with an error set,
 * or FALL_BACK (out of bounds, or an element NumPy must convert: byte-swapped, object). */
static PyObject *
element_of_vector(PyArrayObject *data, PyObject *key)
{
    Py_ssize_t i = PyLong_AsSsize_t(key);
    if (i == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) {
            return NULL;
        }
        PyErr_Clear(); /* x[2**70]: the Python path words it */
        return FALL_BACK;
    }
    npy_intp n = PyArray_DIM(data, 0);
    if (i < 0) {
        i += n;
    }
    PyArray_Descr *descr = PyArray_DESCR(data);
    if (i < 0 || i >= n || !PyArray_ISNOTSWAPPED(data) || PyDataType_REFCHK(descr)) {
        return FALL_BACK;
    }
    return new_scalar_array(descr, PyArray_BYTES(data) + i * PyArray_STRIDE(data, 0));
}

/* Whether two ndarrays have one shape. */
static int
same_shape(PyArrayObject *a, PyArrayObject *b)
{
    int ndim = PyArray_NDIM(a);
    return ndim == PyArray_NDIM(b) && memcmp(PyArray_DIMS(a), PyArray_DIMS(b), ndim * sizeof(npy_intp)) == 0;
}

/* A tuple of ints, slices, Ellipsis and None: NumPy's basic indexing, as the Python __getitem__'s. */
static int
basic_tuple(PyObject *key)
{
    if (!PyTuple_CheckExact(key)) {
        return 0;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(key); i++) {
        PyObject *k = PyTuple_GET_ITEM(key, i);
        PyTypeObject *t = Py_TYPE(k);
        if (!(t == &PyLong_Type || t == &PySlice_Type || k == Py_Ellipsis || k == Py_None)) {
            return 0;
        }
    }
    return 1;
}

/* A slice bound for an axis of size n: 1 with *value set where it is None (*value untouched) or an
 * exact int within -n..n, else 0. */
static inline int
bound_in(PyObject *bound, npy_intp n, Py_ssize_t *value)
{
    if (bound == Py_None) {
        return 1;
    }
    if (!PyLong_CheckExact(bound)) {
        return 0;
    }
    int overflow;
    long long v = PyLong_AsLongLongAndOverflow(bound, &overflow);
    if (overflow != 0 || v < -(long long)n || v > (long long)n) {
        return 0;
    }
    *value = (Py_ssize_t)v;
    return 1;
}

/* Whether a slice's bounds are None or ints within -n..n, for an axis of size n (Array._slice_in). */
static int
slice_in(PyObject *s, npy_intp n)
{
    Py_ssize_t unused;
    return bound_in(((PySliceObject *)s)->start, n, &unused) && bound_in(((PySliceObject *)s)->stop, n, &unused);
}

/* Whether an int, a slice, Ellipsis or a basic tuple key is plain for data (Array._plain_key): it
 * names every axis (or has one ellipsis), its slices are within bounds and, in __setitem__, it holds
 * no None.  No policy refuses a plain key; which other keys a policy refuses, its Python path says. */
static int
plain_key(PyArrayObject *data, PyObject *key, int setitem)
{
    int ndim = PyArray_NDIM(data);
    npy_intp *dims = PyArray_DIMS(data);
    if (PyLong_CheckExact(key)) {
        return ndim == 1;
    }
    if (PySlice_Check(key)) {
        return ndim == 1 && slice_in(key, dims[0]);
    }
    if (key == Py_Ellipsis) {
        return 1;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(key), count = 0; /* count: the entries that name an axis */
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = PyTuple_GET_ITEM(key, i);
        if (k == Py_None) {
            if (setitem) {
                return 0;
            }
        }
        else if (k != Py_Ellipsis) {
            count++;
        }
    }
    Py_ssize_t axis = 0;
    int ellipsis = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *k = PyTuple_GET_ITEM(key, i);
        if (k == Py_None) {
            continue;
        }
        if (k == Py_Ellipsis) {
            Py_ssize_t after = ndim - (count - axis); /* the entries after it name the last axes */
            if (ellipsis || after < axis) {
                return 0;
            }
            ellipsis = 1;
            axis = after;
            continue;
        }
        if (PySlice_Check(k) && (axis >= ndim || !slice_in(k, dims[axis]))) {
            return 0;
        }
        axis++;
    }
    return ellipsis || count == ndim;
}

/* Bounds of a slice given by None or exact ints (its step too), for plain_view: 1, or 0 (another
 * slice: the general path, which may call __index__ or word x[::0]).  Its bounds are read here as
 * PySlice_Unpack reads them (None: the end the step starts or stops at), once: Unpack would read
 * each int again through __index__, a fifth of a slice view's cost. */
static int
plain_slice_view(PyObject *s, npy_intp n, npy_intp *start, npy_intp *step, npy_intp *length)
{
    PySliceObject *slice = (PySliceObject *)s;
    Py_ssize_t stride = 1;
    if (slice->step != Py_None) {
        if (!PyLong_CheckExact(slice->step)) {
            return 0;
        }
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(slice->step, &overflow);
        if (overflow != 0 || v == 0 || v < -PY_SSIZE_T_MAX || v > PY_SSIZE_T_MAX) {
            return 0; /* (a zero step, and steps Unpack would clip) */
        }
        stride = (Py_ssize_t)v;
    }
    Py_ssize_t begin = stride < 0 ? PY_SSIZE_T_MAX : 0, end = stride < 0 ? PY_SSIZE_T_MIN : PY_SSIZE_T_MAX;
    if (!bound_in(slice->start, n, &begin) || !bound_in(slice->stop, n, &end)) {
        return 0;
    }
    *length = PySlice_AdjustIndices(n, &begin, &end, stride);
    *start = begin;
    *step = stride;
    if (*length <= 0) { /* (NumPy's view of an empty slice starts at 0, step 1) */
        *length = 0;
        *start = 0;
        *step = 1;
    }
    return 1;
}

/* A view of data's buffer from start, of nd dimensions with these shape and strides and data's dtype, made as
 * NumPy makes its views (PyArray_NewFromDescr with the flags given: contiguity and alignment recomputed;
 * PyArray_SetBaseObject, which collapses a chain of views to the owner).  NULL with an error set. */
static PyObject *
new_view(PyArrayObject *data, int nd, npy_intp *shape, npy_intp *strides, char *start, int flags)
{
    PyArray_Descr *descr = PyArray_DESCR(data);
    Py_INCREF(descr); /* stolen */
    PyObject *view = PyArray_NewFromDescr(&PyArray_Type, descr, nd, shape, strides, start, flags, NULL);
    if (view == NULL) {
        return NULL;
    }
    Py_INCREF(data); /* stolen */
    if (PyArray_SetBaseObject((PyArrayObject *)view, (PyObject *)data) < 0) {
        Py_DECREF(view);
        return NULL;
    }
    return view;
}

/* data[key] for a plain key (plain_key) of slices, ints within bounds, None and Ellipsis, not ints
 * alone (NumPy's element): the view NumPy's basic indexing makes (its get_view_from_index: the
 * same shape, strides, data pointer, flags and base, by NumPy's own constructor and base setter), without NumPy's
 * parsing of the key.  The new view, NULL with an error set, or FALL_BACK for any other key (the
 * caller's checks and NumPy's indexing then). */
static PyObject *
plain_view(PyArrayObject *data, PyObject *key, int setitem)
{
    PyObject *const *entries = &key;
    Py_ssize_t count = 1;
    if (PyTuple_CheckExact(key)) {
        entries = &PyTuple_GET_ITEM(key, 0);
        count = PyTuple_GET_SIZE(key);
    }
    int ndim = PyArray_NDIM(data), named = 0, ellipsis = 0, nones = 0, ints = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *k = entries[i];
        if (k == Py_Ellipsis) {
            ellipsis++;
        }
        else if (k == Py_None) {
            if (setitem) {
                return FALL_BACK; /* (not plain in an assignment: the policy's check first) */
            }
            nones++;
        }
        else if (PySlice_Check(k)) {
            named++;
        }
        else if (PyLong_CheckExact(k)) {
            named++;
            ints++;
        }
        else {
            return FALL_BACK;
        }
    }
    if (ellipsis > 1 || named > ndim || (!ellipsis && named != ndim) || ints == count || nones + ndim - ints > NPY_MAXDIMS) {
        return FALL_BACK;
    }
    npy_intp shape[NPY_MAXDIMS], strides[NPY_MAXDIMS];
    char *start = PyArray_BYTES(data);
    int axis = 0, out = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *k = entries[i];
        if (k == Py_None) {
            shape[out] = 1;
            strides[out++] = 0;
        }
        else if (k == Py_Ellipsis) {
            for (int j = named; j < ndim; j++, axis++) {
                shape[out] = PyArray_DIM(data, axis);
                strides[out++] = PyArray_STRIDE(data, axis);
            }
        }
        else if (PyLong_CheckExact(k)) {
            int overflow;
            long long v = PyLong_AsLongLongAndOverflow(k, &overflow);
            npy_intp n = PyArray_DIM(data, axis);
            if (overflow != 0 || v < -(long long)n || v >= (long long)n) {
                return FALL_BACK; /* (out of bounds: NumPy's IndexError, which the Python path words) */
            }
            start += PyArray_STRIDE(data, axis) * (npy_intp)(v < 0 ? v + n : v);
            axis++;
        }
        else {
            npy_intp first, step, length;
            if (!plain_slice_view(k, PyArray_DIM(data, axis), &first, &step, &length)) {
                return FALL_BACK;
            }
            start += PyArray_STRIDE(data, axis) * first;
            shape[out] = length;
            strides[out++] = PyArray_STRIDE(data, axis) * step;
            axis++;
        }
    }
    return new_view(data, out, shape, strides, start, PyArray_FLAGS(data));
}

/* Whether x's runtime refuses some indexing keys (runtime._key_refusals not empty): then a key
 * that is not plain takes the Python path, which applies the policy.  1, 0, or -1 with an error set. */
static int
refuses_keys(PyObject *x)
{
    PyObject *rules = PyObject_GetAttr(SLOT(x, RUNTIME), str_key_refusals);
    if (rules == NULL) {
        return -1;
    }
    int any = PyObject_IsTrue(rules);
    Py_DECREF(rules);
    return any;
}

/* Whether key is a boolean mask of x's own shape, namespace and device where the namespace
 * allows boolean indexing (Array._own_mask; the stand-in's flag may turn it off), its data an
 * ndarray: 1, 0, or -1 with an error set. */
static int
own_mask(PyObject *x, PyObject *key)
{
    if (!(is_array(key) && SLOT(key, DTYPE) == bool_dtype && SLOT(key, RUNTIME) == SLOT(x, RUNTIME) &&
          SLOT(key, DEVICE) == SLOT(x, DEVICE) && Py_TYPE(SLOT(key, DATA)) == NDArray &&
          same_shape((PyArrayObject *)SLOT(key, DATA), (PyArrayObject *)SLOT(x, DATA)))) {
        return 0;
    }
    return boolean_indexing_allowed(SLOT(x, RUNTIME));
}

/* An index error NumPy raised that the Python path words (out of bounds, x[::0], x[2**70], a
 * read-only x, shapes that do not match): cleared, 1; any other error: 0, left set. */
static int
worded_by_python(void)
{
    if (PyErr_ExceptionMatches(PyExc_IndexError) || PyErr_ExceptionMatches(PyExc_ValueError) ||
        PyErr_ExceptionMatches(PyExc_OverflowError) || PyErr_ExceptionMatches(PyExc_TypeError)) {
        PyErr_Clear();
        return 1;
    }
    return 0;
}

/* Whether data and mask (a bool array of data's shape: the caller's check) are both C-contiguous and data
 * aligned, of a dtype without object references: the layout masked_copy and masked_fill take. */
static int
plain_mask_pair(PyArrayObject *data, PyArrayObject *mask)
{
    return PyArray_IS_C_CONTIGUOUS(data) && PyArray_IS_C_CONTIGUOUS(mask) && !PyDataType_REFCHK(PyArray_DESCR(data)) &&
           PyArray_TYPE(mask) == NPY_BOOL && PyArray_ISALIGNED(data);
}

/* data[mask] for a boolean mask of data's own shape (the caller's check), both C-contiguous, data of a
 * dtype without object references: the new 1-d array of the selected elements in C order that NumPy's
 * boolean indexing makes, without its index preparation.  FALL_BACK for other layouts. */
#define COPY_SELECTED(type)                                        \
    for (npy_intp i = 0, j = 0; i < size; i++) {                  \
        if (selected[i]) {                                         \
            ((type *)target)[j++] = ((const type *)source)[i];     \
        }                                                          \
    }

NOINLINE static PyObject *
masked_copy(PyArrayObject *data, PyArrayObject *mask)
{
    PyArray_Descr *descr = PyArray_DESCR(data);
    if (!plain_mask_pair(data, mask)) {
        return FALL_BACK;
    }
    npy_intp size = PyArray_SIZE(data), count = 0;
    const npy_bool *selected = (const npy_bool *)PyArray_DATA(mask);
    for (npy_intp i = 0; i < size; i++) {
        count += selected[i] != 0;
    }
    Py_INCREF(descr); /* stolen */
    PyObject *out = PyArray_NewFromDescr(&PyArray_Type, descr, 1, &count, NULL, NULL, 0, NULL);
    if (out == NULL || count == 0) {
        return out;
    }
    const char *source = PyArray_BYTES(data);
    char *target = PyArray_BYTES((PyArrayObject *)out);
    npy_intp itemsize = PyArray_ITEMSIZE(data);
    switch (itemsize) {
        case 1: COPY_SELECTED(npy_uint8) break;
        case 2: COPY_SELECTED(npy_uint16) break;
        case 4: COPY_SELECTED(npy_uint32) break;
        case 8: COPY_SELECTED(npy_uint64) break;
        default:
            for (npy_intp i = 0; i < size; i++) {
                if (selected[i]) {
                    memcpy(target, source + i * itemsize, itemsize);
                    target += itemsize;
                }
            }
    }
    return out;
}

/* data[indices] of a vector by an integer array (the caller's check) of at most TAKEN_MAX indices:
 * data C-contiguous and aligned, of a dtype without object references, indices C-contiguous, aligned
 * and native intp (NumPy's index type, which it would not cast), not 0-d (NumPy gives a scalar
 * then): the new array of indices' shape holding the elements, negative indices from the end, that
 * NumPy's integer array indexing makes, without its index preparation.  FALL_BACK for other
 * layouts, and where an index is out of bounds (NumPy's call raises its IndexError). */
#define TAKEN_MAX 8192
#define COPY_TAKEN(type)                                                \
    for (npy_intp i = 0; i < count; i++) {                              \
        npy_intp k = at[i] < 0 ? at[i] + n : at[i];                     \
        if (k < 0 || k >= n) {                                          \
            Py_DECREF(out);                                             \
            return FALL_BACK;                                           \
        }                                                               \
        ((type *)target)[i] = ((const type *)source)[k];                \
    }

NOINLINE static PyObject *
taken_copy(PyArrayObject *data, PyArrayObject *indices)
{
    if (PyArray_NDIM(data) != 1 || !PyArray_IS_C_CONTIGUOUS(data) || !PyArray_ISALIGNED(data) ||
        PyDataType_REFCHK(PyArray_DESCR(data)) || PyArray_TYPE(indices) != NPY_INTP || PyArray_NDIM(indices) == 0 ||
        !PyArray_IS_C_CONTIGUOUS(indices) || !PyArray_ISALIGNED(indices) || !PyArray_ISNOTSWAPPED(indices) ||
        PyArray_SIZE(indices) > TAKEN_MAX) {
        return FALL_BACK;
    }
    PyArray_Descr *descr = PyArray_DESCR(data);
    Py_INCREF(descr); /* stolen */
    PyObject *out = PyArray_NewFromDescr(&PyArray_Type, descr, PyArray_NDIM(indices), PyArray_DIMS(indices), NULL,
                                         NULL, 0, NULL);
    if (out == NULL) {
        return NULL;
    }
    npy_intp n = PyArray_DIM(data, 0), count = PyArray_SIZE(indices), itemsize = PyArray_ITEMSIZE(data);
    const npy_intp *at = (const npy_intp *)PyArray_DATA(indices);
    const char *source = PyArray_BYTES(data);
    char *target = PyArray_BYTES((PyArrayObject *)out);
    switch (itemsize) {
        case 1: COPY_TAKEN(npy_uint8) break;
        case 2: COPY_TAKEN(npy_uint16) break;
        case 4: COPY_TAKEN(npy_uint32) break;
        case 8: COPY_TAKEN(npy_uint64) break;
        default:
            for (npy_intp i = 0; i < count; i++) {
                npy_intp k = at[i] < 0 ? at[i] + n : at[i];
                if (k < 0 || k >= n) {
                    Py_DECREF(out);
                    return FALL_BACK;
                }
                memcpy(target + i * itemsize, source + k * itemsize, itemsize);
            }
    }
    return out;
}

static PyObject *
getitem(PyObject *x, PyObject *key)
{
    PyTypeObject *t = Py_TYPE(key);
    PyObject *data = SLOT(x, DATA);
    if (Py_TYPE(data) != NDArray) {
        return FALL_BACK;
    }
    PyObject *out;
    if (t == &PyLong_Type && PyArray_NDIM((PyArrayObject *)data) == 1) {
        out = element_of_vector((PyArrayObject *)data, key);
        if (out == NULL || out == FALL_BACK) {
            return out;
        }
    }
    else if ((t == &PySlice_Type || t == &PyTuple_Type || key == Py_Ellipsis) &&
             (out = plain_view((PyArrayObject *)data, key, 0)) != FALL_BACK) {
        if (out == NULL) {
            return NULL;
        }
    }
    else if (t == &PyLong_Type || t == &PySlice_Type || key == Py_Ellipsis || basic_tuple(key)) {
        if (!plain_key((PyArrayObject *)data, key, 0)) {
            int refuses = refuses_keys(x);
            if (refuses != 0) {
                return refuses < 0 ? NULL : FALL_BACK;
            }
        }
        out = PyObject_GetItem(data, key);
        if (out == NULL) {
            return worded_by_python() ? FALL_BACK : NULL; /* out of bounds, x[::0], x[2**70] */
        }
    }
    else if (is_array(key)) {
        int mask = own_mask(x, key);
        if (mask < 0) {
            return NULL;
        }
        PyObject *key_data = SLOT(key, DATA);
        if (mask) { /* nothing to check but what own_mask checked */
            out = masked_copy((PyArrayObject *)data, (PyArrayObject *)key_data);
            if (out == FALL_BACK) {
                out = PyObject_GetItem(data, key_data);
            }
            if (out == NULL) {
                return NULL;
            }
        }
        else if (Py_TYPE(key_data) == NDArray && PyArray_ISINTEGER((PyArrayObject *)key_data) &&
                 SLOT(key, RUNTIME) == SLOT(x, RUNTIME) && SLOT(key, DEVICE) == SLOT(x, DEVICE)) {
            /* an integer array of this namespace: NumPy's integer array indexing (a bool array
             * is no integer array to NumPy either); plain as the sole key of a 1-d x */
            if (PyArray_NDIM((PyArrayObject *)data) != 1) {
                int refuses = refuses_keys(x);
                if (refuses != 0) {
                    return refuses < 0 ? NULL : FALL_BACK;
                }
            }
            out = taken_copy((PyArrayObject *)data, (PyArrayObject *)key_data);
            if (out == FALL_BACK) {
                out = PyObject_GetItem(data, key_data);
            }
            if (out == NULL) {
                return worded_by_python() ? FALL_BACK : NULL; /* out of bounds */
            }
        }
        else {
            return FALL_BACK;
        }
    }
    else {
        return FALL_BACK;
    }
    return wrap(out, SLOT(x, DTYPE), SLOT(x, RUNTIME), SLOT(x, DEVICE));
}

/* runtime._setitem_converters (a new reference), NULL with an error set, or FALL_BACK when it is
 * not an exact dict (an audited runtime's: each of its stores is audited). */
static PyObject *
converter_table(PyObject *runtime)
{
    PyObject *table = PyObject_GetAttr(runtime, str_setitem_converters);
    if (table != NULL && !PyDict_CheckExact(table)) {
        Py_DECREF(table);
        return FALL_BACK;
    }
    return table;
}

/* The converter the Python path left in runtime._setitem_converters for (x's dtype, the type of
 * value, a Python scalar; an int within int64 as the Python path asks) -- remembered as a
 * plan is (LastPlan) -- a new reference; NULL for a miss (no error) or with an error set; FALL_BACK. */
static PyObject *
find_converter(FastPath *self, PyObject *x, PyObject *value)
{
    PyTypeObject *t = Py_TYPE(value);
    if (t == &PyLong_Type) { /* -2**63 <= value <= 2**63 - 1 */
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
        if (v == -1 && overflow == 0 && PyErr_Occurred()) {
            return NULL;
        }
        if (overflow != 0) {
            return FALL_BACK;
        }
    }
    else if (!(t == &PyFloat_Type || t == &PyBool_Type || t == &PyComplex_Type)) {
        return FALL_BACK;
    }
    PyObject *runtime = SLOT(x, RUNTIME), *dtype = SLOT(x, DTYPE);
    PyObject *convert = recall(self, runtime, dtype, (PyObject *)t);
    if (convert != NULL) {
        return Py_NewRef(convert);
    }
    PyObject *table = converter_table(runtime);
    if (table == NULL || table == FALL_BACK) {
        return table;
    }
    PyObject *key = PyTuple_Pack(2, dtype, (PyObject *)t);
    convert = key == NULL ? NULL : PyDict_GetItemWithError(table, key);
    Py_XDECREF(key);
    Py_XINCREF(convert);
    Py_DECREF(table);
    if (convert != NULL) {
        remember(self, runtime, dtype, (PyObject *)t, -1, convert);
    }
    return convert;
}

/* What x[key] = value stores: an array of x's dtype (its data), where the runtime's converters
 * are an exact dict, or, into an x of dimensions, a Python scalar by its converter; a new
 * reference, NULL with an error set, or FALL_BACK. */
/* stored_value's array: its data, where it has x's dtype, namespace and device and the runtime's
 * converters are an exact dict -- found so before (they stay what they were made), remembered as
 * a plan is, keyed by (x's dtype, the Array class). */
NOINLINE static PyObject *
stored_array(FastPath *self, PyObject *x, PyObject *value)
{
    if (!(SLOT(value, DTYPE) == SLOT(x, DTYPE) && SLOT(value, RUNTIME) == SLOT(x, RUNTIME) &&
          SLOT(value, DEVICE) == SLOT(x, DEVICE))) {
        return FALL_BACK;
    }
    PyObject *runtime = SLOT(x, RUNTIME), *array_type = (PyObject *)Py_TYPE(value);
    if (recall(self, runtime, SLOT(x, DTYPE), array_type) == NULL) {
        PyObject *table = converter_table(runtime);
        if (table == NULL || table == FALL_BACK) {
            return table;
        }
        Py_DECREF(table);
        remember(self, runtime, SLOT(x, DTYPE), array_type, -1, Py_True);
    }
    return Py_NewRef(SLOT(value, DATA));
}

static PyObject *
stored_value(FastPath *self, PyObject *x, PyObject *value)
{
    PyObject *data = SLOT(x, DATA);
    if (is_array(value)) {
        return stored_array(self, x, value);
    }
    if (PyArray_NDIM((PyArrayObject *)data) == 0) {
        return FALL_BACK;
    }
    PyObject *convert = find_converter(self, x, value);
    if (convert == NULL || convert == FALL_BACK) {
        return PyErr_Occurred() ? NULL : FALL_BACK;
    }
    PyObject *stored = convert_scalar(convert, value, takes_python_float(data), NULL);
    Py_DECREF(convert);
    if (stored == NULL && worded_by_python()) {
        return FALL_BACK; /* a value out of range */
    }
    return stored;
}

/* x[i] = v of a writeable 1-d native float64 ndarray, i in bounds, v a Python float: its double
 * written in place, as NumPy writes it (without NumPy's generic item assignment); 1 when done. */
static int
store_double(PyArrayObject *data, PyObject *key, PyObject *stored)
{
    if (!(PyFloat_CheckExact(stored) && PyLong_CheckExact(key) && PyArray_NDIM(data) == 1 &&
          PyArray_TYPE(data) == NPY_DOUBLE && PyArray_ISNOTSWAPPED(data) && PyArray_ISWRITEABLE(data))) {
        return 0;
    }
    Py_ssize_t i = PyLong_AsSsize_t(key);
    if (i == -1 && PyErr_Occurred()) {
        PyErr_Clear(); /* x[2**70]: NumPy's item assignment says so */
        return 0;
    }
    npy_intp n = PyArray_DIM(data, 0);
    if (i < 0) {
        i += n;
    }
    if (i < 0 || i >= n) {
        return 0;
    }
    double v = PyFloat_AS_DOUBLE(stored);
    memcpy(PyArray_BYTES(data) + i * PyArray_STRIDE(data, 0), &v, sizeof v);
    return 1;
}

/* value (a Python or NumPy scalar) packed into 16 bytes as an item of descr, as NumPy's assignment
 * packs it (PyArray_Pack): 1, or 0 for another value, a wider dtype, or a value PyArray_Pack
 * refuses (cleared: NumPy's assignment then says so in its words). */
static int
packed_scalar(PyArray_Descr *descr, PyObject *value, char *packed)
{
    if (descr->elsize > 16 || !(PyFloat_CheckExact(value) || PyLong_CheckExact(value) || PyBool_Check(value) ||
                                PyComplex_CheckExact(value) || PyArray_IsScalar(value, Generic))) {
        return 0;
    }
    if (PyArray_Pack(descr, packed, value) < 0) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* data[mask] = value for a boolean mask of data's own shape (the caller's check), both C-contiguous, data
 * writeable, aligned and of a dtype without object references, value a scalar: value packed into data's
 * dtype as NumPy's assignment packs it (PyArray_Pack), then written to each selected element, without
 * NumPy's index preparation.  1 when done, 0 for another layout or value (NumPy's assignment then), -1 with
 * an error set. */
NOINLINE static int
masked_fill(PyArrayObject *data, PyArrayObject *mask, PyObject *value)
{
    npy_intp itemsize = PyArray_ITEMSIZE(data);
    _Alignas(16) char packed[16];
    if (!plain_mask_pair(data, mask) || !PyArray_ISWRITEABLE(data) || !packed_scalar(PyArray_DESCR(data), value, packed)) {
        return 0;
    }
    npy_intp size = PyArray_SIZE(data);
    const npy_bool *selected = (const npy_bool *)PyArray_DATA(mask);
    char *target = PyArray_BYTES(data);
    for (npy_intp i = 0; i < size; i++) {
        if (selected[i]) {
            memcpy(target + i * itemsize, packed, itemsize);
        }
    }
    return 1;
}

/* view[...] = value for a scalar value (a Python or NumPy scalar): what NumPy's assignment to a basic
 * key does with it (PyArray_CopyObject: the value packed into view's dtype by PyArray_Pack, then
 * copied to every element), without its discovery of the value's dtype and shape and its 0-d
 * temporary.  A small view (NumPy's strided fill is faster over more than DIRECT_MAX_BYTES:
 * measured, 2x at 8 MB).  The caller has checked that the array is writeable.  1 when done, 0 for
 * another value, dtype or size, or a value PyArray_Pack refuses (nothing written: NumPy's
 * assignment then raises in its words). */
#define FILL_RUN(type)                                                  \
    for (npy_intp i = 0; i < run; i++) {                                \
        memcpy(p + i * step, packed, sizeof(type));                     \
    }

NOINLINE static int
filled_view(PyArrayObject *view, PyObject *value)
{
    npy_intp itemsize = PyArray_ITEMSIZE(view);
    _Alignas(16) char packed[16];
    if (PyArray_SIZE(view) * itemsize > DIRECT_MAX_BYTES || PyDataType_REFCHK(PyArray_DESCR(view)) ||
        !packed_scalar(PyArray_DESCR(view), value, packed)) {
        return 0;
    }
    int nd = PyArray_NDIM(view);
    npy_intp *dims = PyArray_DIMS(view), *strides = PyArray_STRIDES(view);
    if (PyArray_SIZE(view) == 0) {
        return 1;
    }
    char *p = PyArray_BYTES(view);
    npy_intp run = nd == 0 ? 1 : dims[nd - 1], step = nd == 0 ? 0 : strides[nd - 1];
    npy_intp index[NPY_MAXDIMS] = {0};
    for (;;) {
        switch (itemsize) {
            case 1: FILL_RUN(npy_uint8) break;
            case 2: FILL_RUN(npy_uint16) break;
            case 4: FILL_RUN(npy_uint32) break;
            case 8: FILL_RUN(npy_uint64) break;
            default:
                for (npy_intp i = 0; i < run; i++) {
                    memcpy(p + i * step, packed, itemsize);
                }
        }
        int d = nd - 2; /* the next run: the outer axes counted like digits */
        for (; d >= 0; d--) {
            p += strides[d];
            if (++index[d] < dims[d]) {
                break;
            }
            p -= strides[d] * dims[d];
            index[d] = 0;
        }
        if (d < 0) {
            return 1;
        }
    }
}

static PyObject *
setitem(FastPath *self, PyObject *x, PyObject *key, PyObject *value)
{
    PyObject *data = SLOT(x, DATA);
    if (Py_TYPE(data) != NDArray) {
        return FALL_BACK;
    }
    PyTypeObject *t = Py_TYPE(key);
    PyObject *np_key = key, *view = NULL; /* view: the plain key's (plain_view), where it makes one */
    if (!(t == &PyLong_Type || t == &PySlice_Type || key == Py_Ellipsis || basic_tuple(key))) {
        int mask = own_mask(x, key);
        if (mask <= 0) {
            return mask < 0 ? NULL : FALL_BACK;
        }
        np_key = SLOT(key, DATA);
    }
    else if ((t == &PySlice_Type || t == &PyTuple_Type || key == Py_Ellipsis) &&
             (view = plain_view((PyArrayObject *)data, key, 1)) != FALL_BACK) {
        if (view == NULL) {
            return NULL;
        }
    }
    else if (!plain_key((PyArrayObject *)data, key, 1)) {
        int refuses = refuses_keys(x);
        if (refuses != 0) {
            return refuses < 0 ? NULL : FALL_BACK;
        }
    }
    if (view == FALL_BACK) {
        view = NULL;
    }
    PyObject *stored = stored_value(self, x, value);
    if (stored == NULL || stored == FALL_BACK) {
        Py_XDECREF(view);
        return stored;
    }
    int failed;
    if (view != NULL && stored != data) {
        /* NumPy's own assignment to a basic key: its check of x, then its copy into the key's view */
        /* (for an array, PyArray_CopyObject's own step: PyArray_CopyInto, NumPy's AssignArray; for a
         * scalar, its packing and copy, in filled_view) */
        failed = PyArray_FailUnlessWriteable((PyArrayObject *)data, "assignment destination") < 0 ||
                 (PyArray_CheckExact(stored) ? PyArray_CopyInto((PyArrayObject *)view, (PyArrayObject *)stored) < 0
                                             : !filled_view((PyArrayObject *)view, stored) &&
                                                   PyArray_CopyObject((PyArrayObject *)view, stored) < 0);
    }
    else if (np_key != key && (failed = masked_fill((PyArrayObject *)data, (PyArrayObject *)np_key, stored)) != 0) {
        failed = failed < 0; /* (a mask: filled in C) */
    }
    else {
        failed = store_double((PyArrayObject *)data, np_key, stored) ? 0 : PyObject_SetItem(data, np_key, stored);
    }
    Py_XDECREF(view);
    Py_DECREF(stored);
    if (failed) {
        return worded_by_python() ? FALL_BACK : NULL; /* out of bounds, read-only, shapes */
    }
    Py_RETURN_NONE;
}

/* float(x) of a 0-d native float64 ndarray: its double (x._scalar's plain case). */
static PyObject *
to_float(PyObject *x)
{
    PyObject *data = SLOT(x, DATA);
    if (Py_TYPE(data) != NDArray || PyArray_NDIM((PyArrayObject *)data) != 0 ||
        PyArray_TYPE((PyArrayObject *)data) != NPY_DOUBLE || !PyArray_ISNOTSWAPPED((PyArrayObject *)data)) {
        return FALL_BACK;
    }
    double v;
    memcpy(&v, PyArray_DATA((PyArrayObject *)data), sizeof v);
    return PyFloat_FromDouble(v);
}

/* result_type(x1, x2) of two arrays: runtime._result_types by (dtype, dtype), or, under a policy
 * that tells 0-d arrays apart, for two dtypes, by (dtype, dtype, zero_d bits). */
static PyObject *
result_type(FastPath *self, PyObject *runtime, PyObject *x1, PyObject *x2)
{
    if (!is_array(x1) || !is_array(x2) || SLOT(x1, RUNTIME) != runtime ||
        SLOT(x2, RUNTIME) != runtime) {
        return FALL_BACK;
    }
    PyObject *dt1 = SLOT(x1, DTYPE), *dt2 = SLOT(x2, DTYPE);
    PyObject *known = recall_two(self, runtime, x1, x2);
    if (known != NULL) {
        Py_INCREF(known);
        return known;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    int bits = -1;
    if (dt1 != dt2) {
        int by_dimensions = keys_by_dimensions(runtime);
        if (by_dimensions < 0 || (by_dimensions && (bits = zero_d_bits(x1, x2)) < 0)) {
            return NULL;
        }
    }
    PyObject *table = PyObject_GetAttr(runtime, str_result_types);
    if (table == NULL) {
        return NULL;
    }
    if (!PyDict_CheckExact(table)) {
        Py_DECREF(table);
        return FALL_BACK;
    }
    PyObject *key;
    if (bits < 0) {
        key = PyTuple_Pack(2, dt1, dt2);
    }
    else {
        PyObject *bits_obj = PyLong_FromLong(bits);
        key = bits_obj == NULL ? NULL : PyTuple_Pack(3, dt1, dt2, bits_obj);
        Py_XDECREF(bits_obj);
    }
    PyObject *found = key == NULL ? NULL : PyDict_GetItemWithError(table, key);
    Py_XDECREF(key);
    Py_XINCREF(found);
    Py_DECREF(table);
    if (found == NULL) {
        return PyErr_Occurred() ? NULL : FALL_BACK;
    }
    remember(self, runtime, dt1, dt2, bits, found);
    return found;
}

/* _runtime.quiet_context() of this thread (new reference), kept in the thread state's dict
 * after the first call: a Python call per cast would cost a third of a small cast. */
static PyObject *
thread_quiet_context(void)
{
    PyObject *thread_dict = PyThreadState_GetDict();
    if (thread_dict == NULL) {
        return PyObject_CallNoArgs(quiet_context);
    }
    PyObject *context = PyDict_GetItemWithError(thread_dict, str_quiet_context);
    if (context != NULL) {
        Py_INCREF(context);
        return context;
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    context = PyObject_CallNoArgs(quiet_context);
    if (context != NULL && PyDict_SetItem(thread_dict, str_quiet_context, context) < 0) {
        Py_CLEAR(context);
    }
    return context;
}

/* astype(x, dtype) with copy and device left alone: runtime._casts[dtype][x's dtype] says the
 * Python function allowed that cast before, and whether NumPy must be quiet (an overflow to inf
 * is the standard's answer) -- remembered as a plan is (LastPlan: the Python function only adds
 * casts) --; the cast runs in _runtime.quiet_context() then.  The cast is ndarray.astype's own
 * (a new array of the NumPy dtype in x's memory layout, the data copied in by an unsafe cast,
 * whose floating-point errors NumPy reports by the error state it runs in), without the
 * method's call. */
static PyObject *
astype(FastPath *self, PyObject *runtime, PyObject *x, PyObject *dtype)
{
    if (!is_array(x) || SLOT(x, RUNTIME) != runtime || Py_TYPE(dtype) != Py_TYPE(bool_dtype) ||
        Py_TYPE(SLOT(x, DATA)) != NDArray || quiet_context == NULL || SLOT(x, DEVICE) != cpu_device) {
        return FALL_BACK; /* (the type of bool_ is the DType class) */
    }
    PyObject *plan = recall(self, runtime, dtype, SLOT(x, DTYPE)); /* (quiet, NumPy dtype) */
    if (plan != NULL) {
        Py_INCREF(plan);
    }
    else {
        PyObject *casts = PyObject_GetAttr(runtime, str_casts);
        if (casts == NULL) {
            return NULL;
        }
        PyObject *quiet = NULL;
        if (PyDict_CheckExact(casts)) {
            PyObject *to = PyDict_GetItemWithError(casts, dtype);
            if (to != NULL && PyDict_CheckExact(to)) {
                quiet = PyDict_GetItemWithError(to, SLOT(x, DTYPE));
            }
        }
        Py_XINCREF(quiet);
        Py_DECREF(casts);
        if (quiet == NULL) {
            return PyErr_Occurred() ? NULL : FALL_BACK;
        }
        int is_quiet = PyObject_IsTrue(quiet);
        Py_DECREF(quiet);
        if (is_quiet < 0) {
            return NULL;
        }
        PyObject *numpy_dtype = PyObject_GetAttr(dtype, str_numpy);
        if (numpy_dtype == NULL) {
            return NULL;
        }
        if (!PyArray_DescrCheck(numpy_dtype)) {
            Py_DECREF(numpy_dtype);
            return FALL_BACK;
        }
        plan = PyTuple_Pack(2, is_quiet ? Py_True : Py_False, numpy_dtype);
        Py_DECREF(numpy_dtype);
        if (plan == NULL) {
            return NULL;
        }
        remember(self, runtime, dtype, SLOT(x, DTYPE), -1, plan);
    }
    PyArray_Descr *descr = (PyArray_Descr *)PyTuple_GET_ITEM(plan, 1);
    PyObject *context = NULL;
    if (PyTuple_GET_ITEM(plan, 0) == Py_True) {
        context = thread_quiet_context();
        if (context == NULL || !PyContext_CheckExact(context) || PyContext_Enter(context) < 0) {
            Py_XDECREF(context);
            Py_DECREF(plan);
            return PyErr_Occurred() ? NULL : FALL_BACK;
        }
    }
    PyArrayObject *data = (PyArrayObject *)SLOT(x, DATA);
    Py_INCREF(descr); /* stolen */
    PyObject *out = PyArray_NewLikeArray(data, NPY_KEEPORDER, descr, 1);
    if (out != NULL && PyArray_CopyInto((PyArrayObject *)out, data) < 0) {
        Py_CLEAR(out);
    }
    if (context != NULL) {
        if (PyContext_Exit(context) < 0) {
            Py_CLEAR(out);
        }
        Py_DECREF(context);
    }
    Py_DECREF(plan);
    if (out == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) { /* as the Python fast path: the general path's */
            PyErr_Clear();
            return FALL_BACK;
        }
        return NULL;
    }
    return wrap(out, dtype, runtime, SLOT(x, DEVICE));
}

/* runtime.policy.<kind> (str_default_float or str_default_int), the dtype the Python functions
 * take when none is given: a new reference, with a new reference to its NumPy dtype in
 * *numpy_dtype; NULL (and *numpy_dtype NULL) with the exception set. */
static PyObject *
default_dtype(PyObject *runtime, PyObject *kind, PyObject **numpy_dtype)
{
    *numpy_dtype = NULL;
    PyObject *policy = PyObject_GetAttr(runtime, str_policy);
    PyObject *dtype = policy == NULL ? NULL : PyObject_GetAttr(policy, kind);
    Py_XDECREF(policy);
    if (dtype != NULL) {
        *numpy_dtype = PyObject_GetAttr(dtype, str_numpy);
        if (*numpy_dtype == NULL) {
            Py_CLEAR(dtype);
        }
    }
    return dtype;
}

/* asarray(obj) with no keyword, as the Python function's own fast paths: an ndarray of one of our
 * dtypes (wrapped), or a non-empty list of Python floats (numpy.array(obj, the policy's default
 * float)). */
static PyObject *
asarray_plain(PyObject *runtime, PyObject *obj)
{
    if (is_array(obj) && SLOT(obj, RUNTIME) == runtime) {
        Py_INCREF(obj); /* an array of this namespace: itself, as the Python function answers */
        return obj;
    }
    if (Py_TYPE(obj) == NDArray) {
        /* a NumPy array of one of our dtypes, wrapped without a copy: runtime._native_dtypes by
         * id(obj.dtype), as the Python function's own first fast path */
        PyObject *native = PyObject_GetAttr(runtime, str_native_dtypes);
        if (native == NULL) {
            return NULL;
        }
        PyObject *numpy_dtype = PyObject_GetAttr(obj, str_dtype);
        PyObject *id = numpy_dtype == NULL ? NULL : PyLong_FromVoidPtr(numpy_dtype);
        Py_XDECREF(numpy_dtype);
        PyObject *ours = NULL;
        if (id != NULL && PyDict_CheckExact(native)) {
            ours = PyDict_GetItemWithError(native, id);
            Py_XINCREF(ours);
        }
        Py_XDECREF(id);
        Py_DECREF(native);
        if (ours == NULL) {
            return PyErr_Occurred() ? NULL : FALL_BACK;
        }
        PyObject *array = new_array(obj, ours, runtime, cpu_device);
        Py_DECREF(ours);
        return array;
    }
    if (!PyList_CheckExact(obj) || PyList_GET_SIZE(obj) == 0 || array_func == NULL || cpu_device == NULL) {
        return FALL_BACK;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(obj); i++) {
        if (!PyFloat_CheckExact(PyList_GET_ITEM(obj, i))) {
            return FALL_BACK;
        }
    }
    PyObject *numpy_dtype;
    PyObject *dtype = default_dtype(runtime, str_default_float, &numpy_dtype);
    if (dtype == NULL) {
        return NULL;
    }
    PyObject *data = call2(array_func, obj, numpy_dtype);
    Py_DECREF(numpy_dtype);
    PyObject *result = data == NULL ? NULL : wrap(data, dtype, runtime, cpu_device);
    Py_DECREF(dtype);
    return result;
}

/* asarray(x, copy=True) (dtype= and device= None or none), x an array of this namespace on NumPy
 * storage: a new array of a copy of its data (ndarray.copy(): C order), its dtype and its device
 * (which holds that dtype), as the Python function's own fast path. */
static PyObject *
asarray_copy(PyObject *runtime, PyObject *obj)
{
    if (!is_array(obj) || SLOT(obj, RUNTIME) != runtime || Py_TYPE(SLOT(obj, DATA)) != NDArray) {
        return FALL_BACK;
    }
    PyObject *data = PyArray_NewCopy((PyArrayObject *)SLOT(obj, DATA), NPY_CORDER);
    if (data == NULL) {
        return NULL;
    }
    PyObject *array = new_array(data, SLOT(obj, DTYPE), runtime, SLOT(obj, DEVICE));
    Py_DECREF(data);
    return array;
}

/* The length of zeros(n)/empty(n) the Python functions' own plain case takes (_creation_functions
 * _PLAIN_LENGTH): below check_fits' threshold for every dtype. */
#define PLAIN_LENGTH ((1 << 26) / 16)

/* The dimensions of a plain shape (_creation_functions._plain_shape): a Python int, or a tuple of
 * them, each in [0, PLAIN_LENGTH] and their nonzero product too; their number, 0 for a shape that
 * is not plain, -1 with an error set. */
static int
plain_shape(PyObject *shape, npy_intp *dims)
{
    PyObject *const *items = &shape;
    Py_ssize_t nd = 1;
    if (PyTuple_CheckExact(shape)) {
        nd = PyTuple_GET_SIZE(shape);
        items = &PyTuple_GET_ITEM(shape, 0);
        if (nd == 0 || nd > NPY_MAXDIMS) {
            return 0;
        }
    }
    long long elements = 1;
    for (Py_ssize_t i = 0; i < nd; i++) {
        if (!PyLong_CheckExact(items[i])) {
            return 0;
        }
        int overflow;
        long long n = PyLong_AsLongLongAndOverflow(items[i], &overflow);
        if (n == -1 && PyErr_Occurred()) {
            return -1;
        }
        if (overflow || n < 0 || n > PLAIN_LENGTH) {
            return 0;
        }
        elements *= n ? n : 1;
        if (elements > PLAIN_LENGTH) {
            return 0;
        }
        dims[i] = (npy_intp)n;
    }
    return (int)nd;
}

/* Whether a NumPy type is one of NumPy's own bool and number types (not ml_dtypes' bfloat16). */
static inline int
numpy_own(int type)
{
    return (PyTypeNum_ISBOOL(type) || PyTypeNum_ISNUMBER(type)) && type < NPY_OBJECT;
}

/* The dtype a creation function makes when the call names none, runtime.policy.<kind>
 * (str_default_float or str_default_int), or the one it names, one of the runtime's dtypes
 * (runtime._dtype_set); with its NumPy dtype in *descr (a new reference). Remembered as a plan is
 * (LastPlan: the policy and the runtime's dtypes never change). A borrowed reference; NULL with
 * *descr NULL for a dtype that is none of the runtime's or whose NumPy dtype is not one of NumPy's
 * own (no error), or with an error set. */
static PyObject *
creation_dtype(FastPath *self, PyObject *runtime, PyObject *dtype, PyObject *kind, PyObject **descr)
{
    PyObject *key = dtype == NULL ? Py_None : dtype, *by = dtype == NULL ? kind : NULL;
    PyObject *plan = recall(self, runtime, key, by);
    *descr = NULL;
    if (plan == NULL) {
        PyObject *numpy_dtype = NULL, *found = NULL;
        if (dtype == NULL) {
            found = default_dtype(runtime, kind, &numpy_dtype);
        }
        else if (Py_TYPE(dtype) == Py_TYPE(bool_dtype)) { /* (the type of bool_ is the DType class) */
            PyObject *set = PyObject_GetAttr(runtime, str_dtype_set);
            int in = set == NULL ? -1 : PyAnySet_Check(set) ? PySet_Contains(set, dtype) : 0;
            Py_XDECREF(set);
            numpy_dtype = in > 0 ? PyObject_GetAttr(dtype, str_numpy) : NULL;
            found = numpy_dtype == NULL ? NULL : Py_NewRef(dtype);
        }
        if (found != NULL && PyArray_DescrCheck(numpy_dtype) && numpy_own(((PyArray_Descr *)numpy_dtype)->type_num)) {
            plan = PyTuple_Pack(2, found, numpy_dtype);
            if (plan != NULL) {
                remember(self, runtime, key, by, -1, plan);
                Py_DECREF(plan); /* (remembered: held by self->last) */
            }
        }
        Py_XDECREF(found);
        Py_XDECREF(numpy_dtype);
        if (plan == NULL) {
            return NULL;
        }
    }
    *descr = Py_NewRef(PyTuple_GET_ITEM(plan, 1));
    return PyTuple_GET_ITEM(plan, 0);
}

/* The variants of CONSTANT (ZEROS, ONES, EMPTY, each | LIKE for zeros_like ...), FULL (FULL_SHAPE,
 * FULL_LIKE) and MATRIX_VIEW (x.T, or STACKED_MATRICES: x.mT), by name */
enum { ZEROS, ONES, EMPTY, FULL_SHAPE = 0, FULL_LIKE = 3, LIKE = 4, STACKED_MATRICES = 8 };

/* zeros(shape), ones(shape) or empty(shape) (self->variant) of a plain shape, with dtype= one of the
 * runtime's or none, and device= None or none: as the Python functions' plain case, elements of that
 * dtype or runtime.policy.default_float on the CPU.  zeros_like(x), ones_like(x) or empty_like(x)
 * (LIKE), x an array of the runtime on NumPy storage, with dtype= and device= None or none: as theirs,
 * a new array of x's shape (in C order), dtype and device. */
static PyObject *
constant(FastPath *self, PyObject *runtime, PyObject *shape, PyObject *kwnames, PyObject *const *kwvalues)
{
    PyObject *name_objs[2] = {str_dtype, str_device}, *kw[2];
    npy_intp shape_dims[NPY_MAXDIMS], *dims = shape_dims;
    if (cpu_device == NULL || keywords(kwnames, kwvalues, name_objs, 2, kw) < 0 || (kw[1] != NULL && kw[1] != Py_None)) {
        return FALL_BACK;
    }
    PyObject *descr, *dtype, *device = cpu_device;
    int nd, like = self->variant & LIKE, variant = self->variant & ~LIKE;
    if (like) {
        PyObject *x = shape;
        if (!is_array(x) || SLOT(x, RUNTIME) != runtime || Py_TYPE(SLOT(x, DATA)) != NDArray ||
            (kw[0] != NULL && kw[0] != Py_None)) {
            return FALL_BACK;
        }
        nd = PyArray_NDIM((PyArrayObject *)SLOT(x, DATA));
        dims = PyArray_DIMS((PyArrayObject *)SLOT(x, DATA));
        device = SLOT(x, DEVICE); /* (which holds x's dtype) */
        dtype = creation_dtype(self, runtime, SLOT(x, DTYPE), NULL, &descr);
    }
    else {
        nd = plain_shape(shape, shape_dims);
        if (nd <= 0) {
            return nd < 0 ? NULL : FALL_BACK;
        }
        dtype = creation_dtype(self, runtime, kw[0] == Py_None ? NULL : kw[0], str_default_float, &descr);
    }
    if (dtype == NULL) {
        return PyErr_Occurred() ? NULL : FALL_BACK;
    }
    /* (descr stolen) */
    PyObject *data = variant == ZEROS ? PyArray_Zeros(nd, dims, (PyArray_Descr *)descr, 0)
                                      : PyArray_Empty(nd, dims, (PyArray_Descr *)descr, 0);
    /* np.ones: empty, then the Python int 1 copied in (np.copyto(a, 1, casting="unsafe")) */
    if (data != NULL && variant == ONES) {
        PyObject *one = PyLong_FromLong(1); /* (a cached small int) */
        if (one == NULL || PyArray_FillWithScalar((PyArrayObject *)data, one) < 0) {
            Py_CLEAR(data);
        }
        Py_XDECREF(one);
    }
    if (data == NULL) {
        return NULL;
    }
    PyObject *result = new_array(data, dtype, runtime, device);
    Py_DECREF(data);
    return result;
}

/* full(shape, fill_value) of a plain shape, or full_like(x, fill_value) of an array of the runtime on
 * NumPy storage (self->variant), fill_value a Python bool, int or float (or complex, with a dtype), with
 * dtype= one of the runtime's or none and device= None or none: as the Python functions' plain cases,
 * the value made by the policy's creation rule (policy.create_scalar(fill_value, dtype, name), what
 * the runtime's _exact_scalar calls) copied into a new array, as numpy.full does (empty, then an unsafe
 * copy of the 0-d value).  full's dtype is by default the policy's for the scalar's type on the CPU
 * (bool, its default int or float); full_like's x's, on x's device, and one given takes only an x on
 * the CPU of at most PLAIN_LENGTH elements. */
static PyObject *
full(FastPath *self, PyObject *runtime, PyObject *first, PyObject *fill, PyObject *kwnames, PyObject *const *kwvalues)
{
    PyObject *name_objs[2] = {str_dtype, str_device}, *kw[2];
    if (cpu_device == NULL || keywords(kwnames, kwvalues, name_objs, 2, kw) < 0 || (kw[1] != NULL && kw[1] != Py_None)) {
        return FALL_BACK;
    }
    PyTypeObject *t = Py_TYPE(fill);
    int real = t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type;
    if (!real && t != &PyComplex_Type) {
        return FALL_BACK;
    }
    PyObject *given = kw[0] == Py_None ? NULL : kw[0], *device = cpu_device, *dtype, *descr;
    npy_intp shape[NPY_MAXDIMS], *dims = shape;
    int nd, like = self->variant == FULL_LIKE;
    if (like) {
        if (!is_array(first) || SLOT(first, RUNTIME) != runtime || Py_TYPE(SLOT(first, DATA)) != NDArray) {
            return FALL_BACK;
        }
        PyArrayObject *data = (PyArrayObject *)SLOT(first, DATA);
        nd = PyArray_NDIM(data);
        dims = PyArray_DIMS(data);
        if (given == NULL) { /* x's dtype, on x's device (which holds it) */
            device = SLOT(first, DEVICE);
            given = SLOT(first, DTYPE);
        }
        else if (SLOT(first, DEVICE) != cpu_device || PyArray_SIZE(data) > PLAIN_LENGTH) {
            return FALL_BACK;
        }
        dtype = creation_dtype(self, runtime, given, NULL, &descr);
    }
    else {
        nd = plain_shape(first, shape);
        if (nd <= 0) {
            return nd < 0 ? NULL : FALL_BACK;
        }
        if (given != NULL) {
            dtype = creation_dtype(self, runtime, given, NULL, &descr);
        }
        else if (!real) {
            return FALL_BACK;
        }
        else if (t == &PyBool_Type) {
            dtype = creation_dtype(self, runtime, bool_dtype, NULL, &descr);
        }
        else {
            dtype = creation_dtype(self, runtime, NULL, t == &PyLong_Type ? str_default_int : str_default_float, &descr);
        }
    }
    if (dtype == NULL) {
        return PyErr_Occurred() ? NULL : FALL_BACK;
    }
    PyObject *policy = PyObject_GetAttr(runtime, str_policy);
    PyObject *call[] = {policy, fill, dtype, like ? str_full_like : str_full};
    PyObject *value = policy == NULL ? NULL : PyObject_VectorcallMethod(str_create_scalar, call, 4, NULL);
    Py_XDECREF(policy);
    if (value == NULL || Py_TYPE(value) != NDArray) {
        Py_XDECREF(value);
        Py_DECREF(descr);
        return PyErr_Occurred() ? NULL : FALL_BACK; /* (a value of another type: numpy.full's to convert) */
    }
    PyObject *data = PyArray_Empty(nd, dims, (PyArray_Descr *)descr, 0); /* (descr stolen) */
    if (data != NULL && PyArray_CopyInto((PyArrayObject *)data, (PyArrayObject *)value) < 0) {
        Py_CLEAR(data);
    }
    Py_DECREF(value);
    if (data == NULL) {
        return NULL;
    }
    PyObject *result = new_array(data, dtype, runtime, device);
    Py_DECREF(data);
    return result;
}

/* [lo, hi] of an integer NumPy dtype as long longs (uint64's top cut to LLONG_MAX: the values
 * arange's plain case takes are within 2**53); 0 for any other dtype. */
static int
integer_bounds(PyArray_Descr *descr, long long *lo, long long *hi)
{
    int type = descr->type_num;
    if (!PyTypeNum_ISINTEGER(type)) {
        return 0;
    }
    int bits = (int)descr->elsize * 8;
    if (PyTypeNum_ISUNSIGNED(type)) {
        *lo = 0;
        *hi = bits >= 64 ? LLONG_MAX : (1LL << bits) - 1;
    }
    else {
        *lo = bits >= 64 ? LLONG_MIN : -(1LL << (bits - 1));
        *hi = bits >= 64 ? LLONG_MAX : (1LL << (bits - 1)) - 1;
    }
    return 1;
}

/* Whether a NumPy dtype is float32 or float64 (arange's plain floating dtypes). */
static inline int
plain_float(PyArray_Descr *descr)
{
    return descr->type_num == NPY_FLOAT || descr->type_num == NPY_DOUBLE;
}

/* arange's plain cases, as the Python function's (numpy.arange called as it calls it), with
 * dtype= a dtype of the runtime or none (the policy's default int, or default float when a bound
 * is a float) and device= None or none:
 * arange(n), n a Python int in [0, PLAIN_LENGTH]: n values, of an integer dtype that holds n - 1
 * or of float32 or float64;
 * arange(start, stop[, step]) of Python ints within 2**53, step nonzero, at most PLAIN_LENGTH
 * values: NumPy's exact values, each within an integer dtype's range (the first and the last,
 * which lies between start and stop), or in float32 or float64;
 * arange(start, stop[, step]) of Python floats and ints, at least one a float, the ints within
 * 2**53 (a double holds them exactly, so the doubles below are Python's own arithmetic), step
 * finite and nonzero, at most PLAIN_LENGTH values, in float32 or float64: cut to the standard's
 * length ceil((stop - start) / step), which NumPy can overshoot by one. */
static PyObject *
arange(FastPath *self, PyObject *runtime, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *name_objs[4] = {str_stop, str_step, str_dtype, str_device}, *kw[4];
    if (cpu_device == NULL || nargs < 1 || nargs > 3 || keywords(kwnames, args + nargs, name_objs, 4, kw) < 0 ||
        (kw[0] != NULL && nargs > 1) || (kw[1] != NULL && nargs > 2) || (kw[3] != NULL && kw[3] != Py_None)) {
        return FALL_BACK;
    }
    PyObject *bounds[3] = {args[0], nargs > 1 ? args[1] : kw[0], nargs > 2 ? args[2] : kw[1]};
    PyObject *dtype = kw[2] == Py_None ? NULL : kw[2];
    int count_form = bounds[1] == NULL || bounds[1] == Py_None; /* arange(n) */
    if (count_form) {
        bounds[1] = NULL;
        if (bounds[2] != NULL) { /* a step given: only 1, as the Python function's default */
            if (!PyLong_CheckExact(bounds[2])) {
                return FALL_BACK;
            }
            int overflow;
            long long one = PyLong_AsLongLongAndOverflow(bounds[2], &overflow);
            if (one != 1) {
                return PyErr_Occurred() ? NULL : FALL_BACK;
            }
            bounds[2] = NULL;
        }
    }
    double values[3] = {0.0, 0.0, 1.0}; /* start, stop, step (1 when not given) */
    long long ints[3] = {0, 0, 1};
    int floating = 0;
    for (int i = 0; i < 3; i++) {
        if (bounds[i] == NULL) {
            continue;
        }
        if (PyFloat_CheckExact(bounds[i])) {
            values[i] = PyFloat_AS_DOUBLE(bounds[i]);
            floating = 1;
            continue;
        }
        if (!PyLong_CheckExact(bounds[i])) {
            return FALL_BACK;
        }
        int overflow;
        long long v = PyLong_AsLongLongAndOverflow(bounds[i], &overflow);
        if (v == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (overflow || v < -(1LL << 53) || v > (1LL << 53)) {
            return FALL_BACK;
        }
        values[i] = (double)v;
        ints[i] = v;
    }
    if (count_form && (floating || ints[0] < 0 || ints[0] > PLAIN_LENGTH)) {
        return FALL_BACK;
    }
    npy_intp length = -1; /* the standard's length where NumPy's may differ, -1: NumPy's */
    long long n = ints[0], first = 0, last = 0; /* the values' count, and the first and last of an integer range */
    if (!count_form && !floating) {
        long long step = ints[2], a = ints[0] - ints[1]; /* n = -((start - stop) // step), Python's floor division */
        if (step == 0) {
            return FALL_BACK;
        }
        long long q = a / step;
        if (a % step != 0 && ((a < 0) != (step < 0))) {
            q -= 1;
        }
        n = -q;
        if (n > PLAIN_LENGTH) {
            return FALL_BACK;
        }
        first = ints[0];
        last = n > 0 ? ints[0] + (n - 1) * step : ints[0]; /* (between start and stop: within 2**53) */
    }
    else if (!count_form) {
        double step = values[2];
        if (!isfinite(step) || step == 0) {
            return FALL_BACK;
        }
        double count = (values[1] - values[0]) / step;
        if (!isfinite(count) || count > PLAIN_LENGTH) {
            return FALL_BACK;
        }
        length = count > 0 ? (npy_intp)ceil(count) : 0;
    }
    else {
        last = n - 1;
    }
    PyObject *descr;
    dtype = creation_dtype(self, runtime, dtype, floating ? str_default_float : str_default_int, &descr);
    if (dtype == NULL) {
        return PyErr_Occurred() ? NULL : FALL_BACK;
    }
    long long lo, hi;
    int plain = floating ? plain_float((PyArray_Descr *)descr)
                : integer_bounds((PyArray_Descr *)descr, &lo, &hi)
                    ? n <= 0 || (lo <= first && first <= hi && lo <= last && last <= hi)
                    : plain_float((PyArray_Descr *)descr);
    PyObject *data = NULL;
    if (!plain) {
        Py_DECREF(descr);
        return FALL_BACK;
    }
    /* numpy.arange(start, stop, step, descr), positional (its keywords cost a third of a small arange);
     * arange(n) as the general path calls it, numpy.arange(0, n, 1, descr) */
    PyObject *zero = PyLong_FromLong(0), *one = PyLong_FromLong(1); /* (cached small ints) */
    if (zero != NULL && one != NULL) {
        PyObject *call[] = {count_form ? zero : bounds[0], count_form ? bounds[0] : bounds[1],
                            bounds[2] == NULL ? one : bounds[2], descr};
        data = PyObject_Vectorcall(numpy_arange, call, 4, NULL);
    }
    Py_XDECREF(zero);
    Py_XDECREF(one);
    Py_DECREF(descr);
    PyObject *result = NULL;
    if (data != NULL && Py_TYPE(data) != NDArray) {
        result = FALL_BACK; /* (numpy.arange replaced by something else) */
    }
    else if (data != NULL && length >= 0 && PyArray_NDIM((PyArrayObject *)data) == 1 &&
             PyArray_DIM((PyArrayObject *)data, 0) > length) {
        PyObject *cut = PySequence_GetSlice(data, 0, length);
        result = cut == NULL ? NULL : new_array(cut, dtype, runtime, cpu_device);
        Py_XDECREF(cut);
    }
    else if (data != NULL) {
        result = new_array(data, dtype, runtime, cpu_device);
    }
    Py_XDECREF(data);
    return result;
}

/* reshape(x, shape) with copy= None or none, x an array of the runtime on NumPy storage, shape a
 * tuple of Python ints each -1 or more: NumPy's reshape (ndarray.reshape's: a view where it can),
 * which refuses what the Python function refuses (a ValueError: it words it). */
static PyObject *
reshape(PyObject *runtime, PyObject *x, PyObject *shape, PyObject *kwnames, PyObject *const *kwvalues)
{
    PyObject *kw[1];
    if (!is_array(x) || SLOT(x, RUNTIME) != runtime || Py_TYPE(SLOT(x, DATA)) != NDArray || !PyTuple_CheckExact(shape) ||
        PyTuple_GET_SIZE(shape) > NPY_MAXDIMS || keywords(kwnames, kwvalues, &str_copy, 1, kw) < 0 ||
        (kw[0] != NULL && kw[0] != Py_None)) {
        return FALL_BACK;
    }
    npy_intp dims[NPY_MAXDIMS];
    PyArray_Dims newshape = {dims, (int)PyTuple_GET_SIZE(shape)};
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(shape); i++) {
        PyObject *size = PyTuple_GET_ITEM(shape, i);
        if (!PyLong_CheckExact(size)) {
            return FALL_BACK;
        }
        int overflow;
        long long n = PyLong_AsLongLongAndOverflow(size, &overflow);
        if (n == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (overflow || n < -1 || n > NPY_MAX_INTP) {
            return FALL_BACK;
        }
        dims[i] = (npy_intp)n;
    }
    PyObject *out = PyArray_Newshape((PyArrayObject *)SLOT(x, DATA), &newshape, NPY_CORDER);
    if (out == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyErr_Clear();
            return FALL_BACK;
        }
        return NULL;
    }
    PyObject *array = new_array(out, SLOT(x, DTYPE), runtime, SLOT(x, DEVICE));
    Py_DECREF(out);
    return array;
}

/* flip(x) or flip(x, axis=i) (axis= None: every axis), x an array of the runtime on NumPy storage, i a
 * Python int within x's dimensions: x's data indexed by the Python function's own key, slice(None,
 * None, -1) on each axis flipped and slice(None) on the others, then Ellipsis: NumPy's view. */
static PyObject *squeezed_view(PyObject *module, PyObject *const *args, Py_ssize_t nargs);

/* squeeze(x, axis) or (x, axis=i), i a Python int naming an axis of x's of size 1, x of the runtime on
 * NumPy storage: squeezed_view's view of its data (anything else: the Python function, which words it). */
static PyObject *
squeeze(PyObject *runtime, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *axis = NULL, *x = args[0];
    if (nargs == 2 && kwnames == NULL) {
        axis = args[1];
    }
    else if (nargs == 1 && kwnames != NULL && keywords(kwnames, args + nargs, &str_axis, 1, &axis) < 0) {
        return FALL_BACK;
    }
    if (axis == NULL || !PyLong_CheckExact(axis) || !is_array(x) || SLOT(x, RUNTIME) != runtime ||
        Py_TYPE(SLOT(x, DATA)) != NDArray) {
        return FALL_BACK;
    }
    PyObject *view_args[2] = {SLOT(x, DATA), axis};
    PyObject *out = squeezed_view(NULL, view_args, 2);
    if (out == NULL || out == Py_NotImplemented) {
        Py_XDECREF(out);
        return out == NULL ? NULL : FALL_BACK;
    }
    return wrap(out, SLOT(x, DTYPE), runtime, SLOT(x, DEVICE));
}

static PyObject *
flip(PyObject *runtime, PyObject *x, PyObject *kwnames, PyObject *const *kwvalues)
{
    PyObject *kw[1];
    if (!is_array(x) || SLOT(x, RUNTIME) != runtime || Py_TYPE(SLOT(x, DATA)) != NDArray || forward_slice == NULL ||
        keywords(kwnames, kwvalues, &str_axis, 1, kw) < 0) {
        return FALL_BACK;
    }
    PyObject *data = SLOT(x, DATA);
    int ndim = PyArray_NDIM((PyArrayObject *)data);
    long axis = -1; /* -1: every axis */
    if (kw[0] != NULL && kw[0] != Py_None) {
        if (!PyLong_CheckExact(kw[0])) {
            return FALL_BACK;
        }
        int overflow;
        long long a = PyLong_AsLongLongAndOverflow(kw[0], &overflow);
        if (a == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (overflow || a < -ndim || a >= ndim) {
            return FALL_BACK;
        }
        axis = (long)(a < 0 ? a + ndim : a);
    }
    PyObject *key = PyTuple_New(ndim + 1);
    if (key == NULL) {
        return NULL;
    }
    for (int i = 0; i < ndim; i++) {
        PyObject *part = axis < 0 || axis == i ? backward_slice : forward_slice;
        PyTuple_SET_ITEM(key, i, Py_NewRef(part));
    }
    PyTuple_SET_ITEM(key, ndim, Py_NewRef(Py_Ellipsis));
    PyObject *out = PyObject_GetItem(data, key);
    Py_DECREF(key);
    if (out == NULL) {
        return NULL;
    }
    return wrap(out, SLOT(x, DTYPE), runtime, SLOT(x, DEVICE));
}

/* concat(arrays) or (arrays, axis=i or None), arrays a non-empty list or tuple of arrays of the
 * runtime, of one dtype and one device, on NumPy storage: numpy.concatenate of their data, as the
 * Python function's plain case (NumPy's ValueError, IndexError, TypeError or OverflowError goes to it: it
 * words them). */
static PyObject *
concat(PyObject *runtime, PyObject *arrays, PyObject *kwnames, PyObject *const *kwvalues)
{
    PyObject *kw[1];
    if (!(PyList_CheckExact(arrays) || PyTuple_CheckExact(arrays)) || keywords(kwnames, kwvalues, &str_axis, 1, kw) < 0) {
        return FALL_BACK;
    }
    PyObject *axis = kw[0] == NULL ? NULL : kw[0];
    if (axis != NULL && axis != Py_None && !PyLong_CheckExact(axis)) {
        return FALL_BACK;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(arrays);
    if (n == 0) {
        return FALL_BACK;
    }
    PyObject *first = PySequence_Fast_GET_ITEM(arrays, 0);
    if (!is_array(first)) {
        return FALL_BACK;
    }
    PyObject *dtype = SLOT(first, DTYPE), *device = SLOT(first, DEVICE);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *a = PySequence_Fast_GET_ITEM(arrays, i);
        if (!is_array(a) || SLOT(a, RUNTIME) != runtime || SLOT(a, DTYPE) != dtype || SLOT(a, DEVICE) != device ||
            Py_TYPE(SLOT(a, DATA)) != NDArray) {
            return FALL_BACK;
        }
    }
    PyObject *datas = PyTuple_New(n); /* (a tuple: CPython keeps small ones for reuse, and NumPy reads it as fast) */
    if (datas == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(datas, i, Py_NewRef(SLOT(PySequence_Fast_GET_ITEM(arrays, i), DATA)));
    }
    /* axis 0, the Python function's default, is numpy.concatenate's: left to it, without parsing an argument */
    int overflow = 0, default_axis = axis == NULL;
    if (!default_axis && axis != Py_None) { /* (an exact int, checked above: no error to read) */
        default_axis = PyLong_AsLongAndOverflow(axis, &overflow) == 0 && !overflow;
    }
    PyObject *call[] = {datas, axis};
    PyObject *out = PyObject_Vectorcall(numpy_concatenate, call, default_axis ? 1 : 2, NULL);
    Py_DECREF(datas);
    if (out == NULL) {
        if (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_IndexError) ||
            PyErr_ExceptionMatches(PyExc_TypeError) || PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            return FALL_BACK;
        }
        return NULL;
    }
    return wrap(out, dtype, runtime, device);
}

/* Whether obj is a Python bool, int, float or complex (exactly: where's plans are by the scalar's type). */
static inline int
python_scalar(PyObject *obj)
{
    PyTypeObject *t = Py_TYPE(obj);
    return t == &PyFloat_Type || t == &PyLong_Type || t == &PyBool_Type || t == &PyComplex_Type;
}

/* where(condition, x1, x2) on the CPU, on NumPy storage, condition an array of the runtime of the bool
 * dtype, x1 and x2 two arrays of the runtime or one array and one Python scalar, of a signature the
 * Python function has met: what it left in runtime._where_plans -- remembered as a plan is
 * (LastPlan) --, for two arrays by (x1's dtype, x2's dtype, whether each is 0-d) the result dtype,
 * for an array and a scalar by (the array's dtype, whether it is 0-d, the scalar's type, whether the
 * array is x1) its (decision, convert, limit): the scalar is passed as it is within [-limit, limit]
 * (a float), else converted by convert.  numpy.where of the data (a ValueError, shapes that do not
 * broadcast, goes to the Python function), cast to the result dtype if NumPy's differs, as the
 * Python function's own fast paths. */
static PyObject *
where(FastPath *self, PyObject *runtime, PyObject *condition, PyObject *x1, PyObject *x2)
{
    int arrays = is_array(x1) + is_array(x2);
    if (!is_array(condition) || SLOT(condition, RUNTIME) != runtime || SLOT(condition, DTYPE) != bool_dtype ||
        SLOT(condition, DEVICE) != cpu_device || Py_TYPE(SLOT(condition, DATA)) != NDArray ||
        (arrays == 1 && !python_scalar(is_array(x1) ? x2 : x1)) || arrays == 0) {
        return FALL_BACK;
    }
    int first = is_array(x1); /* with a scalar: whether the array is x1 */
    PyObject *array = first ? x1 : x2, *scalar = arrays == 2 ? NULL : first ? x2 : x1;
    if (SLOT(array, RUNTIME) != runtime || SLOT(array, DEVICE) != cpu_device || Py_TYPE(SLOT(array, DATA)) != NDArray ||
        (scalar == NULL && (SLOT(x2, RUNTIME) != runtime || SLOT(x2, DEVICE) != cpu_device ||
                            Py_TYPE(SLOT(x2, DATA)) != NDArray))) {
        return FALL_BACK;
    }
    /* the plan's key: (dtype, dtype or the scalar's type, bits) */
    PyObject *key_first = SLOT(array, DTYPE), *key_second = scalar == NULL ? SLOT(x2, DTYPE) : (PyObject *)Py_TYPE(scalar);
    int zero_d1 = PyArray_NDIM((PyArrayObject *)SLOT(array, DATA)) == 0;
    int bits = scalar == NULL ? zero_d1 | ((PyArray_NDIM((PyArrayObject *)SLOT(x2, DATA)) == 0) << 1) : zero_d1 | (first << 1);
    LastPlan *last = &self->last;
    PyObject *plan = NULL; /* (result dtype, its NumPy dtype[, convert, limit]) */
    if (last->plan != NULL && last->first == key_first && last->second == key_second && last->zero_d_bits == bits &&
        referent(last->runtime) == runtime) {
        plan = Py_NewRef(last->plan);
    }
    else {
        PyObject *table = PyObject_GetAttr(runtime, str_where_plans);
        if (table == NULL) {
            return NULL;
        }
        PyObject *found = NULL;
        if (PyDict_CheckExact(table)) {
            PyObject *key = scalar == NULL ? Py_BuildValue("(OOOO)", key_first, key_second, zero_d1 ? Py_True : Py_False,
                                                           (bits & 2) ? Py_True : Py_False)
                                           : Py_BuildValue("(OOOO)", key_first, zero_d1 ? Py_True : Py_False, key_second,
                                                           first ? Py_True : Py_False);
            found = key == NULL ? NULL : PyDict_GetItemWithError(table, key);
            Py_XDECREF(key);
            Py_XINCREF(found);
        }
        Py_DECREF(table);
        if (found == NULL) {
            return PyErr_Occurred() ? NULL : FALL_BACK;
        }
        PyObject *result = found, *convert = NULL, *limit = NULL;
        if (scalar != NULL) { /* (decision, convert, limit): the decision's result */
            if (!PyTuple_CheckExact(found) || PyTuple_GET_SIZE(found) != 3) {
                Py_DECREF(found);
                return FALL_BACK;
            }
            convert = PyTuple_GET_ITEM(found, 1);
            limit = PyTuple_GET_ITEM(found, 2);
            result = PyObject_GetAttrString(PyTuple_GET_ITEM(found, 0), "result");
            if (result == NULL) {
                Py_DECREF(found);
                return NULL;
            }
        }
        else {
            Py_INCREF(result);
        }
        PyObject *descr = Py_TYPE(result) == Py_TYPE(bool_dtype) ? PyObject_GetAttr(result, str_numpy) : NULL;
        if (descr != NULL && PyArray_DescrCheck(descr)) {
            plan = scalar == NULL ? PyTuple_Pack(2, result, descr) : PyTuple_Pack(4, result, descr, convert, limit);
        }
        Py_XDECREF(descr);
        Py_DECREF(result);
        Py_DECREF(found);
        if (plan == NULL) {
            return PyErr_Occurred() ? NULL : FALL_BACK;
        }
        remember(self, runtime, key_first, key_second, bits, plan);
    }
    PyObject *value = NULL; /* the scalar as NumPy is given it */
    if (scalar != NULL) {
        PyObject *limit = PyTuple_GET_ITEM(plan, 3);
        if (PyFloat_CheckExact(limit) && PyFloat_CheckExact(scalar) &&
            -PyFloat_AS_DOUBLE(limit) <= PyFloat_AS_DOUBLE(scalar) && PyFloat_AS_DOUBLE(scalar) <= PyFloat_AS_DOUBLE(limit)) {
            value = Py_NewRef(scalar);
        }
        else if (limit == Py_None || PyFloat_CheckExact(limit)) {
            value = PyObject_CallOneArg(PyTuple_GET_ITEM(plan, 2), scalar);
        }
        else {
            Py_DECREF(plan);
            return FALL_BACK;
        }
        if (value == NULL) {
            Py_DECREF(plan);
            return NULL;
        }
    }
    PyObject *out = scalar == NULL  ? PyArray_Where(SLOT(condition, DATA), SLOT(x1, DATA), SLOT(x2, DATA))
                    : first         ? PyArray_Where(SLOT(condition, DATA), SLOT(x1, DATA), value)
                                    : PyArray_Where(SLOT(condition, DATA), value, SLOT(x2, DATA));
    Py_XDECREF(value);
    PyObject *descr = PyTuple_GET_ITEM(plan, 1);
    if (out != NULL && !(Py_TYPE(out) == NDArray && (PyObject *)PyArray_DESCR((PyArrayObject *)out) == descr)) {
        PyObject *call[] = {out, descr}; /* numpy.asarray(out, dtype=descr) */
        PyObject *cast = PyObject_Vectorcall(asarray, call, 1, dtype_keyword);
        Py_SETREF(out, cast);
    }
    PyObject *result = NULL;
    if (out != NULL) {
        result = wrap(out, PyTuple_GET_ITEM(plan, 0), runtime, cpu_device);
    }
    else if (PyErr_ExceptionMatches(PyExc_ValueError)) {
        PyErr_Clear();
        result = FALL_BACK;
    }
    Py_DECREF(plan);
    return result;
}

/* x.T (x 2-d) or x.mT (x of 2 dimensions or more), self->name: NumPy's view of x's data with
 * its last two axes swapped, in an array of x's dtype, namespace and device (which holds that
 * dtype: x is on it); FALL_BACK for lazy data or another ndim (the Python property raises). */
static PyObject *
matrix_view(FastPath *self, PyObject *x)
{
    PyObject *data = SLOT(x, DATA);
    if (Py_TYPE(data) != NDArray) {
        return FALL_BACK;
    }
    int ndim = PyArray_NDIM((PyArrayObject *)data);
    int stacked = self->variant == STACKED_MATRICES;
    if (stacked ? ndim < 2 : ndim != 2) {
        return FALL_BACK;
    }
    /* NumPy's ndarray.T and .mT make this view by PyArray_Transpose: the same shape, strides, data
     * pointer, flags (contiguity and alignment recomputed) and base, here without its permutation
     * and the strides it fills first and then writes over */
    npy_intp shape[NPY_MAXDIMS], strides[NPY_MAXDIMS];
    for (int i = 0; i < ndim; i++) {
        int from = i < ndim - 2 ? i : 2 * ndim - 3 - i; /* (the last two swapped) */
        shape[i] = PyArray_DIM((PyArrayObject *)data, from);
        strides[i] = PyArray_STRIDE((PyArrayObject *)data, from);
    }
    PyObject *view = new_view((PyArrayObject *)data, ndim, shape, strides, PyArray_BYTES((PyArrayObject *)data),
                              PyArray_FLAGS((PyArrayObject *)data));
    if (view == NULL) {
        return NULL;
    }
    PyObject *array = new_array(view, SLOT(x, DTYPE), SLOT(x, RUNTIME), SLOT(x, DEVICE));
    Py_DECREF(view);
    return array;
}

/* x.shape of NumPy data: its dimensions as a tuple, as ndarray.shape makes it (lazy storage falls back). */
static PyObject *
shape_of(PyObject *x)
{
    PyObject *data = SLOT(x, DATA);
    if (Py_TYPE(data) != NDArray) {
        return FALL_BACK;
    }
    int ndim = PyArray_NDIM((PyArrayObject *)data);
    npy_intp *dims = PyArray_DIMS((PyArrayObject *)data);
    PyObject *shape = PyTuple_New(ndim);
    if (shape == NULL) {
        return NULL;
    }
    for (int i = 0; i < ndim; i++) {
        PyObject *size = PyLong_FromSsize_t(dims[i]);
        if (size == NULL) {
            Py_DECREF(shape);
            return NULL;
        }
        PyTuple_SET_ITEM(shape, i, size);
    }
    return shape;
}

static PyObject *
fastpath_vectorcall(FastPath *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *result = FALL_BACK;
    if (Array != NULL && self->kind == CONSTANT) { /* (kinds that read keywords) */
        result = nargs == 2 ? constant(self, args[0], args[1], kwnames, args + nargs) : FALL_BACK;
    }
    else if (Array != NULL && self->kind == ARANGE) {
        result = nargs >= 2 ? arange(self, args[0], args + 1, nargs - 1, kwnames) : FALL_BACK;
    }
    else if (Array != NULL && self->kind == RESHAPE) {
        result = nargs == 3 ? reshape(args[0], args[1], args[2], kwnames, args + nargs) : FALL_BACK;
    }
    else if (Array != NULL && self->kind == FLIP) {
        result = nargs == 2 ? flip(args[0], args[1], kwnames, args + nargs) : FALL_BACK;
    }
    else if (Array != NULL && self->kind == SQUEEZE) {
        result = nargs >= 2 ? squeeze(args[0], args + 1, nargs - 1, kwnames) : FALL_BACK;
    }
    else if (Array != NULL && self->kind == FULL) {
        result = nargs == 3 ? full(self, args[0], args[1], args[2], kwnames, args + nargs) : FALL_BACK;
    }
    else if (Array != NULL && self->kind == CONCAT) {
        result = nargs == 2 ? concat(args[0], args[1], kwnames, args + nargs) : FALL_BACK;
    }
    else if (Array != NULL && kwnames != NULL && self->kind == ASARRAY && nargs == 2) {
        /* dtype= and device= None or none (as CPython 3.11's forwarding function passes them), copy= */
        PyObject *name_objs[3] = {str_dtype, str_device, str_copy}, *kw[3];
        if (keywords(kwnames, args + nargs, name_objs, 3, kw) == 0 && (kw[0] == NULL || kw[0] == Py_None) &&
            (kw[1] == NULL || kw[1] == Py_None)) {
            result = kw[2] == NULL || kw[2] == Py_None ? asarray_plain(args[0], args[1])
                     : kw[2] == Py_True                ? asarray_copy(args[0], args[1])
                                                       : FALL_BACK;
        }
    }
    else if (Array != NULL && kwnames == NULL) {
        switch (self->kind) {
        case BINARY_OPERATOR:
            if (nargs == 2 && is_array(args[0])) {
                result = binary_operator(self, args[0], args[1]);
            }
            break;
        case REFLECTED_OPERATOR:
            if (nargs == 2 && is_array(args[0])) {
                result = with_scalar(self, args[0], args[1], 1);
            }
            break;
        case INPLACE_OPERATOR:
            if (nargs == 2 && is_array(args[0])) {
                result = inplace_operator(self, args[0], args[1]);
            }
            break;
        case UNARY_OPERATOR:
            if (nargs == 1 && is_array(args[0])) {
                result = unary(self, SLOT(args[0], RUNTIME), args[0]);
            }
            break;
        case BINARY_FUNCTION:
            if (nargs == 3) {
                result = binary_function(self, args[0], args[1], args[2]);
            }
            break;
        case UNARY_FUNCTION:
            if (nargs == 2 && is_array(args[1]) && SLOT(args[1], RUNTIME) == args[0]) {
                result = unary(self, args[0], args[1]);
            }
            break;
        case GETITEM:
            if (nargs == 2 && is_array(args[0])) {
                result = getitem(args[0], args[1]);
            }
            break;
        case SETITEM:
            if (nargs == 3 && is_array(args[0])) {
                result = setitem(self, args[0], args[1], args[2]);
            }
            break;
        case FLOAT:
            if (nargs == 1 && is_array(args[0])) {
                result = to_float(args[0]);
            }
            break;
        case RESULT_TYPE:
            if (nargs == 3) {
                result = result_type(self, args[0], args[1], args[2]);
            }
            break;
        case ASTYPE:
            if (nargs == 3) {
                result = astype(self, args[0], args[1], args[2]);
            }
            break;
        case ASARRAY:
            if (nargs == 2) {
                result = asarray_plain(args[0], args[1]);
            }
            break;
        case MATRIX_VIEW: /* x.T, x.mT (x), or runtime.matrix_transpose(x) */
            if (nargs == 1 && is_array(args[0])) {
                result = matrix_view(self, args[0]);
            }
            else if (nargs == 2 && is_array(args[1]) && SLOT(args[1], RUNTIME) == args[0]) {
                result = matrix_view(self, args[1]);
            }
            break;
        case SHAPE:
            if (nargs == 1 && is_array(args[0])) {
                result = shape_of(args[0]);
            }
            break;
        case WHERE:
            if (nargs == 4) {
                result = where(self, args[0], args[1], args[2], args[3]);
            }
            break;
        }
    }
    if (result == FALL_BACK) {
        return call_fallback(self, args, nargsf, kwnames);
    }
    return result;
}

static PyObject *
fastpath_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *keywords[] = {"kind", "name", "fallback", NULL};
    int kind;
    PyObject *name, *fallback;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "iUO:FastPath", keywords, &kind, &name, &fallback)) {
        return NULL;
    }
    if (kind < 0 || kind >= KIND_COUNT) {
        PyErr_Format(PyExc_ValueError, "FastPath: unknown kind %d", kind);
        return NULL;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "FastPath: fallback must be callable");
        return NULL;
    }
    FastPath *self = (FastPath *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = (vectorcallfunc)fastpath_vectorcall;
    self->kind = kind;
    self->variant = PyUnicode_CompareWithASCIIString(name, "ones") == 0             ? ONES
                    : PyUnicode_CompareWithASCIIString(name, "empty") == 0          ? EMPTY
                    : PyUnicode_CompareWithASCIIString(name, "full_like") == 0      ? FULL_LIKE
                    : PyUnicode_CompareWithASCIIString(name, "zeros_like") == 0     ? ZEROS | LIKE
                    : PyUnicode_CompareWithASCIIString(name, "ones_like") == 0      ? ONES | LIKE
                    : PyUnicode_CompareWithASCIIString(name, "empty_like") == 0     ? EMPTY | LIKE
                    : PyUnicode_CompareWithASCIIString(name, "mT") == 0             ? STACKED_MATRICES
                    : PyUnicode_CompareWithASCIIString(name, "matrix_transpose") == 0 ? STACKED_MATRICES
                    : PyUnicode_CompareWithASCIIString(name, "linalg_matrix_transpose") == 0 ? STACKED_MATRICES
                                                                                    : ZEROS;
    Py_INCREF(name);
    self->name = name;
    Py_INCREF(fallback);
    self->fallback = fallback;
    return (PyObject *)self;
}

static int
fastpath_traverse(FastPath *self, visitproc visit, void *arg)
{
    Py_VISIT(self->name);
    Py_VISIT(self->fallback);
    Py_VISIT(self->dict);
    Py_VISIT(self->last.runtime);
    Py_VISIT(self->last.plan);
    return 0;
}

static int
fastpath_clear(FastPath *self)
{
    Py_CLEAR(self->name);
    Py_CLEAR(self->fallback);
    Py_CLEAR(self->dict);
    forget(&self->last);
    return 0;
}

static void
fastpath_dealloc(FastPath *self)
{
    PyObject_GC_UnTrack(self);
    fastpath_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* As a class attribute it binds like a function: x.__add__, runtime.add. */
static PyObject *
fastpath_get(PyObject *self, PyObject *obj, PyObject *type)
{
    if (obj == NULL || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

static PyObject *
fastpath_repr(FastPath *self)
{
    return PyUnicode_FromFormat("<array_api_promo fast path of %R>", self->fallback);
}

static PyMemberDef fastpath_members[] = {
    {"fallback", T_OBJECT, offsetof(FastPath, fallback), READONLY, "the Python function this mirrors"},
    {"kind", T_INT, offsetof(FastPath, kind), READONLY, NULL},
    {NULL},
};

static PyGetSetDef fastpath_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict},
    {NULL},
};

static PyTypeObject FastPathType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "array_api_promo._fastpath.FastPath",
    .tp_basicsize = sizeof(FastPath),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR,
    .tp_doc = "FastPath(kind, name, fallback): the compiled plain case of the Python function fallback.",
    .tp_new = fastpath_new,
    .tp_traverse = (traverseproc)fastpath_traverse,
    .tp_clear = (inquiry)fastpath_clear,
    .tp_dealloc = (destructor)fastpath_dealloc,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(FastPath, vectorcall),
    .tp_descr_get = fastpath_get,
    .tp_dictoffset = offsetof(FastPath, dict),
    .tp_members = fastpath_members,
    .tp_getset = fastpath_getset,
    .tp_repr = (reprfunc)fastpath_repr,
};

/* The offset of one of the Array class's __slots__, from its member descriptor. */
static int
slot_offset(PyTypeObject *cls, const char *name, Py_ssize_t *offset)
{
    PyObject *descr = PyDict_GetItemString(cls->tp_dict, name);
    if (descr == NULL || Py_TYPE(descr) != &PyMemberDescr_Type) {
        PyErr_Format(PyExc_TypeError, "array_api_promo._fastpath: %s.%s is not a slot", cls->tp_name, name);
        return -1;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)descr)->d_member;
    if (member->type != T_OBJECT_EX) {
        PyErr_Format(PyExc_TypeError, "array_api_promo._fastpath: %s.%s is not an object slot", cls->tp_name, name);
        return -1;
    }
    *offset = member->offset;
    return 0;
}

/* Arrays out of the garbage collector, as NumPy's ndarrays are: what an Array holds (an
 * ndarray of a numeric dtype, a dtype, a runtime, a device) holds no array, so no Array is
 * part of a cycle that only the collector could free (a cycle made on purpose through an
 * array, such as a user's policy keeping arrays of its own namespace, is never freed, as with
 * NumPy's object arrays).  A Python class's instances are tracked all the same and released by
 * CPython's generic subtype_dealloc; untracked, with a release of their own, a small
 * operation's result costs about a third less.  Done once, before the class has an instance (a
 * subclass made later is tracked again by CPython, its subtype_dealloc ending in
 * array_dealloc).  CPython 3.10 and 3.11 only: from 3.12 a class's weak-reference list lies
 * before the object, a layout only CPython's own release knows; there arrays stay tracked. */
#if UNTRACKED_ARRAYS
static void
array_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    if (SLOT(self, WEAKLIST) != NULL) {
        PyObject_ClearWeakRefs(self);
    }
    PyObject *data = SLOT(self, DATA);
    if (data != NULL && keep_spare_scalar(data)) {
        SLOT(self, DATA) = NULL;
    }
    Py_CLEAR(SLOT(self, DATA));
    Py_CLEAR(SLOT(self, DTYPE));
    Py_CLEAR(SLOT(self, RUNTIME));
    Py_CLEAR(SLOT(self, DEVICE));
    if (type == Array && spare_array_count < SPARE_ARRAYS && SLOT(self, WEAKLIST) == NULL) {
        spare_arrays[spare_array_count++] = self;
    }
    else {
        type->tp_free(self);
    }
    Py_DECREF(type); /* an instance of a heap type holds its type */
}

static void
untrack_arrays(PyTypeObject *type)
{
    if (!(type->tp_flags & Py_TPFLAGS_HAVE_GC)) {
        return; /* done already */
    }
    if (type->tp_dictoffset != 0 || type->tp_itemsize != 0 || type->tp_weaklistoffset <= 0 ||
        type->tp_basicsize != (Py_ssize_t)(sizeof(PyObject) + 5 * sizeof(PyObject *)) ||
        type->tp_base != &PyBaseObject_Type) {
        return; /* not the layout of four slots and __weakref__: left as Python made it */
    }
    WEAKLIST = type->tp_weaklistoffset;
    type->tp_flags &= ~Py_TPFLAGS_HAVE_GC;
    type->tp_alloc = PyType_GenericAlloc; /* (which allocates by that flag) */
    type->tp_free = PyObject_Free;
    type->tp_dealloc = array_dealloc;
    type->tp_traverse = NULL;
    type->tp_clear = NULL;
    PyType_Modified(type);
}
#else
static void
untrack_arrays(PyTypeObject *type)
{
}
#endif

/* The Array class's __getitem__ fast path, for its mapping slot. */
static PyObject *getitem_path = NULL;

/* x[key] straight from CPython's subscript slot: the __getitem__ fast path, called without
 * CPython's generic slot function looking __getitem__ up by name each time (a sixth of x[i]). */
static PyObject *
array_subscript(PyObject *self, PyObject *key)
{
    PyObject *result = Array != NULL && is_array(self) ? getitem(self, key) : FALL_BACK;
    if (result != FALL_BACK) {
        return result;
    }
    PyObject *args[2] = {self, key};
    return call_fallback((FastPath *)getitem_path, args, 2, NULL);
}

/* Point the class's subscript slot at array_subscript when its __getitem__ is the GETITEM fast
 * path.  Setting Array.__getitem__ later puts CPython's own slot function back, as for any class. */
static void
subscript_by_fast_path(PyTypeObject *type)
{
    PyObject *path = PyDict_GetItemString(type->tp_dict, "__getitem__");
    if (path == NULL || Py_TYPE(path) != &FastPathType || ((FastPath *)path)->kind != GETITEM ||
        type->tp_as_mapping == NULL) {
        return;
    }
    Py_INCREF(path);
    Py_XSETREF(getitem_path, path);
    type->tp_as_mapping->mp_subscript = array_subscript;
    PyType_Modified(type);
}

/* The Array class's __setitem__ and __float__ fast paths, for its mapping and number slots. */
static PyObject *setitem_path = NULL, *float_path = NULL;
static objobjargproc class_ass_subscript = NULL; /* CPython's slot function, for del x[key] */

/* x[key] = value straight from CPython's slot, as array_subscript; del x[key] goes to CPython's
 * own slot function (which looks __delitem__ up, and finds none). */
static int
array_ass_subscript(PyObject *self, PyObject *key, PyObject *value)
{
    if (value == NULL) {
        return class_ass_subscript(self, key, value);
    }
    PyObject *result = Array != NULL && is_array(self) ? setitem((FastPath *)setitem_path, self, key, value) : FALL_BACK;
    if (result == FALL_BACK) {
        PyObject *args[3] = {self, key, value};
        result = call_fallback((FastPath *)setitem_path, args, 3, NULL);
    }
    if (result == NULL) {
        return -1;
    }
    Py_DECREF(result);
    return 0;
}

/* float(x) straight from CPython's slot, as array_subscript. */
static PyObject *
array_float(PyObject *self)
{
    PyObject *result = Array != NULL && is_array(self) ? to_float(self) : FALL_BACK;
    if (result != FALL_BACK) {
        return result;
    }
    return call_fallback((FastPath *)float_path, &self, 1, NULL);
}

/* The class's fast path of this kind under name (a borrowed reference), or NULL. */
static PyObject *
class_fast_path(PyTypeObject *type, const char *name, int kind)
{
    PyObject *path = PyDict_GetItemString(type->tp_dict, name);
    if (path == NULL || Py_TYPE(path) != &FastPathType || ((FastPath *)path)->kind != kind) {
        return NULL;
    }
    return path;
}

/* Point the class's item assignment and float slots at the functions above when its
 * __setitem__ and __float__ are those fast paths (as subscript_by_fast_path). */
static void
slots_by_fast_paths(PyTypeObject *type)
{
    PyObject *path = class_fast_path(type, "__setitem__", SETITEM);
    if (path != NULL && type->tp_as_mapping != NULL && type->tp_as_mapping->mp_ass_subscript != NULL &&
        type->tp_as_mapping->mp_ass_subscript != array_ass_subscript) {
        Py_INCREF(path);
        Py_XSETREF(setitem_path, path);
        class_ass_subscript = type->tp_as_mapping->mp_ass_subscript;
        type->tp_as_mapping->mp_ass_subscript = array_ass_subscript;
    }
    path = class_fast_path(type, "__float__", FLOAT);
    if (path != NULL && type->tp_as_number != NULL && type->tp_as_number->nb_float != NULL) {
        Py_INCREF(path);
        Py_XSETREF(float_path, path);
        type->tp_as_number->nb_float = array_float;
    }
    PyType_Modified(type);
}

/* The Array class's attributes read by getters of the type: x.dtype, x.device, x.ndim, x.size,
 * x.shape, x.T and x.mT (a property's call, and its function's frame, cost more than the answer:
 * half of x.ndim).  Each getter does the plain case and leaves the rest to the class's property
 * (lazy storage, a subclass, a refusal); setting or deleting the attribute goes to the property,
 * which refuses it in its own words. */
enum { ATTR_DTYPE, ATTR_DEVICE, ATTR_NDIM, ATTR_SIZE, ATTR_SHAPE, ATTR_T, ATTR_MT, ATTR_COUNT };
static const char *const attribute_names[ATTR_COUNT] = {"dtype", "device", "ndim", "size", "shape", "T", "mT"};
static PyObject *attribute_properties[ATTR_COUNT]; /* each getter's property, NULL: left a property */
static PyObject *attribute_fast_paths[ATTR_COUNT]; /* its getter where that is a FastPath (shape, T, mT) */
static PyGetSetDef attribute_getters[ATTR_COUNT];

static PyObject *
array_attribute(PyObject *self, void *closure)
{
    int which = (int)(intptr_t)closure;
    PyObject *property = attribute_properties[which];
    if (is_array(self)) {
        PyObject *data = SLOT(self, DATA);
        int numpy_data = Py_TYPE(data) == NDArray;
        switch (which) {
        case ATTR_DTYPE:
            return Py_NewRef(SLOT(self, DTYPE));
        case ATTR_DEVICE:
            return Py_NewRef(SLOT(self, DEVICE));
        case ATTR_NDIM:
            if (numpy_data) {
                return PyLong_FromLong(PyArray_NDIM((PyArrayObject *)data));
            }
            break;
        case ATTR_SIZE:
            if (numpy_data) {
                return PyLong_FromSsize_t(PyArray_SIZE((PyArrayObject *)data));
            }
            break;
        default: { /* shape, T, mT: the property's getter is their fast path */
            FastPath *path = (FastPath *)attribute_fast_paths[which];
            PyObject *result = path == NULL               ? FALL_BACK
                               : path->kind == SHAPE       ? shape_of(self)
                               : path->kind == MATRIX_VIEW ? matrix_view(path, self)
                                                           : FALL_BACK;
            if (result != FALL_BACK) {
                return result;
            }
        }
        }
    }
    return Py_TYPE(property)->tp_descr_get(property, self, (PyObject *)Py_TYPE(self));
}

static int
set_array_attribute(PyObject *self, PyObject *value, void *closure)
{
    PyObject *property = attribute_properties[(intptr_t)closure];
    return Py_TYPE(property)->tp_descr_set(property, self, value);
}

/* Put a getter in place of each of the class's properties named above (a property of Python's own). */
static int
attributes_by_getters(PyTypeObject *type)
{
    for (int i = 0; i < ATTR_COUNT; i++) {
        PyObject *property = PyDict_GetItemString(type->tp_dict, attribute_names[i]);
        if (property == NULL || Py_TYPE(property) != &PyProperty_Type) {
            continue; /* none, not a property (done already), or a property of a subclass of property */
        }
        PyObject *doc = PyObject_GetAttrString(property, "__doc__");
        PyObject *fget = doc == NULL ? NULL : PyObject_GetAttrString(property, "fget");
        if (fget == NULL) {
            Py_XDECREF(doc);
            return -1;
        }
        Py_XSETREF(attribute_fast_paths[i], Py_TYPE(fget) == &FastPathType ? fget : NULL);
        if (attribute_fast_paths[i] == NULL) {
            Py_DECREF(fget);
        }
        Py_INCREF(property);
        Py_XSETREF(attribute_properties[i], property);
        /* the docstring's UTF-8 lives as long as its str, which the property (held above) holds */
        const char *text = PyUnicode_Check(doc) ? PyUnicode_AsUTF8(doc) : NULL;
        Py_DECREF(doc);
        attribute_getters[i] = (PyGetSetDef){(char *)attribute_names[i], array_attribute, set_array_attribute,
                                             (char *)text, (void *)(intptr_t)i};
        PyObject *getter = PyDescr_NewGetSet(type, &attribute_getters[i]);
        if (getter == NULL || PyObject_SetAttrString((PyObject *)type, attribute_names[i], getter) < 0) {
            Py_XDECREF(getter);
            return -1;
        }
        Py_DECREF(getter);
    }
    return 0;
}

static PyObject *
register_array(PyObject *module, PyObject *args)
{
    PyObject *cls, *ndarray, *asarray_func, *bool_dt, *array_f, *cpu;
    if (!PyArg_ParseTuple(args, "O!O!OOOO:register_array", &PyType_Type, &cls, &PyType_Type, &ndarray, &asarray_func,
                          &bool_dt, &array_f, &cpu)) {
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    Py_ssize_t data, dtype, runtime, device;
    if (slot_offset(type, "_data", &data) < 0 || slot_offset(type, "_dtype", &dtype) < 0 ||
        slot_offset(type, "_runtime", &runtime) < 0 || slot_offset(type, "_device", &device) < 0) {
        return NULL;
    }
    DATA = data;
    DTYPE = dtype;
    RUNTIME = runtime;
    DEVICE = device;
    untrack_arrays(type);
    if (attributes_by_getters(type) < 0) {
        return NULL;
    }
    subscript_by_fast_path(type);
    slots_by_fast_paths(type);
    Py_INCREF(cls);
    Py_XSETREF(Array, type);
    Py_INCREF(ndarray);
    Py_XSETREF(NDArray, (PyTypeObject *)ndarray);
    /* each global set alike (register_scalar_converter below too): written out, one line a global */
    Py_INCREF(asarray_func);
    Py_XSETREF(asarray, asarray_func);
    Py_INCREF(bool_dt);
    Py_XSETREF(bool_dtype, bool_dt);
    Py_INCREF(array_f);
    Py_XSETREF(array_func, array_f);
    Py_INCREF(cpu);
    Py_XSETREF(cpu_device, cpu);
    Py_RETURN_NONE;
}

static PyObject *
register_scalar_converter(PyObject *module, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "register_scalar_converter: expected a class");
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)cls;
    Py_ssize_t make, lo, hi, to_float;
    if (slot_offset(type, "make", &make) < 0 || slot_offset(type, "lo", &lo) < 0 || slot_offset(type, "hi", &hi) < 0 ||
        slot_offset(type, "to_float", &to_float) < 0) {
        return NULL;
    }
    CONV_MAKE = make;
    CONV_LO = lo;
    CONV_HI = hi;
    CONV_TO_FLOAT = to_float;
    Py_INCREF(cls);
    Py_XSETREF(ScalarConverter, type);
    Py_RETURN_NONE;
}

static PyObject *
register_quiet_context(PyObject *module, PyObject *function)
{
    if (!PyCallable_Check(function)) {
        PyErr_SetString(PyExc_TypeError, "register_quiet_context: expected a function");
        return NULL;
    }
    Py_INCREF(function);
    Py_XSETREF(quiet_context, function);
    Py_RETURN_NONE;
}

/* -- the facts' tests: blocks of a plain array's elements, in loops the compiler vectorizes -----------
 * Each test reads n elements (native, aligned) and answers 1 if one of them fails the fact: bit
 * operations or one comparison per element, OR-ed into accumulators of the element's width, 128
 * bytes' worth side by side (independent vector registers: no chain of ORs holds the loop back),
 * with no early out inside a block (which would keep the loop scalar); the callers go block by
 * block and stop at the first failing block.  The special-value kernels' guards (Guarded, below)
 * and clip's crossed bounds (clip_arrays) test with these. */
typedef int (*block_test)(const char *x1, const char *x2, npy_intp n);

/* acc[0] |= EXPR(i) for every i < n, through acc's LANES(T) accumulators of type T where n fills
 * them at least once (fewer elements, as a 10-element operator's: acc[0] alone, without setting
 * and folding the others); the caller sets acc[0] to 0 before the first */
#define LANES(T) (128 / (int)sizeof(T))
#define OR_EACH(T, acc, EXPR)                                                                                         \
    do {                                                                                                               \
        npy_intp i_ = 0;                                                                                               \
        if (n >= LANES(T)) {                                                                                           \
            for (int j_ = 1; j_ < LANES(T); j_++) {                                                                    \
                acc[j_] = 0;                                                                                           \
            }                                                                                                          \
            for (; i_ + LANES(T) <= n; i_ += LANES(T)) {                                                               \
                for (int j_ = 0; j_ < LANES(T); j_++) {                                                                \
                    npy_intp i = i_ + j_;                                                                              \
                    acc[j_] |= (T)(EXPR);                                                                              \
                }                                                                                                      \
            }                                                                                                          \
            for (int j_ = 1; j_ < LANES(T); j_++) {                                                                    \
                acc[0] |= acc[j_];                                                                                     \
            }                                                                                                          \
        }                                                                                                              \
        for (npy_intp i = i_; i < n; i++) {                                                                            \
            acc[0] |= (T)(EXPR);                                                                                       \
        }                                                                                                              \
    } while (0)

/* x1 (where given) or x2 holds NaN or an infinity: exponent bits all ones, which + 1 carry into the sign bit */
#define NONFINITE_TEST(NAME, ATTR, U, MASK, ONE, SIGN)                                                                \
    ATTR static int NAME(const char *x1, const char *x2, npy_intp n)                                                  \
    {                                                                                                                  \
        const U *a = (const U *)x1, *b = (const U *)x2;                                                                \
        U acc[LANES(U)];                                                                                               \
        acc[0] = 0;                                                                                                    \
        if (a != NULL) {                                                                                               \
            OR_EACH(U, acc, (a[i] & (MASK)) + (ONE));                                                                  \
        }                                                                                                              \
        OR_EACH(U, acc, (b[i] & (MASK)) + (ONE));                                                                      \
        return (int)(acc[0] >> (SIGN));                                                                                \
    }

/* x2 has a negative element (signed kinds): the OR of all is negative */
#define NEGATIVE_TEST(NAME, ATTR, T)                                                                                  \
    ATTR static int NAME(const char *x1, const char *x2, npy_intp n)                                                  \
    {                                                                                                                  \
        const T *b = (const T *)x2;                                                                                    \
        T acc[LANES(T)];                                                                                               \
        acc[0] = 0;                                                                                                    \
        OR_EACH(T, acc, b[i]);                                                                                         \
        return acc[0] < 0;                                                                                             \
    }

/* x2 has a zero element */
#define ZERO_TEST(NAME, ATTR, T)                                                                                      \
    ATTR static int NAME(const char *x1, const char *x2, npy_intp n)                                                  \
    {                                                                                                                  \
        const T *b = (const T *)x2;                                                                                    \
        T acc[LANES(T)];                                                                                               \
        acc[0] = 0;                                                                                                    \
        OR_EACH(T, acc, b[i] == 0);                                                                                    \
        return acc[0] != 0;                                                                                            \
    }

/* an element of x1 (clip's min) exceeds x2's (max) at the same place; a NaN never does.  U: an
 * unsigned type of T's width.  (A float comparison with NaN may raise the invalid flag: run_blocks'
 * caller then redoes the call its own way, as it would for a loop's flag.) */
#define CROSSED_TEST(NAME, ATTR, T, U)                                                                                \
    ATTR static int NAME(const char *x1, const char *x2, npy_intp n)                                                  \
    {                                                                                                                  \
        const T *lo = (const T *)x1, *hi = (const T *)x2;                                                              \
        U acc[LANES(U)];                                                                                               \
        acc[0] = 0;                                                                                                    \
        OR_EACH(U, acc, lo[i] > hi[i]);                                                                                \
        return acc[0] != 0;                                                                                            \
    }

/* The tests of one instruction set: by element size (1, 2, 4, 8 bytes) where several */
typedef struct {
    block_test nonfinite_f64, nonfinite_f32, crossed_f64, crossed_f32;
    block_test negative[4], zero[4], crossed_signed[4], crossed_unsigned[4];
} Tests;

#define DEFINE_TESTS(S, ATTR)                                                                                          \
    NONFINITE_TEST(nonfinite_f64_##S, ATTR, npy_uint64, 0x7ff0000000000000ULL, 0x0010000000000000ULL, 63)             \
    NONFINITE_TEST(nonfinite_f32_##S, ATTR, npy_uint32, 0x7f800000U, 0x00800000U, 31)                                  \
    NEGATIVE_TEST(negative_i8_##S, ATTR, npy_int8)                                                                     \
    NEGATIVE_TEST(negative_i16_##S, ATTR, npy_int16)                                                                   \
    NEGATIVE_TEST(negative_i32_##S, ATTR, npy_int32)                                                                   \
    NEGATIVE_TEST(negative_i64_##S, ATTR, npy_int64)                                                                   \
    ZERO_TEST(zero_u8_##S, ATTR, npy_uint8)                                                                            \
    ZERO_TEST(zero_u16_##S, ATTR, npy_uint16)                                                                          \
    ZERO_TEST(zero_u32_##S, ATTR, npy_uint32)                                                                          \
    ZERO_TEST(zero_u64_##S, ATTR, npy_uint64)                                                                          \
    CROSSED_TEST(crossed_i8_##S, ATTR, npy_int8, npy_uint8)                                                            \
    CROSSED_TEST(crossed_i16_##S, ATTR, npy_int16, npy_uint16)                                                         \
    CROSSED_TEST(crossed_i32_##S, ATTR, npy_int32, npy_uint32)                                                         \
    CROSSED_TEST(crossed_i64_##S, ATTR, npy_int64, npy_uint64)                                                         \
    CROSSED_TEST(crossed_u8_##S, ATTR, npy_uint8, npy_uint8)                                                           \
    CROSSED_TEST(crossed_u16_##S, ATTR, npy_uint16, npy_uint16)                                                        \
    CROSSED_TEST(crossed_u32_##S, ATTR, npy_uint32, npy_uint32)                                                        \
    CROSSED_TEST(crossed_u64_##S, ATTR, npy_uint64, npy_uint64)                                                        \
    CROSSED_TEST(crossed_f32_##S, ATTR, npy_float32, npy_uint32)                                                       \
    CROSSED_TEST(crossed_f64_##S, ATTR, npy_float64, npy_uint64)                                                       \
    static const Tests tests_##S = {                                                                                   \
        nonfinite_f64_##S,                                                                                             \
        nonfinite_f32_##S,                                                                                             \
        crossed_f64_##S,                                                                                               \
        crossed_f32_##S,                                                                                               \
        {negative_i8_##S, negative_i16_##S, negative_i32_##S, negative_i64_##S},                                       \
        {zero_u8_##S, zero_u16_##S, zero_u32_##S, zero_u64_##S},                                                       \
        {crossed_i8_##S, crossed_i16_##S, crossed_i32_##S, crossed_i64_##S},                                           \
        {crossed_u8_##S, crossed_u16_##S, crossed_u32_##S, crossed_u64_##S},                                           \
    };

DEFINE_TESTS(baseline, )
/* x86: the same tests in AVX2's 32-byte registers too, where the CPU has it (chosen once, at import:
 * tests = &tests_avx2); at 10**6 elements SSE2's cost a tenth of a shift's time, AVX2's half that */
#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#define HAVE_TESTS_AVX2 1
DEFINE_TESTS(avx2, __attribute__((target("avx2"))))
#endif
static const Tests *tests = &tests_baseline;

/* The test for the elements of an array of this size: its index in the tables, a power of two from 1 to 8 */
static int
size_index(int itemsize)
{
    switch (itemsize) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    default: return -1;
    }
}

/* a's number of elements (PyArray_SIZE, without its call into NumPy for a vector) */
static inline npy_intp
element_count(PyArrayObject *a)
{
    return PyArray_NDIM(a) == 1 ? PyArray_DIM(a, 0) : PyArray_SIZE(a);
}

/* Whether obj is an exact ndarray NumPy's loops read as one run: C-contiguous, aligned, native byte order */
static int
plain_array(PyObject *obj)
{
    if (!PyArray_CheckExact(obj)) {
        return 0;
    }
    PyArrayObject *a = (PyArrayObject *)obj;
    return PyArray_IS_C_CONTIGUOUS(a) && PyArray_ISALIGNED(a) && PyArray_ISNOTSWAPPED(a);
}

/* Whether obj is a plain array of like's type and shape */
static int
plain_like(PyObject *obj, PyArrayObject *like)
{
    return plain_array(obj) && PyArray_TYPE((PyArrayObject *)obj) == PyArray_TYPE(like) &&
           PyArray_SAMESHAPE((PyArrayObject *)obj, like);
}

/* A test over a whole array, block by block with an early out: 1 if some element fails */
#define TEST_BLOCK_BYTES 2048
static int
fails_anywhere(block_test test, const char *x1, const char *x2, npy_intp n, npy_intp itemsize)
{
    if (n * itemsize <= TEST_BLOCK_BYTES) { /* one block: no division for its length */
        return test(x1, x2, n);
    }
    npy_intp block = TEST_BLOCK_BYTES / itemsize;
    for (npy_intp start = 0; start < n; start += block) {
        npy_intp offset = start * itemsize;
        if (test(x1 == NULL ? NULL : x1 + offset, x2 + offset, n - start < block ? n - start : block)) {
            return 1;
        }
    }
    return 0;
}

/* all_finite(a): whether no element of a float64 or float32 ndarray (native, aligned, C-contiguous) is
 * NaN or infinite, by its exponent bits (no floating-point operation: no flag, no warning); NotImplemented
 * for any other object (the Python caller asks NumPy).  The special-value kernels' guard: NumPy's
 * isfinite and count_nonzero cost two calls where the answer takes a few nanoseconds. */
static PyObject *
all_finite(PyObject *module, PyObject *arg)
{
    if (!plain_array(arg)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyArrayObject *a = (PyArrayObject *)arg;
    int type = PyArray_TYPE(a);
    if (!(type == NPY_DOUBLE || type == NPY_FLOAT)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    block_test test = type == NPY_DOUBLE ? tests->nonfinite_f64 : tests->nonfinite_f32;
    return PyBool_FromLong(!fails_anywhere(test, NULL, PyArray_DATA(a), PyArray_SIZE(a), PyArray_ITEMSIZE(a)));
}

/* -- blockwise runs: a test and NumPy's own loops, one cache-sized block at a time ------------------
 * At 10**6 elements a test over the whole of an operand before the ufunc reads it from memory a
 * second time (a third of a shift's time).  Block by block, the loop reads what the test has just
 * brought into the cache: the ufunc's inner loop for the block's elements (the very function
 * NumPy's call runs, so the same values bit for bit) right after the block passed the test. */
#define GUARD_BLOCK_BYTES 8192 /* a guard's operand blocks stay in the L1 cache, tested before the loop */
#define CLIP_BLOCK_BYTES 65536 /* clip's four in L2, fewer calls of NumPy's loops (each reads the FP flags) */
#define FUSE_MIN_BYTES 131072  /* below: the test over the whole operand, then the ufunc's call */
enum { BLOCKS_DONE, BLOCKS_FAILED, BLOCKS_RAISED };

/* The inner loop NumPy's ufunc (two inputs, one output) runs for two arrays of type_num, where its
 * output is of that type too, or NULL: direct_loop's answer (NumPy's own resolution), so that the
 * blockwise runs and the small calls run the one loop NumPy's call would. */
static PyUFuncGenericFunction
same_type_loop(PyObject *ufunc, int type_num, void **data)
{
#ifdef Py_GIL_DISABLED
    return NULL; /* (direct_loop's table is filled under the GIL's protection: NumPy's calls) */
#else
    if (numpy_ufunc == NULL || Py_TYPE(ufunc) != (PyTypeObject *)numpy_ufunc || ((PyUFuncObject *)ufunc)->nin != 2 ||
        ((PyUFuncObject *)ufunc)->core_enabled) {
        return NULL;
    }
    DirectLoop *entry = direct_loop(ufunc, type_num, 0);
    if (entry == NULL || entry->loop == NULL || entry->out_descr->type_num != type_num) {
        return NULL;
    }
    *data = entry->data;
    return entry->loop;
#endif
}

/* out = first(a, b), then (second given) out = second(out, c), block by block, each block tested by
 * test(t1, t2) (test NULL: no test) before its loops, or with test_after after them.  Before suits
 * a loop that waits on memory (a shift): the test brings the block into the cache for it.  After
 * suits the slow ones (floor_divide) and clip's two loops over its block of 64 KiB (measured): they
 * fetch their operands meanwhile, and the test then reads them from the cache.  BLOCKS_FAILED where a block
 * fails (out is then partly written, and a loop may have set an error for that block, after: the
 * caller clears it), BLOCKS_RAISED where a floating-point flag went up (NumPy would warn or raise:
 * the caller redoes the call its own way), else BLOCKS_DONE.  Without the GIL. */
static int
run_blocks(npy_intp n, npy_intp itemsize, npy_intp block_bytes, block_test test, int test_after, const char *t1, const char *t2,
           PyUFuncGenericFunction first, void *first_data, char *a, char *b, PyUFuncGenericFunction second,
           void *second_data, char *c, char *out)
{
    npy_intp block = block_bytes / itemsize, steps[3] = {itemsize, itemsize, itemsize};
    feclearexcept(FE_ALL_EXCEPT); /* (as NumPy's call does before its loop) */
    for (npy_intp start = 0; start < n; start += block) {
        npy_intp len = n - start < block ? n - start : block, offset = start * itemsize;
        if (test != NULL && !test_after && test(t1 == NULL ? NULL : t1 + offset, t2 + offset, len)) {
            return BLOCKS_FAILED;
        }
        char *first_args[3] = {a + offset, b + offset, out + offset};
        first(first_args, &len, steps, first_data);
        if (second != NULL) {
            char *second_args[3] = {out + offset, c + offset, out + offset};
            second(second_args, &len, steps, second_data);
        }
        if (test != NULL && test_after && test(t1 == NULL ? NULL : t1 + offset, t2 + offset, len)) {
            return BLOCKS_FAILED;
        }
    }
    /* the flags are sticky: one look at the end (reading them waits for every operation in flight) */
    return fetestexcept(FP_FLAGS) ? BLOCKS_RAISED : BLOCKS_DONE;
}

/* run_blocks' answer, with the error a loop may have set (a negative integer exponent's in power):
 * cleared where the block failed its test, and BLOCKS_RAISED where the run went to the end (NumPy's
 * own call then raises it).  With the GIL. */
static int
blocks_answer(int status)
{
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return status == BLOCKS_FAILED ? BLOCKS_FAILED : BLOCKS_RAISED;
    }
    return status;
}

/* A new C-contiguous array of like's shape and type (NumPy's result for two operands of that
 * shape and type), or NULL with an error */
static PyArrayObject *
new_like(PyArrayObject *like)
{
    PyArray_Descr *descr = PyArray_DescrFromType(PyArray_TYPE(like));
    if (descr == NULL) {
        return NULL;
    }
    return (PyArrayObject *)PyArray_NewFromDescr(&PyArray_Type, descr, PyArray_NDIM(like), PyArray_DIMS(like),
                                                 NULL, NULL, 0, NULL);
}

/* clip_arrays(maximum, minimum, x, lo, hi, check): minimum(maximum(x, lo), hi) by NumPy's own loops,
 * block by block (one pass over the data where two ufunc calls make two), for x, lo and hi plain
 * arrays of one shape and one integer or float32/float64 type of 128 KiB or more; with check true, a
 * block is first tested for crossed bounds (lo > hi at one place).  The new array; None where some
 * bounds cross; NotImplemented for any other call (the caller's own code: also where a loop raised
 * a floating-point flag, so that the warning is NumPy's). */
static PyObject *
clip_arrays(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6 || !plain_array(args[2])) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyArrayObject *x = (PyArrayObject *)args[2];
    int check = PyObject_IsTrue(args[5]);
    if (check < 0) {
        return NULL;
    }
    char kind = PyArray_DESCR(x)->kind;
    int size = size_index((int)PyArray_ITEMSIZE(x)), type_num = PyArray_TYPE(x);
    block_test test = NULL;
    if (kind == 'i' && size >= 0) {
        test = tests->crossed_signed[size];
    }
    else if (kind == 'u' && size >= 0) {
        test = tests->crossed_unsigned[size];
    }
    else if (type_num == NPY_DOUBLE || type_num == NPY_FLOAT) {
        test = type_num == NPY_DOUBLE ? tests->crossed_f64 : tests->crossed_f32;
    }
    void *max_data, *min_data;
    PyUFuncGenericFunction max_loop, min_loop;
    if (test == NULL || PyArray_NBYTES(x) < FUSE_MIN_BYTES || !plain_like(args[3], x) || !plain_like(args[4], x) ||
        (max_loop = same_type_loop(args[0], type_num, &max_data)) == NULL ||
        (min_loop = same_type_loop(args[1], type_num, &min_data)) == NULL) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    PyArrayObject *out = new_like(x);
    if (out == NULL) {
        return NULL;
    }
    char *lo = PyArray_DATA((PyArrayObject *)args[3]), *hi = PyArray_DATA((PyArrayObject *)args[4]);
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = run_blocks(PyArray_SIZE(x), PyArray_ITEMSIZE(x), CLIP_BLOCK_BYTES, check ? test : NULL, 1, lo, hi, max_loop,
                        max_data, PyArray_DATA(x), lo, min_loop, min_data, hi, PyArray_DATA(out));
    Py_END_ALLOW_THREADS
    status = blocks_answer(status);
    if (status == BLOCKS_DONE) {
        return (PyObject *)out;
    }
    Py_DECREF(out);
    if (status == BLOCKS_FAILED) {
        Py_RETURN_NONE;
    }
    Py_RETURN_NOTIMPLEMENTED;
}

/* A special-value kernel (_special_values.py) that is its ufunc's call for the operands a
 * fact about them lets through, and its own Python code for the rest: Guarded(ufunc, kernel,
 * fact) called with (x1, x2) calls ufunc(x1, x2) where the fact holds and kernel(x1, x2)
 * otherwise (or for any call it cannot test: another argument count, keywords, an operand that
 * is no plain C-contiguous ndarray).  The Python code declares which fact makes the kernel its
 * ufunc's (the rule, and its words where it refuses, stay there); this only tests the fact.
 * Two operands of one shape and type of 128 KiB or more it tests block by block, running the
 * ufunc's own loop on each block that passed (run_blocks). */
enum {
    NONZERO_SECOND,     /* x2, an integer array, has no zero (integer division: no warning to quiet) */
    NONNEGATIVE_SECOND, /* x2, an integer array, has no negative element (shift amounts, exponents) */
    FINITE_OPERANDS,    /* x1 and x2, float32 or float64 arrays, hold no NaN or infinity */
    SECOND_NOT_0D,      /* x2 is an array of one dimension or more (a 0-d exponent may be 0.5) */
    FACT_COUNT
};
static const char *const fact_names[FACT_COUNT] = {"nonzero_second", "nonnegative_second", "finite_operands",
                                                   "second_not_0d"};

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *ufunc;
    PyObject *kernel;
    int fact;
} Guarded;

/* The test of the fact for operands of a's type, or NULL (none is needed, or none can read it);
 * *both: whether it reads x1 too */
static block_test
fact_test(int fact, PyArrayObject *a, int *both)
{
    char kind = PyArray_DESCR(a)->kind;
    int size = size_index((int)PyArray_ITEMSIZE(a)), type_num = PyArray_TYPE(a);
    *both = 0;
    switch (fact) {
    case NONZERO_SECOND: return (kind == 'i' || kind == 'u') && size >= 0 ? tests->zero[size] : NULL;
    case NONNEGATIVE_SECOND: return kind == 'i' && size >= 0 ? tests->negative[size] : NULL;
    case FINITE_OPERANDS:
        *both = 1;
        return type_num == NPY_DOUBLE ? tests->nonfinite_f64 : type_num == NPY_FLOAT ? tests->nonfinite_f32 : NULL;
    default: return NULL;
    }
}

/* all_finite's answer as 1 or 0 (0 too for an array it cannot read) */
static int
operand_finite(PyObject *obj)
{
    PyObject *answer = all_finite(NULL, obj);
    int is_true = answer == Py_True;
    Py_XDECREF(answer);
    return is_true;
}

/* Whether the fact holds of (x1, x2): 1 or 0 (0 too for operands it cannot read) */
static int
fact_holds(int fact, PyObject *x1, PyObject *x2)
{
    if (fact == SECOND_NOT_0D) {
        return PyArray_CheckExact(x2) && PyArray_NDIM((PyArrayObject *)x2) > 0;
    }
    if (fact == FINITE_OPERANDS) {
        return operand_finite(x1) && operand_finite(x2);
    }
    if (!plain_array(x2)) {
        return 0;
    }
    PyArrayObject *b = (PyArrayObject *)x2;
    if (fact == NONNEGATIVE_SECOND && PyArray_DESCR(b)->kind == 'u') {
        return 1; /* (never negative) */
    }
    int both;
    block_test test = fact_test(fact, b, &both);
    return test != NULL && !fails_anywhere(test, NULL, PyArray_DATA(b), element_count(b), PyArray_ITEMSIZE(b));
}

/* ufunc(x1, x2) block by block (run_blocks), or NULL with an error, or Py_None (not a reference)
 * where it does not run to the end: *holds then 0 where the fact fails, 1 where it holds but a
 * loop raised a floating-point flag, -1 where it cannot run (the caller tests as it would) */
static PyObject *
guarded_blocks(Guarded *self, PyObject *x1, PyObject *x2, int *holds)
{
    *holds = -1;
    if (!PyArray_CheckExact(x1) || element_count((PyArrayObject *)x1) * PyArray_ITEMSIZE((PyArrayObject *)x1) < FUSE_MIN_BYTES ||
        !plain_array(x1) ||
        !plain_like(x2, (PyArrayObject *)x1)) { /* (the size first: a small call pays one test more) */
        return Py_None;
    }
    PyArrayObject *a = (PyArrayObject *)x1, *b = (PyArrayObject *)x2;
    int both;
    void *data;
    block_test test = fact_test(self->fact, a, &both);
    PyUFuncGenericFunction loop;
    if (test == NULL || (loop = same_type_loop(self->ufunc, PyArray_TYPE(a), &data)) == NULL) {
        return Py_None;
    }
    PyArrayObject *out = new_like(a);
    if (out == NULL) {
        return NULL;
    }
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = run_blocks(PyArray_SIZE(a), PyArray_ITEMSIZE(a), GUARD_BLOCK_BYTES, test, self->fact != NONNEGATIVE_SECOND,
                        both ? PyArray_DATA(a) : NULL, PyArray_DATA(b), loop, data, PyArray_DATA(a), PyArray_DATA(b), NULL, NULL, NULL, PyArray_DATA(out));
    Py_END_ALLOW_THREADS
    status = blocks_answer(status);
    if (status == BLOCKS_DONE) {
        return (PyObject *)out;
    }
    Py_DECREF(out);
    *holds = status == BLOCKS_RAISED;
    return Py_None;
}

static PyObject *
guarded_vectorcall(Guarded *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    int holds = 0;
    if (PyVectorcall_NARGS(nargsf) == 2 && kwnames == NULL) {
        PyObject *out = guarded_blocks(self, args[0], args[1], &holds);
        if (out != Py_None) {
            return out;
        }
        if (holds < 0) {
            holds = fact_holds(self->fact, args[0], args[1]);
        }
        if (holds) {
            PyObject *direct = direct_call(self->ufunc, args[0], args[1]);
            if (direct != FALL_BACK) {
                return direct;
            }
        }
    }
    return PyObject_Vectorcall(holds ? self->ufunc : self->kernel, args, nargsf, kwnames);
}

static PyObject *
guarded_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *ufunc, *kernel;
    const char *fact;
    if (!PyArg_ParseTuple(args, "OOs:Guarded", &ufunc, &kernel, &fact)) {
        return NULL;
    }
    int which = 0;
    while (which < FACT_COUNT && strcmp(fact, fact_names[which]) != 0) {
        which++;
    }
    if (which == FACT_COUNT || !PyCallable_Check(ufunc) || !PyCallable_Check(kernel)) {
        PyErr_Format(PyExc_ValueError, "Guarded(ufunc, kernel, fact): two callables and one of nonzero_second, "
                                       "nonnegative_second, finite_operands, second_not_0d (got %R)", args);
        return NULL;
    }
    Guarded *self = (Guarded *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = (vectorcallfunc)guarded_vectorcall;
    self->ufunc = Py_NewRef(ufunc);
    self->kernel = Py_NewRef(kernel);
    self->fact = which;
    return (PyObject *)self;
}

static int
guarded_traverse(Guarded *self, visitproc visit, void *arg)
{
    Py_VISIT(self->ufunc);
    Py_VISIT(self->kernel);
    return 0;
}

static int
guarded_clear(Guarded *self)
{
    Py_CLEAR(self->ufunc);
    Py_CLEAR(self->kernel);
    return 0;
}

static void
guarded_dealloc(Guarded *self)
{
    PyObject_GC_UnTrack(self);
    guarded_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
guarded_repr(Guarded *self)
{
    return PyUnicode_FromFormat("<Guarded %R where %s, else %R>", self->ufunc, fact_names[self->fact], self->kernel);
}

static PyMemberDef guarded_members[] = {
    {"__wrapped__", T_OBJECT_EX, offsetof(Guarded, kernel), READONLY, "the kernel, as Python code (tests compare)"},
    {NULL},
};

static PyTypeObject GuardedType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "array_api_promo._fastpath.Guarded",
    .tp_basicsize = sizeof(Guarded),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "Guarded(ufunc, kernel, fact): ufunc(x1, x2) where the fact about the operands holds, else kernel(x1, x2).",
    .tp_new = guarded_new,
    .tp_traverse = (traverseproc)guarded_traverse,
    .tp_clear = (inquiry)guarded_clear,
    .tp_dealloc = (destructor)guarded_dealloc,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Guarded, vectorcall),
    .tp_members = guarded_members, /* (none named ufunc: the in-place path would take it for a ufunc's) */
    .tp_repr = (reprfunc)guarded_repr,
};

/* Quiet(function): a kernel that calls function(*args) in this thread's quiet NumPy context
 * (_runtime.quiet_context(): overflow and invalid pass silently), as _runtime.quietly(function,
 * *args) does, without its Python frames and their lookups (a third of a 10-element vecdot's
 * time).  The Python code decides which kernels run quietly; this only enters the context. */
typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    PyObject *function;
} Quiet;

static PyObject *
quiet_vectorcall(Quiet *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    if (quiet_context == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Quiet: register_quiet_context() has not been called");
        return NULL;
    }
    PyObject *context = thread_quiet_context();
    if (context == NULL) {
        return NULL;
    }
    if (!PyContext_CheckExact(context)) {
        PyErr_Format(PyExc_TypeError, "Quiet: quiet_context() gave %R, not a contextvars.Context", context);
        Py_DECREF(context);
        return NULL;
    }
    if (PyContext_Enter(context) < 0) { /* (entered already: Context.run's RuntimeError) */
        Py_DECREF(context);
        return NULL;
    }
    PyObject *out = PyObject_Vectorcall(self->function, args, nargsf, kwnames);
    if (PyContext_Exit(context) < 0) {
        Py_CLEAR(out);
    }
    Py_DECREF(context);
    return out;
}

static PyObject *
quiet_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    PyObject *function;
    if (!PyArg_ParseTuple(args, "O:Quiet", &function)) {
        return NULL;
    }
    if (!PyCallable_Check(function)) {
        PyErr_Format(PyExc_TypeError, "Quiet(function): function must be callable, got %R", function);
        return NULL;
    }
    Quiet *self = (Quiet *)type->tp_alloc(type, 0);
    if (self == NULL) {
        return NULL;
    }
    self->vectorcall = (vectorcallfunc)quiet_vectorcall;
    self->function = Py_NewRef(function);
    return (PyObject *)self;
}

/* (The slots below are CPython's boilerplate for a collected callable holding objects, as
 * Guarded's above: deliberately alike, one type per kind of kernel.) */
static int
quiet_traverse(Quiet *self, visitproc visit, void *arg)
{
    Py_VISIT(self->function);
    return 0;
}

static int
quiet_clear(Quiet *self)
{
    Py_CLEAR(self->function);
    return 0;
}

static void
quiet_dealloc(Quiet *self)
{
    PyObject_GC_UnTrack(self);
    quiet_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *
quiet_repr(Quiet *self)
{
    return PyUnicode_FromFormat("<Quiet %R>", self->function);
}

static PyMemberDef quiet_members[] = {
    {"__wrapped__", T_OBJECT_EX, offsetof(Quiet, function), READONLY, "the function called quietly"},
    {NULL},
};

static PyTypeObject QuietType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "array_api_promo._fastpath.Quiet",
    .tp_basicsize = sizeof(Quiet),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "Quiet(function): function(*args) in this thread's quiet NumPy context.",
    .tp_new = quiet_new,
    .tp_traverse = (traverseproc)quiet_traverse,
    .tp_clear = (inquiry)quiet_clear,
    .tp_dealloc = (destructor)quiet_dealloc,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Quiet, vectorcall),
    .tp_members = quiet_members,
    .tp_repr = (reprfunc)quiet_repr,
};

/* The function a Quiet kernel calls; any other kernel, itself (borrowed either way). */
static PyObject *
quiet_function(PyObject *kernel)
{
    return Py_TYPE(kernel) == &QuietType ? ((Quiet *)kernel)->function : kernel;
}

/* make_array(data, dtype, runtime[, device]): a new Array with these slots (device: the CPU by
 * default), as _array.new_array makes it in Python; the caller has checked that the device holds
 * dtype.  A third of the Python function's time. */
static PyObject *
make_array(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if ((nargs != 3 && nargs != 4) || Array == NULL) {
        PyErr_SetString(PyExc_TypeError, "make_array(data, dtype, runtime[, device]) after register_array()");
        return NULL;
    }
    return new_array(args[0], args[1], args[2], nargs == 4 ? args[3] : cpu_device);
}

/* wrap_each(datas, dtype, runtime, device): a tuple of new arrays, one for each of datas (an
 * iterable of ndarrays: unstack's views), with the other three slots given; the caller has
 * checked that the device holds dtype. */
static PyObject *
wrap_each(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4 || Array == NULL) {
        PyErr_SetString(PyExc_TypeError, "wrap_each(datas, dtype, runtime, device) after register_array()");
        return NULL;
    }
    PyObject *datas = PySequence_Fast(args[0], "wrap_each: datas must be iterable");
    if (datas == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(datas);
    PyObject *out = PyTuple_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *array = new_array(PySequence_Fast_GET_ITEM(datas, i), args[1], args[2], args[3]);
        if (array == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, i, array);
    }
    Py_DECREF(datas);
    return out;
}

/* A namespace's function is a Python function (consumers set attributes on it, copy its
 * signature, pickle it by name) whose calls go straight to what it stands for, the first cell of
 * its closure (a runtime's bound method), without a Python frame of its own: its vectorcall is
 * this one. Its code does the same in Python, for any path that would run it. CPython 3.10 calls
 * every function through its vectorcall; 3.12+ are told not to run its code by
 * PyFunction_SetVectorcall; 3.11 would, so there it becomes a ForwardingFunctionType. */
static PyObject *
forward_vectorcall(PyObject *function, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    PyObject *target = PyCell_GET(PyTuple_GET_ITEM(((PyFunctionObject *)function)->func_closure, 0));
    if (target == NULL) { /* the cell was emptied from Python (del f.__closure__[0].cell_contents) */
        PyErr_Format(PyExc_RuntimeError, "%R no longer has the function it stands for", function);
        return NULL;
    }
    return PyObject_Vectorcall(target, args, nargsf, kwnames);
}

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
/* CPython 3.11's CALL runs an exact function's code in the calling frame's loop, never through its
 * vectorcall: a forwarding function there becomes an instance of this subclass of the function
 * type (same layout, same slots), which the interpreter calls through its vectorcall. It is still a
 * function to isinstance, inspect and attribute setting; it pickles and copies by name, as a
 * function does (its __reduce__ gives the name, which pickle and copy take as "a global"). Measured
 * by python -m benchmarks.surface: the frame cost about 80 ns per call (xp.sin 493 against 412 ns). */
static PyObject *
forwarding_function_reduce(PyObject *function, PyObject *Py_UNUSED(ignored))
{
    return PyObject_GetAttrString(function, "__qualname__");
}

static PyMethodDef forwarding_function_methods[] = {
    {"__reduce__", forwarding_function_reduce, METH_NOARGS, "The function's qualified name: pickled by name."},
    {NULL},
};

static PyTypeObject ForwardingFunctionType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "array_api_promo._fastpath.function",
    .tp_basicsize = sizeof(PyFunctionObject),
    /* the collector's flag and slots, and the rest, are the function type's (PyType_Ready copies them) */
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_VECTORCALL | Py_TPFLAGS_METHOD_DESCRIPTOR | Py_TPFLAGS_IMMUTABLETYPE,
    .tp_doc = "A function whose calls go, in C, to what it stands for (CPython 3.11).",
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(PyFunctionObject, vectorcall),
    .tp_methods = forwarding_function_methods,
};
#endif

static PyObject *
forward_calls(PyObject *Py_UNUSED(module), PyObject *function)
{
    PyObject *closure = PyFunction_Check(function) ? ((PyFunctionObject *)function)->func_closure : NULL;
    if (closure == NULL || !PyTuple_Check(closure) || PyTuple_GET_SIZE(closure) != 1 ||
        !PyCell_Check(PyTuple_GET_ITEM(closure, 0)) || PyCell_GET(PyTuple_GET_ITEM(closure, 0)) == NULL) {
        PyErr_SetString(PyExc_TypeError, "forward_calls(function): a function closing over one filled cell");
        return NULL;
    }
#if PY_VERSION_HEX >= 0x030C0000
    PyFunction_SetVectorcall((PyFunctionObject *)function, forward_vectorcall);
#else
    ((PyFunctionObject *)function)->vectorcall = forward_vectorcall;
#if PY_VERSION_HEX >= 0x030B0000
    Py_SET_TYPE(function, &ForwardingFunctionType); /* a static type: no reference to count */
#endif
#endif
    Py_RETURN_NONE;
}

/* A test hook's answer: out, or NotImplemented where the path made none (FALL_BACK). */
static PyObject *
answer_of(PyObject *out)
{
    return out == FALL_BACK ? Py_NewRef(Py_NotImplemented) : out;
}

/* loop_call(ufunc, a[, b]): direct_call's answer, NotImplemented where it makes no call (the tests
 * hold it to NumPy's own call). */
static PyObject *
loop_call(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 && nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "loop_call(ufunc, a[, b]) takes two or three arguments");
        return NULL;
    }
    PyObject *out = direct_call(args[0], args[1], nargs == 3 ? args[2] : NULL);
    return answer_of(out);
}

/* plain_view_of(a, key[, setitem]): plain_view's answer for an exact ndarray, NotImplemented where it
 * makes none (the tests hold it to NumPy's indexing). */
static PyObject *
plain_view_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if ((nargs != 2 && nargs != 3) || !PyArray_CheckExact(args[0])) {
        PyErr_SetString(PyExc_TypeError, "plain_view_of(a, key[, setitem]) takes an ndarray, a key and a flag");
        return NULL;
    }
    PyObject *out = plain_view((PyArrayObject *)args[0], args[1], nargs == 3 && PyObject_IsTrue(args[2]));
    return answer_of(out);
}

/* broadcast_view(a, shape): np.broadcast_to(a, shape) for an exact ndarray and a tuple of non-negative
 * ints with no 0 (the caller's checks): the read-only view NumPy's makes (its nditer's: data's strides where
 * the sizes match, 0 where data's size is 1 or the axis is new; base by NumPy's setter), without its
 * Python layer and iterator.  NotImplemented where the shapes do not broadcast or a size is 0 (NumPy's
 * call then, and its error). */
static PyObject *
broadcast_view(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyArray_CheckExact(args[0]) || !PyTuple_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "broadcast_view(a, shape) takes an ndarray and a tuple");
        return NULL;
    }
    PyArrayObject *data = (PyArrayObject *)args[0];
    PyObject *target = args[1];
    Py_ssize_t nd = PyTuple_GET_SIZE(target);
    int data_nd = PyArray_NDIM(data);
    if (nd > NPY_MAXDIMS || nd < data_nd) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    npy_intp shape[NPY_MAXDIMS], strides[NPY_MAXDIMS];
    Py_ssize_t lead = nd - data_nd;
    for (Py_ssize_t i = 0; i < nd; i++) {
        PyObject *size = PyTuple_GET_ITEM(target, i);
        if (!PyLong_CheckExact(size)) {
            Py_RETURN_NOTIMPLEMENTED;
        }
        int overflow;
        long long n = PyLong_AsLongLongAndOverflow(size, &overflow);
        if (overflow != 0 || n <= 0 || n > NPY_MAX_INTP) {
            Py_RETURN_NOTIMPLEMENTED;
        }
        shape[i] = (npy_intp)n;
        if (i < lead) {
            strides[i] = 0;
            continue;
        }
        npy_intp own = PyArray_DIM(data, (int)(i - lead));
        if (own == shape[i] && own != 1) {
            strides[i] = PyArray_STRIDE(data, (int)(i - lead));
        }
        else if (own == 1) {
            strides[i] = 0;
        }
        else {
            Py_RETURN_NOTIMPLEMENTED;
        }
    }
    return new_view(data, (int)nd, shape, strides, PyArray_BYTES(data), 0); /* (read-only, as NumPy's) */
}

/* squeezed_view(a, axis): a.squeeze(axis) for an exact ndarray and an int axis of size 1: the view NumPy's
 * makes (its PyArray_View without that axis: the same strides, data pointer, flags and base), without its
 * method call.  NotImplemented for any other axis (NumPy's call then, and its error). */
static PyObject *
squeezed_view(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyArray_CheckExact(args[0]) || !PyLong_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "squeezed_view(a, axis) takes an ndarray and an int");
        return NULL;
    }
    PyArrayObject *data = (PyArrayObject *)args[0];
    int ndim = PyArray_NDIM(data), overflow;
    long axis = PyLong_AsLongAndOverflow(args[1], &overflow);
    if (overflow != 0 || axis < -ndim || axis >= ndim) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (axis < 0) {
        axis += ndim;
    }
    if (PyArray_DIM(data, (int)axis) != 1) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    npy_intp shape[NPY_MAXDIMS], strides[NPY_MAXDIMS];
    for (int i = 0, j = 0; i < ndim; i++) {
        if (i != axis) {
            shape[j] = PyArray_DIM(data, i);
            strides[j++] = PyArray_STRIDE(data, i);
        }
    }
    return new_view(data, ndim - 1, shape, strides, PyArray_BYTES(data), PyArray_FLAGS(data));
}

/* masked_copy_of(a, mask): masked_copy's answer for two exact ndarrays of one shape, NotImplemented where it
 * makes none (the tests hold it to NumPy's boolean indexing). */
static PyObject *
masked_copy_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyArray_CheckExact(args[0]) || !PyArray_CheckExact(args[1]) ||
        !same_shape((PyArrayObject *)args[0], (PyArrayObject *)args[1])) {
        PyErr_SetString(PyExc_TypeError, "masked_copy_of(a, mask) takes two ndarrays of one shape");
        return NULL;
    }
    PyObject *out = masked_copy((PyArrayObject *)args[0], (PyArrayObject *)args[1]);
    return answer_of(out);
}

/* loop_call_inplace(ufunc, a, b): a after direct_inplace_call's ufunc(a, b, out=a), NotImplemented
 * where it makes none (a as it was; the tests hold it to NumPy's in-place call). */
static PyObject *
loop_call_inplace(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "loop_call_inplace(ufunc, a, b) takes three arguments");
        return NULL;
    }
    if (!direct_inplace_call(args[0], args[1], args[2])) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    return Py_NewRef(args[1]);
}

/* taken_copy_of(a, indices): taken_copy's answer for two exact ndarrays, indices of an integer
 * type, NotImplemented where it makes none (the tests hold it to NumPy's integer array indexing). */
static PyObject *
taken_copy_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2 || !PyArray_CheckExact(args[0]) || !PyArray_CheckExact(args[1]) ||
        !PyArray_ISINTEGER((PyArrayObject *)args[1])) {
        PyErr_SetString(PyExc_TypeError, "taken_copy_of(a, indices) takes an ndarray and an integer ndarray");
        return NULL;
    }
    PyObject *out = taken_copy((PyArrayObject *)args[0], (PyArrayObject *)args[1]);
    return answer_of(out);
}

static PyMethodDef module_methods[] = {
    {"loop_call_inplace", (PyCFunction)(void (*)(void))loop_call_inplace, METH_FASTCALL,
     "loop_call_inplace(ufunc, a, b): a after ufunc(a, b, out=a) by the loop NumPy's call runs (NotImplemented: "
     "not made, a untouched)"},
    {"taken_copy_of", (PyCFunction)(void (*)(void))taken_copy_of, METH_FASTCALL,
     "taken_copy_of(a, indices): a[indices] of a vector by the integer array indexing's copy (NotImplemented: none)"},
    {"make_array", (PyCFunction)(void (*)(void))make_array, METH_FASTCALL,
     "make_array(data, dtype, runtime[, device]): a new Array of these slots (device: the CPU)"},
    {"wrap_each", (PyCFunction)(void (*)(void))wrap_each, METH_FASTCALL,
     "wrap_each(datas, dtype, runtime, device): a tuple of new arrays of the given slots, one per data."},
    {"register_array", register_array, METH_VARARGS,
     "register_array(Array, ndarray, asarray, bool_, array, CPU): the class whose slots the fast paths read."},
    {"register_quiet_context", register_quiet_context, METH_O,
     "register_quiet_context(quiet_context): the function giving this thread's quiet NumPy context."},
    {"register_scalar_converter", register_scalar_converter, METH_O,
     "register_scalar_converter(ScalarConverter): the conversions whose in-range case runs in C."},
    {"forward_calls", forward_calls, METH_O,
     "forward_calls(function): calls of the function go straight to its one closure cell's object, in C."},
    {"all_finite", all_finite, METH_O,
     "all_finite(a): whether a float64/float32 ndarray holds no NaN or infinity (NotImplemented: ask NumPy)."},
    {"loop_call", (PyCFunction)(void (*)(void))loop_call, METH_FASTCALL,
     "loop_call(ufunc, a[, b]): a small call of a NumPy ufunc by the loop NumPy's call runs (NotImplemented: no "
     "such call; the ufunc's own call then)."},
    {"plain_view_of", (PyCFunction)(void (*)(void))plain_view_of, METH_FASTCALL,
     "plain_view_of(a, key): a[key] for a plain basic key, by NumPy's view constructor without its key parsing "
     "(NotImplemented: another key; NumPy's indexing then)."},
    {"squeezed_view", (PyCFunction)(void (*)(void))squeezed_view, METH_FASTCALL,
     "squeezed_view(a, axis): a.squeeze(axis)'s view, without its method call (NotImplemented: not an axis of "
     "size 1; NumPy's call then)."},
    {"masked_copy_of", (PyCFunction)(void (*)(void))masked_copy_of, METH_FASTCALL,
     "masked_copy_of(a, mask): a[mask] for a bool mask of a's shape, both C-contiguous, by a copy loop "
     "(NotImplemented: another layout or dtype; NumPy's indexing then)."},
    {"broadcast_view", (PyCFunction)(void (*)(void))broadcast_view, METH_FASTCALL,
     "broadcast_view(a, shape): np.broadcast_to(a, shape)'s read-only view, without its iterator "
     "(NotImplemented: shapes that do not broadcast, a size of 0; NumPy's call then)."},
    {"clip_arrays", (PyCFunction)(void (*)(void))clip_arrays, METH_FASTCALL,
     "clip_arrays(maximum, minimum, x, lo, hi, check): minimum(maximum(x, lo), hi) in one pass (None: crossed "
     "bounds; NotImplemented: ask NumPy)."},
    {NULL},
};

static struct PyModuleDef fastpath_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "array_api_promo._fastpath",
    .m_doc = "The compiled fast paths of array_api_promo (see array_api_promo/_core.py).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC
PyInit__fastpath(void)
{
    if (PyType_Ready(&FastPathType) < 0 || PyType_Ready(&GuardedType) < 0 || PyType_Ready(&QuietType) < 0) {
        return NULL;
    }
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
    ForwardingFunctionType.tp_base = &PyFunction_Type;
    if (PyType_Ready(&ForwardingFunctionType) < 0) {
        return NULL;
    }
    /* PyType_Ready put the type's own __doc__ in its dict, where it would hide the function type's
     * (each function's docstring): every attribute is the function type's but __reduce__ */
    if (PyDict_DelItemString(ForwardingFunctionType.tp_dict, "__doc__") < 0) {
        return NULL;
    }
    PyType_Modified(&ForwardingFunctionType);
#endif
    struct {
        PyObject **name;
        const char *text;
    } names[] = {
        {&str_fast, "_fast"},
        {&str_flat_keys, "_flat_keys"},
        {&str_result_types, "_result_types"},
        {&str_ndim, "ndim"},
        {&str_native_dtypes, "_native_dtypes"},
        {&str_dtype, "dtype"},
        {&str_casts, "_casts"},
        {&str_numpy, "numpy"},
        {&str_boolean_indexing, "boolean_indexing"},
        {&str_setitem_converters, "_setitem_converters"},
        {&str_key_refusals, "_key_refusals"},
        {&str_policy, "policy"},
        {&str_default_float, "default_float"},
        {&str_default_int, "default_int"},
        {&str_dtype_set, "_dtype_set"},
        {&str_device, "device"},
        {&str_stop, "stop"},
        {&str_step, "step"},
        {&str_copy, "copy"},
        {&str_axis, "axis"},
        {&str_where_plans, "_where_plans"},
        {&str_create_scalar, "create_scalar"},
        {&str_full, "full"},
        {&str_full_like, "full_like"},
        {&str_quiet_context, "array_api_promo._fastpath.quiet_context"},
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if ((*names[i].name = PyUnicode_InternFromString(names[i].text)) == NULL) {
            return NULL;
        }
    }
    import_array(); /* NumPy's C API (returns NULL with NumPy's error when it cannot) */
#ifdef HAVE_ZERO_UPPER
    __builtin_cpu_init();
    has_avx = __builtin_cpu_supports("avx");
#endif
#ifdef HAVE_TESTS_AVX2
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) {
        tests = &tests_avx2;
    }

#endif
    PyObject *numpy = PyImport_ImportModule("numpy");
    numpy_matmul = numpy == NULL ? NULL : PyObject_GetAttrString(numpy, "matmul");
    numpy_ufunc = numpy == NULL ? NULL : PyObject_GetAttrString(numpy, "ufunc");
    numpy_arange = numpy == NULL ? NULL : PyObject_GetAttrString(numpy, "arange");
    numpy_concatenate = numpy == NULL ? NULL : PyObject_GetAttrString(numpy, "concatenate");
    /* concat's plain case passes exact ndarrays only, in which NumPy's __array_function__ dispatch
     * (NEP 18) finds nothing to hand over: its C function itself, where NumPy names it, without the
     * dispatcher's Python frame (a fifth of a 10-element concatenate) */
    PyObject *implementation = numpy_concatenate == NULL ? NULL : PyObject_GetAttrString(numpy_concatenate, "_implementation");
    if (implementation != NULL && PyCFunction_Check(implementation)) {
        Py_SETREF(numpy_concatenate, implementation);
    }
    else {
        Py_XDECREF(implementation);
        PyErr_Clear();
    }
    Py_XDECREF(numpy);
    dtype_keyword = PyTuple_Pack(1, str_dtype); /* (interned: NumPy's parser finds it by identity) */
    forward_slice = PySlice_New(NULL, NULL, NULL);
    PyObject *minus_one = PyLong_FromLong(-1);
    backward_slice = minus_one == NULL ? NULL : PySlice_New(NULL, NULL, minus_one);
    Py_XDECREF(minus_one);
    if (forward_slice == NULL || backward_slice == NULL) {
        return NULL;
    }
    if (numpy_matmul == NULL || numpy_ufunc == NULL || !PyType_Check(numpy_ufunc) || numpy_arange == NULL ||
        numpy_concatenate == NULL || dtype_keyword == NULL) {
        return NULL;
    }
    /* what temporary elision needs (without them it is off) */
    PyObject *weakref = PyImport_ImportModule("weakref");
    getweakrefcount = weakref == NULL ? NULL : PyObject_GetAttrString(weakref, "getweakrefcount");
    Py_XDECREF(weakref);
    PyObject *opcode = getweakrefcount == NULL ? NULL : PyImport_ImportModule("opcode");
    PyObject *opmap = opcode == NULL ? NULL : PyObject_GetAttrString(opcode, "opmap");
    PyObject *code = opmap == NULL || !PyDict_Check(opmap) ? NULL : PyDict_GetItemString(opmap, "BINARY_OP");
    binary_op_code = code != NULL && PyLong_Check(code) ? (int)PyLong_AsLong(code) : -1;
    Py_XDECREF(opmap);
    Py_XDECREF(opcode);
    PyErr_Clear();
    PyObject *module = PyModule_Create(&fastpath_module);
    if (module == NULL) {
        return NULL;
    }
    if (PyModule_AddIntConstant(module, "UNTRACKED_ARRAYS", UNTRACKED_ARRAYS) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&FastPathType);
    if (PyModule_AddObject(module, "FastPath", (PyObject *)&FastPathType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&GuardedType);
    if (PyModule_AddObject(module, "Guarded", (PyObject *)&GuardedType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    Py_INCREF(&QuietType);
    if (PyModule_AddObject(module, "Quiet", (PyObject *)&QuietType) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
