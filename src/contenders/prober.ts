/**
 * The lab's prober: runs each contender's probe every interval while the contender's node has a process left, and
 * records what it says (`probed` events, in the contender's own event log) when that changes. One per lab, held by
 * a pid lock; outside every node, so a node fault never reaches it. It leaves when the lab's state is gone, or once
 * no node with a probe has been left for IDLE_EXIT_MS (a later spawn starts it again).
 * Run as `node dist/contenders/prober.js --zklab-lab=DIR`.
 */
import { statSync } from 'node:fs';
import { EventLogWriter } from '../lab/event-log.js';
import type { ContenderEventFields } from '../lab/events.js';
import { nodeEnv, nodesWithProcesses } from '../lab/node/group.js';
import { labContainment } from '../lab/nodes.js';
import { LabPaths, NODE_MARKER_PREFIX } from '../lab/paths.js';
import { releasePidLock, tryPidLock } from '../lab/pid-lock.js';
import { type ContenderRecord, type LabState, readState } from '../lab/state.js';
import { PROBE_PATIENCE_MS } from './fields.js';
import { ProbeShell } from './probe-shell.js';
import { PROBES_NODE } from './probing.js';

/** How often lab.json is looked at (a stat) for contenders spawned or stopped since. */
const STATE_CHECK_MS = 250;
/** How often a node is asked whether it has a process left (a dead node's probe says "gone" this much late at most). */
const NODE_CHECK_MS = 500;
const IDLE_EXIT_MS = 5000;

const root = process.argv.find((a) => a.startsWith(NODE_MARKER_PREFIX))?.slice(NODE_MARKER_PREFIX.length);
if (!root) {
  process.stderr.write(`usage: prober.js ${NODE_MARKER_PREFIX}DIR\n`);
  process.exit(2);
}
const paths = new LabPaths(root);
if (!tryPidLock(paths.proberPidFile)) process.exit(0);

type Said = ContenderEventFields['probed'];

interface Slot {
  /** Which spawn it probes: an id taken back is given to a later spawn, with a probe of its own. */
  readonly spawn: string;
  readonly log: EventLogWriter;
  said?: Said;
  shell?: ProbeShell;
  running: boolean;
  /** When the running probe must be done; killed as hung past that. */
  deadline: number;
  /** How long the run before this one took: with this one's, how late its word may be. */
  lastTookMs: number;
  hung: boolean;
  nextAt: number;
  nodeCheckedAt: number;
  nodeAlive: boolean;
}

const slots = new Map<string, Slot>();
let state: LabState | undefined;
let stateMtime = -1;
let stateCheckedAt = 0;
let lastBusy = Date.now();
let living = new Set<string>();
let sizedAt = 0;
let timer: NodeJS.Timeout | undefined;
const probeEnv = { ...process.env, ...nodeEnv(paths, PROBES_NODE) };

function reloadState(now: number): boolean {
  if (state !== undefined && now - stateCheckedAt < STATE_CHECK_MS) return true;
  stateCheckedAt = now;
  let mtime: number;
  try {
    mtime = statSync(paths.stateFile).mtimeMs;
  } catch {
    return false;
  }
  if (mtime !== stateMtime) {
    try {
      state = readState(paths);
      stateMtime = mtime;
    } catch {
      // half written by another command: read it next tick
    }
  }
  return state !== undefined;
}

/** Records what the probe said when it differs from what it said last (`everyMs`, `lateMs` and the exit code aside). */
function record(slot: Slot, said: Said): void {
  if (slot.said?.leads === said.leads && slot.said.why === said.why) return;
  slot.said = said;
  slot.log.write('probed', null, null, said, 'probe');
}

