// The notice that offers a person their tournament game when it starts while they look
// at another page (and opens the next one by itself after one of theirs ends).
import { useEffect, useState } from 'preact/hooks';
import { html } from '../../lib/html.js';
import { useNow } from '../../lib/matchbits.js';
import {
  NEXT_GAME_AFTER_S, dismissCall, nextGameFollows, useTournamentCall,
} from '../../lib/tournaments.js';
import { tournamentHref } from './shared.js';

/**
 * A tournament game of yours started while another page shows: say so, with the way
 * there. On the page of your game that just ended, the next one opens by itself after
 * a few seconds (unless you choose to stay).
 */
export function TournamentCall({ path }) {
  const current = useTournamentCall();
  const [stayed, setStayed] = useState(null);
  const follows = nextGameFollows(current) && stayed !== current?.match;
  const now = useNow(follows);
  useEffect(() => {
    if (!follows) return undefined;
    const wait = Math.max(0, current.at + NEXT_GAME_AFTER_S * 1000 - Date.now());
    const timer = setTimeout(() => { location.hash = `#/match/${current.match}`; }, wait);
    return () => clearTimeout(timer);
  }, [follows, current?.match, path]);
  if (!current || path === `/match/${current.match}`) return null;
  const left = Math.max(0, Math.ceil((current.at + NEXT_GAME_AFTER_S * 1000 - now) / 1000));
  return html`<div class="call" role="status" data-testid="tournament-call">
    <span>${follows ? 'Your next game' : 'Your game'}${current.name
      ? html` in <a href=${tournamentHref(current.tournament)}>${current.name}</a>` : ' in a tournament'}${' has started'}${follows ? ` (opening in ${left} s)` : ''}.</span>
    <a class="button primary" href=${`#/match/${current.match}`} data-testid="call-play">Play it</a>
    ${follows
      ? html`<button type="button" onClick=${() => setStayed(current.match)}>Stay here</button>`
      : html`<button type="button" class="link" onClick=${dismissCall} aria-label="Dismiss">Dismiss</button>`}
  </div>`;
}
