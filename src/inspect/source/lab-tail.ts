import { isPaused, labContainment } from '../../lab/nodes.js';
import { nodeSizes } from '../../lab/node/group.js';
import { statSync } from 'node:fs';
import { parseLines } from '../../lab/event-log.js';
import { isContenderEvent, type ContenderEvent } from '../../lab/events.js';
import { isLabLine, type LabLine } from '../../faults/kinds/registry.js';
import type { LabPaths } from '../../lab/paths.js';
import type { NodeView } from '../../faults/kinds/kind.js';
import { kindNodes } from '../../faults/kinds/registry.js';
import { isOurs } from '../../lab/node/procs.js';
import { readState, type ContenderRecord, type LabState } from '../../lab/state.js';
import { ruleOf } from '../../contenders/leader-rule.js';
import type { LeaderRule } from '../../recipes/leadership.js';
import { summarizeContenderEvents, type ContenderSummary } from '../contender-summary.js';
import type { ResourceEvent } from '../lock-facts.js';
import type { ContenderInput } from '../snapshot-input.js';
import { FileTail } from './file-tail.js';
import type { ServerProcessFact } from './server-poller.js';

/** Events the pane never shows: the leader's heartbeat would push everything else out within seconds. */
const QUIET_EVENTS = new Set(['act']);
const QUIET_LINE = /"event":"act"/;
/** Per source (each contender, the lab) kept for the event pane; summaries read a contender's whole history. */
const RECENT_PER_SOURCE = 60;

interface ContenderLog {
  readonly tail: FileTail;
  events: ContenderEvent[];
  summary: { readonly count: number; readonly value: ContenderSummary } | null;
}

interface ProcessFact {
  readonly alive: boolean;
  readonly paused: boolean;
  /** Processes its node holds. */
  readonly node: number;
}

/**
 * The lab as inspect follows it: lab.json (contenders, servers), every contender's event log and the lab's own
 * event log, read by size and offset on each call (a stat per file when nothing changed), and the processes'
 * liveness from /proc on demand.
 */
export class LabTail {
  state: LabState | undefined;
  private stateStamp = '';
  private stateChanged = false;
  private readonly logs = new Map<string, ContenderLog>();
  private readonly labTail: FileTail;
  private labEvents: LabLine[] = [];
  /** The protected resource of this path (a lock's), every decision since the log began: its state is their fold. */
  private resource: ResourceEvent[] = [];
  private contenderProcs = new Map<string, ProcessFact>();
  private serverProcs = new Map<string, ServerProcessFact>();

  constructor(
    readonly paths: LabPaths,
    /** Only contenders of this election path (or workers of the scheduler rooted here) are shown. */
    readonly electionPath: string,
  ) {
    this.labTail = new FileTail(paths.labEventsFile);
  }

  /** The contender records of this election path, or the workers of the scheduler whose root it is. */
  records(): ContenderRecord[] {
    return (this.state?.contenders ?? []).filter(
      (c) => c.path === this.electionPath || c.scheduler?.root === this.electionPath,
    );
  }

  /** Roots of the schedulers the lab's contenders work for, stopped ones included. */
  schedulerRoots(): string[] {
    return [...new Set((this.state?.contenders ?? []).flatMap((c) => (c.scheduler ? [c.scheduler.root] : [])))];
  }

  /** Paths of the locks the lab's lock contenders loop on, stopped ones included. */
  lockPaths(): string[] {
    return [...new Set((this.state?.contenders ?? []).flatMap((c) => (c.lock ? [c.path] : [])))];
  }

  /** How ZooKeeper's view tells who leads this path (the rule its program contenders were spawned with). */
  leaderRule(): LeaderRule {
    return ruleOf(this.state?.contenders ?? [], this.electionPath);
  }
  /** The faults the kinds keep on the lab's nodes now (a faked clock), read afresh each time. */
  nodeFaults(): NodeView[] {
    return this.state ? kindNodes(this.paths, this.state) : [];
  }

