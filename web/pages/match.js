// Playing a match (#/match/<id>): the board from this seat's view (where the seat moves,
// by mouse or keyboard), whose turn it is and the clock, the moves it may send now as a
// list of buttons (folded away when the board takes every move), a JSON box for any other move,
// and resigning; a tournament game links back to its tournament. #/play/<ruleset>/<bot>
// opens a table with that bot and comes here.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { useApi } from '../lib/api.js';
import { Board, useBoardModule } from '../lib/board.js';
import { useConnection, whenReady } from '../lib/connection.js';
import { act, playBot, resign, takeSeat, useMatch } from '../lib/live.js';
import { Events, Players, Result, StandIns, clockText, seatToMove, useNow } from '../lib/matchbits.js';
import { moveLabel } from '../lib/moves.js';
import { ErrorBox, Loading, rulesetNames, useTitle } from '../lib/ui.js';
import { accountHref } from './account.js';

const SHOWN_MOVES = 60; // beyond this, a filter narrows the list (T&E lists hundreds)

/** Time left for this decision, then the seat's bank, counting down each second. */
function Clock({ prompt }) {
  const now = useNow(true);
  const left = prompt.at + prompt.deadline_ms - now;
  const bank = Math.min(prompt.time_bank_ms, Math.max(0, left));
  const move = Math.max(0, left - prompt.time_bank_ms);
  const inBank = move <= 0;
  return html`<p class=${`clock${inBank ? ' urgent' : ''}`} data-testid="clock" aria-live="off">
    <span>Move <strong data-testid="deadline">${clockText(move)}</strong></span>
    <span>Bank <strong data-testid="time-bank">${clockText(bank)}</strong></span>
    ${inBank && html`<span class="muted">using your bank</span>`}
  </p>`;
}

function TurnLine({ state }) {
  const names = state.seats;
  if (state.outcome) return html`<p class="turn" data-testid="turn">The game is over.</p>`;
  if (state.aborted) {
    return html`<p class="turn" role="alert" data-testid="turn">The match was stopped without a result: ${state.aborted}.</p>`;
  }
  if (state.ejected.some((e) => e.seat === state.seat)) {
    return html`<p class="turn" data-testid="turn">You are out of this match.</p>`;
  }
  const standIn = state.standIns?.[state.seat];
  if (standIn) {
    return html`<div class="turn stand-in" role="alert" data-testid="turn">
      <p>You were away, so a house bot (${standIn.bot}) has played your seat since step ${standIn.step}.
        If it stays there to the end, the game counts as your loss.</p>
      <button type="button" class="primary" data-testid="take-seat" onClick=${() => takeSeat(state.id)}>Take my seat back</button>
    </div>`;
  }
  if (state.prompt && state.sent == null) {
    const sealed = state.prompt.turn?.model === 'sealed';
    return html`<p class="turn yours" data-testid="turn">${sealed ? 'Your order for this round' : 'Your move'}</p>`;
  }
  if (state.sent != null) return html`<p class="turn" data-testid="turn">Move sent; waiting…</p>`;
  const next = seatToMove(state.view);
  const who = next != null && next !== state.seat ? names[next] : 'the other players';
  return html`<p class="turn" data-testid="turn">Waiting for ${who}…</p>`;
}

