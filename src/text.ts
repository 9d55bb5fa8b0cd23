/** Plain-text helpers for every view: cutting and padding to a width, wrapping prose, counting words. */

/** The columns text is laid out for when the terminal's width is unknown (output to a pipe or a file). */
export const TEXT_COLUMNS = 100;

/** Keeps both ends, where GUID znode names differ (the head) and carry their sequence (the tail). */
export function truncateMiddle(s: string, max: number): string {
  if (s.length <= max) return s;
  if (max <= 1) return s.slice(0, Math.max(0, max));
  const head = Math.min(4, Math.floor((max - 1) / 3));
  return `${s.slice(0, head)}…${s.slice(s.length - (max - 1 - head))}`;
}

/** At most width characters, cut with an ellipsis. */
export function fitWidth(s: string, width: number): string {
  if (width <= 0) return '';
  return s.length > width ? `${s.slice(0, width - 1)}…` : s;
}

/** Exactly width characters: cut with an ellipsis, or padded. */
export function cell(s: string, width: number): string {
  if (width <= 0) return '';
  return s.length > width ? `${s.slice(0, width - 1)}…` : s.padEnd(width);
}

/** Names in a sentence: `zk1`, `zk1 and zk2`, `zk1, zk2 and zk3`. */
export function listed(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Prose wrapped at word boundaries to `width` columns (a terminal breaks a long line mid-word); continuation lines
 * get `indent`. Words longer than a line stay whole.
 */
export function wrapWords(text: string, width = 100, indent = ''): string {
  return text
    .split('\n')
    .map((line) => {
      const out: string[] = [];
      let current = '';
      for (const word of line.split(' ')) {
        const next = current === '' ? word : `${current} ${word}`;
        if (next.length > width && current !== '') {
          out.push(current);
          current = indent + word;
        } else current = next;
      }
      out.push(current);
      return out.join('\n');
    })
    .join('\n');
}
