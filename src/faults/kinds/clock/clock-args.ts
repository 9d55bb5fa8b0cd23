/**
 * A clock fault's arguments as people write them, on the command line and in drill files: one validator each, an
 * error text in the "what is wrong (what to write)" form.
 */

const OFFSET = /^([+-])?\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** A year: further than any lesson needs, and far inside what 64-bit nanoseconds hold. */
export const MAX_OFFSET_MS = 365 * UNIT_MS.d;
export const MAX_RATE = 100;

const OFFSET_HINT = 'write a signed duration such as +30s, -2m, 1h or 500ms, at most a year either way';
const RATE_HINT = `write how fast the clock runs, above 0 and at most ${MAX_RATE}: 1.5 is 50 % fast, 0.5 half speed`;

/** `+30s`, `-2m`, `1h`, `-500ms`, or a number of milliseconds. */
export function parseOffset(value: unknown): { ms: number } | { error: string } {
  let ms: number;
  if (typeof value === 'number') ms = value;
  else if (typeof value === 'string') {
    const m = OFFSET.exec(value.trim());
    if (!m) return { error: `${JSON.stringify(value)} is not an offset (${OFFSET_HINT})` };
    ms = (m[1] === '-' ? -1 : 1) * Number(m[2]) * UNIT_MS[(m[3] ?? 'ms') as keyof typeof UNIT_MS];
  } else return { error: `expected an offset, got ${value === undefined ? 'nothing' : typeof value} (${OFFSET_HINT})` };
  if (!Number.isFinite(ms)) return { error: `${String(value)} is not an offset (${OFFSET_HINT})` };
  if (Math.abs(ms) > MAX_OFFSET_MS) return { error: `${String(value)} is beyond a year (${OFFSET_HINT})` };
  return { ms: Math.round(ms) };
}

/** `1.5`, `0.5`, `2x`. */
export function parseRate(value: unknown): { rate: number } | { error: string } {
  const text = typeof value === 'string' ? value.trim().replace(/[x×]$/, '') : undefined;
  const rate =
    typeof value === 'number' ? value : text !== undefined && /^\d*\.?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (typeof value === 'string' && /^-/.test(value.trim()))
    return { error: `${JSON.stringify(value)} is negative (${RATE_HINT})` };
  if (!Number.isFinite(rate)) return { error: `${JSON.stringify(value ?? null)} is not a rate (${RATE_HINT})` };
  if (rate <= 0) return { error: `${String(value)} would stop the clock or run it backwards (${RATE_HINT})` };
  if (rate > MAX_RATE) return { error: `${String(value)} is above ${MAX_RATE} (${RATE_HINT})` };
  return { rate };
}
