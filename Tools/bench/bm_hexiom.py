"""A hexagonal tile puzzle solved by backtracking search (recursion,
lists, dicts, early pruning).

A puzzle is a hexagon of cells and a bag of numbered tiles; a solution
puts tiles on some cells so that every tile's number equals how many of
its six neighbours hold tiles.  Puzzles are made from a pseudo-random
layout (the tiles are its neighbour counts) with a few tiles pinned in
place as hints.  The solver fills cells in a fixed order, each with
"no tile" or one of the remaining numbers, and backs out as soon as some
tile can no longer reach its number.  It counts every solution.  The
size is the number of puzzles.
"""

from benchlib import Lcg, main

DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
UNSET = -2
HOLE = -1


class Hexagon:
    def __init__(self, radius):
        self.cells = []
        index = {}
        for q in range(-radius + 1, radius):
            for r in range(-radius + 1, radius):
                if abs(q + r) < radius:
                    index[(q, r)] = len(self.cells)
                    self.cells.append((q, r))
        self.around = []
        for q, r in self.cells:
            near = []
            for dq, dr in DIRECTIONS:
                k = index.get((q + dq, r + dr))
                if k is not None:
                    near.append(k)
            self.around.append(near)


class Puzzle:
    def __init__(self, shape, rng, hints):
        self.shape = shape
        n = len(shape.cells)
        filled = [rng.below(100) < 62 for _ in range(n)]
        self.bag = {}
        self.pinned = {}
        answer = []
        for k in range(n):
            if filled[k]:
                value = sum(1 for j in shape.around[k] if filled[j])
                answer.append(value)
                self.bag[value] = self.bag.get(value, 0) + 1
            else:
                answer.append(HOLE)
        self.holes = n - sum(self.bag.values())
        for k in range(n):
            if len(self.pinned) >= hints:
                break
            if rng.below(4) == 0:
                self.pinned[k] = answer[k]


class Solver:
    def __init__(self, puzzle):
        self.shape = puzzle.shape
        self.puzzle = puzzle
        self.board = [UNSET] * len(self.shape.cells)
        self.bag = dict(puzzle.bag)
        self.holes = puzzle.holes
        for k, value in puzzle.pinned.items():
            self.board[k] = value
            if value == HOLE:
                self.holes -= 1
            else:
                self.bag[value] -= 1
        self.solutions = 0
        self.first = None
        self.nodes = 0

    def still_possible(self, k):
        """Can cell k and each of its neighbours still meet its number?"""
        board = self.board
        around = self.shape.around
        for cell in [k] + around[k]:
            value = board[cell]
            if value < 0:
                continue
            sure = 0
            maybe = 0
            for j in around[cell]:
                b = board[j]
                if b == UNSET:
                    maybe += 1
                elif b != HOLE:
                    sure += 1
            if sure > value or sure + maybe < value:
                return False
        return True

    def solve(self, k=0):
        self.nodes += 1
        n = len(self.board)
        while k < n and self.board[k] != UNSET:
            k += 1
        if k == n:
            for cell in range(n):
                if not self.still_possible(cell):
                    return
            self.solutions += 1
            if self.first is None:
                self.first = tuple(self.board)
            return
        if self.holes > 0:
            self.holes -= 1
            self.board[k] = HOLE
            if self.still_possible(k):
                self.solve(k + 1)
            self.holes += 1
        for value in sorted(self.bag):
            if self.bag[value] == 0:
                continue
            self.bag[value] -= 1
            self.board[k] = value
            if self.still_possible(k):
                self.solve(k + 1)
            self.bag[value] += 1
        self.board[k] = UNSET


def workload(size):
    shape = Hexagon(3)
    rng = Lcg(31337)
    solutions = 0
    nodes = 0
    digest = 0
    for _ in range(size):
        solver = Solver(Puzzle(shape, rng, 3))
        solver.solve()
        solutions += solver.solutions
        nodes += solver.nodes
        for value in solver.first:
            digest = (digest * 11 + value + 2) % 1000003
    return (solutions, nodes, digest)


if __name__ == "__main__":
    main(workload, default=45, quick=3,
         expect={45: '(1300, 212600, 68009)',
                 3: '(81, 9721, 837702)'})
