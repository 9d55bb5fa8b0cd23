/** Durations as people write them in drill files, and as zklab prints them everywhere. */

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m)?$/;
const NEGATIVE = /^-\s*\d*\.?\d+\s*(ms|s|m)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const;

/** `500ms`, `3s`, `1.5s`, `2m`, or a bare number of milliseconds; an error text in the "what is wrong (what to do)" form. */
export function parseDuration(value: unknown): { ms: number } | { error: string } {
  const hint = '(write a duration such as 500ms, 3s or a number of milliseconds)';
  let ms: number;
  if (typeof value === 'number') {
    ms = value;
  } else if (typeof value === 'string') {
    const m = DURATION.exec(value.trim());
    if (!m && NEGATIVE.test(value.trim())) return { error: `${JSON.stringify(value)} is negative ${hint}` };
    if (!m) return { error: `${JSON.stringify(value)} is not a duration ${hint}` };
    ms = Number(m[1]) * UNIT_MS[(m[2] ?? 'ms') as keyof typeof UNIT_MS];
  } else {
    return { error: `expected a duration, got ${value === undefined ? 'nothing' : typeof value} ${hint}` };
  }
  if (ms < 0) return { error: `${String(value)} is negative ${hint}` };
  if (!Number.isFinite(ms)) return { error: `${String(value)} is not a duration ${hint}` };
  if (!Number.isInteger(ms)) return { error: `${String(value)} is not a whole number of milliseconds ${hint}` };
  return { ms };
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * 850ms, 3s, 2.45s, 1m05s, 2h03m. Under a minute, seconds keep up to `digits` decimals (cut, not rounded, so an
 * age is never shown ahead of itself); a narrow column passes 1.
 */
export function formatDuration(ms: number, digits = 2): string {
  const abs = Math.max(0, Math.round(ms));
  if (abs < 1000) return `${abs}ms`;
  if (abs < 60_000) {
    // Whole-number steps: (abs / 1000) * 100 is 114.99… for 1150 ms.
    return `${Math.floor(abs / 10 ** (3 - digits)) / 10 ** digits}s`;
  }
  const s = Math.floor(abs / 1000);
  if (s < 3600) return `${Math.floor(s / 60)}m${pad2(s % 60)}s`;
  return `${Math.floor(s / 3600)}h${pad2(Math.floor(s / 60) % 60)}m`;
}

/** A time as an offset from a start, for messages: `+2.4s`. */
export function formatOffset(t: number, start: number): string {
  const d = t - start;
  return d < 0 ? `-${formatDuration(-d)}` : `+${formatDuration(d)}`;
}
