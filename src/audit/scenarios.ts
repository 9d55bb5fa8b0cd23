/**
 * The audit's battery: each scenario is a drill built from the user's contenders, written as a drill file would be
 * (steps and checks), so that `zklab drill run` can replay any of them. What a scenario grades and how it words its
 * failures live in grade.ts; this file says what each one does to the lab.
 */

/** What a scenario is built from: the user's contenders and the lab's shape. */
export interface ScenarioContext {
  readonly members: number;
  readonly servers: number;
  /** The contenders' session timeout, ms. */
  readonly sessionMs: number;
  /** How long a member may take to join, ms. */
  readonly joinMs: number;
  /** The failover bound the card grades by, ms. */
  readonly failoverMs: number;
  /** Whether the contenders say who acts (a probe, or a recipe that reports its actions). */
  readonly probed: boolean;
}

/** What a scenario needs of the machine beyond a lab on loopback. */
export type ScenarioNeed = 'node-net' | 'clock';

/** Which way a scenario's fault should take the program's leadership. */
export type Expected =
  /** The leader is taken down: another must take over within the bound. */
  | 'failover'
  /** The program's leader is not touched (the fault is in ZooKeeper): no leader change is needed. */
  | 'no-failover'
  /** The leader may or may not lose leadership: one leader must be back within the bound after the fault. */
  | 'recover';

/** One step of a drill, as a drill file writes it: `{ kill: leader }`, `{ sleep: '2s' }`. */
export type StepDoc = Readonly<Record<string, unknown>>;

export interface Scenario {
  readonly name: string;
  /** The question it asks, for the card and `--scenarios` help. */
  readonly asks: string;
  readonly needs?: ScenarioNeed;
  /** The network its faults need; absent: the audit's `--net`. */
  readonly net?: 'ns';
  /** Why it cannot run on hosts, where the generic reasons (its network, its clock) do not say. */
  readonly notOnHosts?: string;
  readonly quick?: boolean;
  readonly expected: Expected;
  /** A scenario whose fault this one repeats: a program that fails that one fails this one for it (grade.ts). */
  readonly repeats?: string;
  /** Leader changes the fault may force (default: 1 when it takes the leader down, else 0); more are churn. */
  readonly forcedChanges?: number;
  /** The fault and what follows it, after the steady state is reached; the recovery wait is added after them. */
  steps(c: ScenarioContext): StepDoc[];
}

const ms = (n: number): string => `${Math.round(n)}ms`;

/** Time for a fault's consequences to play out: past a session timeout on both sides, and a little more. */
const settle = (c: ScenarioContext): number => Math.max(2000, c.sessionMs) + 1000;

/** After the fault, another leader within the bound (a failed expectation is recorded, the run goes on). */
const newLeader = (c: ScenarioContext): StepDoc => ({ expect: { newLeaderWithin: ms(c.failoverMs) } });

/** A cut of the leader, then another leader within the bound, time for its consequences, the heal, and time again. */
const cutThenHeal = (c: ScenarioContext, cut: StepDoc[]): StepDoc[] => [
  ...cut,
  newLeader(c),
  { sleep: ms(settle(c)) },
  { heal: 'all' },
  { sleep: ms(settle(c)) },
];

/** A fault that takes the leader down for good, then another leader within the bound. */
const takeDown =
  (fault: StepDoc) =>
  (c: ScenarioContext): StepDoc[] => [fault, newLeader(c), { sleep: ms(1000) }];

const serverNames = (c: ScenarioContext): string[] => Array.from({ length: c.servers }, (_, i) => `zk${i + 1}`);

