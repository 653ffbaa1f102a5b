// Tigris & Euphrates in space: a one-ply heuristic over the server's legal list.
//
// The view's "prompt" field says which decision is owed (crates/games/tae/RULES.md):
// - act: score every legal action (colonies that pay us, leaders placed from hand, no
//   bombs or withdrawals) and play the best; "pass" when nothing scores above 0;
// - commit: as defender commit just enough to win (ties go to the defender), as attacker
//   commit everything when that can beat the defender's base;
// - choose_conflict, harvest: the first option.
'use strict';

const RESOURCE = { scientist: 'technology', mining: 'raw_materials', merchant: 'money', settler: 'people' };

function decide(view, legal) {
  const owed = (view.prompt || {}).prompt;
  if (owed === 'commit') return commit(view, legal);
  if (owed !== 'act') return legal[0]; // choose_conflict or harvest: the first option is fine
  const board = new Board(view);
  let best = null;
  let bestScore = 0;
  for (const action of legal) {
    const score = board.score(action);
    if (score > bestScore) [best, bestScore] = [action, score];
  }
  return best !== null ? best : (legal.includes('pass') ? 'pass' : legal[0]);
}

function commit(view, legal) {
  const battle = view.prompt.battle;
  const most = Math.max(...legal.map((a) => a.commit.count));
  if (battle.attacker_commit == null) { // we attack: the defender answers after us
    return { commit: { count: battle.attacker_base + most > battle.defender_base ? most : 0 } };
  }
  const need = battle.attacker_base + battle.attacker_commit - battle.defender_base;
  return { commit: { count: need <= most ? Math.max(0, need) : 0 } };
}

class Board {
  constructor(view) {
    this.me = view.seat;
    this.cells = new Map(view.cells.map((c) => [`${c.x},${c.y}`, c]));
    const player = view.players[this.me];
    this.leadersInHand = new Set(player.leaders_in_hand || []);
    const resources = player.resources || {};
    const lowest = Math.min(...Object.values(resources));
    this.needy = new Set(Object.keys(RESOURCE).filter((k) => (resources[RESOURCE[k]] || 0) === lowest));
    this.leaders = new Map(); // region -> {kind: owner}
    this.artifacts = new Map(); // region -> count
    for (const c of view.cells) {
      if (c.region == null) continue;
      if (c.leader) {
        if (!this.leaders.has(c.region)) this.leaders.set(c.region, {});
        this.leaders.get(c.region)[c.leader.kind] = c.leader.owner;
      }
      if (c.artifact) this.artifacts.set(c.region, (this.artifacts.get(c.region) || 0) + 1);
    }
  }

  regionsNextTo(at) {
    const found = new Set();
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const cell = this.cells.get(`${at.x + dx},${at.y + dy}`);
      if (cell && cell.region != null) found.add(cell.region);
    }
    return [...found];
  }

  score(action) {
    if (typeof action !== 'object') return 0; // "pass"
    if (action.colonize) {
      const { kind, at } = action.colonize;
      const regions = this.regionsNextTo(at);
      const bonus = this.needy.has(kind) ? 3 : 0;
      if (regions.length === 0) return 0.5;
      if (regions.length > 1) { // joins regions: an external conflict if leaders clash
        const kinds = regions.map((r) => Object.keys(this.leaders.get(r) || {}));
        const clash = kinds.some((a, i) => kinds.slice(i + 1).some((b) => a.some((k) => b.includes(k))));
        return clash ? -5 : 0.2;
      }
      const leaders = this.leaders.get(regions[0]) || {};
      const payee = kind in leaders ? leaders[kind] : leaders.settler;
      if (payee === this.me) return 10 + bonus; // +1 of that resource for us
      if (payee != null) return -2; // it would pay an opponent
      return 1;
    }
    if (action.place_leader) {
      const { kind, at } = action.place_leader;
      if (!this.leadersInHand.has(kind)) return -1; // moving a leader on the board: rarely worth it
      const region = this.regionsNextTo(at)[0];
      const leaders = this.leaders.get(region) || {};
      if (kind in leaders) return -3; // an internal conflict we might lose
      let score = 6 + (this.needy.has(kind) ? 2 : 0);
      if (kind === 'merchant' && (this.artifacts.get(region) || 0) >= 2) score += 5; // harvests an artifact
      return score;
    }
    return -10; // bomb, swap, withdraw_leader: leave them to smarter bots
  }
}

module.exports = { decide };
