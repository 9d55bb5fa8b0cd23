import { add } from './add.js';
import { expect } from './expect.js';
import { FAULT_KIND_STEPS } from './fault-kinds.js';
import { jobs } from './jobs.js';
import { log } from './log.js';
import type { StepBase, StepKind } from './kind.js';
import { partition } from './partition.js';
import { priority } from './priority.js';
import { remove } from './remove.js';
import { sleep } from './sleep.js';
import { spawn } from './spawn.js';
import { wait } from './wait.js';

/** Where the steps of fault kinds that ORDER does not name go (a new kind's, packet loss's). */
const OTHER_FAULT_STEPS = '…';

/**
 * The step kinds in the order error messages list them: the drill's own, and by their keys the steps of the fault
 * kinds (src/faults/kinds/, FAULT_KIND_STEPS).
 */
const ORDER = [
  wait,
  'kill',
  'pause',
  'resume',
  partition,
  'heal',
  'delay',
  OTHER_FAULT_STEPS,
  spawn,
  'stop',
  'restart',
  add,
  remove,
  sleep,
  jobs,
  'failpoint',
  priority,
  expect,
  log,
] as const;

const NAMED: readonly string[] = ORDER.filter((k) => typeof k === 'string');

function faultStep(key: string) {
  const kind = FAULT_KIND_STEPS.find((k) => k.kind === key);
  if (kind === undefined) throw new Error(`no fault kind has the drill step ${key}`);
  return kind;
}

type Listed = Exclude<(typeof ORDER)[number], string> | (typeof FAULT_KIND_STEPS)[number];

/** Every step kind a drill may use, in the order its error messages list them. */
export const STEP_KINDS: readonly Listed[] = ORDER.flatMap((k): readonly Listed[] =>
  k === OTHER_FAULT_STEPS
    ? FAULT_KIND_STEPS.filter((s) => !NAMED.includes(s.kind))
    : typeof k === 'string'
      ? [faultStep(k)]
      : [k],
);

type StepOf<K> = K extends { describe(step: infer T): string } ? T : never;
/** A step of a registered kind. */
export type RegisteredStep = StepOf<(typeof STEP_KINDS)[number]>;

/** Runs its body `times` times: the step list's own control flow, not a registered kind. */
export interface RepeatStep extends StepBase {
  readonly kind: 'repeat';
  readonly times: number;
  readonly steps: readonly Step[];
}

export type Step = RegisteredStep | RepeatStep;

const BY_KIND: ReadonlyMap<string, StepKind> = new Map(STEP_KINDS.map((k): [string, StepKind] => [k.kind, k]));

export function stepKindNamed(kind: string): StepKind | undefined {
  return BY_KIND.get(kind);
}

export function stepKindOf(step: RegisteredStep): StepKind {
  const kind = BY_KIND.get(step.kind);
  if (kind === undefined) throw new Error(`no step kind ${step.kind}`);
  return kind;
}

/** One line for a step, as the drill file says it (the runner appends what `leader` resolved to). */
export function describeStep(step: Step): string {
  if (step.kind === 'repeat') return `repeat ${step.times}× (${step.steps.length} step(s))`;
  return stepKindOf(step).describe(step);
}

/** The server a step acts on or waits for, if any (a drill run with --connect cannot touch servers). */
export function serverOf(step: Step): string | undefined {
  if (step.kind === 'repeat') return step.steps.map(serverOf).find((s) => s !== undefined);
  return stepKindOf(step).server?.(step);
}
