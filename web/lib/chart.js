// The rating-history chart: a hand-drawn SVG line, one point per rated game (x is the
// game's number, so bursts of games stay readable), each point linking to its replay.
import { html } from './html.js';

const W = 480;
const H = 220;
const PAD = { left: 50, right: 14, top: 14, bottom: 38 };

/** A "nice" tick step (1, 2 or 5 × 10^k) near span/count. */
function niceStep(span, count) {
  const raw = span / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const f of [1, 2, 5, 10]) if (f * mag >= raw) return f * mag;
  return 10 * mag;
}

/**
 * points: [{match_id, display, at}] oldest first. `label` names the chart for screen
 * readers (e.g. "Secret Nim rating").
 */
export function RatingChart({ points, label = 'Rating' }) {
  if (!points || points.length === 0) return html`<p class="note">No rated games yet.</p>`;
  const values = points.map((p) => p.display);
  let lo = Math.min(...values);
  let hi = Math.max(...values);
  if (hi - lo < 20) { lo -= 10; hi += 10; } // a flat history still gets a visible band
  const step = niceStep(hi - lo, 4);
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;

  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  const n = points.length;
  const x = (i) => PAD.left + (n === 1 ? plotW / 2 : (i * plotW) / (n - 1));
  const y = (v) => PAD.top + plotH - ((v - lo) * plotH) / (hi - lo);

  const ticks = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(v);
  // At most ~8 labelled games on the x axis.
  const every = Math.max(1, Math.ceil(n / 8));
  const line = points.map((p, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(p.display).toFixed(1)}`).join(' ');
  const last = points[n - 1];
  const summary = `${label}: ${n} rated game${n === 1 ? '' : 's'}, from ${points[0].display} to ${last.display}`
    + ` (lowest ${Math.min(...values)}, highest ${Math.max(...values)}).`;

  return html`<svg class="chart" viewBox="0 0 ${W} ${H}">
    <title>${summary}</title>
    ${ticks.map((v) => html`<g key=${v}>
      <line class="grid" x1=${PAD.left} x2=${W - PAD.right} y1=${y(v)} y2=${y(v)} />
      <text class="axis" x=${PAD.left - 6} y=${y(v) + 4} text-anchor="end">${Math.round(v)}</text>
    </g>`)}
    ${points.map((p, i) => (i % every === 0 || i === n - 1) && html`<text key=${`x${i}`} class="axis"
      x=${x(i)} y=${H - PAD.bottom + 18} text-anchor="middle">${i + 1}</text>`)}
    <text class="axis" x=${PAD.left + plotW / 2} y=${H - 4} text-anchor="middle">game</text>
    <path class="line" d=${line} />
    ${points.map((p, i) => html`<a key=${`p${i}`} href=${`#/replay/${p.match_id}`}>
      <circle class="point" cx=${x(i)} cy=${y(p.display)} r="5">
        <title>Game ${i + 1} (match #${p.match_id}): ${p.display}${p.at ? `, ${new Date(p.at).toLocaleString()}` : ''}</title>
      </circle>
    </a>`)}
  </svg>`;
}
