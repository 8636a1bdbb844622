// A macro made of two ops with cache entries in between.

// BEGIN BYTECODES //

        op(_CHECK_VERSION, (type_version/2, owner -- owner)) {
            PyTypeObject *tp = Py_TYPE(PyStackRef_AsPyObjectBorrow(owner));
            DEOPT_IF(tp->tp_version_tag != type_version);
        }

        op(_LOAD_SLOT, (index/1, owner -- attr)) {
            PyObject **addr = (PyObject **)((char *)PyStackRef_AsPyObjectBorrow(owner) + index);
            attr = PyStackRef_FromPyObjectNew(*addr);
            DECREF_INPUTS();
        }

        op(_LOAD_GENERIC, (owner -- attr)) {
            PyObject *name = GETITEM(FRAME_CO_NAMES, oparg);
            PyObject *attr_o = PyObject_GetAttr(PyStackRef_AsPyObjectBorrow(owner), name);
            DECREF_INPUTS();
            ERROR_IF(attr_o == NULL);
            attr = PyStackRef_FromPyObjectSteal(attr_o);
        }

        family(LOAD_SLOTTED, INLINE_CACHE_ENTRIES_LOAD_SLOTTED) = {
            LOAD_SLOTTED_FAST,
        };

        macro(LOAD_SLOTTED) = counter/1 + unused/3 + _LOAD_GENERIC;

        macro(LOAD_SLOTTED_FAST) =
            unused/1 + _CHECK_VERSION + _LOAD_SLOT;

// END BYTECODES //
