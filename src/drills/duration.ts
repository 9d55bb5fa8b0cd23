/** Drill durations: `500ms`, `3s`, `1.5s`, `2m`, or a bare number of milliseconds. */

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const;

/** Milliseconds, or an error text in the "what is wrong (what to do)" form. */
export function parseDuration(value: unknown): { ms: number } | { error: string } {
  const hint = '(write a duration such as 500ms, 3s or a number of milliseconds)';
  let ms: number;
  if (typeof value === 'number') {
    ms = value;
  } else if (typeof value === 'string') {
    const m = DURATION.exec(value.trim());
    if (!m) return { error: `${JSON.stringify(value)} is not a duration ${hint}` };
    ms = Number(m[1]) * UNIT_MS[(m[2] ?? 'ms') as keyof typeof UNIT_MS];
  } else {
    return { error: `expected a duration, got ${value === undefined ? 'nothing' : typeof value} ${hint}` };
  }
  if (!Number.isFinite(ms) || ms < 0) return { error: `${String(value)} is not a positive duration ${hint}` };
  if (!Number.isInteger(ms)) return { error: `${String(value)} is not a whole number of milliseconds ${hint}` };
  return { ms };
}

/** Short human form: 850ms, 3s, 2.45s, 1m5s. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(2))}s`;
  const m = Math.floor(ms / 60_000);
  const s = Math.round((ms % 60_000) / 1000);
  return s === 0 ? `${m}m` : `${m}m${s}s`;
}

/** A time as an offset from a start, for messages: `at +2.4s`. */
export function formatOffset(t: number, start: number): string {
  const d = t - start;
  return d < 0 ? `-${formatDuration(-d)}` : `+${formatDuration(d)}`;
}
