# Async generators (PEP 525): async for, the asend/athrow/aclose
# awaitables and their states, aiter()/anext(), the event-loop hooks,
# finalization, and how errors read.
import asyncio
import gc
import sys
import types
import warnings


@types.coroutine
def suspend():
    yield 'SUSPEND'


def step(aw, v=None):
    try:
        return ('yield', aw.send(v))
    except StopIteration as e:
        return ('stop', e.value)
    except BaseException as e:
        return ('exc', type(e).__name__, str(e))


def section(title):
    print('--', title)


async def counter(n):
    for i in range(n):
        yield i


async def basics():
    section('async for / comprehensions / aiter / anext')
    async for x in counter(3):
        print('item', x)
    else:
        print('else ran')
    print([x async for x in counter(4) if x % 2 == 0])
    print({x: x * x async for x in counter(3)})
    it = aiter(counter(2))
    print(await anext(it), await anext(it), await anext(it, 'default'))
    try:
        await anext(it)
    except StopAsyncIteration as e:
        print('exhausted', repr(e))
    for bad in (lambda: aiter(5), lambda: anext(5)):
        try:
            bad()
        except TypeError as e:
            print('TypeError:', e)

    class NotAnIterator:
        def __aiter__(self):
            return 5

    class BadNext:
        def __aiter__(self):
            return self

        def __anext__(self):
            return 5

    for obj in (5, NotAnIterator(), BadNext()):
        try:
            async for _ in obj:
                pass
        except TypeError as e:
            print('TypeError:', e, '| cause:', type(e.__cause__).__name__)
    try:
        aiter(NotAnIterator())
    except TypeError as e:
        print('TypeError:', e)


async def boom_stop_async():
    raise StopAsyncIteration
    yield


async def boom_stop():
    raise StopIteration
    yield


async def coro_stop():
    raise StopIteration


async def errors():
    section('PEP 479 / 525 conversions')
    for make in (boom_stop_async, boom_stop):
        try:
            await anext(make())
        except RuntimeError as e:
            print('RuntimeError:', e, '| cause:', type(e.__cause__).__name__)
    try:
        await coro_stop()
    except RuntimeError as e:
        print('RuntimeError:', e)

    async def ignores_exit():
        try:
            yield 1
        except GeneratorExit:
            yield 2

    a = ignores_exit()
    await anext(a)
    try:
        await a.aclose()
    except RuntimeError as e:
        print('RuntimeError:', e)


async def with_finally():
    try:
        await suspend()
        yield 1
        await suspend()
        yield 2
    finally:
        print('  finally ran')


def states():
    section('awaitable states')
    a = with_finally()
    x = a.asend(None)
    print(step(x), a.ag_running, type(a.ag_await).__name__)
    print(step(a.__anext__()))
    print(step(x), a.ag_running)
    print(step(x))
    z = a.__anext__()
    print(step(z), step(z))
    print(step(a.aclose()))
    print(step(a.__anext__()))
    print(step(a.aclose()), step(a.athrow(ValueError)))

    section('athrow / aclose')
    b = with_finally()
    print(step(b.athrow(ValueError('early'))))
    print(step(b.athrow(ValueError)))
    c = with_finally()
    print(step(c.asend(1)))
    c = with_finally()
    print(step(c.__anext__()))
    t = c.athrow(KeyError('k'))
    print(step(t, 5), step(t))
    d = with_finally()
    t = d.aclose()
    print(step(t), step(t))
    e = with_finally()
    s = e.asend(None)
    print(step(s), step(s))
    t = e.athrow(KeyError('k'))
    print(step(t))
    try:
        t.throw(ValueError)
    except BaseException as ex:
        print(type(ex).__name__, ex)
    print(step(e.aclose()))

    section('close() of a step')
    f = with_finally()
    s = f.asend(None)
    print(step(s))
    print(s.close(), f.ag_running, step(f.__anext__()))
    g = with_finally()
    s = g.asend(None)
    s.close()
    print(step(s), step(g.asend(None)))

    section('the awaitables themselves')
    n = counter(1).__anext__()
    print(type(n).__name__, n.__await__() is n, iter(n) is n)
    print(step(n))
    for aw in (counter(1).athrow(ValueError), anext(counter(1), 0)):
        print(type(aw).__name__, aw.close())


