// #/tournament/<id>/player/<name>: one entrant's standings line and every game of theirs
// in the tournament (a bye too), with the seat, the result and the points of each.
import { html } from '../../lib/html.js';
import { entryOf } from '../../lib/tournaments.js';
import { Loading, playerHref, useTitle } from '../../lib/ui.js';
import {
  Failed, GameLink, GameStatus, LEFT, LiveMark, Standings, entrantHref, points, sameName, seatPoints,
  tournamentHref, useTournamentPage,
} from './shared.js';

const SEATS = ['first', 'second', 'third', 'fourth']; // seat 0 moves first

/** How one entrant did in one game: "won", "lost", "draw", or the place of several. */
function placeText(game, seat) {
  if (!game.ranks) return null;
  const mine = game.ranks[seat];
  if (mine === LEFT) return 'left (lost)';
  const ahead = game.ranks.filter((r) => r < mine).length;
  const tied = game.ranks.filter((r) => r === mine).length - 1;
  if (game.ranks.length === 2) return tied ? 'draw' : ahead ? 'lost' : 'won';
  const place = ahead + 1;
  const suffix = place === 1 ? 'st' : place === 2 ? 'nd' : place === 3 ? 'rd' : 'th';
  return `${tied ? 'shared ' : ''}${place}${suffix} of ${game.ranks.length}`;
}

/** #/tournament/<id>/player/<name>: the entrant's standings line and every game of theirs. */
export function TournamentPlayer({ id, name }) {
  const { conn, error, live, t } = useTournamentPage(id);
  useTitle(t ? `${name} · ${t.name}` : name);
  if (error && !t) return html`<${Failed} id=${id} error=${error} />`;
  if (!t) return html`<h1>${name}</h1><${Loading} what="Loading the tournament" />`;
  const line = entryOf(t, name);
  const back = html`<p class="crumb"><a href=${tournamentHref(t.tournament)} data-testid="back-to-tournament">← ${t.name}</a></p>`;
  if (!line) {
    return html`${back}<h1>${name}</h1>
      <p class="note">${name} has not entered ${t.name}.</p>`;
  }
  const who = line.name;
  const games = t.games
    .map((g) => ({ g, seat: g.players.findIndex((p) => sameName(p, who)) }))
    .filter(({ seat }) => seat >= 0);
  const byes = (t.byes || []).filter((b) => sameName(b.player, who));
  const rows = [
    ...games.map(({ g, seat }) => ({ round: g.round, key: `g${g.game}`, g, seat })),
    ...byes.map((b) => ({ round: b.round, key: `b${b.round}`, bye: true })),
  ].sort((a, b) => a.round - b.round || (a.g?.game ?? 0) - (b.g?.game ?? 0));
  const arena = t.format === 'arena';
  return html`${back}
    <h1 data-testid="entrant-name">${who} <span class="muted">· ${t.name}</span> <${LiveMark} t=${t} live=${live} conn=${conn} /></h1>
    <p class="links"><a href=${playerHref(who)}>${who}'s ratings and matches</a></p>
    <section aria-labelledby="line-h">
      <h2 id="line-h">Standing</h2>
      <${Standings} t=${t} rows=${[line]} me=${conn.name} label=${`${who}'s standing`} />
    </section>
    <section aria-labelledby="their-games-h" data-testid="entrant-games">
      <h2 id="their-games-h">Games</h2>
      ${rows.length === 0 ? html`<p class="note">No games yet.</p>` : html`<div class="table-wrap"><table class="pairings">
        <thead><tr><th scope="col" class="num">${arena ? 'Wave' : 'Round'}</th><th scope="col">Opponent${t.seats > 2 ? 's' : ''}</th>
          <th scope="col">Seat</th><th scope="col">Result</th><th scope="col" class="num">Points</th>
          <th scope="col"><span class="visually-hidden">Match</span></th></tr></thead>
        <tbody>${rows.map((r) => r.bye
          ? html`<tr key=${r.key} data-testid="entrant-game"><td class="num">${r.round}</td><td class="muted">bye</td><td></td>
              <td>bye</td><td class="num">1</td><td></td></tr>`
          : html`<tr key=${r.key} data-testid="entrant-game" data-status=${r.g.status}>
              <td class="num">${r.round}</td>
              <td>${r.g.players.filter((_, i) => i !== r.seat).map((p, i) => html`${i > 0 ? ', ' : ''}<a href=${entrantHref(t.tournament, p)}>${p}</a>`)}</td>
              <td>${SEATS[r.seat] || `${r.seat + 1}th`}</td>
              <td class=${`result-${placeText(r.g, r.seat) || 'none'}`}>${placeText(r.g, r.seat) || ''} <${GameStatus} game=${r.g} /></td>
              <td class="num">${r.g.ranks ? points(seatPoints(r.g.ranks)[r.seat]) : ''}</td>
              <td class="link-cell"><${GameLink} game=${r.g} me=${conn.name} /></td>
            </tr>`)}</tbody>
      </table></div>`}
    </section>`;
}
