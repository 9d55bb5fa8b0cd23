import { z } from 'zod';
import { type TargetKind, targetKind } from '../../faults/targets.js';

/** A target in a step's value; which kinds of target a field allows is checked when the step is built. */
export const target = z.string().min(1);

export const FAULTABLE: readonly TargetKind[] = ['leader', 'zk-leader', 'contender', 'server'];
export const FAULTABLE_OR_ALL: readonly TargetKind[] = [...FAULTABLE, 'all'];

/** The target if it names a server (zkN or zk-leader). */
export const serverTarget = (name: string): string | undefined =>
  ['server', 'zk-leader'].includes(targetKind(name) ?? '') ? name : undefined;
