// The lobby's tournaments box: the open and running tournaments, and the way to all of them.
import { html } from '../../lib/html.js';
import { useApi } from '../../lib/api.js';
import { useConnection } from '../../lib/connection.js';
import { ErrorBox, Loading, rulesetNames } from '../../lib/ui.js';
import { LIST_EVERY_MS, TournamentCard, isOver } from './shared.js';

const LOBBY_SHOWN = 6; // tournaments the lobby lists; the page has them all

/** The lobby's box: the open and running tournaments, and the way to all of them. */
export function TournamentsBox({ rulesets }) {
  const conn = useConnection();
  const list = useApi('/api/tournaments', { every: LIST_EVERY_MS * 2 });
  const names = rulesetNames(rulesets);
  const going = (list.data?.tournaments || []).filter((t) => !isOver(t.status));
  return html`<section aria-labelledby="tournaments-h" data-testid="lobby-tournaments">
    <h2 id="tournaments-h">Tournaments</h2>
    ${list.error && html`<${ErrorBox} error=${list.error}>Could not load the tournaments.<//>`}
    ${!list.data && !list.error && html`<${Loading} what="Loading tournaments" />`}
    ${list.data && going.length === 0 && html`<p class="note">No tournament is open or running.</p>`}
    ${going.length > 0 && html`<div class="cards">
      ${going.slice(0, LOBBY_SHOWN).map((t) => html`<${TournamentCard} key=${t.id} t=${t} names=${names} />`)}
    </div>`}
    <p class="links"><a class="button" href="#/tournaments">${going.length > LOBBY_SHOWN ? `All ${going.length} tournaments` : 'All tournaments'}</a>
      ${conn.name && html`<a class="button" href="#/tournaments?create=1">Create a tournament</a>`}</p>
  </section>`;
}
