"""An incremental constraint solver with constraint strengths (objects,
method dispatch through subclasses, lists, recursion).

Each variable is written by at most one constraint.  Adding a constraint
binds one of its variables as its output: a free one if there is one,
else one held by a weaker constraint, which is then unbound and tries to
bind elsewhere, else one whose stronger holder can itself move to
another variable the same way.  Removing one lets the unsatisfied
constraints near the freed variable try again, strongest first.  To
propagate an edit the solver orders the constraints downstream of the
edited variable (a topological sort) and runs each one's method.

Two scenes: a chain of equalities edited at its head, and pairs of
variables tied by linear maps edited at either end.  The size is the
length of the chain and the number of pairs.
"""

from benchlib import main

REQUIRED, STRONG, MEDIUM, WEAK = 0, 1, 2, 3      # smaller is stronger


class Var:
    def __init__(self, name, value):
        self.name = name
        self.value = value
        self.owner = None
        self.users = []
        self.mark = 0


class Constraint:
    def __init__(self, strength, variables):
        self.strength = strength
        self.variables = variables
        self.output = None
        for v in variables:
            v.users.append(self)

    def candidates(self):
        return self.variables

    def inputs(self):
        return [v for v in self.variables if v is not self.output]

    def detach(self):
        for v in self.variables:
            v.users.remove(self)

    def compute(self):
        pass


class Stay(Constraint):
    def __init__(self, var, strength):
        Constraint.__init__(self, strength, [var])


class Edit(Constraint):
    def __init__(self, var, strength):
        Constraint.__init__(self, strength, [var])


class Equal(Constraint):
    def __init__(self, a, b, strength):
        Constraint.__init__(self, strength, [a, b])

    def candidates(self):
        return (self.variables[1], self.variables[0])

    def compute(self):
        a, b = self.variables
        if self.output is b:
            b.value = a.value
        else:
            a.value = b.value


class Linear(Constraint):
    """dst = src * scale + offset, solvable for either side."""

    def __init__(self, src, dst, scale, offset, strength):
        Constraint.__init__(self, strength, [src, dst])
        self.scale = scale
        self.offset = offset

    def candidates(self):
        return (self.variables[1], self.variables[0])

    def compute(self):
        src, dst = self.variables
        if self.output is dst:
            dst.value = src.value * self.scale + self.offset
        else:
            src.value = (dst.value - self.offset) // self.scale


class Unsatisfiable(Exception):
    pass


class Solver:
    def __init__(self):
        self.constraints = []
        self.epoch = 0

    def add(self, c):
        self.constraints.append(c)
        self.epoch += 1
        if not self.bind(c, self.epoch) and c.strength == REQUIRED:
            raise Unsatisfiable(c)

    def bind(self, c, epoch):
        return self.claim(c, c.strength, epoch, None)

    def claim(self, c, limit, epoch, avoid):
        """Find c an output other than avoid, unbinding only constraints
        weaker than limit; a stronger holder may move to another of its
        own variables to make room."""
        options = [v for v in c.candidates() if v is not avoid]
        for v in options:
            if v.owner is None:
                self.hand_over(c, v)
                return True
        for v in options:
            if v.mark == epoch:
                continue
            v.mark = epoch
            holder = v.owner
            if holder.strength > limit:
                holder.output = None
                self.hand_over(c, v)
                self.claim(holder, holder.strength, epoch, None)
                return True
            if self.claim(holder, limit, epoch, v):
                self.hand_over(c, v)
                return True
        return False

    def hand_over(self, c, v):
        old = c.output
        if old is not None and old.owner is c:
            old.owner = None
        v.owner = c
        c.output = v

    def remove(self, c):
        self.constraints.remove(c)
        c.detach()
        freed = c.output
        if freed is None:
            return
        freed.owner = None
        c.output = None
        # Only constraints touching the freed variable, or what was
        # computed from it, can be helped by its release.
        touched = [freed]
        seen = {freed}
        waiting = []
        at = 0
        while at < len(touched):
            v = touched[at]
            at += 1
            for user in v.users:
                out = user.output
                if out is None:
                    if user not in waiting:
                        waiting.append(user)
                elif out is not v and out not in seen:
                    seen.add(out)
                    touched.append(out)
        waiting.sort(key=lambda k: k.strength)
        self.epoch += 1
        for k in waiting:
            if k.output is None:
                self.bind(k, self.epoch)

    def plan_from(self, sources):
        """Constraints downstream of sources, each after its inputs."""
        reached = []
        pending = [c for c in sources if c.output is not None]
        members = set(pending)
        while pending:
            c = pending.pop()
            reached.append(c)
            for user in c.output.users:
                if user.output is not None and user.output is not c.output \
                        and user not in members:
                    members.add(user)
                    pending.append(user)
        # Kahn's ordering: a constraint is ready once every input it reads
        # that some member writes has been written.
        waiting_on = {}
        for c in reached:
            waiting_on[c] = sum(1 for v in c.inputs() if v.owner in members)
        ready = [c for c in reached if waiting_on[c] == 0]
        order = []
        while ready:
            c = ready.pop()
            order.append(c)
            for user in c.output.users:
                if user in waiting_on and user.output is not c.output:
                    waiting_on[user] -= 1
                    if waiting_on[user] == 0:
                        ready.append(user)
        if len(order) != len(reached):
            raise Unsatisfiable("cycle in the plan")
        return order

    def run(self, plan):
        for c in plan:
            c.compute()


def chain_scene(n, edits):
    solver = Solver()
    chain = [Var(f"c{k}", 0) for k in range(n + 1)]
    for v in chain:
        solver.add(Stay(v, WEAK))
    for a, b in zip(chain, chain[1:]):
        solver.add(Equal(a, b, REQUIRED))
    edit = Edit(chain[0], STRONG)
    solver.add(edit)
    plan = solver.plan_from([edit])
    total = 0
    for value in range(edits):
        chain[0].value = value
        solver.run(plan)
        if chain[-1].value != value:
            raise AssertionError("chain did not propagate")
        total += chain[n // 2].value
    solver.remove(edit)
    return total + len(plan)


def pair_scene(n, edits):
    solver = Solver()
    scale = 3
    sources = []
    targets = []
    for k in range(n):
        src = Var(f"s{k}", k)
        dst = Var(f"d{k}", 0)
        solver.add(Stay(src, MEDIUM))
        solver.add(Stay(dst, WEAK))
        solver.add(Linear(src, dst, scale, k, REQUIRED))
        sources.append(src)
        targets.append(dst)
    solver.run(solver.plan_from(solver.constraints))
    total = 0
    for k in range(0, n, 7):
        for end, other in ((sources[k], targets[k]), (targets[k], sources[k])):
            edit = Edit(end, STRONG)
            solver.add(edit)
            plan = solver.plan_from([edit])
            for value in range(edits):
                end.value = value * scale + (k if end is targets[k] else 0)
                solver.run(plan)
                total += other.value
            solver.remove(edit)
    # After the edits every map holds again with the stays in charge.
    for k, (src, dst) in enumerate(zip(sources, targets)):
        if dst.value != src.value * scale + k:
            raise AssertionError("linear map broken")
    return total


def workload(size):
    return (chain_scene(size, 40), pair_scene(size, 20))


if __name__ == "__main__":
    main(workload, default=5000, quick=200,
         expect={5000: '(5781, 37094200)',
                 200: '(981, 111940)'})
