import type { LabPaths } from './paths.js';
import type { LabState } from './state.js';

/** A node about to start. */
export interface NodeStart {
  readonly paths: LabPaths;
  /** zk1, c3. */
  readonly node: string;
  readonly state?: LabState;
}

/** What a node carries from its start: more environment for its program (and all it starts). */
export interface NodePrep {
  readonly env?: Readonly<Record<string, string>>;
}

export type NodeStartHook = (node: NodeStart) => NodePrep;

let hook: NodeStartHook | undefined;

/**
 * What every node gets when it starts, from above: the fault kinds (src/faults/kinds/) prepare nodes for faults
 * that act mid-run (a clock fault needs its library in the node's environment), and lab/ cannot know them. Whoever
 * composes the product installs them (the CLI's commands that start nodes; a test that starts labs itself).
 */
export function setNodeStartHook(h: NodeStartHook | undefined): void {
  hook = h;
}

/** The environment the installed hook gives a node, if any. */
export function nodeStartEnv(start: NodeStart): Readonly<Record<string, string>> {
  return hook?.(start).env ?? {};
}
