import { serverOf } from '../steps/registry.js';
import type { Drill } from './drill.js';

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
