// The replay player: every step's spectator view, drawn by the game's own board module
// (/boards/<ruleset>.js) when it has one, else shown as JSON. `?seat=N` shows that
// seat's own views instead (its hand, its secrets), only to the account that held it.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { useApi } from '../lib/api.js';
import { ErrorBox, Loading, playerHref, rulesetNames, useTitle } from '../lib/ui.js';
import { Board } from '../lib/board.js';
import { useConnection } from '../lib/connection.js';

const STEP_MS = 700; // time per step at 1×
const SPEEDS = [0.5, 1, 2, 4];

/** The final ranking, shown once the last step is reached. */
function Outcome({ outcome, seats, summary }) {
  const order = seats.map((name, seat) => seat)
    .sort((a, b) => (outcome.ranks?.[a] ?? 99) - (outcome.ranks?.[b] ?? 99) || a - b);
  return html`<section class="outcome" data-testid="outcome" aria-labelledby="outcome-h">
    <h2 id="outcome-h">Outcome</h2>
    ${outcome.summary && html`<p class="summary">${outcome.summary}</p>`}
    <div class="table-wrap"><table>
      <thead><tr><th scope="col" class="num">Rank</th><th scope="col">Seat</th>
        <th scope="col">Player</th><th scope="col" class="num">Score</th></tr></thead>
      <tbody>${order.map((seat) => {
        const info = summary?.seats?.[seat];
        const name = seats[seat];
        const ejected = outcome.ejected?.[seat];
        return html`<tr key=${seat}>
          <td class="num">${outcome.ranks?.[seat] ?? '–'}</td>
          <td>${seat}</td>
          <td>${info && info.account_id != null ? html`<a href=${playerHref(name)}>${name}</a>` : name}
            ${ejected && html` <span class="muted">(ejected: ${ejected})</span>`}</td>
          <td class="num">${outcome.scores?.[seat] ?? '–'}</td>
        </tr>`;
      })}</tbody>
    </table></div>
  </section>`;
}

/** Is the key press meant for a form control rather than for the player? */
function forControl(event) {
  const tag = event.target?.tagName;
  if (tag === 'INPUT' || tag === 'SELECT' || tag === 'TEXTAREA' || event.target?.isContentEditable) {
    // The slider moves itself with the arrows; everything else belongs to the control.
    return true;
  }
  // A focused button or link activates itself with Space / Enter.
  return (tag === 'BUTTON' || tag === 'A') && (event.key === ' ' || event.key === 'Enter');
}

