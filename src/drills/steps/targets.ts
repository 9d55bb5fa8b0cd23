import { z } from 'zod';
import { type TargetKind, targetKind } from '../../faults/targets.js';
import { FAULT_TARGETS, stepTarget } from '../../faults/kinds/step.js';
import { FAULT_SCOPES, type FaultScope, isFaultScope, SCOPE_WORDS } from '../../faults/scope.js';

/** A target in a step's value; which kinds of target a field allows is checked when the step is built. */
export const target = stepTarget(z);

export const FAULTABLE: readonly TargetKind[] = FAULT_TARGETS;
export const FAULTABLE_OR_ALL: readonly TargetKind[] = [...FAULTABLE, 'all'];

/** The target if it names a server (zkN or zk-leader). */
export const serverTarget = (name: string): string | undefined =>
  ['server', 'zk-leader'].includes(targetKind(name) ?? '') ? name : undefined;

/** `scope: node | process` of a kill or a pause (src/faults/scope.ts). */
export const scope = z.unknown().transform((value, ctx): FaultScope => {
  if (isFaultScope(value)) return value;
  ctx.addIssue({
    code: 'custom',
    message: `${JSON.stringify(value)} is not a scope (use ${FAULT_SCOPES.join(' or ')}: ${SCOPE_WORDS})`,
  });
  return z.NEVER;
});
