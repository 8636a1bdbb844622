/* The optimizer's abstract cases, in the bytecode DSL.

   Each op here is a uop of Python/bytecodes.c seen again by the optimizer
   (Python/optimizer_analysis.c): the same stack effect and caches, but its
   inputs and outputs are abstract values (_PyAbstractValue *) and its body
   runs once, at optimization time.  A body may learn facts from a guard,
   say what it pushes, or rewrite its uop (`this_instr`).  Uops not here
   push values about which nothing is known.
   Tools/cases_generator/optimizer_generator.py turns this file into
   Python/optimizer_cases.c.h; it is not compiled itself.

   In bodies: `ctx` is the _PyAbstractContext, `FRAME` the current
   abstract frame, `LOCAL(i)` its local i, `oparg` the uop's oparg, cache
   entries read as the uop's operands. */

#include "Python.h"
#include "pycore_optimizer.h"

// BEGIN BYTECODES //

        /* ---- Locals and constants ---------------------------------------- */

        op(_LOAD_FAST, (-- value)) {
            value = LOCAL(oparg);
            av_learn_not_null(ctx, value);
        }

        op(_LOAD_FAST_CHECK, (-- value)) {
            value = LOCAL(oparg);
            av_learn_not_null(ctx, value);
        }

        op(_LOAD_FAST_BORROW, (-- value)) {
            value = LOCAL(oparg);
            av_learn_not_null(ctx, value);
        }

        op(_LOAD_FAST_AND_CLEAR, (-- value)) {
            value = LOCAL(oparg);
            LOCAL(oparg) = av_null(ctx);
        }

        op(_LOAD_FAST_LOAD_FAST, ( -- value1, value2)) {
            value1 = LOCAL(oparg >> 4);
            value2 = LOCAL(oparg & 15);
        }

        op(_LOAD_FAST_BORROW_LOAD_FAST_BORROW, ( -- value1, value2)) {
            value1 = LOCAL(oparg >> 4);
            value2 = LOCAL(oparg & 15);
        }

        /* Storing drops the local's old value: quiet when that cannot
           run code. */
        op(_STORE_FAST, (value --)) {
            ctx->quiet = av_is_inert(LOCAL(oparg));
            LOCAL(oparg) = value;
        }

        op(_STORE_FAST_LOAD_FAST, (value1 -- value2)) {
            ctx->quiet = av_is_inert(LOCAL(oparg >> 4));
            LOCAL(oparg >> 4) = value1;
            value2 = LOCAL(oparg & 15);
        }

        op(_STORE_FAST_STORE_FAST, (value2, value1 --)) {
            ctx->quiet = av_is_inert(LOCAL(oparg >> 4)) && av_is_inert(LOCAL(oparg & 15));
            LOCAL(oparg >> 4) = value1;
            LOCAL(oparg & 15) = value2;
        }

        op(_DELETE_FAST, (--)) {
            LOCAL(oparg) = av_null(ctx);
        }

        op(_LOAD_CONST, (-- value)) {
            value = av_constant(ctx, PyTuple_GET_ITEM(FRAME->code->co_consts, oparg));
        }

        op(_LOAD_SMALL_INT, (-- value)) {
            value = av_of_type(ctx, &PyLong_Type);
        }

        op(_LOAD_CONST_INLINE, (ptr/4 -- value, null[oparg & 1])) {
            value = av_constant(ctx, (PyObject *)ptr);
            if (oparg & 1) {
                null[0] = av_null(ctx);
            }
        }

        /* ---- Stack manipulation ------------------------------------------ */

        op(_PUSH_NULL, (-- res)) {
            res = av_null(ctx);
        }

        op(_COPY, (bottom, unused[oparg-1] -- bottom, unused[oparg-1], top)) {
            top = bottom;
        }

        op(_SWAP, (bottom, unused[oparg-2], top -- top_out, unused[oparg-2], bottom_out)) {
            top_out = top;
            bottom_out = bottom;
        }

        /* ---- Types of results -------------------------------------------- */

        op(_GUARD_BOTH_INT, (left, right -- left, right)) {
            guard_both_of_type(ctx, this_instr, left, right, &PyLong_Type);
        }

        op(_GUARD_BOTH_FLOAT, (left, right -- left, right)) {
            guard_both_of_type(ctx, this_instr, left, right, &PyFloat_Type);
        }

        op(_GUARD_BOTH_UNICODE, (left, right -- left, right)) {
            guard_both_of_type(ctx, this_instr, left, right, &PyUnicode_Type);
        }

        op(_BINARY_OP_ADD_INT, (left, right -- res)) {
            res = av_of_type(ctx, &PyLong_Type);
        }

        op(_BINARY_OP_SUBTRACT_INT, (left, right -- res)) {
            res = av_of_type(ctx, &PyLong_Type);
        }

        op(_BINARY_OP_MULTIPLY_INT, (left, right -- res)) {
            res = av_of_type(ctx, &PyLong_Type);
        }

        op(_BINARY_OP_ADD_FLOAT, (left, right -- res)) {
            res = av_of_type(ctx, &PyFloat_Type);
        }

        op(_BINARY_OP_SUBTRACT_FLOAT, (left, right -- res)) {
            res = av_of_type(ctx, &PyFloat_Type);
        }

        op(_BINARY_OP_MULTIPLY_FLOAT, (left, right -- res)) {
            res = av_of_type(ctx, &PyFloat_Type);
        }

        op(_BINARY_OP_ADD_UNICODE, (left, right -- res)) {
            res = av_of_type(ctx, &PyUnicode_Type);
        }

        op(_BINARY_OP_SUBSCR_STR_INT, (unused/5, str_st, sub_st -- res)) {
            res = av_of_type(ctx, &PyUnicode_Type);
        }

        op(_COMPARE_OP_INT, (unused/1, left, right -- res)) {
            res = av_of_type(ctx, &PyBool_Type);
        }

        op(_COMPARE_OP_FLOAT, (unused/1, left, right -- res)) {
            res = av_of_type(ctx, &PyBool_Type);
        }

        op(_COMPARE_OP_STR, (unused/1, left, right -- res)) {
            res = av_of_type(ctx, &PyBool_Type);
        }

        op(_IS_OP, (left, right -- b)) {
            b = av_of_type(ctx, &PyBool_Type);
        }

        op(_CONTAINS_OP, (left, right -- b)) {
            b = av_of_type(ctx, &PyBool_Type);
        }

        op(_CONTAINS_OP_SET, (unused/1, left, right -- b)) {
            b = av_of_type(ctx, &PyBool_Type);
        }

        op(_CONTAINS_OP_DICT, (unused/1, left, right -- b)) {
            b = av_of_type(ctx, &PyBool_Type);
        }

        op(_UNARY_NOT, (value -- res)) {
            res = av_of_type(ctx, &PyBool_Type);
        }

        op(_BUILD_TUPLE, (values[oparg] -- tup)) {
            tup = av_of_type(ctx, &PyTuple_Type);
        }

        op(_BUILD_LIST, (values[oparg] -- list)) {
            list = av_of_type(ctx, &PyList_Type);
        }

        op(_BUILD_MAP, (values[oparg*2] -- map)) {
            map = av_of_type(ctx, &PyDict_Type);
        }

        /* ---- Truth ------------------------------------------------------- */

        /* A bool is its own truth value: nothing to do. */
        op(_TO_BOOL, (value -- res)) {
            if (av_type(value) == &PyBool_Type) {
                eliminate(this_instr);
                res = value;
            }
            else {
                res = av_of_type(ctx, &PyBool_Type);
            }
        }

        op(_TO_BOOL_BOOL, (unused/1, unused/2, value -- value)) {
            if (av_type(value) == &PyBool_Type) {
                eliminate(this_instr);
            }
            av_learn_type(ctx, value, &PyBool_Type);
        }

        op(_TO_BOOL_INT, (unused/1, unused/2, value -- res)) {
            res = av_of_type(ctx, &PyBool_Type);
        }

        op(_TO_BOOL_LIST, (unused/1, unused/2, value -- res)) {
            res = av_of_type(ctx, &PyBool_Type);
        }

        op(_TO_BOOL_NONE, (unused/1, unused/2, value -- res)) {
            res = av_of_type(ctx, &PyBool_Type);
        }

        op(_TO_BOOL_STR, (unused/1, unused/2, value -- res)) {
            res = av_of_type(ctx, &PyBool_Type);
        }

        /* ---- Attributes -------------------------------------------------- */

        op(_GUARD_TYPE_VERSION, (type_version/2, owner -- owner)) {
            guard_type_version(ctx, this_instr, owner, type_version);
        }

        op(_GUARD_TYPE_VERSION_OF_OWNER, (type_version/2, unused, owner -- unused, owner)) {
            guard_type_version(ctx, this_instr, owner, type_version);
        }

        /* ---- Globals: constants while their dict is watched ------------- */

        op(_GUARD_GLOBALS_VERSION, (version/1 --)) {
            watch_namespace(ctx, this_instr, FRAME->globals, version, FRAME == &ctx->frames[0],
                            _CHECK_GLOBALS_IS, &FRAME->globals_watched, &FRAME->globals_checked);
        }

        op(_GUARD_BUILTINS_VERSION, (version/1 --)) {
            watch_namespace(ctx, this_instr, FRAME->builtins, version, FRAME == &ctx->frames[0],
                            _CHECK_BUILTINS_IS, &FRAME->builtins_watched, &FRAME->builtins_checked);
        }

        op(_LOAD_GLOBAL_FROM_GLOBALS, (index/1 -- res, null[oparg & 1])) {
            res = load_watched_global(ctx, this_instr, FRAME->globals_watched ? FRAME->globals : NULL,
                                      index);
            if (oparg & 1) {
                null[0] = av_null(ctx);
            }
        }

        /* A builtin stays the value found only while the module's globals
           do not get a name of their own for it: both dicts are watched. */
        op(_LOAD_GLOBAL_FROM_BUILTINS, (index/1 -- res, null[oparg & 1])) {
            int watched = FRAME->globals_watched && FRAME->builtins_watched;
            res = load_watched_global(ctx, this_instr, watched ? FRAME->builtins : NULL, index);
            if (oparg & 1) {
                null[0] = av_null(ctx);
            }
        }

        /* ---- Frames ------------------------------------------------------ */

        op(_PUSH_FRAME_EXACT_ARGS, (callable, self_or_null, args[oparg] -- res)) {
            res = av_null(ctx);
            enter_callee(ctx, this_instr, self_or_null, args, oparg, stack_pointer - 2 - oparg);
        }

        op(_FOR_ITER_GEN_FRAME, (iter, index_or_null -- iter, index_out, next)) {
            index_out = index_or_null;
            next = av_unknown(ctx);
            enter_generator(ctx, this_instr, stack_pointer);
        }

        op(_YIELD_VALUE, (retval -- value)) {
            value = retval;
            return_to_caller(ctx, retval);
        }

        op(_RETURN_VALUE, (retval -- res)) {
            res = retval;
            return_to_caller(ctx, retval);
        }

        /* ---- Quiet drops --------------------------------------------------
           Uops whose only escape is dropping references to their inputs
           run no code when each input is inert or held by a local. */

        op(_POP_TOP, (value --)) {
            ctx->quiet = av_drop_is_quiet(ctx, value);
        }

        op(_GUARD_IS_NOT_NONE_POP, (value --)) {
            ctx->quiet = av_drop_is_quiet(ctx, value);
        }

        op(_BINARY_OP_SUBSCR_LIST_INT, (unused/5, list_st, sub_st -- res)) {
            ctx->quiet = av_drop_is_quiet(ctx, list_st);
            res = av_object(ctx);
        }

        op(_BINARY_OP_SUBSCR_TUPLE_INT, (unused/5, tuple_st, sub_st -- res)) {
            ctx->quiet = av_drop_is_quiet(ctx, tuple_st);
            res = av_object(ctx);
        }

        op(_LOAD_ATTR_SLOT, (index/1, owner -- attr, unused[oparg & 1])) {
            ctx->quiet = av_drop_is_quiet(ctx, owner);
            attr = av_unknown(ctx);
        }

        op(_LOAD_ATTR_WITH_HINT, (hint/1, owner -- attr, unused[oparg & 1])) {
            ctx->quiet = av_drop_is_quiet(ctx, owner);
            attr = av_object(ctx);
        }

        op(_UNPACK_SEQUENCE_TWO_TUPLE, (unused/1, seq -- values[oparg])) {
            unpack_items(ctx, seq, values, oparg);
        }

        op(_UNPACK_SEQUENCE_TUPLE, (unused/1, seq -- values[oparg])) {
            unpack_items(ctx, seq, values, oparg);
        }

        op(_UNPACK_SEQUENCE_LIST, (unused/1, seq -- values[oparg])) {
            unpack_items(ctx, seq, values, oparg);
        }

        /* ---- Trace structure --------------------------------------------- */

        /* Nothing since the last check could have invalidated the
           executor. */
        op(_CHECK_VALIDITY, (--)) {
            if (!ctx->escaped) {
                eliminate(this_instr);
            }
            ctx->escaped = 0;
        }

// END BYTECODES //
