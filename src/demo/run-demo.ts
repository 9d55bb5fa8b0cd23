import { fitWidth, wrapWords } from '../text.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ContenderEvent } from '../lab/events.js';
import type { LabLine } from '../faults/kinds/registry.js';
import { resolveLeader } from '../faults/leader.js';
import { hitWords } from '../faults/hit.js';
import { applyKill } from '../faults/kinds/kill.js';
import { formatDuration } from '../duration.js';
import { ProcessError, UsageError } from '../errors.js';
import { takeSnapshot } from '../inspect/once.js';
import { renderSnapshotText } from '../inspect/render-text.js';
import { toSnapshotEvent } from '../inspect/snapshot-events.js';
import { resolveInspectTarget } from '../inspect/target.js';
import { recordLabEvent } from '../lab/event-log.js';
import type { LabPaths } from '../lab/paths.js';
import { DEMO_CONTENDERS, DEMO_SERVERS, DemoLab } from './demo-lab.js';
import { awaitFailover, type Failover } from './failover.js';

export interface DemoOptions {
  readonly paths: LabPaths;
  /** The inspect view (Ink, keys) instead of plain text frames; needs a terminal. */
  readonly live: boolean;
  readonly signal: AbortSignal;
  readonly out: (text: string) => void;
  /** Columns for the plain text frames. */
  readonly width: number;
  readonly zkHome?: string;
  /** How long the elected leader is shown before it is killed. */
  readonly settleMs?: number;
}

export interface DemoResult {
  /** null when the live view was quit before the failover. */
  readonly failover: Failover | null;
  readonly stopped: number;
}

const FAILOVER_TIMEOUT_MS = 20_000;

/** Polls ZooKeeper until a contender owns the leading znode. */
async function electedLeader(paths: LabPaths, signal: AbortSignal) {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      return await resolveLeader(paths);
    } catch (e) {
      if (!(e instanceof UsageError) || Date.now() > deadline) throw e;
    }
    await sleep(50, undefined, { signal });
  }
}

/** One event under the kill, cut to the width (a znode's full name does not fit beside the rest). */
function eventLine(e: ContenderEvent | LabLine, origin: number, width: number): string {
  const s = toSnapshotEvent(e);
  const line = `    ${`+${formatDuration(e.t - origin)}`.padStart(7)}  ${s.who.padEnd(4)} ${s.event.padEnd(17)} ${s.detail}`;
  return fitWidth(line.trimEnd(), width);
}

export function failoverSummary(f: Failover): string {
  return (
    `failover: ${f.leader} leads ${formatDuration(f.leaderAt - f.killedAt)} after ${f.killed} was killed ` +
    `(measured from the kill to ${f.leader}'s \`leader\` event); ZooKeeper confirms: ${f.confirmedBy.contender}'s session ` +
    `0x${f.confirmedBy.session} owns the leading znode ${f.confirmedBy.znode}`
  );
}

/** Kills the leader and waits for the next one; `onEvent` sees what happens meanwhile. */
async function killLeader(
  paths: LabPaths,
  signal: AbortSignal,
  say: (t: string) => void,
  onEvent?: (e: ContenderEvent | LabLine) => void,
): Promise<Failover> {
  const hit = await applyKill(paths, 'leader', 'SIGKILL');
  const id = hit.target.name;
  say(
    `killed the leader ${hitWords(hit)} with SIGKILL: its session lingers until the servers expire it, then its successor is told`,
  );
  const failover = await awaitFailover(paths, id, {
    timeoutMs: FAILOVER_TIMEOUT_MS,
    signal,
    ...(onEvent ? { onEvent } : {}),
  });
  // The live view's event pane shows lab events: this puts the measured time there too.
  recordLabEvent(paths, 'failover', {
    description: `${failover.leader} leads ${formatDuration(failover.leaderAt - failover.killedAt)} after the kill of ${id}`,
    ms: failover.leaderAt - failover.killedAt,
  });
  return failover;
}

async function plainFrame(o: DemoOptions, events: number): Promise<void> {
  const { snapshot } = await takeSnapshot(resolveInspectTarget({ paths: o.paths }), o.signal);
  o.out(renderSnapshotText(snapshot, { width: o.width, events }));
}

/** The live inspect view while the leader is killed in the background; ends when the viewer quits (q / Ctrl-C). */
async function liveScenario(o: DemoOptions, say: (t: string) => void): Promise<Failover | null> {
  const { runLiveInspect } = await import('../inspect/live/run-live.js');
  const viewDone = new AbortController();
  const signal = AbortSignal.any([o.signal, viewDone.signal]);
  let failover: Failover | null = null;
  let failure: unknown;
  const scenario = (async () => {
    await sleep(o.settleMs ?? 3000, undefined, { signal });
    failover = await killLeader(o.paths, signal, () => undefined);
  })().catch((e: unknown) => {
    if (!signal.aborted) failure = e;
  });
  try {
    await runLiveInspect(resolveInspectTarget({ paths: o.paths }), o.signal);
  } finally {
    viewDone.abort();
    await scenario;
  }
  if (failure) throw failure;
  if (!failover) say('the view was closed before the leader was killed');
  return failover;
}

/**
 * `zklab demo`: an ensemble, five contenders, the leader killed, the failover measured and confirmed by ZooKeeper,
 * then everything cleaned up (also on failure and Ctrl-C), checked to be gone and the lab removed.
 */
export async function runDemo(o: DemoOptions): Promise<DemoResult> {
  // Prose wraps at word boundaries within the terminal (a terminal breaks a long line mid-word).
  const say = (text: string) => o.out(wrapWords(`  ${text}`, Math.min(o.width, 100), '    '));
  o.out(
    wrapWords(
      `zklab demo: ${DEMO_SERVERS} ZooKeeper servers, ${DEMO_CONTENDERS} contenders electing a leader, then the leader is killed`,
      Math.min(o.width, 100),
      '  ',
    ),
  );
  const lab = await DemoLab.claim(o.paths);
  let failover: Failover | null = null;
  let stopped = 0;
  try {
    say(`lab ${o.paths.root}`);
    await lab.start({ signal: o.signal, line: say, ...(o.zkHome ? { zkHome: o.zkHome } : {}) });
    const leader = await electedLeader(o.paths, o.signal);
    say(
      `${leader.contender.id} leads: ZooKeeper says its session 0x${leader.owner} owns ${leader.znode}, the lowest sequence number`,
    );
    if (o.live) {
      say('opening the live view; the leader is killed in a few seconds. Press q to quit and clean up.');
      failover = await liveScenario(o, say);
    } else {
      await plainFrame(o, 0);
      let origin: number | undefined; // the kill: the first event shown
      failover = await killLeader(o.paths, o.signal, say, (e) => {
        origin ??= e.t;
        o.out(eventLine(e, origin, Math.min(o.width, 100)));
      });
      say(failoverSummary(failover));
      await plainFrame(o, 8);
    }
    if (o.live && failover) say(failoverSummary(failover));
  } finally {
    const closed = await lab.close();
    stopped = closed.stopped;
    say(
      `cleaned up: stopped ${stopped} process(es) (servers, contenders, link daemon), none is left${closed.removed ? '; lab removed' : ''}`,
    );
  }
  if (!failover && !o.live) throw new ProcessError('the demo ended without a failover');
  return { failover, stopped };
}
