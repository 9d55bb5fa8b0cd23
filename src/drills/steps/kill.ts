import { z } from 'zod';
import * as faults from '../../faults/service.js';
import { resolveTarget } from '../../faults/targets.js';
import { strict } from '../core/zod-helpers.js';
import { plural } from '../../text.js';
import { shown } from '../core/aliases.js';
import type { StepBase, StepKind } from './kind.js';
import { FAULTABLE, scope, serverTarget, target } from './targets.js';
import type { FaultScope } from '../../faults/scope.js';

const SIGNALS = ['SIGKILL', 'SIGTERM', 'SIGINT'] as const;
type KillSignal = (typeof SIGNALS)[number];

export interface KillStep extends StepBase {
  readonly kind: 'kill';
  readonly target: string;
  readonly signal: KillSignal;
  readonly scope: FaultScope;
}

const signal = z.unknown().transform((value, ctx): KillSignal => {
  const name = typeof value === 'string' ? value.toUpperCase().replace(/^(SIG)?/, 'SIG') : '';
  if ((SIGNALS as readonly string[]).includes(name)) return name as KillSignal;
  ctx.addIssue({ code: 'custom', message: `${JSON.stringify(value)} is not a signal (use KILL, TERM or INT)` });
  return z.NEVER;
});

const fields = { target, signal: signal.optional(), scope: scope.optional() };
/** `kill: c1` is short for `kill: { target: c1 }`. */
const schema = z.preprocess((v) => (typeof v === 'string' ? { target: v } : v), strict(fields));

const describe = (step: KillStep) => {
  const how = [
    ...(step.signal === 'SIGKILL' ? [] : [step.signal]),
    ...(step.scope === 'node' ? [] : ['its program alone']),
  ];
  return `kill ${step.target}${how.length === 0 ? '' : ` (${how.join(', ')})`}`;
};

export const kill: StepKind<KillStep, typeof schema> = {
  kind: 'kill',
  schema,
  fields: Object.keys(fields),
  fault: true,
  build: (v, ctx) => ({
    kind: 'kill',
    target: ctx.target(v.target, FAULTABLE, ['target']),
    signal: v.signal ?? 'SIGKILL',
    scope: v.scope ?? 'node',
  }),
  describe,
  server: (step) => serverTarget(step.target),
  async run(ctx, step) {
    const r = await resolveTarget(ctx.lab.paths, step.target);
    ctx.frozen.delete(r.name);
    // The services take KILL and TERM; SIGINT makes a contender close its session as TERM does.
    const sig = step.signal === 'SIGKILL' ? 'SIGKILL' : 'SIGTERM';
    const appliedAt = Date.now();
    const { pid, processes, left } = await faults.kill(ctx.lab.paths, r, sig, step.scope);
    const reach = step.scope === 'node' ? `${plural(processes, 'process', 'processes')}` : `${left} of its node left`;
    return {
      description: describe(step).replace(step.target, shown(step.target, r)),
      detail: `pid ${pid}${step.signal === sig ? '' : ` (${sig} for ${step.signal})`}, ${reach}`,
      appliedAt,
    };
  },
};
