// Space Crack: grab planets, win battles, build where it pays.
//
// The server's legal list is complete (crates/games/spacecrack/RULES.md): every move of
// each own ship to a neighbouring planet, every affordable build, and "end_turn". Seats
// act concurrently, so an action picked from an older view may be refused ("rejected":
// another seat took the planet first); the kit then asks for the legal list again and
// this function chooses again. Scores, one ply:
// - move onto an enemy ship we beat: big; onto one we do not beat: never;
// - move onto a free or enemy planet: good, bigger planets better;
// - move through our own land: by how much closer it brings the ship to a planet we do
//   not own (breadth-first distance on the planet graph);
// - build: good on a planet next to land we do not own;
// - end_turn: keeps the points for later; chosen when nothing else scores above it.
'use strict';

function decide(view, legal, prompt) {
  const me = prompt.seat;
  const planets = new Map(view.planets.map((p) => [p.id, p]));
  const ships = new Map(view.ships.map((s) => [s.id, s]));
  const distance = distancesToUnowned(planets, me);
  let best = null;
  let bestScore = 0.1; // end_turn's score
  for (const action of legal) {
    let score = -1;
    if (action.type === 'move_ship') {
      const ship = ships.get(action.ship);
      const target = planets.get(action.planet);
      const other = target.ship != null ? ships.get(target.ship) : null;
      if (other && other.owner !== me) {
        score = ship.size > other.size ? 20 + target.size : -10;
      } else if (target.owner !== me) {
        score = 10 + target.size + (target.owner != null ? 3 : 0);
      } else {
        const here = distance.get(ship.planet) ?? 99;
        const there = distance.get(target.id) ?? 99;
        score = 2 * (here - there) + (other ? 0.5 : 0);
      }
    } else if (action.type === 'build_ship') {
      const planet = planets.get(action.planet);
      if (planet.neighbours.some((n) => planets.get(n).owner !== me)) score = 5 + planet.size / 2;
    }
    if (score > bestScore) [best, bestScore] = [action, score];
  }
  return best || legal.find((a) => a.type === 'end_turn') || legal[0];
}

// Steps from each planet to the nearest planet that is not ours.
function distancesToUnowned(planets, me) {
  const queue = [...planets.values()].filter((p) => p.owner !== me).map((p) => p.id);
  const distance = new Map(queue.map((id) => [id, 0]));
  for (let i = 0; i < queue.length; i++) {
    for (const n of planets.get(queue[i]).neighbours) {
      if (!distance.has(n)) {
        distance.set(n, distance.get(queue[i]) + 1);
        queue.push(n);
      }
    }
  }
  return distance;
}

module.exports = { decide };