function MoveList({ state }) {
  const [filter, setFilter] = useState('');
  const [all, setAll] = useState(false);
  // The ruleset words its own moves, beside its board.
  const { mod: board } = useBoardModule(state.ruleset);
  const { legal, prompt, sent } = state;
  if (!prompt || sent != null) return null;
  if (!legal) return html`<${Loading} what="Loading your moves" />`;
  if (legal.actions.length === 0) return html`<p class="note">Nothing to answer right now.</p>`;

  const labelled = legal.actions.map((action) => ({ action, label: moveLabel(board, action) }));
  const needle = filter.trim().toLowerCase();
  const matching = needle ? labelled.filter((m) => m.label.toLowerCase().includes(needle)) : labelled;
  const shown = all ? matching : matching.slice(0, SHOWN_MOVES);
  const list = html`<div class="moves">
    ${labelled.length > 12 && html`<label class="filter">Filter
      <input type="search" data-testid="move-filter" value=${filter} placeholder="part of a move, e.g. pass"
        onInput=${(e) => setFilter(e.currentTarget.value)} />
    </label>`}
    <ul class="move-list" aria-label="Your moves">
      ${shown.map((m, i) => html`<li key=${i}><button type="button" data-testid="move"
        title=${JSON.stringify(m.action)} onClick=${() => act(state.id, m.action)}>${m.label}</button></li>`)}
    </ul>
    ${shown.length < matching.length && html`<button type="button" class="link" onClick=${() => setAll(true)}>
      Show all ${matching.length} moves</button>`}
    ${needle && matching.length === 0 && html`<p class="note">No move matches “${filter}”.</p>`}
  </div>`;
  // A board that takes every move itself leaves the list as a fallback, folded away.
  if (!board?.playsOnTheBoard) return list;
  return html`<details class="move-list-folded">
    <summary>Your ${labelled.length} legal move${labelled.length === 1 ? '' : 's'} as a list</summary>
    ${list}
  </details>`;
}

