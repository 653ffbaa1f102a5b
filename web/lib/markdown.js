// A small Markdown renderer producing Preact vnodes. Every piece of the input ends up as
// a text child or a checked attribute, never as HTML, so a rules page cannot inject
// markup or script. Covers what the rules pages use: headings, paragraphs, nested
// lists, block quotes, fenced and indented code, tables, rules, code spans, emphasis,
// links and autolinks. Raw HTML in the source is shown as text.
import { h } from 'preact';

/** Render `source` to an array of vnodes. */
export function markdown(source) {
  const lines = String(source ?? '').replace(/\r\n?/g, '\n').replace(/\t/g, '    ').split('\n');
  return blocks(lines, false);
}

/** A Preact component: <${Markdown} source=${text} />. */
export function Markdown({ source }) {
  return h('div', { class: 'markdown' }, markdown(source));
}

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)/;
const HEADING = /^ {0,3}(#{1,6})(?:\s+(.*?))?\s*#*\s*$/;
const RULE = /^ {0,3}([-*_])(\s*\1){2,}\s*$/;
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])( +|$)/;
const QUOTE = /^ {0,3}> ?/;
const TABLE_SEP = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

const blank = (line) => /^\s*$/.test(line);
const isTableStart = (lines, i) => lines[i].includes('|') && i + 1 < lines.length && TABLE_SEP.test(lines[i + 1]) && lines[i + 1].includes('-');

/** Does `line` start a block that ends a paragraph? */
function interrupts(lines, i) {
  const line = lines[i];
  if (FENCE.test(line) || HEADING.test(line) || RULE.test(line) || QUOTE.test(line)) return true;
  const item = LIST_ITEM.exec(line);
  // Only bullets and lists starting at 1 may break a paragraph (as in CommonMark), so
  // a wrapped line that happens to start with "2026." stays text.
  if (item && line.slice(item[0].length).trim() && (/[-*+]/.test(item[2]) || /^1[.)]/.test(item[2]))) return true;
  return isTableStart(lines, i);
}

/** Parse lines into block vnodes; `tight` renders lone paragraphs without <p> (list items). */
function blocks(lines, tight) {
  const out = [];
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (blank(line)) { i++; continue; }

    let m = FENCE.exec(line);
    if (m) {
      const fence = m[1];
      const body = [];
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(fence)) body.push(lines[i++]);
      i++; // the closing fence (or the end)
      const attrs = m[2] ? { class: `language-${m[2]}` } : null;
      out.push(h('pre', null, h('code', attrs, body.join('\n'))));
      continue;
    }

    if (/^ {4}/.test(line)) {
      const body = [];
      while (i < lines.length && (/^ {4}/.test(lines[i]) || blank(lines[i]))) body.push(lines[i++].slice(4));
      while (body.length && blank(body[body.length - 1])) body.pop();
      out.push(h('pre', null, h('code', null, body.join('\n'))));
      continue;
    }

    m = HEADING.exec(line);
    if (m) {
      const text = m[2] || '';
      out.push(h(`h${m[1].length}`, { id: slug(text) }, inline(text)));
      i++;
      continue;
    }

    if (RULE.test(line)) { out.push(h('hr', null)); i++; continue; }

    if (QUOTE.test(line)) {
      const body = [];
      while (i < lines.length && !blank(lines[i]) && (QUOTE.test(lines[i]) || !interrupts(lines, i))) {
        body.push(lines[i++].replace(QUOTE, ''));
      }
      out.push(h('blockquote', null, blocks(body, false)));
      continue;
    }

    if (isTableStart(lines, i)) {
      const end = tableEnd(lines, i);
      out.push(table(lines.slice(i, end)));
      i = end;
      continue;
    }

    if (LIST_ITEM.test(line)) {
      const [node, next] = list(lines, i);
      out.push(node);
      i = next;
      continue;
    }

    // A paragraph: lines up to a blank one or the start of another block.
    const para = [line.trim()];
    i++;
    while (i < lines.length && !blank(lines[i]) && !interrupts(lines, i)) para.push(lines[i++].trim());
    const content = inline(para.join('\n'));
    out.push(tight ? h('span', null, content) : h('p', null, content));
  }
  return out;
}

