// Rocket Scissor Spacegoo: simulate each send's battle, play the best one.
//
// The server's legal list is a sample (crates/games/spacegoo/RULES.md): "nop", and for
// every planet we own and every other planet, "send all its ships" and "send half of
// each type". For each send to a planet that is not ours, this bot simulates the battle
// (the rules' rock-paper-scissors damage) against the garrison as it will be when the
// fleet lands (an enemy planet keeps producing), and scores it: ships destroyed minus
// ships lost, plus, when the planet falls, its production over the next 20 rounds (twice
// for an enemy planet: it is also the enemy's loss), a little more for half fleets (home
// stays defended), nothing for a planet a fleet of ours is already flying to. It plays
// the best send that gains something; otherwise "nop". One command a round: a second one
// disqualifies, so the kit sends exactly one answer per prompt.
'use strict';

// [multiplier, minimum damage] by (defender type - attacker type) mod 3
const MATCHUPS = [[0.1, 1], [0.25, 2], [0.01, 1]];

function battleRound(attacker, defender) {
  return defender.map((ships, d) => {
    let left = ships;
    for (let a = 0; a < 3; a++) {
      const [multiplier, minimum] = MATCHUPS[(d - a + 3) % 3];
      left -= Math.max(attacker[a] * multiplier, attacker[a] > 0 ? minimum : 0);
    }
    return Math.max(0, left);
  });
}

// Both sides' survivors after a battle (truncated to whole ships).
function battle(s1, s2) {
  const sum = (s) => s[0] + s[1] + s[2];
  while (sum(s1) > 0 && sum(s2) > 0) [s1, s2] = [battleRound(s2, s1), battleRound(s1, s2)];
  return [s1.map(Math.trunc), s2.map(Math.trunc)];
}

function decide(view, legal) {
  const planets = new Map(view.planets.map((p) => [p.id, p]));
  const underway = new Set(view.fleets.filter((f) => f.owner_id === view.player_id).map((f) => f.target));
  let best = 'nop';
  let bestGain = 0;
  for (const action of legal) {
    if (!(action && action.send)) continue;
    const gain = sendGain(view, planets, underway, action.send);
    if (gain > bestGain) [best, bestGain] = [action, gain];
  }
  return best;
}

// Ships destroyed minus ships lost, plus, when the planet falls, its production over
// the next 20 rounds (counted twice when taken from the enemy).
function sendGain(view, planets, underway, send) {
  const sum = (s) => s[0] + s[1] + s[2];
  const origin = planets.get(send.origin);
  const target = planets.get(send.target);
  if (target.owner_id === view.player_id || underway.has(target.id)) return 0; // ours, or a fleet is on its way
  const eta = Math.ceil(Math.hypot(origin.x - target.x, origin.y - target.y));
  const enemy = target.owner_id !== 0;
  // An enemy planet keeps producing until the fleet lands.
  const garrison = target.ships.map((s, i) => s + (enemy ? target.production[i] * eta : 0));
  const [left, garrisonLeft] = battle(send.ships.slice(), garrison.slice());
  const lost = sum(send.ships) - sum(left);
  const destroyed = enemy ? sum(garrison) - sum(garrisonLeft) : 0;
  if (sum(garrisonLeft) > 0) return destroyed - lost;
  const rounds = Math.max(0, Math.min(20, view.max_rounds - view.round - eta));
  const taken = sum(target.production) * rounds * (enemy ? 2 : 1);
  const defended = send.ships.some((s, i) => s !== origin.ships[i]) ? 1.1 : 1; // half fleets keep home safe
  return (taken + destroyed - lost) * defended;
}

module.exports = { decide, battle };
