"""Q-Game: place tiles, as many and as well-scoring as a quick greedy search finds.

The server's legal list is a sample (crates/games/qgame/RULES.md): "pass", "replace"
when the pile allows, and every single-tile placement. This bot scores each single
tile as the rules score it, then tries to extend the best ones along their row or
column with more tiles from the hand (checking the fit rule itself), and plays the
best placement found. With no placement it replaces its hand (or passes).
A refused multi-tile placement (should our own check be wrong) costs nothing in a
native match: the next try uses only the server's single-tile placements.
"""


def decide(view, legal, prompt):
    singles = [a for a in legal if isinstance(a, list)]
    if not singles:
        return "replace" if "replace" in legal else "pass"
    game = Game(view)
    ranked = sorted(singles, key=lambda a: -game.points(a))
    if prompt.get("rejected"):
        return ranked[0]  # our own search was wrong once: stay with the server's list
    best, best_points = ranked[0], game.points(ranked[0])
    for start in ranked[:8]:
        for along in ((0, 1), (1, 0)):  # extend along the row, then along the column
            placement = game.extend(start, along)
            points = game.points(placement)
            if points > best_points:
                best, best_points = placement, points
    return best


def key(placement):
    c = placement["coordinate"]
    return (c["row"], c["column"])


class Game:
    def __init__(self, view):
        self.board = {}
        for row in view["map"]:
            r = row[0]
            for column, tile in row[1:]:
                self.board[(r, column)] = tile
        me = view["players"][view["you"]]
        self.hand = me["hand"]
        self.qbo, self.fbo = view.get("qbo", 8), view.get("fbo", 4)

    def fits(self, board, cell, tile):
        """The fit rule, on both axes (RULES.md: "How to play", a turn)."""
        r, c = cell
        if cell in board:
            return False
        touching = False
        for axis in (((0, -1), (0, 1)), ((-1, 0), (1, 0))):
            neighbours = [board[(r + dr, c + dc)] for dr, dc in axis if (r + dr, c + dc) in board]
            touching = touching or bool(neighbours)
            if len(neighbours) == 1:
                n = neighbours[0]
                if n["shape"] != tile["shape"] and n["color"] != tile["color"]:
                    return False
            elif len(neighbours) == 2:
                if not (all(n["shape"] == tile["shape"] for n in neighbours)
                        or all(n["color"] == tile["color"] for n in neighbours)):
                    return False
        return touching

    def extend(self, start, along):
        """Grow a single-tile placement with hand tiles at the ends of its line."""
        board = dict(self.board)
        hand = list(self.hand)
        placement = []
        for p in start:
            board[key(p)] = p["1tile"]
            hand.remove(p["1tile"])
            placement.append(p)
        grown = True
        while grown and hand:
            grown = False
            for end in self.ends(board, key(placement[0]), along):
                for tile in hand:
                    if self.fits(board, end, tile):
                        board[end] = tile
                        hand.remove(tile)
                        placement.append({"coordinate": {"row": end[0], "column": end[1]}, "1tile": tile})
                        grown = True
                        break
                if grown:
                    break
        return placement

    @staticmethod
    def ends(board, cell, along):
        """The empty cells just past both ends of the run through `cell`."""
        dr, dc = along
        found = []
        for sign in (1, -1):
            r, c = cell
            while (r, c) in board:
                r, c = r + sign * dr, c + sign * dc
            found.append((r, c))
        return found

    def points(self, placement):
        """The rules' score of a placement (tiles, runs, Q bonus, finish bonus)."""
        board = dict(self.board)
        for p in placement:
            board[key(p)] = p["1tile"]
        cells = [key(p) for p in placement]
        row_line = len(cells) == 1 or len({r for r, _ in cells}) == 1
        along, across = ((0, 1), (1, 0)) if row_line else ((1, 0), (0, 1))
        total = len(cells)
        seen = set()
        for cell in cells:
            run = self.run(board, cell, along)
            if len(run) >= 2 and run[0] not in seen:
                seen.add(run[0])
                total += self.run_points(board, run)
            run = self.run(board, cell, across)
            if len(run) >= 2:
                total += self.run_points(board, run)
        if len(placement) == len(self.hand):
            total += self.fbo
        return total

    @staticmethod
    def run(board, cell, along):
        dr, dc = along
        r, c = cell
        while (r - dr, c - dc) in board:
            r, c = r - dr, c - dc
        run = []
        while (r, c) in board:
            run.append((r, c))
            r, c = r + dr, c + dc
        return run

    def run_points(self, board, run):
        tiles = [board[cell] for cell in run]
        q = len(run) == 6 and (len({t["color"] for t in tiles}) == 6 or len({t["shape"] for t in tiles}) == 6)
        return len(run) + (self.qbo if q else 0)
