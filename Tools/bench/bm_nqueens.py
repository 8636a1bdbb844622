"""Count the ways to place n queens on an n x n board (recursion, sets,
list mutation).

A depth-first search fills one row at a time, keeping the occupied
columns and both diagonal directions in three sets; a placed row is
pushed onto a list and popped when the search backs out.  Every solution
found is folded into a digest of its column list.  The size is n; the board
of n - 1 is counted too, and that of n twice.
"""

from benchlib import main


class Board:
    def __init__(self, n):
        self.n = n
        self.columns = set()
        self.rising = set()       # row + column is constant on these
        self.falling = set()      # row - column is constant on these
        self.placed = []
        self.found = 0
        self.digest = 0

    def free(self, row, col):
        return (col not in self.columns and (row + col) not in self.rising
                and (row - col) not in self.falling)

    def search(self, row):
        if row == self.n:
            self.found += 1
            code = 0
            for col in self.placed:
                code = code * self.n + col
            self.digest = (self.digest + code) % 1000000007
            return
        for col in range(self.n):
            if self.free(row, col):
                self.columns.add(col)
                self.rising.add(row + col)
                self.falling.add(row - col)
                self.placed.append(col)
                self.search(row + 1)
                self.placed.pop()
                self.columns.remove(col)
                self.rising.remove(row + col)
                self.falling.remove(row - col)


def workload(size):
    results = []
    for n in (size - 1, size, size):
        board = Board(n)
        board.search(0)
        results.append(board.found)
        results.append(board.digest)
    return tuple(results)


if __name__ == "__main__":
    main(workload, default=11, quick=6,
         expect={11: '(724, 999974305, 2680, 635941181, 2680, 635941181)',
                 6: '(10, 15620, 4, 93310, 4, 93310)'})
