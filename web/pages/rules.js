// A game's rules page: the HTML the server renders from the ruleset's Markdown
// (`crates/server/src/http/markdown.rs`, which passes no markup of the page's own).
import { html } from '../lib/html.js';
import { useApi } from '../lib/api.js';
import { ErrorBox, Loading, useTitle } from '../lib/ui.js';

export function Rules({ id }) {
  const { data, error, reload } = useApi(`/api/rulesets/${encodeURIComponent(id)}/rules`);
  useTitle(data ? `${data.name} rules` : 'Rules');
  const leaderboard = html`<p class="links"><a href=${`#/leaderboard/${encodeURIComponent(id)}`}>Leaderboard</a></p>`;

  if (error) {
    const missing = error.status === 404;
    return html`<h1>Rules: ${id}</h1>
      <${ErrorBox} error=${error} retry=${missing ? null : reload}>
        ${missing ? `No rules page is available for “${id}” on this server.` : 'Could not load the rules.'}
      <//>
      ${leaderboard}`;
  }
  if (!data) return html`<${Loading} what="Loading the rules" />`;
  return html`${leaderboard}<article class="rules"><div class="markdown" dangerouslySetInnerHTML=${{ __html: data.html }} /></article>`;
}
