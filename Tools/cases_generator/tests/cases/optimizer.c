// Abstract cases: a uop redefined in optimizer.abstract.c runs that body;
// the others push unknown values, keeping inputs left in place.
// BEGIN BYTECODES //
inst(LOAD_SMALL, (-- value)) {
    value = PyStackRef_FromPyObjectImmortal(_PyLong_FromSmallInt(oparg));
}

tier2 op(_GUARD_INT, (value -- value)) {
    DEOPT_IF(!PyLong_CheckExact(PyStackRef_AsPyObjectBorrow(value)));
}

op(_NEGATE, (value -- res)) {
    PyObject *res_o = PyNumber_Negative(PyStackRef_AsPyObjectBorrow(value));
    PyStackRef_CLOSE(value);
    ERROR_IF(res_o == NULL);
    res = PyStackRef_FromPyObjectSteal(res_o);
}

macro(NEGATE) = _NEGATE;

inst(SPREAD, (seq -- items[oparg], seq)) {
    (void)items;
}

tier2 op(_VERSIONED, (version/2, owner -- owner)) {
    DEOPT_IF(Py_TYPE(PyStackRef_AsPyObjectBorrow(owner))->tp_version_tag != version);
}

// END BYTECODES //
