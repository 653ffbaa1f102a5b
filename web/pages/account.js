// Logging in and registering (#/account?next=<path>), and the header's account corner.
// Guests can browse, watch and replay; playing needs an account.
import { useEffect, useState } from 'preact/hooks';
import { html } from '../lib/html.js';
import { useTitle } from '../lib/ui.js';
import { logIn, logOut, rememberedName, useConnection } from '../lib/connection.js';

/** Where to go after logging in: only a path inside this app, never another site. */
function safeNext(next) {
  return typeof next === 'string' && next.startsWith('/') && !next.startsWith('//') ? next : '/';
}

/** `#/account?next=…` for the page showing now, to come back to it after logging in. */
export function accountHref(next = location.hash.replace(/^#/, '') || '/') {
  if (next.startsWith('/account')) return '#/account';
  return `#/account?next=${encodeURIComponent(next)}`;
}

export function Account({ query }) {
  const next = safeNext(query.get('next'));
  const conn = useConnection();
  const [name, setName] = useState(rememberedName);
  const [password, setPassword] = useState('');
  const [error, setError] = useState(null);
  const [busy, setBusy] = useState(false);
  useTitle(conn.name ? 'Account' : 'Log in');

  const submit = async (event) => {
    event.preventDefault();
    // Enter submits as "Log in"; the Register button says so itself.
    const register = event.submitter?.value === 'register';
    setBusy(true);
    setError(null);
    try {
      await logIn(name.trim(), password, { register });
      setPassword('');
      // Replaced, not pushed: Back from where we land should not show this form again.
      location.replace(`#${next}`);
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  };

  if (conn.name) {
    return html`<h1>Account</h1>
      <p data-testid="signed-in">Signed in as <strong>${conn.name}</strong>.</p>
      <p class="links">
        ${next !== '/' && html`<a class="button" href=${`#${next}`}>Continue</a>`}
        <a class="button" href=${`#/player/${encodeURIComponent(conn.name)}`}>Your matches</a>
        <button type="button" onClick=${logOut}>Log out</button>
      </p>`;
  }

  return html`<h1>Log in or register</h1>
    <p class="muted">An account lets you play; watching and replays need none.
      ${next !== '/' && ' You will come back to where you were.'}</p>
    <form class="account-form" onSubmit=${submit} aria-describedby=${error ? 'account-error' : null}>
      <label>Name
        <input name="name" data-testid="account-name" autocomplete="username" required
          autocapitalize="none" spellcheck="false" value=${name}
          onInput=${(e) => setName(e.currentTarget.value)} />
      </label>
      <label>Password
        <input name="password" type="password" data-testid="account-password" autocomplete="current-password" required
          value=${password} onInput=${(e) => setPassword(e.currentTarget.value)} />
      </label>
      <div class="links">
        <button type="submit" class="primary" value="login" data-testid="login" disabled=${busy}>Log in</button>
        <button type="submit" value="register" data-testid="register" disabled=${busy}>Register</button>
      </div>
      ${error && html`<p class="form-error" id="account-error" role="alert" data-testid="account-error">${error}</p>`}
      ${conn.status !== 'open' && html`<p class="note" role="status">Connecting to the server…</p>`}
    </form>`;
}

/** The header's corner: who is signed in, or the way to sign in; and a lost connection. */
export function AccountBar() {
  const conn = useConnection();
  const [, setPath] = useState(location.hash);
  useEffect(() => {
    // The login link carries the current page, so it changes with every navigation.
    const onChange = () => setPath(location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);

  return html`<div class="account-bar" data-testid="account-bar">
    ${conn.status === 'offline' && html`<span class="badge offline" role="status">${conn.restarting ? 'server restarting, reconnecting… (your games wait for you)' : 'offline, reconnecting…'}</span>`}
    ${conn.notice && html`<span class="badge offline" role="alert">${conn.notice}</span>`}
    ${conn.name
      ? html`<span>Signed in as <a href="#/account" data-testid="account-name-shown">${conn.name}</a></span>
        <span aria-hidden="true">·</span>
        <button type="button" class="link" onClick=${logOut}>Log out</button>`
      : html`<a href=${accountHref()} data-testid="login-link">Log in / Register</a>`}
  </div>`;
}
