"""Rocket Scissor Spacegoo: simulate each send's battle, play the best one.

The server's legal list is a sample (crates/games/spacegoo/RULES.md): "nop", and for
every planet we own and every other planet, "send all its ships" and "send half of each
type". For each send to a planet that is not ours, this bot simulates the battle (the
rules' rock-paper-scissors damage) against the garrison as it will be when the fleet
lands (an enemy planet keeps producing), and scores it: ships destroyed minus ships
lost, plus, when the planet falls, its production over the next 20 rounds (twice for an
enemy planet: it is also the enemy's loss), a little more for half fleets (home stays
defended), nothing for a planet a fleet of ours is already flying to. It plays the best
send that gains something; otherwise "nop". One command a round: a second one
disqualifies, so the kit sends exactly one answer per prompt.
"""

import math

# (multiplier, minimum damage) by (defender type - attacker type) mod 3
MATCHUPS = [(0.1, 1), (0.25, 2), (0.01, 1)]


def battle_round(attacker, defender):
    out = list(defender)
    for d in range(3):
        for a in range(3):
            multiplier, minimum = MATCHUPS[(d - a) % 3]
            minimum = minimum if attacker[a] > 0 else 0
            out[d] -= max(attacker[a] * multiplier, minimum)
        out[d] = max(0, out[d])
    return out


def battle(s1, s2):
    """Both sides' survivors after a battle (truncated to whole ships)."""
    s1, s2 = list(s1), list(s2)
    while sum(s1) > 0 and sum(s2) > 0:
        s1, s2 = battle_round(s2, s1), battle_round(s1, s2)
    return [int(x) for x in s1], [int(x) for x in s2]


def decide(view, legal, prompt):
    me = view["player_id"]
    planets = {p["id"]: p for p in view["planets"]}
    underway = {f["target"] for f in view["fleets"] if f["owner_id"] == me}
    best, best_gain = "nop", 0.0
    for action in legal:
        if not (isinstance(action, dict) and "send" in action):
            continue
        gain = send_gain(view, planets, underway, action["send"])
        if gain > best_gain:
            best, best_gain = action, gain
    return best


def send_gain(view, planets, underway, send):
    """Ships destroyed minus ships lost, plus, when the planet falls, its production
    over the next 20 rounds (counted twice when taken from the enemy)."""
    me = view["player_id"]
    origin, target = planets[send["origin"]], planets[send["target"]]
    if target["owner_id"] == me or target["id"] in underway:
        return 0.0  # ours already, or a fleet of ours is on its way
    eta = math.ceil(math.hypot(origin["x"] - target["x"], origin["y"] - target["y"]))
    enemy = target["owner_id"] != 0
    garrison = list(target["ships"])
    if enemy:  # an enemy planet keeps producing until the fleet lands
        garrison = [s + p * eta for s, p in zip(garrison, target["production"])]
    left, garrison_left = battle(send["ships"], garrison)
    lost = sum(send["ships"]) - sum(left)
    destroyed = sum(garrison) - sum(garrison_left) if enemy else 0
    if sum(garrison_left) > 0:
        return destroyed - lost
    rounds = max(0, min(20, view["max_rounds"] - view["round"] - eta))
    taken = sum(target["production"]) * rounds * (2 if enemy else 1)
    defended = 1.1 if list(send["ships"]) != list(origin["ships"]) else 1.0  # half fleets keep home safe
    return (taken + destroyed - lost) * defended
