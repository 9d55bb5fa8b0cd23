import { z } from 'zod';
import { type TargetKind, targetKind } from '../../faults/targets.js';
import { FAULT_TARGETS, stepTarget } from '../../faults/kinds/step.js';

/** A target in a step's value; which kinds of target a field allows is checked when the step is built. */
export const target = stepTarget(z);

export const FAULTABLE: readonly TargetKind[] = FAULT_TARGETS;

/** The target if it names a server (zkN or zk-leader). */
export const serverTarget = (name: string): string | undefined =>
  ['server', 'zk-leader'].includes(targetKind(name) ?? '') ? name : undefined;
