import { isConnectString } from './connect-string.js';
import { formatDuration, parseDuration } from './duration.js';
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

const ZNODE_PATH = /^(\/[A-Za-z0-9._:-]+)+$/;

/** An absolute znode path of the characters a lab uses: letters, digits, `. _ : -`. */
export function isZnodePath(p: unknown): p is string {
  return typeof p === 'string' && ZNODE_PATH.test(p);
}

/** A command-line znode path, or a UsageError naming the flag. */
export function znodePathArg(p: string, flag = '--path'): string {
  if (!isZnodePath(p)) {
    throw new UsageError(
      `${flag} "${p}" is not a ZooKeeper path`,
      'use an absolute path such as /election (letters, digits, . _ : -)',
    );
  }
  return p;
}

/** A command-line connect string, or a UsageError. */
export function connectArg(c: string, flag = '--connect'): string {
  if (!isConnectString(c))
    throw new UsageError(`${flag} "${c}" is not a list of host:port`, 'e.g. --connect 10.0.0.1:2181,10.0.0.2:2181');
  return c;
}

/** A command-line duration in [min, max] ms (`250ms`, `2s`, or a bare number of ms), or one UsageError. */
export function durationArg(v: unknown, flag: string, range: { min: number; max: number }, example: string): number {
  const d = parseDuration(v);
  const within = `give a duration from ${formatDuration(range.min)} to ${formatDuration(range.max)}`;
  if ('error' in d) {
    const what = d.error.replace(/ \(write a duration[^)]*\)$/, '');
    throw new UsageError(`${flag}: ${what}`, `${within} (500ms, 3s or a number of milliseconds), ${example}`);
  }
  if (d.ms < range.min || d.ms > range.max)
    throw new UsageError(`${flag} ${String(v)} is out of range`, `${within}, ${example}`);
  return d.ms;
}
