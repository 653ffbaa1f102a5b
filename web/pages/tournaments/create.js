// The form that creates a tournament (#/tournaments?create=1 opens it): game, format,
// players a game, rounds or minutes, when it starts, the clock, entrants and who may enter.
import { useState } from 'preact/hooks';
import { html } from '../../lib/html.js';
import { createTournament } from '../../lib/tournaments.js';
import { ENTRY, FORMATS, rulesHref, tournamentHref } from './shared.js';

const FORMAT_HELP = {
  swiss: 'A set number of rounds; each round pairs players of similar score who have not met.',
  arena: 'For a set time: whoever finishes a game is paired again at once. More games, more points.',
  round_robin: 'Everyone meets everyone twice, once in each seat.',
};

/** "YYYY-MM-DDTHH:MM" in local time, as a datetime-local field reads and writes it. */
function localInput(date) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** An hour from now, on a quarter hour. */
function defaultStart() {
  const at = new Date(Date.now() + 3600 * 1000);
  at.setMinutes(Math.ceil(at.getMinutes() / 15) * 15, 0, 0);
  return localInput(at);
}

/** The form that creates a tournament; errors from the server show under it. */
export function NewTournament({ rulesets }) {
  const [id, setId] = useState(rulesets[0]?.id);
  const ruleset = rulesets.find((r) => r.id === id) || rulesets[0];
  const [name, setName] = useState('');
  const [format, setFormat] = useState('swiss');
  const [seats, setSeats] = useState(2);
  const [rounds, setRounds] = useState(5);
  const [minutes, setMinutes] = useState(30);
  const [startBy, setStartBy] = useState('count');
  const [count, setCount] = useState(8);
  const [startAt, setStartAt] = useState(defaultStart);
  const [deadline, setDeadline] = useState(Math.round((ruleset.deadline_ms || 20000) / 1000));
  const [bank, setBank] = useState(30);
  const [rated, setRated] = useState(true);
  const [entry, setEntry] = useState('both');
  const [max, setMax] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);

  const [least, most] = ruleset.seats;
  const fewest = Math.max(2, least);
  const severalSeats = most > fewest && format !== 'arena';
  const choose = (next) => {
    const r = rulesets.find((x) => x.id === next);
    setId(next);
    setSeats(Math.max(2, r.seats[0]));
    setDeadline(Math.round((r.deadline_ms || 20000) / 1000));
  };
  const submit = async (event) => {
    event.preventDefault();
    const settings = { ruleset: ruleset.id, format, rated };
    if (name.trim()) settings.name = name.trim();
    if (severalSeats) settings.seats = Number(seats);
    if (format === 'swiss') settings.rounds = Number(rounds);
    if (format === 'arena') settings.duration_ms = Math.round(Number(minutes) * 60000);
    if (startBy === 'count') {
      settings.start_when = Number(count);
    } else {
      const at = new Date(startAt); // the field's local time
      if (Number.isNaN(at.getTime())) { setError({ message: 'Choose the day and time it starts.' }); return; }
      settings.starts_at = at.toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    if (deadline !== '') settings.deadline_ms = Math.round(Number(deadline) * 1000);
    if (bank !== '') settings.time_bank_ms = Math.round(Number(bank) * 1000);
    if (max !== '') settings.max_entrants = Number(max);
    if (entry !== 'both') settings.entry = entry;
    setBusy(true);
    setError(null);
    try {
      const created = await createTournament(settings);
      location.hash = tournamentHref(created);
    } catch (e) {
      setError(e);
      setBusy(false);
    }
  };
  const field = (setter) => (e) => setter(e.currentTarget.value);
  return html`<form class="new-table new-tournament" data-testid="new-tournament" onSubmit=${submit}
      aria-describedby=${error ? 'tournament-error' : null}>
    <label>Name
      <input type="text" data-testid="tournament-name" maxlength="80" value=${name}
        placeholder=${`${ruleset.name} ${format.replace('_', '-')}`} onInput=${field(setName)} /></label>
    <label>Game
      <select data-testid="tournament-ruleset" value=${ruleset.id} onChange=${(e) => choose(e.currentTarget.value)}>
        ${rulesets.map((r) => html`<option key=${r.id} value=${r.id}>${r.name}</option>`)}
      </select></label>
    <label>Format
      <select data-testid="tournament-format" value=${format} onChange=${field(setFormat)}
        aria-describedby="format-help">
        ${Object.entries(FORMATS).map(([key, label]) => html`<option key=${key} value=${key}>${label}</option>`)}
      </select></label>
    ${severalSeats && html`<label>Players a game
      <input type="number" data-testid="tournament-seats" min=${fewest} max=${most} value=${seats}
        onInput=${field(setSeats)} /></label>`}
    ${format === 'swiss' && html`<label>Rounds
      <input type="number" data-testid="tournament-rounds" min="1" max="50" value=${rounds}
        onInput=${field(setRounds)} /></label>`}
    ${format === 'arena' && html`<label>Minutes
      <input type="number" data-testid="tournament-minutes" min="1" max="1440" value=${minutes}
        onInput=${field(setMinutes)} /></label>`}
    <p class="field-help muted" id="format-help">${FORMAT_HELP[format]}</p>
    <fieldset class="options start">
      <legend>Starts</legend>
      <label class="check"><input type="radio" name="start-by" value="count" data-testid="start-by-count"
        checked=${startBy === 'count'} onChange=${() => setStartBy('count')} /> when
        <input type="number" class="inline" data-testid="tournament-start-when" min=${fewest} value=${count}
          aria-label="Entrants needed to start" onInput=${field(setCount)} onFocus=${() => setStartBy('count')} />
        have joined</label>
      <label class="check"><input type="radio" name="start-by" value="time" data-testid="start-by-time"
        checked=${startBy === 'time'} onChange=${() => setStartBy('time')} /> at
        <input type="datetime-local" class="inline" data-testid="tournament-starts-at" value=${startAt}
          min=${localInput(new Date())} aria-label="Start time (your time zone)"
          onInput=${field(setStartAt)} onFocus=${() => setStartBy('time')} /></label>
    </fieldset>
    <label>Seconds per move
      <input type="number" data-testid="tournament-deadline" min="0.1" step="any" value=${deadline}
        onInput=${field(setDeadline)} /></label>
    <label>Time bank (seconds)
      <input type="number" data-testid="tournament-bank" min="0" step="any" value=${bank}
        onInput=${field(setBank)} /></label>
    <label>Most entrants
      <input type="number" data-testid="tournament-max" min="2" step="1" value=${max} placeholder="the format's limit"
        onInput=${field(setMax)} /></label>
    <label>Who may enter
      <select data-testid="tournament-entry-rule" value=${entry} onChange=${field(setEntry)}>
        ${Object.entries(ENTRY).map(([key, { option }]) => html`<option key=${key} value=${key}>${option}</option>`)}
      </select></label>
    <label class="check"><input type="checkbox" data-testid="tournament-rated" checked=${rated}
      onChange=${(e) => setRated(e.currentTarget.checked)} /> Rated games</label>
    ${error && html`<p class="form-error" role="alert" id="tournament-error" data-testid="tournament-error">
      ${error.message}${error.code && html` <span class="muted">(${error.code})</span>`}</p>`}
    <p class="links"><button type="submit" class="primary" data-testid="create-tournament" disabled=${busy}>
      ${busy ? 'Creating…' : 'Create the tournament'}</button>
      <a href=${rulesHref(ruleset.id)}>${ruleset.name} rules</a></p>
  </form>`;
}
