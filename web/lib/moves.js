// Readable labels for the actions a seat may send, so a move list reads "Take 2 from
// heap 3" rather than JSON. A ruleset words its own moves in its board module
// (`export function label(action)`); others get the generic labeller, which turns keys
// and snake_case into words. The button's title always has the exact JSON.

const words = (s) => String(s).replace(/_/g, ' ');
const capital = (s) => s.charAt(0).toUpperCase() + s.slice(1);

function generic(value) {
  if (value == null) return '';
  if (typeof value !== 'object') return words(value);
  if (Array.isArray(value)) return value.map(generic).join('; ');
  const keys = Object.keys(value);
  if (keys.length === 2 && 'x' in value && 'y' in value) return `(${value.x}, ${value.y})`;
  if ('row' in value && 'column' in value && keys.length === 2) return `(${value.row}, ${value.column})`;
  if (typeof value.type === 'string') {
    const rest = keys.filter((k) => k !== 'type').map((k) => `${words(k)} ${generic(value[k])}`);
    return [words(value.type), ...rest].join(' · ');
  }
  if (keys.length === 1 && keys[0] !== 'kind') {
    const inner = generic(value[keys[0]]);
    return inner ? `${words(keys[0])}: ${inner}` : words(keys[0]);
  }
  // {kind, at} reads better as "scientist at (5, 0)" than "kind scientist, at (5, 0)".
  const rest = keys.filter((k) => k !== 'kind').map((k) => `${words(k)} ${generic(value[k])}`).join(', ');
  return 'kind' in value ? `${generic(value.kind)} ${rest}`.trim() : rest;
}

/**
 * A short label for `action`: the ruleset's own wording when its board module exports
 * `label(action)` (it lives in the ruleset's folder, with the board), else the generic.
 */
export function moveLabel(board, action) {
  let label = null;
  try { label = board?.label?.(action) ?? null; } catch { label = null; }
  return capital(label || generic(action) || JSON.stringify(action));
}
