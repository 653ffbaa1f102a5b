"""Space Crack: grab planets, win battles, build where it pays.

The server's legal list is complete (crates/games/spacecrack/RULES.md): every move of
each own ship to a neighbouring planet, every affordable build, and "end_turn". Seats
act concurrently, so an action picked from an older view may be refused ("rejected":
another seat took the planet first); the kit then asks for the legal list again and
this function chooses again. Scores, one ply:
- move onto an enemy ship we beat: big; onto one we do not beat: never;
- move onto a free or enemy planet: good, bigger planets better;
- move through our own land: by how much closer it brings the ship to a planet we do
  not own (breadth-first distance on the planet graph);
- build: good on a planet next to land we do not own;
- end_turn: keeps the points for later; chosen when nothing else scores above it.
"""

from collections import deque


def decide(view, legal, prompt):
    me = prompt["seat"]
    planets = {p["id"]: p for p in view["planets"]}
    ships = {s["id"]: s for s in view["ships"]}
    distance = distances_to_unowned(planets, me)
    best, best_score = None, 0.1  # end_turn's score
    for action in legal:
        kind = action.get("type")
        score = -1.0
        if kind == "move_ship":
            ship, target = ships[action["ship"]], planets[action["planet"]]
            enemy = ships.get(target["ship"]) if target["ship"] is not None else None
            if enemy is not None and enemy["owner"] != me:
                score = 20.0 + target["size"] if ship["size"] > enemy["size"] else -10.0
            elif target["owner"] != me:
                score = 10.0 + target["size"] + (3.0 if target["owner"] is not None else 0.0)
            else:
                here = distance.get(ship["planet"], 99)
                there = distance.get(target["id"], 99)
                score = 2.0 * (here - there) + (0.5 if enemy is not None else 0.0)
        elif kind == "build_ship":
            planet = planets[action["planet"]]
            if any(planets[n]["owner"] != me for n in planet["neighbours"]):
                score = 5.0 + planet["size"] / 2.0
        if score > best_score:
            best, best_score = action, score
    if best is None:
        best = next((a for a in legal if a.get("type") == "end_turn"), legal[0])
    return best


def distances_to_unowned(planets, me):
    """Steps from each planet to the nearest planet that is not ours."""
    queue = deque(pid for pid, p in planets.items() if p["owner"] != me)
    distance = {pid: 0 for pid in queue}
    while queue:
        pid = queue.popleft()
        for n in planets[pid]["neighbours"]:
            if n not in distance:
                distance[n] = distance[pid] + 1
                queue.append(n)
    return distance
