# What 'async with', 'with' and 'await' say about objects that lack part of
# their protocol.
import asyncio
class CM:
    def __aenter__(self): pass
class CM2:
    def __aexit__(self, *a): pass
class CM3:
    def __aenter__(self): return 123
    def __aexit__(self, *e): return 456
class CM4:
    async def __aenter__(self): return 1
    def __aexit__(self, *e): return 456
class W:
    def __enter__(self): pass
for c in (CM, CM2, CM3, CM4, W):
    async def foo():
        async with c(): pass
    try: asyncio.run(foo())
    except TypeError as e: print(e)
for c in (W, CM):
    try:
        with c(): pass
    except TypeError as e: print(e)
async def f():
    await 5
try: asyncio.run(f())
except TypeError as e: print(e)
