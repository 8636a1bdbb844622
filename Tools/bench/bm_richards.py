"""An operating-system scheduler simulation: prioritized task objects
passing packets through their inboxes (method calls, attribute access,
small lists).

A clock task ticks at the lowest priority and "interrupts" one of two
devices per tick (a shift register picks which).  A producer fills job
packets with letters and hands them to two handlers in turn; each handler
feeds its job one letter at a time to its device through a pool of slot
packets, and returns the job when it is used up.  The size is the number
of clock ticks.
"""

from benchlib import main

JOB = 0
SLOT = 1


class Packet:
    def __init__(self, kind, owner):
        self.kind = kind
        self.owner = owner
        self.data = ""
        self.cursor = 0


class Task:
    def __init__(self, kernel, name, priority, waits):
        self.kernel = kernel
        self.name = name
        self.priority = priority
        self.inbox = []
        self.waits = waits          # runs only when a packet is waiting
        self.asleep = False         # put to sleep until woken by the clock
        kernel.adopt(self)

    def can_run(self):
        if self.asleep:
            return False
        return bool(self.inbox) or not self.waits

    def receive(self):
        return self.inbox.pop(0)


class Kernel:
    def __init__(self):
        self.tasks = []
        self.switches = 0
        self.halted = False

    def adopt(self, task):
        at = 0
        while at < len(self.tasks) and self.tasks[at].priority >= task.priority:
            at += 1
        self.tasks.insert(at, task)

    def post(self, packet, task):
        task.inbox.append(packet)

    def run(self):
        while not self.halted:
            for task in self.tasks:
                if task.can_run():
                    break
            else:
                return
            self.switches += 1
            task.step()


class Clock(Task):
    def __init__(self, kernel, ticks, devices):
        Task.__init__(self, kernel, "clock", 0, False)
        self.ticks = ticks
        self.devices = devices
        self.shift = 1

    def step(self):
        self.ticks -= 1
        if self.ticks == 0:
            self.kernel.halted = True
            return
        if self.shift & 1:
            self.shift = (self.shift >> 1) ^ 0xB400
            self.devices[1].asleep = False
        else:
            self.shift >>= 1
            self.devices[0].asleep = False


class Producer(Task):
    LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

    def __init__(self, kernel, priority):
        Task.__init__(self, kernel, "producer", priority, True)
        self.handlers = []
        self.turn = 0
        self.letter = 0
        for _ in range(2):
            self.inbox.append(Packet(JOB, self))

    def step(self):
        job = self.receive()
        text = []
        for _ in range(4):
            text.append(self.LETTERS[self.letter])
            self.letter = (self.letter + 1) % len(self.LETTERS)
        job.data = "".join(text)
        job.cursor = 0
        job.owner = self
        self.kernel.post(job, self.handlers[self.turn])
        self.turn ^= 1


class Handler(Task):
    def __init__(self, kernel, name, priority, device, slots):
        Task.__init__(self, kernel, name, priority, True)
        self.device = device
        self.jobs = []
        self.free = [Packet(SLOT, self) for _ in range(slots)]

    def step(self):
        packet = self.receive()
        if packet.kind == JOB:
            self.jobs.append(packet)
        else:
            self.free.append(packet)
        while self.jobs:
            job = self.jobs[0]
            if job.cursor == len(job.data):
                self.jobs.pop(0)
                self.kernel.post(job, job.owner)
                continue
            if not self.free:
                break
            slot = self.free.pop()
            slot.data = job.data[job.cursor]
            job.cursor += 1
            self.kernel.post(slot, self.device)


class Device(Task):
    def __init__(self, kernel, name, priority):
        Task.__init__(self, kernel, name, priority, True)
        self.printed = 0
        self.digest = 0

    def step(self):
        slot = self.receive()
        self.printed += 1
        self.digest = (self.digest * 31 + ord(slot.data)) % 1000003
        self.kernel.post(slot, slot.owner)
        self.asleep = True


def simulate(ticks):
    kernel = Kernel()
    devices = [Device(kernel, "dev-a", 9), Device(kernel, "dev-b", 8)]
    handlers = [Handler(kernel, "hnd-a", 6, devices[0], 3),
                Handler(kernel, "hnd-b", 5, devices[1], 2)]
    producer = Producer(kernel, 3)
    producer.handlers = handlers
    Clock(kernel, ticks, devices)
    kernel.run()
    return (kernel.switches,
            devices[0].printed, devices[0].digest,
            devices[1].printed, devices[1].digest)


def workload(size):
    total = ()
    for round_ in range(4):
        total = simulate(size + round_)
    return total


if __name__ == "__main__":
    main(workload, default=60000, quick=3000,
         expect={60000: '(200949, 28192, 866551, 28185, 218530)',
                 3000: '(9961, 1393, 435406, 1388, 618137)'})
