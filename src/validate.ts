import { UsageError } from './errors.js';

/**
 * A command-line value that must be a whole number in [min, max] (a number, or a string of decimal digits), or a
 * UsageError saying "<what> must be a whole number from <min> to <max>, got <value as given>" with `hint`.
 * Command lines pass numbers as strings (yargs' number type would turn "abc" into NaN, shown as null): the value
 * quoted here is what the user typed.
 */
export function wholeNumber(v: unknown, what: string, min: number, max: number, hint: string): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${what} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`, hint);
  return n;
}
