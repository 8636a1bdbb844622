"""Random playouts of Go on a 9 x 9 board (lists, flood fill, method
calls, small-int arithmetic).

The board is a flat list with a one-point border.  A move is legal when
the point is empty, is not the simple-ko point, and the stone would have
a liberty after captures.  Each side plays a pseudo-random legal move
that does not fill one of its own eyes, or passes; two passes end the
game, which is scored by area.  The size is the number of games.
"""

from benchlib import Lcg, main

EMPTY, BLACK, WHITE, EDGE = 0, 1, 2, 3
SIDE = 9
WIDTH = SIDE + 2


class Board:
    def __init__(self):
        self.cells = [EDGE] * (WIDTH * WIDTH)
        self.points = []
        for row in range(1, SIDE + 1):
            for col in range(1, SIDE + 1):
                self.cells[row * WIDTH + col] = EMPTY
                self.points.append(row * WIDTH + col)
        self.steps = (1, -1, WIDTH, -WIDTH)
        self.ko = -1
        self.captured = [0, 0, 0]

    def group(self, start):
        """The stones connected to start and whether any has a liberty."""
        colour = self.cells[start]
        stones = [start]
        member = {start}
        free = False
        at = 0
        while at < len(stones):
            p = stones[at]
            at += 1
            for d in self.steps:
                q = p + d
                c = self.cells[q]
                if c == EMPTY:
                    free = True
                elif c == colour and q not in member:
                    member.add(q)
                    stones.append(q)
        return stones, free

    def own_eye(self, p, colour):
        for d in self.steps:
            c = self.cells[p + d]
            if c != colour and c != EDGE:
                return False
        return True

    def play(self, p, colour):
        """Place a stone; False (and no change) when the move is illegal."""
        if self.cells[p] != EMPTY or p == self.ko:
            return False
        cells = self.cells
        cells[p] = colour
        enemy = BLACK + WHITE - colour
        taken = []
        for d in self.steps:
            q = p + d
            if cells[q] == enemy:
                stones, free = self.group(q)
                if not free:
                    for s in stones:
                        cells[s] = EMPTY
                    taken.extend(stones)
        if not taken:
            _, free = self.group(p)
            if not free:
                cells[p] = EMPTY
                return False
        self.captured[colour] += len(taken)
        self.ko = taken[0] if len(taken) == 1 else -1
        return True

    def score(self):
        totals = [0, 0, 0, 0]
        for p in self.points:
            c = self.cells[p]
            if c != EMPTY:
                totals[c] += 1
                continue
            seen = 0
            for d in self.steps:
                n = self.cells[p + d]
                if n == BLACK or n == WHITE:
                    seen |= n
            if seen == BLACK or seen == WHITE:
                totals[seen] += 1
        return totals[BLACK] - totals[WHITE]


def playout(rng):
    board = Board()
    colour = BLACK
    passes = 0
    moves = 0
    while passes < 2 and moves < 400:
        options = [p for p in board.points
                   if board.cells[p] == EMPTY and not board.own_eye(p, colour)]
        played = False
        while options:
            k = rng.below(len(options))
            p = options[k]
            options[k] = options[-1]
            options.pop()
            if board.play(p, colour):
                played = True
                break
        if played:
            passes = 0
            moves += 1
        else:
            passes += 1
            board.ko = -1
        colour = BLACK + WHITE - colour
    return board.score(), moves, board.captured[BLACK] + board.captured[WHITE]


def workload(size):
    rng = Lcg(99)
    black_wins = 0
    margin = 0
    moves = 0
    captures = 0
    for _ in range(size):
        score, n, caught = playout(rng)
        if score > 0:
            black_wins += 1
        margin += score
        moves += n
        captures += caught
    return (black_wins, margin, moves, captures)


if __name__ == "__main__":
    main(workload, default=80, quick=4,
         expect={80: '(41, 546, 10586, 5332)',
                 4: '(3, 14, 421, 164)'})
