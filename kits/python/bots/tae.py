"""Tigris & Euphrates in space: a one-ply heuristic over the server's legal list.

The view's "prompt" field says which decision is owed (crates/games/tae/RULES.md):
- act: score every legal action (colonies that pay us, leaders placed from hand, no
  bombs or withdrawals) and play the best; "pass" when nothing scores above 0;
- commit: as defender commit just enough to win (ties go to the defender), as attacker
  commit everything when that can beat the defender's base;
- choose_conflict, harvest: the first option.
"""

RESOURCE = {"scientist": "technology", "mining": "raw_materials",
            "merchant": "money", "settler": "people"}


def decide(view, legal, prompt):
    owed = (view.get("prompt") or {}).get("prompt")
    if owed == "commit":
        return commit(view, legal)
    if owed != "act":
        return legal[0]  # choose_conflict or harvest: the first option is fine
    board = Board(view)
    best, best_score = None, 0.0
    for action in legal:
        score = board.score(action)
        if score > best_score:
            best, best_score = action, score
    return best if best is not None else ("pass" if "pass" in legal else legal[0])


def commit(view, legal):
    battle = view["prompt"]["battle"]
    most = max(a["commit"]["count"] for a in legal)
    if battle.get("attacker_commit") is None:  # we attack: the defender answers after us
        return {"commit": {"count": most if battle["attacker_base"] + most > battle["defender_base"] else 0}}
    need = battle["attacker_base"] + battle["attacker_commit"] - battle["defender_base"]
    return {"commit": {"count": max(0, need) if need <= most else 0}}


class Board:
    def __init__(self, view):
        self.me = view["seat"]
        self.cells = {(c["x"], c["y"]): c for c in view["cells"]}
        player = view["players"][self.me]
        self.leaders_in_hand = set(player.get("leaders_in_hand") or [])
        resources = player.get("resources") or {}
        lowest = min(resources.values()) if resources else 0
        self.needy = {kind for kind, res in RESOURCE.items() if resources.get(res, 0) == lowest}
        # region id -> {leader kind: owner}, and region id -> artifacts
        self.leaders, self.artifacts = {}, {}
        for c in view["cells"]:
            region = c.get("region")
            if region is None:
                continue
            if c.get("leader"):
                self.leaders.setdefault(region, {})[c["leader"]["kind"]] = c["leader"]["owner"]
            if c.get("artifact"):
                self.artifacts[region] = self.artifacts.get(region, 0) + 1

    def regions_next_to(self, at):
        x, y = at["x"], at["y"]
        found = set()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            cell = self.cells.get((x + dx, y + dy))
            if cell and cell.get("region") is not None:
                found.add(cell["region"])
        return found

    def score(self, action):
        if not isinstance(action, dict):
            return 0.0  # "pass"
        if "colonize" in action:
            kind, at = action["colonize"]["kind"], action["colonize"]["at"]
            regions = self.regions_next_to(at)
            bonus = 3.0 if kind in self.needy else 0.0
            if not regions:
                return 0.5
            if len(regions) > 1:  # joins regions: an external conflict if leaders clash
                kinds = [set(self.leaders.get(r, {})) for r in regions]
                clash = any(k in a and k in b for i, a in enumerate(kinds) for b in kinds[i + 1:] for k in a)
                return -5.0 if clash else 0.2
            leaders = self.leaders.get(next(iter(regions)), {})
            payee = leaders[kind] if kind in leaders else leaders.get("settler")
            if payee == self.me:
                return 10.0 + bonus  # +1 of that resource for us
            if payee is not None:
                return -2.0  # it would pay an opponent
            return 1.0
        if "place_leader" in action:
            kind, at = action["place_leader"]["kind"], action["place_leader"]["at"]
            if kind not in self.leaders_in_hand:
                return -1.0  # moving a leader already on the board: rarely worth it
            regions = self.regions_next_to(at)
            region = next(iter(regions)) if regions else None
            leaders = self.leaders.get(region, {})
            if kind in leaders:
                return -3.0  # an internal conflict we might lose
            score = 6.0 + (2.0 if kind in self.needy else 0.0)
            if kind == "merchant" and self.artifacts.get(region, 0) >= 2:
                score += 5.0  # harvests an artifact at the end of the turn
            return score
        return -10.0  # bomb, swap, withdraw_leader: leave them to smarter bots