  /** Reads whatever was appended or rewritten; true when a snapshot would change. */
  poll(): boolean {
    let changed = this.readState();
    for (const r of this.records()) {
      let log = this.logs.get(r.id);
      if (!log) {
        log = { tail: new FileTail(this.paths.contenderEvents(r.id)), events: [], summary: null };
        this.logs.set(r.id, log);
      }
      const read = log.tail.read();
      if (read.reset) {
        log.events = [];
        log.summary = null;
        changed = true;
      }
      // The leader's heartbeat is most of the traffic: skip its lines before parsing them.
      const lines = read.lines.filter((l) => !QUIET_LINE.test(l));
      const fresh = parseLines(lines.join('\n'), isContenderEvent).filter((e) => !QUIET_EVENTS.has(e.event));
      if (fresh.length > 0) {
        log.events.push(...fresh);
        changed = true;
      }
    }
    const lab = this.labTail.read();
    if (lab.reset) {
      this.labEvents = [];
      this.resource = [];
    }
    if (lab.lines.length > 0) {
      const fresh = parseLines(lab.lines.join('\n'), isLabLine);
      this.labEvents = this.labEvents.concat(fresh).slice(-RECENT_PER_SOURCE);
      for (const e of fresh) if (isResourceEventOf(e, this.electionPath)) this.resource.push(e);
    }
    return changed || lab.reset || lab.lines.length > 0;
  }

  private readState(): boolean {
    let stamp: string;
    try {
      const st = statSync(this.paths.stateFile);
      stamp = `${st.mtimeMs}:${st.size}:${st.ino}`;
    } catch {
      stamp = 'missing';
    }
    if (stamp === this.stateStamp) return false;
    this.stateStamp = stamp;
    try {
      this.state = readState(this.paths);
      this.stateChanged = true;
    } catch {
      // Written by rename, so a torn read is unlikely; if one happens, the next stamp change retries.
      this.stateStamp = '';
    }
    return true;
  }

  /** True once after every change of lab.json (rules of the lab network live there). */
  takeStateChanged(): boolean {
    const changed = this.stateChanged;
    this.stateChanged = false;
    return changed;
  }

  /** Re-reads liveness and SIGSTOP state of every contender and server from /proc. */
  refreshProcesses(): void {
    const contenders = new Map<string, ProcessFact>();
    const sizes = nodeSizes(this.paths, labContainment(this.state));
    for (const r of this.records()) {
      const alive = isOurs(r.pid, this.paths.markers);
      contenders.set(r.id, { alive, paused: alive && isPaused(r.pid!), node: sizes.get(r.id) ?? 0 });
    }
    const servers = new Map<string, ServerProcessFact>();
    for (const s of this.state?.servers ?? []) {
      const alive = isOurs(s.pid, this.paths.markers);
      servers.set(s.name, !alive ? 'gone' : isPaused(s.pid!) ? 'paused' : 'running');
    }
    this.contenderProcs = contenders;
    this.serverProcs = servers;
  }

  serverFact(name: string): ServerProcessFact | undefined {
    return this.serverProcs.get(name);
  }

  contenders(): ContenderInput[] {
    return this.records().map((r): ContenderInput => {
      const log = this.logs.get(r.id);
      const summary = log ? this.summaryOf(log) : summarizeContenderEvents([]);
      const proc = this.contenderProcs.get(r.id) ?? { alive: false, paused: false, node: 0 };
      return {
        id: r.id,
        pid: r.pid ?? null,
        alive: proc.alive,
        paused: proc.paused,
        recipe: summary.recipe ?? r.recipe,
        sessionId: summary.sessionId,
        pastSessionIds: summary.pastSessionIds,
        state: summary.state,
        stateSince: summary.stateSince,
        childWatches: summary.childWatches,
        node: proc.node,
        // What a probe said is about a node that lives: none left, nothing acts.
        ...(proc.node > 0 && summary.probed !== undefined ? { probed: summary.probed } : {}),
        acquired: summary.acquired,
      };
    });
  }

  private summaryOf(log: ContenderLog): ContenderSummary {
    if (log.summary?.count === log.events.length) return log.summary.value;
    const value = summarizeContenderEvents(log.events);
    log.summary = { count: log.events.length, value };
    return value;
  }

  /** Every resource-configured and resource-write event of this path's resource, in log order. */
  resourceEvents(): readonly ResourceEvent[] {
    return this.resource;
  }

  /** The latest events of every contender of the path and of the lab, unsorted. */
  events(): (ContenderEvent | LabLine)[] {
    const out: (ContenderEvent | LabLine)[] = [...this.labEvents];
    for (const r of this.records()) out.push(...(this.logs.get(r.id)?.events.slice(-RECENT_PER_SOURCE) ?? []));
    return out;
  }
}

function isResourceEventOf(e: LabLine, resource: string): e is ResourceEvent {
  return (
    (e.event === 'resource-configured' || e.event === 'resource-read' || e.event === 'resource-write') &&
    e.resource === resource
  );
}
