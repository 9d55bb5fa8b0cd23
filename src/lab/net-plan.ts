/**
 * The lab network as asked for: partition rules and per-member delays, kept in the lab's state so that a restarted
 * link daemon gets them back. Members are names such as `zk1` or `c3`. src/net/ gives them meaning.
 */

/** What a rule does to a link it cuts: blackhole is silence with sockets kept open; reject resets connections. */
export const CUT_MODES = ['blackhole', 'reject'] as const;
export type CutMode = (typeof CUT_MODES)[number];

export interface IsolateRule {
  readonly type: 'isolate';
  readonly member: string;
  readonly mode: CutMode;
}

export interface SplitRule {
  readonly type: 'split';
  readonly groups: readonly (readonly string[])[];
  readonly mode: CutMode;
}

/**
 * Packets from `from` to `to` are cut; the other way they flow (a kernel's doing: the lab's node network only).
 * `type` names the fault kind that made it (src/faults/kinds/); the rule itself is generic.
 */
export interface DirectedRule {
  readonly type: string;
  readonly from: string;
  readonly to: string;
  readonly mode: CutMode;
}

export type PartitionRule = IsolateRule | SplitRule | DirectedRule;

/** A directed rule: told apart by its shape, as its `type` is whatever kind made it. */
export const isDirected = (r: PartitionRule): r is DirectedRule => 'from' in r;

/** A fraction of every packet to and from `member` dropped at random (the lab's node network only). */
export interface MemberLoss {
  readonly member: string;
  /** 0 to 100. */
  readonly percent: number;
}

/** Latency added to every link touching `member` (both directions of each connection). */
export interface MemberDelay {
  readonly member: string;
  readonly delayMs: number;
  readonly jitterMs: number;
}
