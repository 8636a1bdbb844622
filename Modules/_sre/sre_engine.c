/* The regular-expression matcher: runs re._compiler's code words over a
   str or bytes-like subject.

   Design.  The matcher is a loop over (pc, pos) with one explicit stack.
   Entries on it are of three sorts:
     - undo records (U_*): a mark, a repeat counter or a new repeat
       context, put back when failure unwinds past them;
     - choice points (C_*): where to resume when what follows fails
       (the next BRANCH alternative, one fewer REPEAT_ONE item, ...);
     - frames (F_*): an open lookaround, atomic group or possessive
       repeat.  Their bodies end in SUCCESS, which closes the innermost
       open frame ("active").
   Closing a lookahead or atomic frame "cuts" it: the choice points above
   it are dropped but the undo records kept, so that failing later still
   restores the marks set inside.  A possessive repeat is an atomic frame
   around a greedy loop whose body's SUCCESS counts as its MAX_UNTIL.
   Every pushed choice carries the active frame and repeat context it was
   pushed under, so resuming restores them.  Nothing here recurses.
   Doc/sre.md has the longer story. */

#include "sre_engine.h"

enum {
    U_MARK, U_REPEAT, U_NEWREPEAT,
    C_BRANCH, C_GREEDY1, C_LAZY1, C_LOOP_EXIT, C_LOOP_MORE,
    F_ASSERT, F_ASSERT_NOT, F_ATOMIC, F_POSSESSIVE,
};

#define IS_UNDO(kind) ((kind) <= U_NEWREPEAT)
#define CHECK_EVERY 4096