function runProbe(slot: Slot, probe: NonNullable<ContenderRecord['probe']>, now: number): void {
  const patience = Math.max(probe.everyMs, PROBE_PATIENCE_MS);
  slot.nextAt = now + probe.everyMs;
  slot.deadline = now + patience;
  slot.hung = false;
  slot.running = true;
  slot.shell ??= new ProbeShell(probe.argv, probeEnv);
  void slot.shell.run().then((r) => {
    slot.running = false;
    const took = Date.now() - now;
    // What it says was so at some moment since the previous run began: this late at most, one interval if both ran quick.
    const lateMs = Math.max(probe.everyMs, slot.lastTookMs) + took;
    slot.lastTookMs = took;
    // Done after its time: the next run is due now, not at the next look at the state.
    if (Date.now() >= slot.nextAt) scheduleTick(Date.now());
    // The node may have gone while the probe ran: what it said then is not about a live node.
    if (!slot.nodeAlive) return;
    const everyMs = probe.everyMs;
    if ('failed' in r) record(slot, { leads: null, everyMs, why: `could not start: ${r.failed}` });
    else if (slot.hung) record(slot, { leads: null, everyMs, why: `hung past ${patience}ms` });
    else record(slot, { leads: r.exit === 0, everyMs, lateMs, exit: r.exit });
  });
}

/** A probe that outlasts its patience says nothing: killed, and recorded as unknown when it has gone. */
function killIfHung(slot: Slot, now: number): void {
  if (!slot.running || slot.hung || now < slot.deadline) return;
  slot.hung = true;
  slot.shell?.killRunning();
}

/** A spawn's identity: its id and when it started (an id taken back is reused by a later spawn). */
const spawnOf = (c: ContenderRecord): string => `${c.id}@${c.startedAt}:${JSON.stringify(c.probe?.argv ?? [])}`;

/** Closes the slots of spawns the state no longer lists (taken back, or replaced by a later spawn under the id). */
function closeGoneSlots(contenders: readonly ContenderRecord[]): void {
  const listed = new Set(contenders.filter((c) => c.probe).map(spawnOf));
  for (const [id, slot] of slots) {
    if (listed.has(slot.spawn)) continue;
    slot.shell?.close();
    slots.delete(id);
  }
}

function tick(): void {
  const now = Date.now();
  if (!reloadState(now)) shutdown();
  if (now - sizedAt >= NODE_CHECK_MS) {
    living = nodesWithProcesses(paths, labContainment(state));
    sizedAt = now;
  }
  closeGoneSlots(state!.contenders);
  let busy = false;
  for (const c of state!.contenders) {
    if (!c.probe) continue;
    let slot = slots.get(c.id);
    if (!slot) {
      slot = {
        spawn: spawnOf(c),
        log: new EventLogWriter(paths.contenderEvents(c.id), c.id),
        nextAt: 0,
        running: false,
        deadline: 0,
        lastTookMs: 0,
        hung: false,
        nodeCheckedAt: -1,
        nodeAlive: true,
      };
      slots.set(c.id, slot);
    }
    if (slot.nodeCheckedAt !== sizedAt) {
      slot.nodeCheckedAt = sizedAt;
      slot.nodeAlive = living.has(c.id);
      // A node with nothing left acts as nothing: said once, if a probe had said anything of it.
      if (!slot.nodeAlive && slot.said !== undefined)
        record(slot, { leads: false, everyMs: c.probe.everyMs, why: 'its node has no process left' });
    }
    killIfHung(slot, now);
    if (!slot.nodeAlive) {
      if (!slot.running && slot.shell) {
        slot.shell.close();
        slot.shell = undefined;
      }
      continue;
    }
    busy = true;
    if (!slot.running && now >= slot.nextAt) runProbe(slot, c.probe, now);
  }
  if (busy) lastBusy = now;
  else if (now - lastBusy > IDLE_EXIT_MS) shutdown();
  scheduleTick(now);
}

/**
 * The next tick comes when something is due: a probe's start or its deadline, or a look at the state or the nodes.
 * Waking on a fixed short tick instead cost most of the prober's CPU (40 wake-ups a second, 4 of them with work).
 */
function scheduleTick(now: number): void {
  clearTimeout(timer);
  let at = Math.min(stateCheckedAt + STATE_CHECK_MS, sizedAt + NODE_CHECK_MS);
  for (const slot of slots.values()) {
    if (!slot.nodeAlive) continue;
    if (!slot.running) at = Math.min(at, slot.nextAt);
    else if (!slot.hung) at = Math.min(at, slot.deadline);
  }
  timer = setTimeout(tick, Math.max(1, at - now));
}

function shutdown(): never {
  for (const slot of slots.values()) slot.shell?.close();
  releasePidLock(paths.proberPidFile);
  process.exit(0);
}

process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
tick();
