import type { ContenderState } from '../../contenders/summary.js';
import type { NetMode } from '../../lab/node/net.js';
/** The words a drill is made of: its contender states, targets and ensemble. Durations are milliseconds. */

/**
 * The contender states a drill tells apart (contenders/summary.ts has them all); `frozen` is a lab SIGSTOP, `paused`
 * a contender's own disconnect pause.
 */
export const DRILL_CONTENDER_STATES = [
  'follower',
  'leader',
  'paused',
  'frozen',
  'dead',
] as const satisfies readonly ContenderState[];
export type DrillContenderState = (typeof DRILL_CONTENDER_STATES)[number];

/** leader | zk-leader | all | c<N> | zk<N>; which are allowed depends on the field (see targets.ts). */
export type Target = string;

export interface EnsembleSpec {
  /** Voting servers. */
  readonly servers: number;
  /** Non-voting servers beside them (zk<servers+1>…). */
  readonly observers: number;
  readonly tick: number;
  /** How its members reach each other: link proxies (ZooKeeper's links), or nodes of a network of their own (ns). */
  readonly net: NetMode;
}
