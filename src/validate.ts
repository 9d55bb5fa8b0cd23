import { UsageError } from './errors.js';

/**
 * A command-line value that must be a whole number in [min, max] (a number, or a string of decimal digits), or a
 * UsageError saying "<what> must be a whole number from <min> to <max>, got <value as given>" with `hint`.
 * Command lines pass numbers as strings (yargs' number type would turn "abc" into NaN, shown as null): the value
 * quoted here is what the user typed.
 */
export function wholeNumber(v: unknown, what: string, min: number, max: number, hint: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`${what} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`, hint);
  return n;
}

/** A command-line value that must be one of `allowed` (`fallback` when absent), or a UsageError listing them. */
export function oneOf<T extends string>(v: string | undefined, allowed: readonly T[], what: string, fallback: T): T {
  if (v === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(v))
    throw new UsageError(`unknown ${what} "${v}"`, `choose one of ${allowed.join(', ')}`);
  return v as T;
}

/** A parsed JSON value that is an object (not null, not an array), its fields still unknown. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
