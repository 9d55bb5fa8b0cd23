import { formatDuration } from '../duration.js';

/** Text helpers shared by the inspect views and the --once renderer. */

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** HH:MM:SS.mmm in local time: what a person compares against the clock and the logs. */
export function formatClock(t: number): string {
  const d = new Date(t);
  return `${pad2(d.getHours())}:${pad2(d.getMinutes())}:${pad2(d.getSeconds())}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/** "ttl 4.2s", or "ttl due" once the reaper may take it. */
export function formatTtl(remainingMs: number | null): string {
  if (remainingMs === null) return '';
  return remainingMs <= 0 ? 'ttl due' : `ttl ${formatDuration(remainingMs, 1)}`;
}

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

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
