import { isRecord } from '../validate.js';

declare const FIELDS: unique symbol;
/**
 * An event's declaration: its fields, for the type alone. The readers check a line's head and its event's name,
 * never its fields (see labLineGuard), so no schema runs: lab/ is loaded by every contender child, the link
 * daemon and the prober, and a validator library would cost each of them its start-up.
 */
export interface Fields<F extends object> {
  readonly [FIELDS]?: F;
}

/** Declares an event with these fields (none by default): `fields<{ servers: number }>()`. */
export const fields = <F extends object = Record<never, never>>(): Fields<F> => ({});

/**
 * Events by name, each with its fields. The one declaration of an event: its type comes from it, and so does the
 * name set of the guard that reads its lines back.
 */
export type EventSchemas = Readonly<Record<string, Fields<object>>>;

/** The fields of each event of a set, by name. */
export type FieldsOf<S extends EventSchemas> = { [E in keyof S & string]: S[E] extends Fields<infer F> ? F : never };

/** Every line of the lab's own log (faults, ups and downs) starts so. */
export interface LabLineHead {
  /** Wall-clock milliseconds. */
  readonly t: number;
  readonly source: 'lab';
}

/** The lab lines of a set of events, one member per event: `event` tells them apart. */
export type LabLinesOf<S extends EventSchemas> = {
  [E in keyof S & string]: LabLineHead & { readonly event: E } & Readonly<FieldsOf<S>[E]>;
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
