// The lobby's tables and rated queue: open a table with the game's options (seats,
// configuration, time per move and time bank), let friends sit, put house bots in the
// empty seats, start; or wait in a ruleset's rated queue for an opponent.
import { useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { useConnection } from '../lib/connection.js';
import {
  addBot, createTable, joinQueue, joinTable, leaveQueue, leaveTable, startTable, useTables,
} from '../lib/tables.js';
import { accountHref } from './account.js';

const DEFAULT_BANK_S = 300; // the server's default time bank for tables

/** Bots in the order the server lists them: its own first, search (`mcts`) last, the strongest. */
function botLabel(bots, bot) {
  if (bots.length > 1 && bot === bots[0] && bot === 'random') return `${bot} (easiest)`;
  if (bots.length > 1 && bot === bots[bots.length - 1]) return `${bot} (strongest)`;
  return bot;
}

function BotSelect({ bots, value, onChange, testid, label }) {
  return html`<select data-testid=${testid} aria-label=${label} value=${value}
    onChange=${(e) => onChange(e.currentTarget.value)}>
    ${bots.map((b) => html`<option key=${b} value=${b}>${botLabel(bots, b)}</option>`)}
  </select>`;
}

/** One field per plain option (numbers, switches, words); anything nested is edited as JSON. */
function ConfigFields({ config, setConfig }) {
  const set = (key, value) => setConfig({ ...config, [key]: value });
  const plain = Object.entries(config).filter(([, v]) => v === null || typeof v !== 'object');
  return html`${plain.map(([key, value]) => {
    const id = `option-${key}`;
    const label = key.replace(/_/g, ' ');
    if (typeof value === 'boolean') {
      return html`<label class="check" key=${key}><input type="checkbox" id=${id} checked=${value}
        onChange=${(e) => set(key, e.currentTarget.checked)} /> ${label}</label>`;
    }
    if (typeof value === 'number') {
      return html`<label key=${key}>${label}<input type="number" id=${id} value=${value}
        step=${Number.isInteger(value) ? 1 : 'any'}
        onInput=${(e) => { const n = e.currentTarget.valueAsNumber; if (!Number.isNaN(n)) set(key, n); }} /></label>`;
    }
    return html`<label key=${key}>${label}<input type="text" id=${id} value=${value ?? ''}
      placeholder=${value === null ? 'none' : ''}
      onInput=${(e) => set(key, e.currentTarget.value === '' && value === null ? null : e.currentTarget.value)} /></label>`;
  })}`;
}

/** The form that opens a table: the game, seats, options and clock. */
function NewTable({ rulesets, onDone }) {
  const [id, setId] = useState(rulesets[0]?.id);
  const ruleset = rulesets.find((r) => r.id === id) || rulesets[0];
  const [seats, setSeats] = useState(Math.max(2, ruleset.seats[0]));
  const [config, setConfig] = useState(ruleset.default_config || {});
  const [json, setJson] = useState(null); // text being edited, while the JSON box is open
  const [deadline, setDeadline] = useState(Math.round((ruleset.deadline_ms || 120000) / 1000));
  const [bank, setBank] = useState(DEFAULT_BANK_S);
  const [abandon, setAbandon] = useState(3);
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const choose = (next) => {
    const r = rulesets.find((x) => x.id === next);
    setId(next);
    setSeats(Math.max(2, r.seats[0]));
    setConfig(r.default_config || {});
    setJson(null);
    setDeadline(Math.round((r.deadline_ms || 120000) / 1000));
  };
  const submit = async (event) => {
    event.preventDefault();
    let options = config;
    if (json !== null) {
      try { options = JSON.parse(json); } catch (e) { setError(`The options are not JSON: ${e.message}`); return; }
    }
    setBusy(true);
    setError(null);
    try {
      await createTable({
        ruleset: ruleset.id, seats: Number(seats), config: options,
        deadlineMs: Math.round(Number(deadline) * 1000), timeBankMs: Math.round(Number(bank) * 1000),
        abandonAfter: Math.max(0, Math.round(Number(abandon))),
      });
      onDone();
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };
  const [min, max] = ruleset.seats;
  return html`<form class="new-table" data-testid="new-table" onSubmit=${submit}>
    <label>Game
      <select data-testid="table-ruleset" value=${ruleset.id} onChange=${(e) => choose(e.currentTarget.value)}>
        ${rulesets.map((r) => html`<option key=${r.id} value=${r.id}>${r.name}</option>`)}
      </select></label>
    <label>Seats
      <input type="number" data-testid="table-seats" min=${min} max=${max} value=${seats}
        onInput=${(e) => setSeats(e.currentTarget.value)} /></label>
    <label>Seconds per move
      <input type="number" data-testid="table-deadline" min="0.1" step="any" value=${deadline}
        onInput=${(e) => setDeadline(e.currentTarget.value)} /></label>
    <label>Time bank (seconds)
      <input type="number" data-testid="table-bank" min="0" step="any" value=${bank}
        onInput=${(e) => setBank(e.currentTarget.value)} /></label>
    <label title="A seat that misses this many moves in a row is out (0: never)">Missed moves before a seat is out
      <input type="number" data-testid="table-abandon" min="0" step="1" value=${abandon}
        onInput=${(e) => setAbandon(e.currentTarget.value)} /></label>
    <fieldset class="options">
      <legend>Options <a href=${`#/rules/${encodeURIComponent(ruleset.id)}`} class="muted">(rules)</a></legend>
      ${json === null && html`<${ConfigFields} key=${ruleset.id} config=${config} setConfig=${setConfig} />`}
      <details onToggle=${(e) => setJson(e.currentTarget.open ? JSON.stringify(config, null, 1) : null)}>
        <summary>Edit the options as JSON</summary>
        ${json !== null && html`<textarea data-testid="table-config" rows="6" spellcheck="false" value=${json}
          onInput=${(e) => setJson(e.currentTarget.value)}></textarea>`}
      </details>
    </fieldset>
    ${error && html`<p class="form-error" role="alert">${error}</p>`}
    <p class="links"><button type="submit" class="primary" data-testid="create-table" disabled=${busy}>
      ${busy ? 'Opening…' : 'Open the table'}</button></p>
  </form>`;
}

function seatText(player) {
  if (!player) return 'empty';
  return player.startsWith('bot:') ? `${player.slice(4)} (bot)` : player;
}

/** One table: its seats, and what you may do at it (sit, add bots and start if it is yours, leave). */
function TableCard({ table, ruleset, me, sitting }) {
  const bots = ruleset?.bots || [];
  const [bot, setBot] = useState(bots.includes('random') ? 'random' : bots[0]);
  const [error, setError] = useState(null);
  const owner = me && table.owner.toLowerCase() === me.toLowerCase();
  const free = table.seats.filter((s) => !s.player);
  const attempt = (fn) => async () => {
    setError(null);
    try { await fn(); } catch (e) { setError(e.message); }
  };
  const clock = `${table.deadline_ms / 1000} s a move, ${Math.round(table.time_bank_ms / 1000)} s bank`;
  return html`<article class="card table" data-testid="table" data-table=${table.table}>
    <h3>${ruleset?.name || table.ruleset} <span class="muted">· table ${table.table}</span></h3>
    <p class="muted">${table.owner}'s table · ${clock}</p>
    <ol class="table-seats" start="0">
      ${table.seats.map((s) => html`<li key=${s.seat}>
        <span class=${s.player ? '' : 'muted'}>${seatText(s.player)}</span>
        ${!s.player && me && !sitting && html` <button type="button" class="link" data-testid="sit"
          onClick=${attempt(() => joinTable(table.table, s.seat))}>Sit here</button>`}
        ${!s.player && owner && bots.length > 0 && html` <button type="button" class="link" data-testid="add-bot"
          onClick=${attempt(() => addBot(table.table, bot, s.seat))}>Add ${bot}</button>`}
      </li>`)}
    </ol>
    ${owner && html`<div class="links">
      ${bots.length > 0 && html`<label>House bot <${BotSelect} bots=${bots} value=${bot} onChange=${setBot}
        testid="table-bot" label="House bot for empty seats" /></label>`}
      <button type="button" class="primary" data-testid="start-table"
        onClick=${attempt(() => startTable(table.table, free.length ? bot : null))}>
        ${free.length ? `Start (${bot} in ${free.length} empty seat${free.length === 1 ? '' : 's'})` : 'Start'}</button>
      <button type="button" data-testid="close-table" onClick=${attempt(() => leaveTable(table.table))}>Close</button>
    </div>`}
    ${sitting && !owner && html`<p class="links"><span class="note">Waiting for ${table.owner} to start…</span>
      <button type="button" onClick=${attempt(() => leaveTable(table.table))}>Leave</button></p>`}
    ${error && html`<p class="form-error" role="alert">${error}</p>`}
  </article>`;
}

/** Open tables (yours first), and the form to open one. */
export function Tables({ rulesets }) {
  const conn = useConnection();
  const { open, mine } = useTables({ list: true });
  const [creating, setCreating] = useState(false);
  const byId = Object.fromEntries(rulesets.map((r) => [r.id, r]));
  const mineIds = new Set(mine.map((t) => t.table));
  const tables = [...mine, ...open.filter((t) => !mineIds.has(t.table))];
  return html`<section aria-labelledby="tables-h" data-testid="tables">
    <h2 id="tables-h">Tables</h2>
    <p class="muted">Play friends (and bots): open a table with the options you like, share the lobby, start when the seats are filled.</p>
    ${tables.length === 0 && html`<p class="note">No table is open.</p>`}
    ${tables.length > 0 && html`<div class="cards">
      ${tables.map((t) => html`<${TableCard} key=${t.table} table=${t} ruleset=${byId[t.ruleset]}
        me=${conn.name} sitting=${mineIds.has(t.table)} />`)}
    </div>`}
    ${!conn.name && html`<p><a class="button" href=${accountHref()}>Log in to open or join a table</a></p>`}
    ${conn.name && !creating && mine.length === 0 && html`<p><button type="button" data-testid="open-table"
      onClick=${() => setCreating(true)}>Open a table…</button></p>`}
    ${conn.name && creating && html`<${NewTable} rulesets=${rulesets} onDone=${() => setCreating(false)} />`}
  </section>`;
}

/** "Rated game": wait in the ruleset's queue until matchmaking pairs you (the match page then opens). */
export function QueueButton({ ruleset }) {
  const conn = useConnection();
  const { queued } = useTables();
  const [error, setError] = useState(null);
  if (!conn.name) return null;
  const here = queued && queued.ruleset === ruleset.id;
  const attempt = (fn) => async () => {
    setError(null);
    try { await fn(); } catch (e) { setError(e.message); }
  };
  return html`<div class="queue" data-testid=${`queue-${ruleset.id}`}>
    ${here
      ? html`<span class="note" role="status" data-testid="queued">Waiting for ${queued.seats - 1} opponent${queued.seats === 2 ? '' : 's'}: ${queued.note}</span>
        <button type="button" data-testid="leave-queue" onClick=${attempt(leaveQueue)}>Stop</button>`
      : html`<button type="button" data-testid="join-queue" disabled=${!!queued}
        onClick=${attempt(() => joinQueue(ruleset.id))}>Rated game</button>`}
    ${error && html`<p class="form-error" role="alert">${error}</p>`}
  </div>`;
}
