// How every board tells players apart: a colour from the Okabe–Ito palette (safe for
// the common colour-blindnesses) *and* a shape and a label per seat, so colour is never
// the only cue. Boards import this from /web/lib/seats.js; one palette for every game.
import { h } from 'preact';
import htm from 'htm';

const html = htm.bind(h);

/** Seat colours in seat order (then again from the start). */
export const SEAT_COLOURS = ['#E69F00', '#56B4E9', '#009E73', '#CC79A7', '#0072B2', '#D55E00'];
/** Text colour readable on each seat colour. */
export const SEAT_INK = ['#000', '#000', '#000', '#000', '#fff', '#000'];
export const FONT = 'system-ui, -apple-system, Segoe UI, sans-serif';

export const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];
export const seatInk = (seat) => SEAT_INK[seat % SEAT_INK.length];

/** SVG points attribute from [[x, y], …]. */
export const pts = (list) => list.map(([x, y]) => `${x.toFixed(2)},${y.toFixed(2)}`).join(' ');

/**
 * A seat's marker centred on (cx, cy): circle, square, triangle or diamond in the seat's
 * colour, with `label` (the seat number unless given) written on it.
 */
export function seatMark(seat, cx, cy, r, label = seat) {
  const st = { fill: seatColour(seat), stroke: '#222', 'stroke-width': r * 0.12 };
  const shapes = [
    html`<circle cx=${cx} cy=${cy} r=${r} ...${st} />`,
    html`<rect x=${cx - r * 0.9} y=${cy - r * 0.9} width=${r * 1.8} height=${r * 1.8} ...${st} />`,
    html`<polygon points=${pts([[cx, cy - r * 1.25], [cx + r * 1.2, cy + r * 0.85], [cx - r * 1.2, cy + r * 0.85]])} ...${st} />`,
    html`<polygon points=${pts([[cx, cy - r * 1.25], [cx + r * 1.25, cy], [cx, cy + r * 1.25], [cx - r * 1.25, cy]])} ...${st} />`,
  ];
  const size = String(label).length > 2 ? r * 0.85 : r * 1.1;
  const low = seat % 4 === 2 ? r * 0.15 : 0; // a triangle's middle sits low
  return html`<g>
    ${shapes[seat % shapes.length]}
    <text x=${cx} y=${cy + low + size * 0.36} font-size=${size} text-anchor="middle" font-weight="bold"
      fill=${seatInk(seat)} font-family=${FONT}>${label}</text>
  </g>`;
}
