import { z } from 'zod';
import * as faults from '../../faults/service.js';
import { resolveTarget } from '../../faults/targets.js';
import { strict } from '../core/zod-helpers.js';
import { remember, shown } from '../core/aliases.js';
import { stepModes } from '../../faults/kinds/registry.js';
import type { ModeStep } from '../../faults/kinds/step.js';
import { stepBuild, stepRun } from './fault-kinds.js';
import type { BuildContext, StepBase, StepKind } from './kind.js';
import { FAULTABLE, serverTarget, target } from './targets.js';

/**
 * Cuts the links of one member off, or splits the members into groups (those not named form one more), or takes a
 * mode a fault kind adds to it (src/faults/kinds/: `stepModes('partition')`).
 */
export interface PartitionStep extends StepBase {
  readonly kind: 'partition';
  readonly partition:
    | { readonly mode: 'isolate'; readonly target: string }
    | { readonly mode: 'split'; readonly groups: readonly (readonly string[])[] }
    | { readonly mode: 'kind'; readonly field: string; readonly step: object };
}

const MODES = stepModes('partition');
const modeNamed = (field: string): ModeStep => MODES.find((m) => m.mode === field)!;

const fields = {
  isolate: target.optional(),
  split: z.array(z.array(target).min(1)).min(2).optional(),
  ...Object.fromEntries(MODES.map((m) => [m.mode, m.value(z).optional()])),
};
const schema = strict(fields);

/** `a, b or c`, and `a, b, or c` for the examples (two: `a or b`). */
const listed = (words: readonly string[], last: string): string =>
  words.length < 3 ? words.join(' or ') : `${words.slice(0, -1).join(', ')}${last}${words.at(-1)}`;
const NAMES = listed(['isolate', 'split', ...MODES.map((m) => m.mode)], ' or ');
const EXAMPLES = listed(['isolate: leader', 'split: [[zk1], [zk2, zk3]]', ...MODES.map((m) => m.example)], ', or ');

/** What a mode's build checks, at fields inside its own value. */
const inMode = (ctx: BuildContext, field: string): BuildContext => ({
  ...ctx,
  target: (name, allowed, at = []) => ctx.target(name, allowed, [field, ...at]),
  problem: (message, at = []) => ctx.problem(message, [field, ...at]),
});

export const partition: StepKind<PartitionStep, typeof schema> = {
  kind: 'partition',
  schema,
  fields: Object.keys(fields),
  fault: true,
  build(v, ctx) {
    const values = v as Record<string, unknown>;
    const given = Object.keys(fields).filter((f) => values[f] !== undefined);
    if (given.length !== 1) {
      ctx.problem(`needs exactly one of ${NAMES} (write ${EXAMPLES})`);
      return null;
    }
    const mode = MODES.find((m) => values[m.mode] !== undefined);
    if (mode !== undefined) {
      const step = mode.build(values[mode.mode], stepBuild(inMode(ctx, mode.mode)));
      return step === null ? null : { kind: 'partition', partition: { mode: 'kind', field: mode.mode, step } };
    }
    if (v.isolate !== undefined) {
      return {
        kind: 'partition',
        partition: { mode: 'isolate', target: ctx.target(v.isolate, FAULTABLE, ['isolate']) },
      };
    }
    const groups = v.split ?? [];
    const seen = new Set<string>();
    groups.forEach((group, g) => {
      group.forEach((name, n) => {
        ctx.target(name, FAULTABLE, ['split', g, n]);
        if (seen.has(name)) ctx.problem(`${name} is in two groups (keep each name in one group)`, ['split', g, n]);
        seen.add(name);
      });
    });
    return { kind: 'partition', partition: { mode: 'split', groups } };
  },
  describe: ({ partition: p }) =>
    p.mode === 'isolate'
      ? `partition: isolate ${p.target}`
      : p.mode === 'kind'
        ? modeNamed(p.field).describe(p.step)
        : `partition: split ${p.groups.map((g) => `[${g.join(' ')}]`).join(' | ')}`,
  server: ({ partition: p }) =>
    (p.mode === 'isolate' ? [p.target] : p.mode === 'kind' ? modeNamed(p.field).names(p.step) : p.groups.flat()).find(
      (name) => serverTarget(name) !== undefined,
    ),
  async run(ctx, step) {
    const paths = ctx.lab.paths;
    const p = step.partition;
    if (p.mode === 'isolate') {
      const r = await resolveTarget(paths, p.target);
      remember(ctx.partitionedAlias, p.target, r);
      const appliedAt = Date.now();
      await faults.isolate(paths, r);
      return { description: `partition: isolate ${shown(p.target, r)}`, appliedAt };
    }
    if (p.mode === 'kind') return modeNamed(p.field).run(stepRun(ctx), p.step);
    const groups: string[][] = [];
    for (const group of p.groups) {
      const names: string[] = [];
      for (const t of group) {
        const r = await resolveTarget(paths, t);
        remember(ctx.partitionedAlias, t, r);
        names.push(r.name);
      }
      groups.push(names);
    }
    const appliedAt = Date.now();
    const { description } = await faults.split(paths, groups);
    return { description: `partition: ${description}`, appliedAt };
  },
};
