import type { z } from 'zod';
import { isRecord } from '../validate.js';

/**
 * Events by name, each with the schema of the fields its lines carry beyond their head. The schema is the one
 * declaration of an event: its type comes from it (`z.infer`), and so does the guard that reads its lines back.
 */
export type EventSchemas = Readonly<Record<string, z.ZodObject>>;

/** An event's fields as its schema says; an event without fields has none (zod says `Record<string, never>`). */
export type FieldsOfSchema<T extends z.ZodObject> = string extends keyof z.infer<T> ? Record<never, never> : z.infer<T>;

/** The fields of each event of a set, by name. */
export type FieldsOf<S extends EventSchemas> = { [E in keyof S & string]: FieldsOfSchema<S[E]> };

/** Every line of the lab's own log (faults, ups and downs) starts so. */
export interface LabLineHead {
  /** Wall-clock milliseconds. */
  readonly t: number;
  readonly source: 'lab';
}

/** The lab lines of a set of events, one member per event: `event` tells them apart. */
export type LabLinesOf<S extends EventSchemas> = {
  [E in keyof S & string]: LabLineHead & { readonly event: E } & Readonly<FieldsOfSchema<S[E]>>;
}[keyof S & string];

/**
 * Whether a parsed line has a lab line's head and names an event of `schemas`. The fields are not checked: the log
 * is a history, and a line an older zklab wrote (before a field was added) still reads as it always did.
 */
export function labLineGuard<S extends EventSchemas>(schemas: S): (v: unknown) => v is LabLinesOf<S> {
  const known = new Set(Object.keys(schemas));
  return (v: unknown): v is LabLinesOf<S> =>
    isRecord(v) && typeof v.t === 'number' && v.source === 'lab' && typeof v.event === 'string' && known.has(v.event);
}
