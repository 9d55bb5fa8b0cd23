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
