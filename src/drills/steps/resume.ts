import { recalled, shown } from '../core/aliases.js';
import { freeze } from './freeze.js';
import type { StepBase, StepDone, StepKind, StepRunContext } from './kind.js';
import { FAULTABLE_OR_ALL, serverTarget, target } from './targets.js';

/** Thaws what a pause froze; `leader` is the contender the latest pause of `leader` hit. */
export interface ResumeStep extends StepBase {
  readonly kind: 'resume';
  readonly target: string;
}

export const resume: StepKind<ResumeStep, typeof target> = {
  kind: 'resume',
  schema: target,
  fault: true,
  build: (name, ctx) => ({ kind: 'resume', target: ctx.target(name, FAULTABLE_OR_ALL) }),
  describe: (step) => `resume ${step.target}`,
  server: (step) => serverTarget(step.target),
  async run(ctx, step) {
    if (step.target === 'all') return resumeAll(ctx);
    const r = recalled(ctx.pausedAlias, step.target, 'resume');
    const appliedAt = Date.now();
    return { description: `resume ${shown(step.target, r)}`, detail: await freeze(ctx, r, false), appliedAt };
  },
};

async function resumeAll(ctx: StepRunContext): Promise<StepDone> {
  const names = [...ctx.frozen];
  for (const name of names) await freeze(ctx, { name, kind: name.startsWith('zk') ? 'server' : 'contender' }, false);
  return {
    description: 'resume all',
    detail: names.length === 0 ? 'nothing was frozen' : `resumed ${names.join(', ')}`,
  };
}
