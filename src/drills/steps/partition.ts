import { z } from 'zod';
import * as faults from '../../faults/service.js';
import { resolveTarget } from '../../faults/targets.js';
import { strict } from '../core/zod-helpers.js';
import { remember, shown } from '../core/aliases.js';
import type { StepBase, StepKind } from './kind.js';
import { FAULTABLE, serverTarget, target } from './targets.js';

/**
 * Cuts the links of one member off, or splits the members into groups (those not named form one more), or (on the
 * node network) drops one member's packets to another while the other way flows.
 */
export interface PartitionStep extends StepBase {
  readonly kind: 'partition';
  readonly partition:
    | { readonly mode: 'isolate'; readonly target: string }
    | { readonly mode: 'split'; readonly groups: readonly (readonly string[])[] }
    | { readonly mode: 'one-way'; readonly from: string; readonly to: string };
}

const fields = {
  isolate: target.optional(),
  split: z.array(z.array(target).min(1)).min(2).optional(),
  oneWay: z.tuple([target, target]).optional(),
};
const schema = strict(fields);

export const partition: StepKind<PartitionStep, typeof schema> = {
  kind: 'partition',
  schema,
  fields: Object.keys(fields),
  fault: true,
  build(v, ctx) {
    if ([v.isolate, v.split, v.oneWay].filter((x) => x !== undefined).length !== 1) {
      ctx.problem(
        'needs exactly one of isolate, split or oneWay (write isolate: leader, split: [[zk1], [zk2, zk3]], or ' +
          'oneWay: [c1, c2])',
      );
      return null;
    }
    if (v.oneWay !== undefined) {
      const [from, to] = v.oneWay;
      if (from === to) ctx.problem(`names ${from} twice (a one-way cut needs two members)`, ['oneWay']);
      return {
        kind: 'partition',
        partition: {
          mode: 'one-way',
          from: ctx.target(from, FAULTABLE, ['oneWay', 0]),
          to: ctx.target(to, FAULTABLE, ['oneWay', 1]),
        },
      };
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
      : p.mode === 'one-way'
        ? `partition: one-way ${p.from} → ${p.to}`
        : `partition: split ${p.groups.map((g) => `[${g.join(' ')}]`).join(' | ')}`,
  server: ({ partition: p }) =>
    p.mode === 'isolate'
      ? serverTarget(p.target)
      : p.mode === 'one-way'
        ? (serverTarget(p.from) ?? serverTarget(p.to))
        : p.groups.flat().find((name) => serverTarget(name) !== undefined),
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
    if (p.mode === 'one-way') {
      const [from, to] = [await resolveTarget(paths, p.from), await resolveTarget(paths, p.to)];
      remember(ctx.partitionedAlias, p.from, from);
      const appliedAt = Date.now();
      await faults.oneWay(paths, from, to);
      return { description: `partition: one-way ${shown(p.from, from)} → ${shown(p.to, to)}`, appliedAt };
    }
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
