import { preferSiteOf, setPriority } from '../../contenders/priority-admin.js';
import { describeStep } from '../format/describe.js';
import type { Step } from '../format/step.js';
import type { RunState } from './state.js';

/** Writes the policy znode the way `zklab priority set` and `prefer-site` do; the elector does the rest. */
export async function runPriority(
  state: RunState,
  step: Extract<Step, { kind: 'priority' }>,
): Promise<{ description: string; detail: string }> {
  const description = describeStep(step);
  if (step.preferSite !== undefined) {
    const r = await preferSiteOf(state.lab.paths, step.preferSite);
    return { description, detail: `${r.path}/policy sites ${r.policy.sites.join(' > ')}` };
  }
  let path = '';
  for (const [id, priority] of Object.entries(step.set ?? {}))
    path = (await setPriority(state.lab.paths, id, String(priority))).path;
  return { description, detail: `written to ${path}/policy` };
}
