"""Coroutines under a small hand-written scheduler (no asyncio): ``async
def`` functions awaiting each other, awaitables implemented with
``__await__``, suspension and resumption through ``send``.

Twenty-four workers pass four tokens around a ring of channels, so most
receives suspend; now and then a worker sleeps for a few ticks of a
virtual clock or computes a recursive value through nested awaits that
never suspend.  The size is the number of tokens each worker passes on.
"""

from collections import deque

from benchlib import main


class Pause:
    """Await this to give up the processor for some ticks."""

    def __init__(self, ticks):
        self.ticks = ticks

    def __await__(self):
        yield self


class Channel:
    def __init__(self):
        self.items = deque()
        self.readers = deque()

    def put(self, value, loop):
        if self.readers:
            loop.wake(self.readers.popleft(), value)
        else:
            self.items.append(value)


class Receive:
    def __init__(self, channel):
        self.channel = channel

    def __await__(self):
        channel = self.channel
        if channel.items:
            return channel.items.popleft()
        value = yield self
        return value


class Loop:
    def __init__(self):
        self.now = 0
        self.runnable = deque()
        self.sleepers = {}
        self.switches = 0

    def spawn(self, coro):
        self.runnable.append((coro, None))

    def wake(self, coro, value):
        self.runnable.append((coro, value))

    def run(self):
        while self.runnable or self.sleepers:
            if not self.runnable:
                self.now = min(self.sleepers)
                for coro in self.sleepers.pop(self.now):
                    self.runnable.append((coro, None))
            coro, value = self.runnable.popleft()
            self.switches += 1
            try:
                request = coro.send(value)
            except StopIteration:
                continue
            if isinstance(request, Pause):
                self.sleepers.setdefault(self.now + request.ticks, []).append(coro)
            else:
                request.channel.readers.append(coro)


async def tally(n):
    if n < 2:
        return n
    return await tally(n - 1) + await tally(n - 2)


async def worker(loop, index, inbox, outbox, rounds, results):
    total = 0
    for k in range(rounds):
        token = await Receive(inbox)
        total += token
        if k % 16 == index % 16:
            await Pause(1 + index % 3)
        if k % 64 == 0:
            total += await tally(10)
        outbox.put(token + index, loop)
    results[index] = total


def workload(size):
    loop = Loop()
    ring = [Channel() for _ in range(24)]
    results = {}
    for index in range(24):
        loop.spawn(worker(loop, index, ring[index], ring[(index + 1) % 24], size, results))
    for index in range(0, 24, 6):
        ring[index].put(index, loop)
    loop.run()
    return (sum(results.values()) % 1000000007, loop.switches, loop.now)


if __name__ == "__main__":
    main(workload, default=16000, quick=400,
         expect={16000: '(968456523, 341005, 33000)',
                 400: '(132492440, 8530, 825)'})