/** A list starting at line `start`: returns [vnode, index after it]. */
function list(lines, start) {
  const first = LIST_ITEM.exec(lines[start]);
  const ordered = /\d/.test(first[2]);
  const kind = ordered ? first[2].slice(-1) : first[2]; // "." or ")", or the bullet
  const sameKind = (m) => m && (ordered ? /\d/.test(m[2]) && m[2].slice(-1) === kind : m[2] === kind);
  const items = [];
  let loose = false;
  let i = start;
  while (i < lines.length) {
    const m = LIST_ITEM.exec(lines[i]);
    if (!sameKind(m) || m[1].length > 3) break;
    // Content lines are indented past the marker; more than 4 spaces means code, so count 1.
    const gap = m[3].length > 4 ? 1 : Math.max(m[3].length, 1);
    const indent = m[1].length + m[2].length + gap;
    const body = [lines[i].slice(m[3].length > 4 ? indent : m[0].length)];
    i++;
    while (i < lines.length) {
      const line = lines[i];
      if (blank(line)) {
        // A blank line: the item goes on if indented content follows; a sibling item
        // after it makes the list loose; anything else ends the list.
        let j = i;
        while (j < lines.length && blank(lines[j])) j++;
        if (j < lines.length && indentOf(lines[j]) >= indent) { body.push(''); loose = true; i = j; continue; }
        if (j < lines.length && sameKind(LIST_ITEM.exec(lines[j]))) { loose = true; i = j; }
        break;
      }
      if (indentOf(line) >= indent) { body.push(line.slice(indent)); i++; continue; }
      // A lazy continuation line of the item's paragraph.
      if (!interrupts(lines, i) && !LIST_ITEM.test(line) && !blank(body[body.length - 1] ?? '')) {
        body.push(line.trim());
        i++;
        continue;
      }
      break;
    }
    items.push(body);
  }
  const attrs = ordered && parseInt(first[2], 10) !== 1 ? { start: parseInt(first[2], 10) } : null;
  const node = h(ordered ? 'ol' : 'ul', attrs, items.map((body) => h('li', null, blocks(body, !loose))));
  return [node, i];
}

const indentOf = (line) => line.length - line.trimStart().length;

function tableEnd(lines, start) {
  let i = start + 2;
  while (i < lines.length && !blank(lines[i]) && lines[i].includes('|')) i++;
  return i;
}

/** Split a table row on pipes that are neither escaped nor inside a code span. */
function cells(row) {
  let text = row.trim();
  if (text.startsWith('|')) text = text.slice(1);
  if (text.endsWith('|') && !text.endsWith('\\|')) text = text.slice(0, -1);
  const out = [];
  let cell = '';
  let code = 0; // length of the open backtick run, 0 when outside code
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && text[i + 1] === '|') { cell += '|'; i++; continue; }
    if (c === '`') {
      let n = 1;
      while (text[i + n] === '`') n++;
      if (code === 0) code = n; else if (code === n) code = 0;
      cell += '`'.repeat(n);
      i += n - 1;
      continue;
    }
    if (c === '|' && code === 0) { out.push(cell.trim()); cell = ''; continue; }
    cell += c;
  }
  out.push(cell.trim());
  return out;
}

function table(rows) {
  const head = cells(rows[0]);
  const align = cells(rows[1]).map((c) => {
    const left = c.startsWith(':');
    const right = c.endsWith(':');
    if (left && right) return 'center';
    if (right) return 'right';
    return left ? 'left' : null;
  });
  const style = (k) => (align[k] ? { style: `text-align:${align[k]}` } : null);
  const body = rows.slice(2).map((row) => {
    const cs = cells(row);
    return h('tr', null, head.map((_, k) => h('td', style(k), inline(cs[k] ?? ''))));
  });
  // The wrapper scrolls sideways on narrow screens instead of widening the page.
  return h('div', { class: 'table-wrap' },
    h('table', null,
      h('thead', null, h('tr', null, head.map((c, k) => h('th', style(k), inline(c))))),
      h('tbody', null, body)));
}