int
_PySre_StateInit(SreState *st, Py_ssize_t groups)
{
    st->nmarks = 2 * groups;
    st->marks = PyMem_Malloc(sizeof(Py_ssize_t) * (size_t)(st->nmarks + 1));
    st->cap = 64;
    st->stack = PyMem_Malloc(sizeof(SreEntry) * (size_t)st->cap);
    st->repcap = 8;
    st->reps = PyMem_Malloc(sizeof(SreRepeat) * (size_t)st->repcap);
    st->top = st->nreps = 0;
    st->steps = 0;
    st->lastindex = -1;
    if (st->marks == NULL || st->stack == NULL || st->reps == NULL) {
        _PySre_StateFree(st);
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

void
_PySre_StateFree(SreState *st)
{
    PyMem_Free(st->marks);
    PyMem_Free(st->stack);
    PyMem_Free(st->reps);
    st->marks = NULL;
    st->stack = NULL;
    st->reps = NULL;
}

static SreEntry *
push(SreState *st, int kind, Py_ssize_t pc, Py_ssize_t pos)
{
    if (st->top == st->cap) {
        if (st->cap > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)sizeof(SreEntry)) {
            PyErr_NoMemory();
            return NULL;
        }
        Py_ssize_t cap = st->cap * 2;
        SreEntry *grown = PyMem_Realloc(st->stack, sizeof(SreEntry) * (size_t)cap);
        if (grown == NULL) {
            PyErr_NoMemory();
            return NULL;
        }
        st->stack = grown;
        st->cap = cap;
    }
    SreEntry *e = &st->stack[st->top++];
    e->kind = kind;
    e->pc = pc;
    e->pos = pos;
    e->active = -1;
    e->rep = -1;
    e->a = e->b = e->c = 0;
    return e;
}

static Py_ssize_t
new_repeat(SreState *st, Py_ssize_t hdr, Py_ssize_t prev)
{
    if (st->nreps == st->repcap) {
        Py_ssize_t cap = st->repcap * 2;
        SreRepeat *grown = PyMem_Realloc(st->reps, sizeof(SreRepeat) * (size_t)cap);
        if (grown == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        st->reps = grown;
        st->repcap = cap;
    }
    SreEntry *undo = push(st, U_NEWREPEAT, 0, 0);
    if (undo == NULL) {
        return -1;
    }
    undo->a = st->nreps;
    SreRepeat *r = &st->reps[st->nreps];
    r->count = -1;
    r->last = -1;
    r->hdr = hdr;
    r->prev = prev;
    return st->nreps++;
}

/* Record a repeat context's counters before they change. */
static int
save_repeat(SreState *st, Py_ssize_t r)
{
    SreEntry *undo = push(st, U_REPEAT, 0, 0);
    if (undo == NULL) {
        return -1;
    }
    undo->a = r;
    undo->b = st->reps[r].count;
    undo->c = st->reps[r].last;
    return 0;
}

static void
apply_undo(SreState *st, const SreEntry *e)
{
    switch (e->kind) {
    case U_MARK:
        st->marks[e->a] = e->b;
        st->lastindex = e->c;
        break;
    case U_REPEAT:
        st->reps[e->a].count = e->b;
        st->reps[e->a].last = e->c;
        break;
    case U_NEWREPEAT:
        st->nreps = e->a;
        break;
    }
}

/* Close frame f: drop it and the choices above it, keep the undo records. */
static void
cut_frame(SreState *st, Py_ssize_t f)
{
    Py_ssize_t out = f;
    for (Py_ssize_t i = f + 1; i < st->top; i++) {
        if (IS_UNDO(st->stack[i].kind)) {
            st->stack[out++] = st->stack[i];
        }
    }
    st->top = out;
}

/* Unwind down to and including frame f, undoing as failure would. */
static void
unwind_frame(SreState *st, Py_ssize_t f)
{
    while (st->top > f) {
        apply_undo(st, &st->stack[--st->top]);
    }
}

static int
is_word_at(const SreState *st, SreCode at, Py_ssize_t i)
{
    if (i < 0 || i >= st->end) {
        return 0;
    }
    Py_UCS4 ch = sre_char(st, i);
    switch (at) {
    case SAT_LOC_BOUNDARY:
    case SAT_LOC_NON_BOUNDARY:
        return _PySre_Category(SCAT_LOC_WORD, ch);
    case SAT_UNI_BOUNDARY:
    case SAT_UNI_NON_BOUNDARY:
        return _PySre_Category(SCAT_UNI_WORD, ch);
    default:
        return _PySre_Category(SCAT_WORD, ch);
    }
}

static int
at_holds(const SreState *st, SreCode at, Py_ssize_t pos)
{
    Py_ssize_t end = st->end;
    switch (at) {
    case SAT_BEGINNING:
    case SAT_BEGINNING_STRING:
        return pos == 0;
    case SAT_BEGINNING_LINE:
        return pos == 0 || sre_char(st, pos - 1) == '\n';
    case SAT_END:
        return pos == end || (pos + 1 == end && sre_char(st, pos) == '\n');
    case SAT_END_LINE:
        return pos == end || sre_char(st, pos) == '\n';
    case SAT_END_STRING:
        return pos == end;
    case SAT_BOUNDARY:
    case SAT_LOC_BOUNDARY:
    case SAT_UNI_BOUNDARY:
        return is_word_at(st, at, pos - 1) != is_word_at(st, at, pos);
    case SAT_NON_BOUNDARY:
    case SAT_LOC_NON_BOUNDARY:
    case SAT_UNI_NON_BOUNDARY:
        return is_word_at(st, at, pos - 1) == is_word_at(st, at, pos);
    default:
        return 0;
    }
}

static Py_UCS4
fold_for(SreCode op, Py_UCS4 ch)
{
    switch (op) {
    case SOP_GROUPREF_IGNORE:
        return _PySre_LowerAscii(ch);
    case SOP_GROUPREF_UNI_IGNORE:
        return _PySre_LowerUnicode(ch);
    case SOP_GROUPREF_LOC_IGNORE:
        return _PySre_LowerLocale(ch);
    default:
        return ch;
    }
}

/* Match group g's text again at pos; the new position, or -1. */
static Py_ssize_t
match_backref(const SreState *st, SreCode op, Py_ssize_t g, Py_ssize_t pos)
{
    if (2 * g + 1 >= st->nmarks) {
        return -1;
    }
    Py_ssize_t from = st->marks[2 * g], to = st->marks[2 * g + 1];
    if (from < 0 || to < 0 || to < from || to - from > st->end - pos) {
        return -1;
    }
    for (Py_ssize_t i = from; i < to; i++, pos++) {
        if (fold_for(op, sre_char(st, i)) != fold_for(op, sre_char(st, pos))) {
            return -1;
        }
    }
    return pos;
}

/* How many items (one-character ops at code[item]) match from pos on,
   taking at most `most`. */
static Py_ssize_t
count_items(const SreState *st, Py_ssize_t item, Py_ssize_t pos, SreCode most)
{
    Py_ssize_t room = st->end - pos;
    if (most != SRE_MAXREPEAT && (Py_ssize_t)most < room) {
        room = (Py_ssize_t)most;
    }
    SreCode op = st->code[item];
    if (op == SOP_ANY_ALL) {
        return room;
    }
    Py_ssize_t n = 0;
    if (op == SOP_LITERAL) {
        SreCode lit = st->code[item + 1];
        while (n < room && sre_char(st, pos + n) == lit) {
            n++;
        }
        return n;
    }
    while (n < room && _PySre_CharOp(st->code, item, st->codesize, sre_char(st, pos + n))) {
        n++;
    }
    return n;
}

/* Find the first BRANCH alternative from the skip word at p on that
   might match at pos (a leading literal is checked at once); pushes a
   choice for the ones after it.  Returns the alternative's first pc or
   -1 when none is left. */
static Py_ssize_t
pick_alternative(SreState *st, Py_ssize_t p, Py_ssize_t pos, Py_ssize_t active,
                 Py_ssize_t rep, int *error)
{
    const SreCode *code = st->code;
    while (p < st->codesize && code[p] != 0) {
        Py_ssize_t first = p + 1, next = p + (Py_ssize_t)code[p];
        if (next >= st->codesize) {
            break;
        }
        if (code[first] == SOP_LITERAL &&
            (pos >= st->end || sre_char(st, pos) != code[first + 1])) {
            p = next;
            continue;
        }
        if (code[next] != 0) {
            SreEntry *e = push(st, C_BRANCH, next, pos);
            if (e == NULL) {
                *error = 1;
                return -1;
            }
            e->active = active;
            e->rep = rep;
        }
        return first;
    }
    return -1;
}

typedef struct {
    Py_ssize_t pc, pos, active, rep;
} Cursor;

static int
push_choice(SreState *st, int kind, const Cursor *cur, Py_ssize_t pc,
            Py_ssize_t a, Py_ssize_t b)
{
    SreEntry *e = push(st, kind, pc, cur->pos);
    if (e == NULL) {
        return -1;
    }
    e->active = cur->active;
    e->rep = cur->rep;
    e->a = a;
    e->b = b;
    return 0;
}

static int bad_code(void);

/* Leave the loop of repeat context r: MAX_UNTIL goes on after itself, a
   possessive loop closes its atomic frame. */
static int
leave_loop(SreState *st, Cursor *cur, Py_ssize_t r)
{
    const SreCode *code = st->code;
    Py_ssize_t hdr = st->reps[r].hdr;
    cur->rep = st->reps[r].prev;
    if (code[hdr] == SOP_POSSESSIVE_REPEAT) {
        if (cur->active < 0 || st->stack[cur->active].kind != F_POSSESSIVE) {
            return bad_code();
        }
        SreEntry frame = st->stack[cur->active];
        cut_frame(st, cur->active);
        cur->active = frame.active;
        cur->pc = frame.pc;
    }
    else {
        cur->pc = hdr + 1 + (Py_ssize_t)code[hdr + 1] + 1;
    }
    return 0;
}

/* One more greedy iteration, or leave.  0 to go on at cur, -1 error. */
static int
greedy_until(SreState *st, Cursor *cur, Py_ssize_t r)
{
    SreRepeat *rp = &st->reps[r];
    const SreCode *code = st->code;
    SreCode min = code[rp->hdr + 2], max = code[rp->hdr + 3];
    Py_ssize_t count = rp->count + 1;
    Py_ssize_t body = rp->hdr + 4;
    if (count < (Py_ssize_t)min) {
        if (save_repeat(st, r) < 0) {
            return -1;
        }
        rp = &st->reps[r];
        rp->count = count;
        cur->pc = body;
        return 0;
    }
    if ((max == SRE_MAXREPEAT || count < (Py_ssize_t)max) && cur->pos != rp->last) {
        Cursor at_exit = *cur;
        at_exit.rep = r;
        if (push_choice(st, C_LOOP_EXIT, &at_exit, 0, r, 0) < 0 || save_repeat(st, r) < 0) {
            return -1;
        }
        rp = &st->reps[r];
        rp->count = count;
        rp->last = cur->pos;
        cur->pc = body;
        return 0;
    }
    return leave_loop(st, cur, r);
}

/* MIN_UNTIL: leave first; the choice left behind tries one more. */
static int
lazy_until(SreState *st, Cursor *cur, Py_ssize_t r)
{
    SreRepeat *rp = &st->reps[r];
    Py_ssize_t count = rp->count + 1;
    if (count < (Py_ssize_t)st->code[rp->hdr + 2]) {
        if (save_repeat(st, r) < 0) {
            return -1;
        }
        st->reps[r].count = count;
        cur->pc = st->reps[r].hdr + 4;
        return 0;
    }
    Cursor again = *cur;
    again.rep = r;
    if (push_choice(st, C_LOOP_MORE, &again, 0, r, 0) < 0) {
        return -1;
    }
    cur->rep = rp->prev;
    cur->pc += 1;
    return 0;
}

/* Resume the lazy loop's "one more iteration"; 1 resumed, 0 fail on. */
static int
lazy_more(SreState *st, Cursor *cur, Py_ssize_t r)
{
    SreRepeat *rp = &st->reps[r];
    SreCode max = st->code[rp->hdr + 3];
    Py_ssize_t count = rp->count + 1;
    if ((max != SRE_MAXREPEAT && count >= (Py_ssize_t)max) || cur->pos == rp->last) {
        return 0;
    }
    if (save_repeat(st, r) < 0) {
        return -1;
    }
    rp = &st->reps[r];
    rp->count = count;
    rp->last = cur->pos;
    cur->pc = rp->hdr + 4;
    return 1;
}

/* REPEAT_ONE and friends: hdr is the opcode's index. 1 go on, 0 fail. */
static int
single_repeat(SreState *st, Cursor *cur)
{
    const SreCode *code = st->code;
    Py_ssize_t hdr = cur->pc;
    SreCode op = code[hdr], min = code[hdr + 2], max = code[hdr + 3];
    Py_ssize_t tail = hdr + 1 + (Py_ssize_t)code[hdr + 1];
    if ((Py_ssize_t)min > st->end - cur->pos) {
        return 0;
    }
    SreCode most = op == SOP_MIN_REPEAT_ONE ? min : max;
    Py_ssize_t n = count_items(st, hdr + 4, cur->pos, most);
    if (n < (Py_ssize_t)min) {
        return 0;
    }
    int more = 0, kind = 0;
    if (op == SOP_REPEAT_ONE && n > (Py_ssize_t)min) {
        more = 1;
        kind = C_GREEDY1;
    }
    else if (op == SOP_MIN_REPEAT_ONE && (max == SRE_MAXREPEAT || n < (Py_ssize_t)max)) {
        more = 1;
        kind = C_LAZY1;
    }
    if (more && push_choice(st, kind, cur, hdr, n, 0) < 0) {
        return -1;
    }
    cur->pos += n;
    cur->pc = tail;
    return 1;
}

/* Take one item back from a greedy single repeat (entry e on top). */
static int
greedy_back(SreState *st, SreEntry *e, Cursor *cur)
{
    const SreCode *code = st->code;
    Py_ssize_t hdr = e->pc;
    Py_ssize_t min = (Py_ssize_t)code[hdr + 2];
    Py_ssize_t tail = hdr + 1 + (Py_ssize_t)code[hdr + 1];
    Py_ssize_t n = e->a - 1;
    if (tail < st->codesize && code[tail] == SOP_LITERAL) {
        /* the tail must start with this literal: skip to where it does */
        SreCode lit = code[tail + 1];
        while (n >= min && (e->pos + n >= st->end || sre_char(st, e->pos + n) != lit)) {
            n--;
        }
    }
    if (n < min) {
        return 0;
    }
    if (n > min) {
        e->a = n;
        st->top++;
    }
    cur->pos = e->pos + n;
    cur->pc = tail;
    return 1;
}

/* Take one more item in a lazy single repeat (entry e on top). */
static int
lazy_back(SreState *st, SreEntry *e, Cursor *cur)
{
    const SreCode *code = st->code;
    Py_ssize_t hdr = e->pc;
    SreCode max = code[hdr + 3];
    Py_ssize_t p = e->pos + e->a;
    if (p >= st->end || !_PySre_CharOp(code, hdr + 4, st->codesize, sre_char(st, p))) {
        return 0;
    }
    Py_ssize_t n = e->a + 1;
    if (max == SRE_MAXREPEAT || n < (Py_ssize_t)max) {
        e->a = n;
        st->top++;
    }
    cur->pos = e->pos + n;
    cur->pc = hdr + 1 + (Py_ssize_t)code[hdr + 1];
    return 1;
}

static int
open_frame(SreState *st, Cursor *cur, int kind, Py_ssize_t cont)
{
    SreEntry *e = push(st, kind, cont, cur->pos);
    if (e == NULL) {
        return -1;
    }
    e->active = cur->active;
    e->rep = cur->rep;
    cur->active = st->top - 1;
    return 0;
}

/* SUCCESS inside a frame.  0 go on at cur, 1 fail, -1 error. */
static int
close_frame(SreState *st, Cursor *cur)
{
    Py_ssize_t f = cur->active;
    SreEntry frame = st->stack[f];
    switch (frame.kind) {
    case F_POSSESSIVE:
        return greedy_until(st, cur, frame.a);
    case F_ASSERT_NOT:
        unwind_frame(st, f);
        return 1;
    case F_ASSERT:
        cur->pos = frame.pos;
        /* fall through */
    default:
        cut_frame(st, f);
        cur->active = frame.active;
        cur->pc = frame.pc;
        return 0;
    }
}

/* Lookarounds: [op, skip, back, body..., SUCCESS].  1 go on, 0 fail. */
static int
start_assert(SreState *st, Cursor *cur)
{
    const SreCode *code = st->code;
    Py_ssize_t pc = cur->pc;
    Py_ssize_t cont = pc + 1 + (Py_ssize_t)code[pc + 1];
    Py_ssize_t back = (Py_ssize_t)code[pc + 2];
    int negative = code[pc] == SOP_ASSERT_NOT;
    if (cur->pos - back < 0) {
        if (negative) {
            cur->pc = cont;
            return 1;
        }
        return 0;
    }
    if (open_frame(st, cur, negative ? F_ASSERT_NOT : F_ASSERT, cont) < 0) {
        return -1;
    }
    cur->pos -= back;
    cur->pc = pc + 3;
    return 1;
}

static int
start_possessive(SreState *st, Cursor *cur)
{
    Py_ssize_t hdr = cur->pc;
    Py_ssize_t cont = hdr + 1 + (Py_ssize_t)st->code[hdr + 1] + 1;
    if (open_frame(st, cur, F_POSSESSIVE, cont) < 0) {
        return -1;
    }
    Py_ssize_t f = cur->active;
    Py_ssize_t r = new_repeat(st, hdr, cur->rep);
    if (r < 0) {
        return -1;
    }
    st->stack[f].a = r;
    cur->rep = r;
    return greedy_until(st, cur, r);
}

static int
set_mark(SreState *st, Py_ssize_t i, Py_ssize_t pos)
{
    if (i < 0 || i >= st->nmarks) {
        PyErr_SetString(PyExc_RuntimeError, "invalid SRE code");
        return -1;
    }
    SreEntry *undo = push(st, U_MARK, 0, 0);
    if (undo == NULL) {
        return -1;
    }
    undo->a = i;
    undo->b = st->marks[i];
    undo->c = st->lastindex;
    st->marks[i] = pos;
    if (i & 1) {
        st->lastindex = i / 2 + 1;
    }
    return 0;
}

/* Pop the stack until something resumes.  1 resumed, 0 exhausted, -1. */
static int
backtrack(SreState *st, Cursor *cur)
{
    while (st->top > 0) {
        SreEntry *e = &st->stack[--st->top];
        int r = 0;
        if (IS_UNDO(e->kind)) {
            apply_undo(st, e);
            continue;
        }
        cur->pos = e->pos;
        cur->active = e->active;
        cur->rep = e->rep;
        switch (e->kind) {
        case C_BRANCH: {
            int error = 0;
            Py_ssize_t first = pick_alternative(st, e->pc, e->pos, e->active, e->rep, &error);
            if (error) {
                return -1;
            }
            if (first >= 0) {
                cur->pc = first;
                r = 1;
            }
            break;
        }
        case C_GREEDY1:
            r = greedy_back(st, e, cur);
            break;
        case C_LAZY1:
            r = lazy_back(st, e, cur);
            break;
        case C_LOOP_EXIT:
            r = leave_loop(st, cur, e->a) < 0 ? -1 : 1;
            break;
        case C_LOOP_MORE:
            r = lazy_more(st, cur, e->a);
            break;
        case F_ASSERT_NOT:
            /* the body failed, so the negative assertion holds */
            cur->pc = e->pc;
            r = 1;
            break;
        default:
            /* a failed lookahead, atomic or possessive body fails on */
            break;
        }
        if (r != 0) {
            return r;
        }
    }
    return 0;
}

static int
check_signals(SreState *st)
{
    if (++st->steps % CHECK_EVERY == 0 && PyErr_CheckSignals() < 0) {
        return -1;
    }
    return 0;
}

static int
bad_code(void)
{
    PyErr_SetString(PyExc_RuntimeError, "invalid SRE code");
    return -1;
}

/* One step at cur: 0 go on, 1 fail, 2 matched, -1 error. */
static int
step(SreState *st, Cursor *cur, Py_ssize_t start)
{
    const SreCode *code = st->code;
    Py_ssize_t pc = cur->pc;
    if (pc < 0 || pc >= st->codesize) {
        return bad_code();
    }
    SreCode op = code[pc];
    switch (op) {
    case SOP_FAILURE:
        return 1;
    case SOP_SUCCESS:
        if (cur->active >= 0) {
            return close_frame(st, cur);
        }
        if ((st->match_all && cur->pos != st->end) ||
            (st->must_advance && cur->pos == start)) {
            return 1;
        }
        st->match_end = cur->pos;
        return 2;
    case SOP_AT:
        if (!at_holds(st, code[pc + 1], cur->pos)) {
            return 1;
        }
        cur->pc += 2;
        return 0;
    case SOP_INFO:
    case SOP_JUMP:
        cur->pc += 1 + (Py_ssize_t)code[pc + 1];
        return 0;
    case SOP_MARK:
        if (set_mark(st, code[pc + 1], cur->pos) < 0) {
            return -1;
        }
        cur->pc += 2;
        return 0;
    case SOP_BRANCH: {
        int error = 0;
        Py_ssize_t first = pick_alternative(st, pc + 1, cur->pos, cur->active, cur->rep, &error);
        if (error) {
            return -1;
        }
        cur->pc = first;
        return first < 0;
    }
    case SOP_REPEAT_ONE:
    case SOP_MIN_REPEAT_ONE:
    case SOP_POSSESSIVE_REPEAT_ONE: {
        int r = single_repeat(st, cur);
        return r < 0 ? -1 : !r;
    }
    case SOP_REPEAT: {
        Py_ssize_t r = new_repeat(st, pc, cur->rep);
        if (r < 0) {
            return -1;
        }
        cur->rep = r;
        cur->pc = pc + 1 + (Py_ssize_t)code[pc + 1];
        return 0;
    }
    case SOP_MAX_UNTIL:
    case SOP_MIN_UNTIL:
        if (cur->rep < 0) {
            return bad_code();
        }
        if (op == SOP_MAX_UNTIL) {
            return greedy_until(st, cur, cur->rep);
        }
        return lazy_until(st, cur, cur->rep);
    case SOP_POSSESSIVE_REPEAT:
        return start_possessive(st, cur);
    case SOP_ATOMIC_GROUP:
        if (open_frame(st, cur, F_ATOMIC, pc + 1 + (Py_ssize_t)code[pc + 1]) < 0) {
            return -1;
        }
        cur->pc += 2;
        return 0;
    case SOP_ASSERT:
    case SOP_ASSERT_NOT: {
        int r = start_assert(st, cur);
        return r < 0 ? -1 : !r;
    }
    case SOP_GROUPREF:
    case SOP_GROUPREF_IGNORE:
    case SOP_GROUPREF_UNI_IGNORE:
    case SOP_GROUPREF_LOC_IGNORE: {
        Py_ssize_t to = match_backref(st, op, code[pc + 1], cur->pos);
        if (to < 0) {
            return 1;
        }
        cur->pos = to;
        cur->pc += 2;
        return 0;
    }
    case SOP_GROUPREF_EXISTS: {
        Py_ssize_t g = code[pc + 1];
        int set = 2 * g + 1 < st->nmarks && st->marks[2 * g] >= 0 &&
                  st->marks[2 * g + 1] >= 0 && st->marks[2 * g] <= st->marks[2 * g + 1];
        cur->pc = set ? pc + 3 : pc + 1 + (Py_ssize_t)code[pc + 2];
        return 0;
    }
    default: {
        Py_ssize_t width = _PySre_CharOpWidth(code, pc);
        if (width == 0) {
            return bad_code();
        }
        if (cur->pos >= st->end ||
            !_PySre_CharOp(code, pc, st->codesize, sre_char(st, cur->pos))) {
            return 1;
        }
        cur->pos += 1;
        cur->pc += width;
        return 0;
    }
    }
}

static Py_ssize_t
body_start(const SreState *st)
{
    if (st->codesize > 1 && st->code[0] == SOP_INFO) {
        return 1 + (Py_ssize_t)st->code[1];
    }
    return 0;
}

/* Try to match at `start` exactly. */
static int
attempt(SreState *st, Py_ssize_t start)
{
    for (Py_ssize_t i = 0; i < st->nmarks; i++) {
        st->marks[i] = -1;
    }
    st->lastindex = -1;
    st->top = 0;
    st->nreps = 0;
    Cursor cur = {body_start(st), start, -1, -1};
    for (;;) {
        if (check_signals(st) < 0) {
            return -1;
        }
        int r = step(st, &cur, start);
        if (r == 2) {
            st->match_start = start;
            return 1;
        }
        if (r < 0) {
            return -1;
        }
        if (r == 1) {
            r = backtrack(st, &cur);
            if (r <= 0) {
                return r;
            }
        }
    }
}

int
_PySre_Match(SreState *st)
{
    if (st->start > st->end) {
        return 0;
    }
    return attempt(st, st->start);
}

/* The INFO block's promises: shortest match, first-character filter. */
typedef struct {
    Py_ssize_t min;
    int has_prefix;
    SreCode first;
    Py_ssize_t charset;     /* index of the charset, or -1 */
} InfoHints;

static void
read_info(const SreState *st, InfoHints *h)
{
    const SreCode *code = st->code;
    h->min = 0;
    h->has_prefix = 0;
    h->charset = -1;
    if (st->codesize < 5 || code[0] != SOP_INFO) {
        return;
    }
    SreCode flags = code[2];
    h->min = (Py_ssize_t)code[3];
    if ((flags & SRE_INFO_PREFIX) && code[5] > 0 && 7 < st->codesize) {
        h->has_prefix = 1;
        h->first = code[7];
    }
    else if (flags & SRE_INFO_CHARSET) {
        h->charset = 5;
    }
}

int
_PySre_Search(SreState *st)
{
    if (st->start > st->end) {
        return 0;
    }
    InfoHints h;
    read_info(st, &h);
    int must_advance = st->must_advance;
    for (Py_ssize_t s = st->start; s <= st->end; s++) {
        if (st->end - s < h.min) {
            break;
        }
        if (h.has_prefix || h.charset >= 0) {
            if (s >= st->end) {
                break;
            }
            Py_UCS4 ch = sre_char(st, s);
            if (h.has_prefix ? ch != h.first
                             : !_PySre_InSet(st->code, h.charset, st->codesize, ch)) {
                continue;
            }
        }
        st->must_advance = must_advance && s == st->start;
        int r = attempt(st, s);
        if (r != 0) {
            st->must_advance = must_advance;
            return r;
        }
        if (check_signals(st) < 0) {
            return -1;
        }
    }
    st->must_advance = must_advance;
    return 0;
}
