import { z } from 'zod';
import { checkTarget, type TargetScope } from '../../faults/targets.js';
import type { BuildContext, FieldPath, StepKind } from '../steps/kind.js';
import { type RegisteredStep, STEP_KINDS, type Step, stepKindNamed } from '../steps/registry.js';
import { type ContenderTraits, NEEDS_SCHEDULER } from '../core/contender-traits.js';
import { errorMap, fromZod, type RawIssue, strict } from '../core/zod-helpers.js';

type Path = readonly (string | number)[];

export interface StepContext {
  /** The line a path points at, for the step's own `line`. */
  readonly lineOf: (path: Path) => number;
  /** Problems found are appended here. */
  readonly issues: RawIssue[];
  /** Null when the contenders section is itself invalid: steps that depend on it are only checked for shape. */
  readonly contenders?: ContenderTraits | null;
}

/** `repeat` holds steps, so it is the step list's own rather than a registered kind. */
const repeatFields = { times: z.number().int().min(1).max(1000), steps: z.array(z.unknown()).min(1) };
const repeatSchema = strict(repeatFields);

/** `repeat` as `zklab drill steps` lists it, beside the registered kinds. */
export const REPEAT = {
  kind: 'repeat',
  summary: 'Run its steps again, times over (the steps are written as in the list: one-key mappings)',
  fields: Object.keys(repeatFields),
  examples: ['repeat: { times: 3, steps: [{ kill: leader }, { expect: { newLeaderWithin: 3s } }] }'],
} as const;

/** Every kind a step may be, as the error messages list them. */
const KINDS: readonly string[] = [...STEP_KINDS.map((k) => k.kind), 'repeat'];

const fieldsOf = (kind: string): readonly string[] | undefined =>
  kind === 'repeat' ? Object.keys(repeatFields) : stepKindNamed(kind)?.fields;

function isMapping(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Validates a list of steps. Targets are checked against `scope` (null when the ensemble or contenders section is
 * itself invalid, so only the shape is checked); spawn steps grow the scope for the steps after them.
 */
export function parseSteps(
  values: readonly unknown[],
  path: Path,
  scope: TargetScope | null,
  ctx: StepContext,
): { steps: Step[]; scope: TargetScope | null } {
  const steps: Step[] = [];
  let current = scope;
  values.forEach((value, i) => {
    const r = parseStep(value, [...path, i], current, ctx);
    if (r.step) steps.push(r.step);
    current = r.scope;
  });
  return { steps, scope: current };
}

type Parsed = { step: Step | null; scope: TargetScope | null };

/** A step written as its kind alone (`- heal`): the kind with no value, when it is one. */
const bareStep = (value: unknown): unknown =>
  typeof value === 'string' && stepKindNamed(value) !== undefined ? { [value]: null } : value;

function parseStep(written: unknown, at: Path, scope: TargetScope | null, ctx: StepContext): Parsed {
  const none = { step: null, scope };
  const kinds = KINDS.join(', ');
  const value = bareStep(written);
  if (!isMapping(value)) {
    ctx.issues.push({ path: at, message: `a step must be a mapping such as "kill: leader" (use one of: ${kinds})` });
    return none;
  }
  const keys = Object.keys(value);
  const known = keys.filter((k) => KINDS.includes(k));
  for (const key of keys.filter((k) => !known.includes(k))) {
    const owner = known.find((k) => fieldsOf(k)?.includes(key));
    const message = owner
      ? `belongs inside the ${owner} step (write ${owner}: { ..., ${key}: ... })`
      : `unknown step kind (use one of: ${kinds})`;
    ctx.issues.push({ path: [...at, key], message });
  }
  if (known.length === 0) {
    if (keys.length === 0) ctx.issues.push({ path: at, message: `empty step (use one of: ${kinds})` });
    return none;
  }
  if (known.length > 1) {
    ctx.issues.push({ path: at, message: `one step holds ${known.join(' and ')} (make each its own list item)` });
    return none;
  }
  const name = known[0]!;
  const kind = stepKindNamed(name);
  const given = value[name] ?? kind?.bare;
  if (given === null || given === undefined) {
    const example = kind?.examples[0] ?? REPEAT.examples[0];
    ctx.issues.push({ path: [...at, name], message: `needs a value (write ${example})` });
    return none;
  }
  const parsed = (kind?.schema ?? repeatSchema).safeParse(given, { error: errorMap });
  if (!parsed.success) {
    ctx.issues.push(...fromZod(parsed.error, [...at, name]));
    return none;
  }
  if (keys.length !== known.length) return none;
  const line = ctx.lineOf(at);
  if (!kind) return parseRepeat(parsed.data as z.output<typeof repeatSchema>, [...at, name], line, scope, ctx);
  return buildStep(kind, parsed.data, [...at, name], line, scope, ctx);
}

function buildStep(
  kind: StepKind,
  value: unknown,
  at: Path,
  line: number,
  scope: TargetScope | null,
  ctx: StepContext,
): Parsed {
  const before = ctx.issues.length;
  const problem = (message: string, field: FieldPath = []) => ctx.issues.push({ path: [...at, ...field], message });
  const build: BuildContext = {
    scope,
    contenders: ctx.contenders ?? null,
    target: (name, allowed, field) => {
      const wrong = scope ? checkTarget(name, allowed, scope) : null;
      if (wrong) problem(wrong, field);
      return name;
    },
    problem,
    needsScheduler: (field) => {
      if (ctx.contenders && !ctx.contenders.scheduler) problem(NEEDS_SCHEDULER, field);
    },
  };
  const built = kind.build(value, build);
  if (!built) return { step: null, scope };
  const step = { ...built, line } as RegisteredStep;
  const after = scope && kind.after ? kind.after(step, scope) : scope;
  return { step: ctx.issues.length === before ? step : null, scope: after };
}

function parseRepeat(
  v: z.output<typeof repeatSchema>,
  at: Path,
  line: number,
  scope: TargetScope | null,
  ctx: StepContext,
): Parsed {
  const before = ctx.issues.length;
  const body = parseSteps(v.steps, [...at, 'steps'], scope, ctx);
  const after =
    scope && body.scope
      ? { ...scope, contenders: scope.contenders + (body.scope.contenders - scope.contenders) * v.times }
      : scope;
  const step: Step = { kind: 'repeat', line, times: v.times, steps: body.steps };
  return { step: ctx.issues.length === before ? step : null, scope: after };
}