function Player({ replay, summary, seat }) {
  const steps = replay.steps;
  const last = steps.length - 1;
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const clamp = (i) => Math.max(0, Math.min(last, i));

  // Manual moves pause playback: the viewer wants to look at that step.
  const go = (i) => { setPlaying(false); setIndex(clamp(i)); };
  const toggle = () => {
    if (!playing && index >= last) setIndex(0); // play again from the start
    setPlaying(!playing);
  };

  useEffect(() => {
    if (!playing) return undefined;
    if (index >= last) { setPlaying(false); return undefined; }
    const timer = setTimeout(() => setIndex((i) => clamp(i + 1)), STEP_MS / speed);
    return () => clearTimeout(timer);
  }, [playing, index, speed, last]);

  useEffect(() => {
    const onKey = (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || forControl(event)) return;
      const moves = {
        ArrowLeft: (i) => i - 1, ArrowRight: (i) => i + 1, Home: () => 0, End: () => last,
      };
      if (moves[event.key]) {
        event.preventDefault();
        setPlaying(false);
        setIndex((i) => clamp(moves[event.key](i)));
      } else if (event.key === ' ' || event.key === 'Spacebar') {
        event.preventDefault(); // not a page scroll
        toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [last, playing, index]); // re-bound so toggle() sees the current state

  const step = steps[index];
  const atEnd = index === last;
  return html`<div class="player">
    <div class="board" data-testid="board" id="board" aria-live="off">
      <${Board} ruleset=${replay.ruleset} view=${step.view} seats=${replay.seats} step=${step.step}
        seat=${seat} />
    </div>

    <div class="controls" role="group" aria-label="Replay controls">
      <div class="buttons">
        <button type="button" id="first" data-testid="first" onClick=${() => go(0)} disabled=${index === 0}
          aria-label="First step" title="First step (Home)">|◀</button>
        <button type="button" id="prev" data-testid="prev" onClick=${() => go(index - 1)} disabled=${index === 0}
          aria-label="Previous step" title="Previous step (←)">◀</button>
        <button type="button" id="play" data-testid="play" class="play" onClick=${toggle}
          data-state=${playing ? 'playing' : 'paused'} aria-label=${playing ? 'Pause' : 'Play'}
          title=${playing ? 'Pause (Space)' : 'Play (Space)'}>${playing ? '❚❚ Pause' : '▶ Play'}</button>
        <button type="button" id="next" data-testid="next" onClick=${() => go(index + 1)} disabled=${atEnd}
          aria-label="Next step" title="Next step (→)">▶</button>
        <button type="button" id="last" data-testid="last" onClick=${() => go(last)} disabled=${atEnd}
          aria-label="Last step" title="Last step (End)">▶|</button>
      </div>
      <span class="counter" id="step-counter" data-testid="step-counter"
        aria-live=${playing ? 'off' : 'polite'}
        data-step=${index} data-last=${last}>step ${index} / ${last}</span>
      <input type="range" id="slider" data-testid="slider" class="slider" min="0" max=${last} step="1"
        value=${index} aria-label="Step" aria-valuetext=${`step ${index} of ${last}`}
        onInput=${(e) => go(Number(e.currentTarget.value))} />
      <label class="speed">Speed
        <select id="speed" data-testid="speed" value=${String(speed)}
          onChange=${(e) => setSpeed(Number(e.currentTarget.value))}>
          ${SPEEDS.map((s) => html`<option key=${s} value=${String(s)}>${s}×</option>`)}
        </select>
      </label>
    </div>
    <p class="muted keys">Keys: ← → step, Home / End, Space play or pause.</p>

    ${atEnd && replay.outcome && html`<${Outcome} outcome=${replay.outcome} seats=${replay.seats} summary=${summary} />`}
    ${atEnd && !replay.outcome && replay.status === 'running' && html`<p class="note">The match is still being played; this is its latest step.</p>`}
  </div>`;
}

/** The seats the signed-in account held in this match (names are unique ignoring case). */
function yourSeats(name, seats) {
  if (!name || !seats) return [];
  const key = name.toLowerCase();
  return seats.flatMap((s, i) => (s.account_id != null && s.name?.toLowerCase() === key ? [i] : []));
}

/** Spectator view or one of your seats' own views. */
function ViewChoice({ id, seat, yours }) {
  if (yours.length === 0) return null;
  const base = `#/replay/${encodeURIComponent(id)}`;
  return html`<p class="links" data-testid="view-choice" aria-label="Whose view">
    ${seat == null ? html`<strong>Spectator view</strong>` : html`<a href=${base}>Spectator view</a>`}
    ${yours.map((s) => html` · ${seat === s
      ? html`<strong>Your seat's view (seat ${s})</strong>`
      : html`<a href=${`${base}?seat=${s}`} data-testid="your-view">Your seat's view (seat ${s})</a>`}`)}
  </p>`;
}

/// Where the match went on after its server stopped, crashed or handed it over: the
/// gap a player may wonder about, said once above the board.
function Resumptions({ resumptions }) {
  if (!resumptions?.length) return null;
  const gap = (ms) => (ms < 1000 ? `${ms} ms` : ms < 120_000 ? `${(ms / 1000).toFixed(1)} s`
    : `${Math.round(ms / 60_000)} min`);
  const said = resumptions.map((r) =>
    `The server went away after step ${r.step}; the match went on from its stored log ${gap(r.down_ms)} later.`);
  return html`<p class="note" data-testid="resumptions">${said.join(' ')}</p>`;
}

export function Replay({ id, query }) {
  const wanted = query?.get('seat');
  const seat = wanted != null && /^\d+$/.test(wanted) ? Number(wanted) : null;
  const conn = useConnection();
  // A seat's own views need the session; wait for the connection to have logged in.
  const ready = seat == null || conn.status === 'open';
  const path = `/api/matches/${encodeURIComponent(id)}/replay${seat == null ? '' : `?seat=${seat}`}`;
  const replay = useApi(ready ? path : null, { auth: seat != null });
  // The summary adds player links; the replay stands on its own if it fails.
  const summary = useApi(`/api/matches/${encodeURIComponent(id)}`);
  const rulesets = useApi('/api/rulesets');
  const data = replay.data;
  const game = data ? rulesetNames(rulesets.data)[data.ruleset] || data.ruleset : '';
  useTitle(`Replay #${id}`);

  if (replay.error) {
    const why = replay.error.status === 401 ? ' Log in as the player who held this seat.'
      : replay.error.status === 403 ? ' This seat was somebody else’s.' : '';
    return html`<h1>Replay of match #${id}</h1>
      ${why && html`<p class="note">${why.trim()} <a href=${`#/replay/${encodeURIComponent(id)}`}>Spectator view</a></p>`}
      <${ErrorBox} error=${replay.error} retry=${replay.error.status === 404 ? null : replay.reload}>
        Could not load this replay.
      <//>`;
  }
  if (!data) return html`<h1>Replay of match #${id}</h1><${Loading} what="Loading the replay" />`;

  const seats = summary.data?.seats;
  return html`<h1>${game} <span class="muted">· match #${id}</span></h1>
    <p class="players">${data.seats.map((name, i) => html`${i > 0 ? ' vs ' : ''}${
      seats?.[i]?.account_id != null ? html`<a href=${playerHref(name)}>${name}</a>` : html`<span>${name}</span>`}`)}
      ${data.status === 'running' && html` <span class="badge">running</span>`}
    </p>
    <p class="links">
      <a href=${`#/rules/${encodeURIComponent(data.ruleset)}`}>Rules</a>
      ${summary.data?.tournament != null && html` · <a data-testid="tournament-link"
        href=${`#/tournament/${encodeURIComponent(summary.data.tournament)}`}>Its tournament</a>`}
      ${data.status !== 'running' && html` · <a id="download" data-testid="download"
        href=${`/api/matches/${encodeURIComponent(id)}/record`} download=${`arbiter-${data.ruleset}-${id}.json`}>Download record</a>`}
    </p>
    <${Resumptions} resumptions=${summary.data?.resumptions} />
    <${ViewChoice} id=${id} seat=${seat} yours=${yourSeats(conn.name, seats)} />
    ${data.steps.length === 0
      ? html`<p class="note">This replay has no steps.</p>`
      : html`<${Player} key=${`${id}/${seat}`} replay=${data} summary=${summary.data} seat=${seat} />`}`;
}
