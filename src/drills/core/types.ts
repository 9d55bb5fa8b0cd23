import type { NetMode } from '../../lab/node/net.js';
/** The words a drill is made of: its contender states, targets and ensemble. Durations are milliseconds. */

/** A contender's state as the drill sees it; `frozen` is a lab SIGSTOP, `paused` a contender's own disconnect pause. */
export const CONTENDER_STATES = ['follower', 'leader', 'paused', 'frozen', 'dead'] as const;
export type ContenderState = (typeof CONTENDER_STATES)[number];

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
