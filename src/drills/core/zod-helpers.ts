import { z } from 'zod';
import { stepDuration } from '../../faults/kinds/step.js';

/** A validation problem before it is given a line: a field path and "what is wrong (what to do)". */
export interface RawIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

/** A strict object whose unknown-field error names the fields it does accept. */
export function strict<T extends z.core.$ZodLooseShape>(shape: T) {
  const allowed = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (iss) => (iss.code === 'unrecognized_keys' ? `unknown field (use one of: ${allowed})` : undefined),
  });
}

/** A duration in ms; `missing` is the hint shown when it is absent (the fault kinds' steps read theirs alike). */
export const duration = (missing?: string) => stepDuration(z, missing);

function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return JSON.stringify(v);
  return String(v);
}

const EXPECTED: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'a mapping',
  record: 'a mapping',
};

/** Messages in the "what is wrong (what to do)" form for the issues our schemas do not word themselves. */
export const errorMap: z.core.$ZodErrorMap = (iss) => {
  switch (iss.code) {
    case 'invalid_type': {
      const want = EXPECTED[iss.expected] ?? iss.expected;
      if (iss.input === undefined) return `is required (add it: ${want})`;
      return `expected ${want}, got ${describeValue(iss.input)} (write ${want} here)`;
    }
    case 'invalid_value':
      return `${describeValue(iss.input)} is not allowed (use one of: ${iss.values.map(String).join(', ')})`;
    case 'too_small':
      if (iss.origin === 'array') return `needs at least ${iss.minimum} item(s) (add more)`;
      if (iss.origin === 'string') return `must not be empty (write a value)`;
      return `${describeValue(iss.input)} is too small (use ${iss.inclusive ? 'at least' : 'more than'} ${iss.minimum})`;
    case 'too_big':
      if (iss.origin === 'array') return `has more than ${iss.maximum} item(s) (remove some)`;
      return `${describeValue(iss.input)} is too large (use ${iss.inclusive ? 'at most' : 'less than'} ${iss.maximum})`;
    case 'invalid_format':
      return `${describeValue(iss.input)} has the wrong format (${iss.format === 'regex' ? `match ${iss.pattern}` : iss.format})`;
    case 'unrecognized_keys':
      return 'unknown field (remove it)';
    default:
      return 'is not valid here (see templates/drills/ for examples)';
  }
};

/** Zod issues as RawIssues under `prefix`; an unknown-keys issue becomes one issue per key, pointing at the key. */
export function fromZod(error: z.ZodError, prefix: readonly (string | number)[] = []): RawIssue[] {
  const out: RawIssue[] = [];
  for (const iss of error.issues) {
    const path = [...prefix, ...iss.path.map((p) => (typeof p === 'number' ? p : String(p)))];
    if (iss.code === 'unrecognized_keys') {
      for (const key of iss.keys) out.push({ path: [...path, key], message: iss.message });
    } else {
      out.push({ path, message: iss.message });
    }
  }
  return out;
}
