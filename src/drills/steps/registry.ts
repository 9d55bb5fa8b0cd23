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

/** The fault kinds' steps (src/faults/kinds/) that STEP_KINDS places by key; any other comes after `delay`. */
const PLACED: readonly string[] = ['kill', 'pause', 'resume', 'heal', 'delay', 'stop', 'restart', 'failpoint'];

const fault = (key: string) => {
  const kind = FAULT_KIND_STEPS.find((k) => k.kind === key);
  if (kind === undefined) throw new Error(`no fault kind has the drill step ${key}`);
  return kind;
};

/** Every step kind a drill may use, in the order its error messages list them. */
export const STEP_KINDS = [
  wait,
  fault('kill'),
  fault('pause'),
  fault('resume'),
  partition,
  fault('heal'),
  fault('delay'),
  ...FAULT_KIND_STEPS.filter((k) => !PLACED.includes(k.kind)),
  spawn,
  fault('stop'),
  fault('restart'),
  add,
  remove,
  sleep,
  jobs,
  fault('failpoint'),
  priority,
  expect,
  log,
] as const;

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
