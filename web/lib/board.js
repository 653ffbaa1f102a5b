// A game's board, drawn by its own module (/boards/<ruleset>.js) when the server has
// one, else the view as JSON; shared by the replay, play and watch pages.
import { Component } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { html } from './html.js';
import { Loading } from './ui.js';

// One import per ruleset per page load; a failed import stays failed (the server has
// no board for that game) rather than being retried every step.
const boards = new Map();
function loadBoard(ruleset) {
  if (!boards.has(ruleset)) {
    boards.set(ruleset, import(`/boards/${encodeURIComponent(ruleset)}.js`).then((mod) => {
      if (typeof mod.render !== 'function') throw new Error('the board module has no render()');
      return mod;
    }));
  }
  return boards.get(ruleset);
}

function RawView({ view, note }) {
  return html`<div class="raw-view">
    ${note && html`<p class="note">${note}</p>`}
    <pre>${JSON.stringify(view, null, 2)}</pre>
  </div>`;
}

/** Catches a board that throws while Preact renders it, and falls back to JSON. */
class BoardBoundary extends Component {
  componentDidCatch(error) {
    this.setState({ error });
  }

  render({ view, children }, { error }) {
    if (error) return html`<${RawView} view=${view} note=${`The board could not be drawn (${error.message}); the raw view:`} />`;
    return children;
  }
}

/** The ruleset's board module once loaded: `{ mod, error }` (both null while loading). */
export function useBoardModule(ruleset) {
  const [board, setBoard] = useState({ mod: null, error: null });
  useEffect(() => {
    let current = true;
    loadBoard(ruleset).then(
      (mod) => current && setBoard({ mod, error: null }),
      (error) => current && setBoard({ mod: null, error }),
    );
    return () => { current = false; };
  }, [ruleset]);
  return board;
}

/**
 * `moves` and `play` only on the play page, while the seat is to answer: boards that
 * can make moves clickable do (the move list stays beside them).
 */
export function Board({ ruleset, view, seats, step, seat = null, moves = null, play = null }) {
  const board = useBoardModule(ruleset);

  if (board.error) return html`<${RawView} view=${view} note="This game has no board drawing yet; the raw view:" />`;
  if (!board.mod) return html`<${Loading} what="Loading the board" />`;
  let drawn;
  try {
    drawn = board.mod.render(view, { seats, seat, step, moves, play });
  } catch (error) {
    return html`<${RawView} view=${view} note=${`The board could not be drawn (${error.message}); the raw view:`} />`;
  }
  return html`<${BoardBoundary} key=${ruleset} view=${view}>${drawn}<//>`;
}