/** Any action as JSON, for moves the list leaves out (combinatorial games list a sample). */
function FreeForm({ state }) {
  const [text, setText] = useState('');
  const [error, setError] = useState(null);
  const example = state.legal?.actions?.[0];
  const submit = (event) => {
    event.preventDefault();
    let action;
    try { action = JSON.parse(text); } catch (e) {
      setError(`Not JSON: ${e.message}`);
      return;
    }
    setError(null);
    act(state.id, action);
  };
  return html`<details class="freeform">
    <summary>Send another move as JSON</summary>
    <form onSubmit=${submit}>
      <label for="action-json">Action (see the <a href=${`#/rules/${encodeURIComponent(state.ruleset)}`}>rules</a>)</label>
      <textarea id="action-json" data-testid="action-json" rows="3" spellcheck="false"
        placeholder=${example !== undefined ? JSON.stringify(example) : '"pass"'}
        value=${text} onInput=${(e) => setText(e.currentTarget.value)}></textarea>
      ${error && html`<p class="form-error" role="alert">${error}</p>`}
      <button type="submit" data-testid="send-action" disabled=${!text.trim() || !!state.outcome}>Send</button>
    </form>
  </details>`;
}

function Resign({ state }) {
  const [asking, setAsking] = useState(false);
  if (state.outcome || state.aborted || state.ejected.some((e) => e.seat === state.seat)) return null;
  if (!asking) {
    return html`<p><button type="button" class="danger" data-testid="resign" onClick=${() => setAsking(true)}>Resign</button></p>`;
  }
  return html`<p class="confirm" role="group" aria-label="Resign?">Resign this match?
    <button type="button" class="danger" data-testid="resign-confirm" onClick=${() => { resign(state.id); setAsking(false); }}>Yes, resign</button>
    <button type="button" onClick=${() => setAsking(false)}>Keep playing</button>
  </p>`;
}

function Seat({ state, game, offline }) {
  const out = state.outcome ? [] : state.ejected; // the result lists them at the end
  return html`${state.tournament != null && html`<p class="crumb"><a href=${`#/tournament/${state.tournament}`}
      data-testid="back-to-tournament">← Back to the tournament</a></p>`}
    <h1>${game} <span class="muted">· match #${state.id}</span></h1>
    <${Players} seats=${state.seats} you=${state.seat} />
    <div class="match-layout">
      <div class="board" data-testid="board" id="board">
        ${state.view == null
          ? html`<${Loading} what="Waiting for the board" />`
          : html`<${Board} ruleset=${state.ruleset} view=${state.view} seats=${state.seats} seat=${state.seat} step=${state.step}
              moves=${state.prompt && state.sent == null ? state.legal?.actions ?? null : null}
              play=${(action) => act(state.id, action)} />`}
      </div>
      <div class="side" aria-label="Your turn">
        <${TurnLine} state=${state} />
        ${offline && html`<p class="note" role="status" data-testid="match-offline">${offline === 'restarting'
          ? 'The server is restarting: this game waits for you and goes on when it is back.'
          : 'Connection lost; reconnecting…'}</p>`}
        ${state.step != null && html`<p class="muted" data-testid="step-counter">step ${state.step}</p>`}
        ${state.prompt && state.sent == null && html`<${Clock} prompt=${state.prompt} />`}
        ${state.rejected && html`<p class="rejected" role="alert" data-testid="rejected">
          Refused: ${state.rejected.message} <span class="muted">(${state.rejected.code})</span></p>`}
        ${out.map((e) => html`<p class="muted">${state.seats[e.seat] ?? `seat ${e.seat}`} left the game: ${e.reason}.</p>`)}
        ${!state.outcome && html`<${StandIns} standIns=${state.standIns} seats=${state.seats} you=${state.seat} />`}
        <${MoveList} key=${state.prompt?.step} state=${state} />
        ${!state.outcome && !state.aborted && html`<${FreeForm} state=${state} />`}
        <${Resign} state=${state} />
      </div>
    </div>
    ${state.outcome && html`<${Result} id=${state.id} outcome=${state.outcome} headline=${state.headline}
      seats=${state.seats} you=${state.seat} />`}
    <${Events} events=${state.events} />`;
}

export function Match({ id }) {
  const conn = useConnection();
  const state = useMatch(id);
  const rulesets = useApi('/api/rulesets');
  const game = state?.ruleset ? rulesetNames(rulesets.data)[state.ruleset] || state.ruleset : 'Match';
  useTitle(state?.outcome || state?.aborted ? `Match #${id} (over)` : `Match #${id}`);

  // Logged out, the seat's messages stop; its page asks to log in again.
  if (state && state.seat != null && (conn.name || state.outcome || state.aborted)) {
    return html`<${Seat} state=${state} game=${game} offline=${conn.status !== 'open' && (conn.restarting ? 'restarting' : 'lost')} />`;
  }

  const elsewhere = html`<p class="links">
    <a class="button" href=${`#/watch/${id}`}>Watch it</a>
    <a class="button" href=${`#/replay/${id}`}>Replay</a></p>`;
  if (conn.status !== 'open') return html`<h1>Match #${id}</h1><${Loading} what="Connecting" />`;
  if (!conn.name) {
    return html`<h1>Match #${id}</h1>
      <p>Log in to take your seat in this match.</p>
      <p class="links"><a class="button primary" href=${accountHref(`/match/${id}`)} data-testid="login-link">Log in</a></p>
      ${elsewhere}`;
  }
  if (conn.resumed.includes(Number(id))) return html`<h1>Match #${id}</h1><${Loading} what="Taking your seat" />`;
  return html`<h1>Match #${id}</h1>
    <p class="note">You (${conn.name}) have no seat in a running match #${id}: it may have ended, or belong to others.</p>
    ${elsewhere}`;
}

/** Open a table against `bot` and start it, then show the match (replacing this page in history). */
export function Play({ ruleset, bot }) {
  const [error, setError] = useState(null);
  useTitle('Starting a match');
  useEffect(() => {
    let current = true;
    whenReady().then(async (conn) => {
      if (!conn.name) {
        location.replace(accountHref(`/play/${encodeURIComponent(ruleset)}/${encodeURIComponent(bot)}`));
        return;
      }
      try {
        const started = await playBot(ruleset, bot);
        if (current) location.replace(`#/match/${started.match}`);
      } catch (e) {
        if (current) setError(e);
      }
    });
    return () => { current = false; };
  }, [ruleset, bot]);
  if (error) {
    return html`<h1>Play ${ruleset} against ${bot}</h1>
      <${ErrorBox} error=${error}>Could not start the match.<//>
      <p><a href="#/">Back to the lobby</a></p>`;
  }
  return html`<h1>Play ${ruleset} against ${bot}</h1><${Loading} what="Opening a table" />`;
}
