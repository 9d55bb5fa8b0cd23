import { targetKind } from '../../faults/targets.js';
import type { Drill } from './drill.js';
import type { Step } from './step.js';

const isServer = (target: string): boolean => ['server', 'zk-leader'].includes(targetKind(target) ?? '');

/** The server a step acts on or waits for, if any (a drill run with --connect cannot touch servers). */
function serverOf(step: Step): string | undefined {
  switch (step.kind) {
    case 'restart':
      return step.target;
    case 'kill':
    case 'pause':
    case 'resume':
    case 'stop':
    case 'heal':
    case 'delay':
      return isServer(step.target) ? step.target : undefined;
    case 'partition':
      return step.partition.mode === 'isolate'
        ? isServer(step.partition.target)
          ? step.partition.target
          : undefined
        : step.partition.groups.flat().find(isServer);
    case 'wait':
      return step.until.serving ?? step.until.notServing;
    case 'repeat':
      return step.steps.map(serverOf).find((s) => s !== undefined);
    default:
      return undefined;
  }
}

/**
 * Why the drill cannot run against an ensemble zklab did not start (`drill run --connect`): the first step that
 * acts on a server or waits for one, as "line N: <kind> <server>"; undefined when every step is contender-side.
 */
export function serverStep(drill: Drill): string | undefined {
  for (const step of drill.steps) {
    const server = serverOf(step);
    if (server !== undefined) return `line ${step.line}: ${step.kind} ${server}`;
  }
  return undefined;
}
