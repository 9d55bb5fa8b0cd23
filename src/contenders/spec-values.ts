import { isConnectString } from '../connect-string.js';
import { formatDuration, parseDuration } from '../duration.js';
import { splitShellWords } from '../shell-words.js';
import { isZnodePath } from '../validate.js';
import { PLACEHOLDERS, unknownPlaceholders } from './placeholders.js';

/**
 * Readers of one raw value of a contender spec, the same for every front end: a command line gives strings, a
 * drill file numbers, strings and lists. Each returns the value, or a problem worded without naming the field
 * (the front end puts the flag or the file's field in front of it).
 */
export type Read<T> = { readonly value: T } | { readonly problem: string; readonly hint: string };

export const ok = <T>(value: T): Read<T> => ({ value });
export const bad = (problem: string, hint: string): Read<never> => ({ problem, hint });

/** How a value was given, for messages: text as typed, anything else as JSON. */
export function shown(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? `[${v.map(shown).join(', ')}]` : String(v);
}

/** A whole number in [min, max]: a number, or a string of decimal digits. */
export function wholeIn(v: unknown, min: number, max: number, hint: string): Read<number> {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v) ? Number(v) : Number.NaN;
  if (!Number.isInteger(n) || n < min || n > max) {
    return bad(`must be a whole number from ${min} to ${max}, got ${shown(v)}`, hint);
  }
  return ok(n);
}

/**
 * A duration in [min, max] ms: `250ms`, `2s`, `1.5m`, or a bare number of milliseconds, written the same way on a
 * command line and in a drill file.
 */
export function durationIn(v: unknown, range: { readonly min: number; readonly max: number }): Read<number> {
  const d = parseDuration(v);
  const hint = `write a duration from ${formatDuration(range.min)} to ${formatDuration(range.max)}, e.g. 250ms or 2s`;
  if ('error' in d) return bad(d.error.replace(/ \(write a duration[^)]*\)$/, ''), hint);
  if (d.ms < range.min) {
    return bad(
      range.min === 1 ? `${shown(v)} is not above 0` : `${shown(v)} is below ${formatDuration(range.min)}`,
      hint,
    );
  }
  if (d.ms > range.max) return bad(`${shown(v)} is above ${formatDuration(range.max)}`, hint);
  return ok(d.ms);
}

/** One of `allowed`, as text. */
export function choice<T extends string>(v: unknown, allowed: readonly T[]): Read<T> {
  if (typeof v === 'string' && (allowed as readonly string[]).includes(v)) return ok(v as T);
  return bad(`${shown(v)} is unknown`, `choose one of ${allowed.join(', ')}`);
}

/** A list: given as a list (drill files) or as comma-separated text (command lines). */
export function listOf(v: unknown): Read<readonly unknown[]> {
  if (Array.isArray(v)) return ok(v);
  if (typeof v === 'string') return ok(v.split(',').map((s) => s.trim()));
  return bad(`expected a list, got ${shown(v)}`, 'give one value per contender');
}

export function flag(v: unknown): Read<boolean> {
  if (typeof v === 'boolean') return ok(v);
  return bad(`expected true or false, got ${shown(v)}`, 'write true or false');
}

const PROBE_EXAMPLE =
  "e.g. «probe=pg_isready -p 54{n}» or, for a pipeline, «probe=sh -c 'curl -s :80{n} | grep primary'»";

/** A probe: an argument vector (a drill's list), or a command line split as a shell would, with no shell run. */
export function probeCommand(v: unknown): Read<readonly string[]> {
  let argv: readonly string[];
  if (typeof v === 'string') {
    const split = splitShellWords(v);
    if ('error' in split) return bad(`${shown(v)}: ${split.error}`, PROBE_EXAMPLE);
    argv = split.words;
  } else if (Array.isArray(v) && v.every((a) => typeof a === 'string' || typeof a === 'number')) {
    argv = v.map(String);
  } else {
    return bad(`expected a command and its arguments, got ${shown(v)}`, PROBE_EXAMPLE);
  }
  if (argv.length === 0 || argv[0] === '') return bad('needs a command', PROBE_EXAMPLE);
  const unknown = unknownPlaceholders(argv);
  if (unknown.length > 0) {
    return bad(
      `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a placeholder' : 'are not placeholders'}`,
      `use ${PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
    );
  }
  return ok(argv);
}

export function znodePath(v: unknown): Read<string> {
  if (isZnodePath(v)) return ok(v);
  return bad(`${shown(v)} is not a ZooKeeper path`, 'use an absolute path such as /election: letters, digits, . _ : -');
}

export function connectString(v: unknown): Read<string> {
  if (typeof v === 'string' && isConnectString(v)) return ok(v);
  return bad(`${shown(v)} is not a list of host:port`, 'e.g. 10.0.0.1:2181,10.0.0.2:2181');
}
