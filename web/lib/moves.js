// Readable labels for the actions a seat may send, so a move list reads "Take 2 from
// heap 3" rather than JSON. Games without a labeller here get the generic one, which
// turns keys and snake_case into words; the button's title always has the exact JSON.

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

// Heaps are numbered from 1 on the board, from 0 in the JSON.
const take = (t) => `${t.count} from heap ${t.heap + 1}`;

const LABELS = {
  nim(a) {
    if (a.take) return `Take ${take(a.take)}`;
    if (Array.isArray(a.double)) return `Double: take ${a.double.map(take).join(' and ')}`;
    return null;
  },
  spacegoo(a) {
    if (a === 'nop' || (a && 'nop' in a)) return 'Wait this round (nop)';
    const s = a.send;
    if (s) return `Send ${(s.ships || []).join('/')} ships from planet ${s.origin} to planet ${s.target}`;
    return null;
  },
  qgame(a) {
    if (a === 'pass') return 'Pass';
    if (a === 'replace') return 'Replace your hand';
    if (Array.isArray(a)) {
      return `Place ${a.map((p) => `${p['1tile']?.color} ${p['1tile']?.shape} at (${p.coordinate?.row}, ${p.coordinate?.column})`).join(', ')}`;
    }
    return null;
  },
  spacecrack(a) {
    if (a.type === 'move_ship') return `Move ship ${a.ship} to planet ${a.planet}`;
    if (a.type === 'build_ship') return `Build a ship on planet ${a.planet}`;
    return null;
  },
};

/** A short label for `action` in `ruleset`. */
export function moveLabel(ruleset, action) {
  let label = null;
  try { label = LABELS[ruleset]?.(action); } catch { label = null; }
  return capital(label || generic(action) || JSON.stringify(action));
}