def never_awaited():
    section('never-awaited steps warn')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        counter(1).asend(None)
        counter(1).aclose()
        gc.collect()
    for w in caught:
        print(w.category.__name__, w.message)


def hooks():
    section('sys.set_asyncgen_hooks')
    seen = []
    old = sys.get_asyncgen_hooks()
    sys.set_asyncgen_hooks(firstiter=lambda g: seen.append(('first', g.__name__)),
                           finalizer=lambda g: seen.append(('final', g.__name__)))
    a = counter(3)
    print(step(a.__anext__()))
    print(step(a.__anext__()))
    del a
    gc.collect()
    print(seen)
    print(sys.get_asyncgen_hooks().firstiter is not None)
    sys.set_asyncgen_hooks(*old)
    print(sys.get_asyncgen_hooks())
    try:
        sys.set_asyncgen_hooks(firstiter=5)
    except TypeError as e:
        print('TypeError:', e)


def yield_from_throw():
    section('throw() into yield from')

    def sub():
        try:
            yield 1
        except KeyError:
            return 'sub returned'

    def outer():
        r = yield from sub()
        print('  yield from gave', r)
        yield 2

    g = outer()
    next(g)
    print(g.throw(KeyError))

    def catches():
        try:
            raise KeyError('a')
        except Exception:
            yield

    g = catches()
    next(g)
    try:
        g.throw(ValueError)
    except ValueError as e:
        print('context:', repr(e.__context__))

    def names():
        yield sys._getframe(1).f_code.co_name
        yield [sys._getframe(i).f_code.co_name for i in range(2)]

    class Probe(Exception):
        pass

    def inner():
        try:
            yield
        except Probe:
            yield [sys._getframe(i).f_code.co_name for i in range(2)]

    def delegator():
        yield from inner()

    d = delegator()
    next(d)
    print('stack in throw:', d.throw(Probe))

    lam = lambda: (yield from sub())
    g = lam()
    next(g)
    try:
        g.throw(KeyError)
    except StopIteration as e:
        print('lambda generator returned', e.value)

    class BadNew(Exception):
        def __new__(cls, *args, **kwargs):
            return cls

    def boring():
        yield

    g = boring()
    try:
        g.throw(BadNew)
    except TypeError as e:
        print('TypeError:', e)
    print(step(g))


def origins():
    section('coroutine origin tracking')
    print(sys.get_coroutine_origin_tracking_depth())
    sys.set_coroutine_origin_tracking_depth(2)

    async def co():
        pass

    def make():
        return co()

    c = make()
    print([entry[1:] for entry in c.cr_origin])
    c.close()
    sys.set_coroutine_origin_tracking_depth(0)
    c = make()
    print(c.cr_origin)
    c.close()
    try:
        sys.set_coroutine_origin_tracking_depth(-1)
    except ValueError as e:
        print('ValueError:', e)

    def plain(c):
        yield from c

    c = co()
    try:
        list(plain(c))
    except TypeError as e:
        print('TypeError:', e)
    c.close()


async def with_loop():
    section('under asyncio')
    done = []

    async def target():
        await asyncio.sleep(0.001)
        1 / 0

    async def foo():
        task = asyncio.create_task(target())
        try:
            yield 1
        finally:
            try:
                await task
            except ZeroDivisionError:
                done.append('cleanup awaited the task')

    gen = foo()
    await gen.__anext__()
    await gen.aclose()
    print(done)

    async def ticker():
        for i in range(3):
            await asyncio.sleep(0)
            yield i

    print([i async for i in ticker()])
    print(await asyncio.gather(*(anext(ticker()) for _ in range(3))))


asyncio.run(basics())
asyncio.run(errors())
states()
never_awaited()
hooks()
yield_from_throw()
origins()
asyncio.run(with_loop())
