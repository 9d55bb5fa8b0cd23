import { STEP_KINDS } from '../steps/registry.js';
import { REPEAT } from './steps.js';

/** One kind of step as `zklab drill steps` lists it. */
export interface StepReference {
  readonly kind: string;
  /** One line: what it does. */
  readonly summary: string;
  /** The fields of its value; none when the value is one thing (a target, a duration, a count, a line). */
  readonly fields: readonly string[];
  /** Whole steps as a drill file writes them. */
  readonly examples: readonly string[];
}

/** Every kind of step a drill file may use, as the registry declares them, in the order its messages list them. */
export function stepReference(): StepReference[] {
  const kinds = [...STEP_KINDS, REPEAT];
  return kinds.map((k) => ({ kind: k.kind, summary: k.summary, fields: k.fields ?? [], examples: k.examples }));
}
