import { z } from 'zod';
import { preferSiteOf, setPriority } from '../../contenders/priority-admin.js';
import { strict } from '../core/zod-helpers.js';
import type { StepBase, StepKind } from './kind.js';

/** Writes the priority election's policy znode as `zklab priority set` / `prefer-site` would. */
export interface PriorityStep extends StepBase {
  readonly kind: 'priority';
  readonly set?: Readonly<Record<string, number>>;
  readonly preferSite?: string;
}

const fields = {
  set: z.record(z.string(), z.number().int()).optional(),
  preferSite: z.string().min(1).optional(),
};
const schema = strict(fields);

const NEITHER_OR_BOTH =
  'says neither or both of set and preferSite (write priority: { set: { c2: 50 } } or priority: { preferSite: b })';

const describe = (step: PriorityStep) =>
  step.preferSite !== undefined
    ? `policy: prefer site ${step.preferSite}`
    : `policy: priority ${Object.entries(step.set ?? {})
        .map(([id, p]) => `${id} = ${p}`)
        .join(', ')}`;

export const priority: StepKind<PriorityStep, typeof schema> = {
  kind: 'priority',
  summary: "Write the priority election's policy znode (recipe: priority), as `zklab priority` does",
  examples: ['priority: { preferSite: b }', 'priority: { set: { c2: 50 } }'],
  schema,
  fields: Object.keys(fields),
  // A policy change is meant to move leadership: newLeaderWithin measures from it, as from a fault.
  fault: true,
  build(v, ctx) {
    if (ctx.contenders && !ctx.contenders.priority) ctx.problem('needs priority contenders (recipe: priority)');
    if ((v.set === undefined) === (v.preferSite === undefined)) ctx.problem(NEITHER_OR_BOTH);
    const set =
      v.set === undefined
        ? undefined
        : Object.fromEntries(Object.entries(v.set).map(([id, p]) => [ctx.target(id, ['contender'], ['set', id]), p]));
    if (set !== undefined && Object.keys(set).length === 0) {
      ctx.problem('names no contender (write set: { c2: 50 })', ['set']);
    }
    return {
      kind: 'priority',
      ...(set ? { set } : {}),
      ...(v.preferSite !== undefined ? { preferSite: v.preferSite } : {}),
    };
  },
  describe,
  /** Writes the policy znode the way `zklab priority set` and `prefer-site` do; the elector does the rest. */
  async run(ctx, step) {
    const description = describe(step);
    if (step.preferSite !== undefined) {
      const r = await preferSiteOf(ctx.lab.paths, step.preferSite);
      return { description, detail: `${r.path}/policy sites ${r.policy.sites.join(' > ')}` };
    }
    let path = '';
    for (const [id, p] of Object.entries(step.set ?? {})) path = (await setPriority(ctx.lab.paths, id, String(p))).path;
    return { description, detail: `written to ${path}/policy` };
  },
};
