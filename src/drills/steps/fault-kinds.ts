import { z } from 'zod';
import { type KindStep, ownSteps } from '../../faults/kinds/registry.js';
import type { Memory, OwnStep, StepBuild, StepRun } from '../../faults/kinds/step.js';
import { strict } from '../core/zod-helpers.js';
import { recalled, remember, shown } from '../core/aliases.js';
import type { BuildContext, StepBase, StepKind, StepRunContext } from './kind.js';
import { FAULTABLE, serverTarget } from './targets.js';

/** A step a fault kind declares (src/faults/kinds/): its key, and what its module built from the value. */
export type FaultKindStep = StepBase & KindStep;

/** What a fault kind's step may check while the drill is read. */
export const stepBuild = (ctx: BuildContext): StepBuild => ({
  failpoints: ctx.contenders?.failpoints ?? null,
  target: (name, field, allowed = FAULTABLE) => ctx.target(name, allowed, field),
  problem: (message, field) => ctx.problem(message, field),
});

/** What a fault kind's step may use while the drill runs. */
export function stepRun(ctx: StepRunContext): StepRun {
  const memory = (m: Memory) => (m === 'paused' ? ctx.pausedAlias : ctx.partitionedAlias);
  return {
    paths: ctx.lab.paths,
    signal: ctx.signal,
    ...(ctx.zkHome === undefined ? {} : { zkHome: ctx.zkHome }),
    frozen: ctx.frozen,
    shown,
    remember: (m, name, r) => remember(memory(m), name, r),
    recall: (m, name, verb) => recalled(memory(m), name, verb),
  };
}

/** The server a fault kind's step acts on, for a drill run with --connect to refuse. */
export const serverOfStep = <T>(spec: Pick<OwnStep, 'names' | 'server'>, step: T): string | undefined =>
  spec.server ? spec.server(step as never) : spec.names(step as never).find((n) => serverTarget(n) !== undefined);

/** The value of a step's key: its fields (strict; `key: x` short for its shorthand field), or its one value. */
function schemaOf(spec: OwnStep): { schema: z.ZodType; fields?: readonly string[] } {
  if (spec.fields === undefined) return { schema: spec.value(z) };
  const fields = spec.fields(z);
  const { shorthand } = spec;
  const object = strict(fields);
  const schema =
    shorthand === undefined ? object : z.preprocess((v) => (typeof v === 'string' ? { [shorthand]: v } : v), object);
  return { schema, fields: Object.keys(fields) };
}

/** The drill's step kind for a fault kind's own step: a fault newLeaderWithin measures from, unless it says not. */
function stepKindOf(spec: OwnStep): StepKind<FaultKindStep, z.ZodType> {
  return {
    kind: spec.key as FaultKindStep['kind'],
    summary: spec.summary,
    examples: spec.examples,
    ...(spec.bare === undefined ? {} : { bare: spec.bare }),
    ...schemaOf(spec),
    ...(spec.fault === false ? {} : { fault: true }),
    build: (value, ctx) => {
      const built = spec.build(value as never, stepBuild(ctx));
      return built === null ? null : ({ ...(built as object), kind: spec.key } as Omit<FaultKindStep, 'line'>);
    },
    describe: (step) => spec.describe(step as never),
    server: (step) => serverOfStep(spec, step),
    run: (ctx, step) => spec.run(stepRun(ctx), step as never),
  };
}

/** The fault kinds' own steps (`<key>: …`), in the registry's order. */
export const FAULT_KIND_STEPS: readonly StepKind<FaultKindStep, z.ZodType>[] = ownSteps().map(stepKindOf);