export const SCENARIOS: readonly Scenario[] = [
  {
    name: 'leader-crash',
    asks: "the leader's whole node killed: failover time, no overlap",
    quick: true,
    expected: 'failover',
    steps: takeDown({ kill: 'leader' }),
  },
  {
    name: 'program-crash',
    asks: "the leader's program killed, its node lives: does a data plane outlive its agent?",
    expected: 'failover',
    notOnHosts: "on hosts a fault acts on a member's whole node, not on its program alone",
    steps: (c) => [{ kill: { target: 'leader', scope: 'process' } }, newLeader(c), { sleep: ms(settle(c)) }],
  },
  {
    name: 'freeze',
    asks: 'the leader paused longer than its session, then thawed: does the zombie act?',
    quick: true,
    expected: 'failover',
    steps: (c) => [
      { pause: 'leader' },
      newLeader(c),
      { sleep: ms(1000) },
      { resume: 'leader' },
      { sleep: ms(settle(c)) },
    ],
  },
  {
    name: 'cut-off',
    asks: "the leader's ZooKeeper links cut, nothing else: does it stop acting before another is chosen?",
    quick: true,
    expected: 'failover',
    steps: (c) => cutThenHeal(c, [{ partition: { isolate: 'leader' } }]),
  },
  {
    name: 'node-isolated',
    asks: "every packet of the leader's node cut (node network)",
    needs: 'node-net',
    net: 'ns',
    expected: 'failover',
    steps: (c) => cutThenHeal(c, [{ partition: { isolate: 'leader' } }]),
  },
  {
    name: 'one-way-out',
    asks: "the leader's packets to ZooKeeper lost while it hears ZooKeeper (node network)",
    needs: 'node-net',
    net: 'ns',
    expected: 'failover',
    steps: (c) =>
      cutThenHeal(
        c,
        serverNames(c).map((zk) => ({ partition: { oneWay: ['leader', zk] } })),
      ),
  },
  {
    name: 'one-way-in',
    asks: "ZooKeeper's packets to the leader lost while its own get through (node network)",
    needs: 'node-net',
    net: 'ns',
    expected: 'failover',
    steps: (c) =>
      cutThenHeal(
        c,
        serverNames(c).map((zk) => ({ partition: { oneWay: [zk, 'leader'] } })),
      ),
  },
  {
    name: 'lossy',
    asks: "30 % packet loss on the leader's node: churn, flapping (node network)",
    needs: 'node-net',
    net: 'ns',
    expected: 'recover',
    // The loss may cost the leader its session once; a program that hands leadership back and forth flaps more.
    forcedChanges: 1,
    steps: (c) => [
      { loss: { target: 'leader', percent: 30 } },
      { sleep: ms(Math.max(15_000, 4 * c.sessionMs)) },
      { heal: 'all' },
      { sleep: ms(settle(c)) },
    ],
  },
  {
    name: 'zk-leader-lost',
    asks: 'the leading server killed, then the new one isolated: the program should not fail over at all',
    expected: 'no-failover',
    steps: (c) => [
      { kill: 'zk-leader' },
      { sleep: ms(settle(c)) },
      { restart: 'all' },
      { sleep: ms(1000) },
      { partition: { isolate: 'zk-leader' } },
      { sleep: ms(settle(c)) },
      { heal: 'all' },
      { sleep: ms(settle(c)) },
    ],
  },
  {
    name: 'rolling-restart',
    asks: 'every server restarted in turn: no leader change expected',
    expected: 'no-failover',
    steps: (c) => [
      ...serverNames(c).flatMap((zk) => [{ restart: zk }, { wait: { serving: zk, timeout: '20s' } }, { sleep: '1s' }]),
      { sleep: ms(settle(c)) },
    ],
  },
  {
    name: 'quorum-lost',
    asks: 'a majority of servers down for longer than the session, then back; then all of them',
    expected: 'recover',
    // Each outage may expire the leader's session: the servers' clocks of it start again when they are back, but a
    // client that reconnects later than its session timeout after that has lost it.
    forcedChanges: 2,
    steps: (c) => {
      const majority = serverNames(c).slice(0, Math.floor(c.servers / 2) + 1);
      const outage = ms(2 * c.sessionMs);
      return [
        ...majority.map((zk) => ({ kill: zk })),
        { sleep: outage },
        ...majority.map((zk) => ({ restart: zk })),
        { wait: { leader: true, timeout: ms(c.failoverMs + 20_000) } },
        { sleep: ms(settle(c)) },
        // The total outage: every server down, then back with the sessions they knew (CURATOR-696's case).
        ...serverNames(c).map((zk) => ({ kill: zk })),
        { sleep: outage },
        { restart: 'all' },
        { sleep: ms(2 * c.sessionMs + 3000) },
      ];
    },
  },
  {
    name: 'graceful-stop',
    asks: 'SIGTERM to the leader: hand-over time',
    expected: 'failover',
    steps: takeDown({ stop: 'leader' }),
  },
  {
    name: 'clock-jump',
    asks: "the leader's wall clock jumped forward; then, as it was cut off, back: does a lease outlive the cut?",
    needs: 'clock',
    expected: 'failover',
    repeats: 'cut-off',
    steps: (c) => {
      const jump = Math.max(60_000, 10 * c.sessionMs);
      // Back while cut off: a lease timed on the wall clock, last renewed before the cut, looks fresh for the jump.
      return [
        { clock: { target: 'leader', offset: ms(jump) } },
        { sleep: ms(settle(c)) },
        { clock: { reset: 'all' } },
        { sleep: ms(1000) },
        ...cutThenHeal(c, [{ partition: { isolate: 'leader' } }, { clock: { target: 'leader', offset: ms(-jump) } }]),
        { clock: { reset: 'all' } },
        { sleep: ms(1000) },
      ];
    },
  },
  {
    name: 'herd',
    asks: 'notifications per leader death',
    expected: 'failover',
    steps: takeDown({ kill: 'leader' }),
  },
];

export const SCENARIO_NAMES = SCENARIOS.map((s) => s.name);
export const QUICK = SCENARIOS.filter((s) => s.quick).map((s) => s.name);

export function scenarioNamed(name: string): Scenario | undefined {
  return SCENARIOS.find((s) => s.name === name);
}