/** A heading's anchor id, GitHub style. */
function slug(text) {
  return text.toLowerCase().replace(/[`*_[\]()]/g, '').trim().replace(/[^\p{L}\p{N}\s-]/gu, '').replace(/\s+/g, '-');
}

const PUNCT = /[!-/:-@[-`{-~]/;
const WORD = /[\p{L}\p{N}]/u;

/** Inline Markdown to an array of strings and vnodes. */
function inline(src) {
  const out = [];
  let text = '';
  const flush = () => { if (text) { out.push(text); text = ''; } };
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\' && PUNCT.test(src[i + 1] || '')) { text += src[i + 1]; i += 2; continue; }
    if (c === '\\' && src[i + 1] === '\n') { flush(); out.push(h('br', null)); i += 2; continue; }

    if (c === '`') {
      let n = 1;
      while (src[i + n] === '`') n++;
      const end = findRun(src, n, i + n);
      if (end < 0) { text += '`'.repeat(n); i += n; continue; }
      let code = src.slice(i + n, end).replace(/\n/g, ' ');
      if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim()) code = code.slice(1, -1);
      flush();
      out.push(h('code', null, code));
      i = end + n;
      continue;
    }

    if (c === '*' || c === '_') {
      const mark = src[i + 1] === c ? c + c : c;
      if (canOpen(src, i, mark)) {
        const end = findClose(src, i + mark.length, mark);
        if (end > 0) {
          flush();
          out.push(h(mark.length === 2 ? 'strong' : 'em', null, inline(src.slice(i + mark.length, end))));
          i = end + mark.length;
          continue;
        }
      }
      text += mark;
      i += mark.length;
      continue;
    }

    if (c === '[') {
      const close = matchBracket(src, i);
      if (close > 0 && src[close + 1] === '(') {
        const end = matchParen(src, close + 1);
        if (end > 0) {
          const target = src.slice(close + 2, end).trim().split(/\s+/)[0].replace(/^<|>$/g, '');
          flush();
          out.push(link(target, inline(src.slice(i + 1, close))));
          i = end + 1;
          continue;
        }
      }
    }

    if (c === '<') {
      const m = /^<((?:https?:\/\/|mailto:)[^\s<>]+)>/i.exec(src.slice(i));
      if (m) { flush(); out.push(link(m[1], [m[1]])); i += m[0].length; continue; }
    }

    text += c;
    i++;
  }
  flush();
  return out;
}

/** Index of the next run of exactly `n` backticks from `from`, or -1. */
function findRun(src, n, from) {
  for (let i = from; i < src.length; i++) {
    if (src[i] !== '`') continue;
    let k = 0;
    while (src[i + k] === '`') k++;
    if (k === n) return i;
    i += k - 1;
  }
  return -1;
}

/** Emphasis opens before a non-space; "_" not inside a word (snake_case stays text). */
function canOpen(src, i, mark) {
  const next = src[i + mark.length];
  if (!next || /\s/.test(next)) return false;
  return mark[0] !== '_' || !WORD.test(src[i - 1] || '');
}

/** Where the emphasis opened before `from` closes, skipping code spans; -1 if never. */
function findClose(src, from, mark) {
  for (let i = from; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') { i++; continue; }
    if (c === '`') {
      let n = 1;
      while (src[i + n] === '`') n++;
      const end = findRun(src, n, i + n);
      if (end >= 0) i = end + n - 1;
      continue;
    }
    if (c !== mark[0]) continue;
    const run = src[i + 1] === c ? 2 : 1;
    if (run === mark.length && i > from && !/\s/.test(src[i - 1])
        && (c !== '_' || !WORD.test(src[i + run] || ''))) return i;
    if (run === 2) i++; // a "**" inside "*...*" belongs to a nested strong
  }
  return -1;
}

/** The ")" closing the "(" at `open`, allowing balanced parentheses in an address. */
function matchParen(src, open) {
  let depth = 0;
  for (let i = open; i < src.length && src[i] !== '\n'; i++) {
    if (src[i] === '\\') { i++; continue; }
    if (src[i] === '(') depth++;
    else if (src[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

function matchBracket(src, open) {
  let depth = 0;
  for (let i = open; i < src.length; i++) {
    if (src[i] === '\\') { i++; continue; }
    if (src[i] === '[') depth++;
    else if (src[i] === ']' && --depth === 0) return i;
  }
  return -1;
}

/** A link, if its address is safe: no javascript:, data: or other schemes. */
function link(target, children) {
  // Browsers ignore control characters and spaces inside a scheme, so do the same here.
  const url = target.replace(/[\u0000-\u0020\u007f]/g, '');
  if (/^[a-z][a-z0-9+.-]*:/i.test(url) && !/^(https?|mailto):/i.test(url)) {
    return h('span', null, children);
  }
  if (url.startsWith('#') && !url.startsWith('#/')) {
    // An in-page anchor: scroll to the heading, since the hash belongs to the router.
    let id = url.slice(1);
    try { id = decodeURIComponent(id); } catch { /* keep it as written */ }
    return h('a', {
      href: url,
      onClick: (e) => {
        const el = document.getElementById(id);
        if (el) { e.preventDefault(); el.scrollIntoView(); }
      },
    }, children);
  }
  const external = /^https?:/i.test(url);
  return h('a', external ? { href: url, rel: 'noopener noreferrer', target: '_blank' } : { href: url }, children);
}
