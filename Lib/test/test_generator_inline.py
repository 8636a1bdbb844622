# FOR_ITER_GEN and SEND_GEN run a generator's frame in the caller's own
# interpreter loop.  Each case runs enough times for the loop or the
# `yield from`/`await` to specialize, and must behave as the generic path.
import sys

REPEAT = 40


def count(n):
    for i in range(n):
        yield i
    return "done"


def summed():
    total = 0
    for x in count(50):
        total += x
    return total


print("sum", {summed() for _ in range(REPEAT)})


def delegate():
    result = yield from count(3)
    yield result


print("yield from", [list(delegate()) for _ in range(3)][-1])


def echo():
    received = []
    while True:
        value = yield len(received)
        if value is None:
            return received
        received.append(value)


def forwarder():
    return (yield from echo())


for _ in range(REPEAT):
    g = forwarder()
    next(g)
    g.send("a")
    g.send("b")
    try:
        g.send(None)
    except StopIteration as stop:
        last = stop.value
print("sent through", last)


def raises_after(n):
    for i in range(n):
        yield i
    raise KeyError("late")


def catch_it():
    seen = []
    try:
        for v in raises_after(2):
            seen.append(v)
    except KeyError as e:
        return seen, e.args
    return seen, None


print("exception", {repr(catch_it()) for _ in range(REPEAT)})


def stopiteration_inside():
    yield 1
    raise StopIteration("bad")


for _ in range(REPEAT):
    try:
        for _v in stopiteration_inside():
            pass
    except RuntimeError as e:
        msg = str(e)
print("StopIteration inside:", msg)


def back_name():
    yield sys._getframe(1).f_code.co_name
    yield sys._getframe().f_back.f_code.co_name


def looking_caller():
    return [n for n in back_name()]


def plain_for_caller():
    out = []
    for n in back_name():
        out.append(n)
    return out


print("f_back", {tuple(plain_for_caller()) for _ in range(REPEAT)}, looking_caller())


def closing_loop():
    g = count(10)
    seen = []
    for v in g:
        seen.append(v)
        if v == 2:
            g.close()
    return seen


print("closed mid-loop", {tuple(closing_loop()) for _ in range(REPEAT)})


def self_iterating():
    yield next(me)


for _ in range(3):
    me = self_iterating()
    try:
        for _v in me:
            pass
    except ValueError as e:
        print("reentry:", e)


def deep(n):
    if n:
        for v in deep(n - 1):
            yield v
    else:
        yield "bottom"


for _ in range(REPEAT):
    out = list(deep(50))
print("nested generators", out)

old_limit = sys.getrecursionlimit()
sys.setrecursionlimit(200)
try:
    for _ in range(3):
        try:
            for _v in deep(1000):
                pass
        except RecursionError:
            print("RecursionError from deep generator chain")
finally:
    sys.setrecursionlimit(old_limit)


async def leaf(x):
    return x * 2


async def middle(x):
    return await leaf(x) + 1


async def top(n):
    total = 0
    for i in range(n):
        total += await middle(i)
    return total


def run(coro):
    try:
        coro.send(None)
    except StopIteration as stop:
        return stop.value


print("await chain", run(top(REPEAT)))


async def reuse():
    c = leaf(1)
    await c
    for _ in range(REPEAT):
        try:
            await c
        except RuntimeError as e:
            msg = str(e)
    return msg


print("reawait:", run(reuse()))

# Tracing switched on from inside an inlined generator: the caller's loop
# must go on correctly and the tracer sees the generator's events.
events = []


def tracer(frame, event, arg):
    if frame.f_code.co_name in ("traced_gen", "traced_loop"):
        events.append((frame.f_code.co_name, event))
    return tracer


def traced_gen():
    yield 1
    sys.settrace(tracer)
    yield 2
    yield 3


def traced_loop():
    out = []
    for v in traced_gen():
        out.append(v)
    return out


for _ in range(REPEAT - 1):
    sys.settrace(None)
    traced_loop()
sys.settrace(None)
events.clear()
res = traced_loop()
sys.settrace(None)
print("traced", res, events.count(("traced_gen", "return")) >= 1)

# The generator's exception state is its own while it runs inline.


def exc_state():
    yield sys.exception()
    try:
        raise OSError("inside")
    except OSError:
        yield sys.exception()
    yield sys.exception()


def exc_caller():
    try:
        raise TypeError("outside")
    except TypeError:
        return tuple(type(e).__name__ for e in exc_state()), type(sys.exception()).__name__


print("exc state", {exc_caller() for _ in range(REPEAT)})
