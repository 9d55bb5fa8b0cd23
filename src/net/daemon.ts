import { formatDuration } from '../duration.js';
import { existsSync, statSync, unlinkSync } from 'node:fs';
import { connect } from 'node:net';
import { EventLogWriter } from '../lab/event-log.js';
import { LabPaths } from '../lab/paths.js';
import { ContenderReaper } from './contender-reaper.js';
import { ConsSessions } from './cons-sessions.js';
import { serveControl, type ControlServer } from './control-server.js';
import { LinkTable } from './link-table.js';
import { describeRule } from './partition.js';
import { ResourceRegisters } from './resource-registers.js';
import type { NetOp, NetRequest, NetResponses } from './protocol.js';

/**
 * The lab's link daemon: holds every link proxy of one lab and obeys requests on `<lab>/net.sock`. It also serves
 * the lock workload's protected resources (ResourceRegisters): a store outside ZooKeeper, as a real one would be.
 * Run as `node dist/net/daemon.js --lab-root DIR --zklab-lab=DIR` (the second argument marks the process as the
 * lab's). It exits on `shutdown`, SIGTERM or SIGINT, and by itself when the lab directory disappears or its
 * socket is removed or taken over by another daemon: nobody could reach it any more. It closes a contender's links
 * by itself when that contender's process dies (see ContenderReaper).
 */

const WATCH_INTERVAL_MS = 500;

function log(message: string): void {
  process.stdout.write(`${new Date().toISOString()} net-daemon[${process.pid}] ${message}\n`);
}

function labRootFrom(argv: readonly string[]): string {
  const i = argv.indexOf('--lab-root');
  const value = i === -1 ? undefined : argv[i + 1];
  if (!value) throw new Error('usage: daemon.js --lab-root DIR --zklab-lab=DIR');
  return value;
}

/** Resolves true when a daemon answers on the socket already. */
function socketAnswers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(path);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

function inodeOf(path: string): number | undefined {
  try {
    return statSync(path).ino;
  } catch {
    return undefined;
  }
}

/** Writes each session a contender is granted into its event log, once per session (reconnects repeat the grant). */
class SessionRecorder {
  private readonly seen = new Set<string>();
  private readonly writers = new Map<string, EventLogWriter>();

  constructor(private readonly paths: LabPaths) {}

  granted(contender: string, server: string, session: string, timeoutMs: number): void {
    const key = `${contender}/${session}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    let writer = this.writers.get(contender);
    if (!writer) {
      writer = new EventLogWriter(this.paths.contenderEvents(contender), contender);
      this.writers.set(contender, writer);
    }
    try {
      writer.write('session', session, null, { server, timeoutMs });
    } catch (e) {
      log(`could not record session ${session} of ${contender}: ${(e as Error).message}`);
    }
  }
}

async function main(): Promise<void> {
  const paths = new LabPaths(labRootFrom(process.argv.slice(2)));
  const socketPath = paths.controlSocket;
  if (!existsSync(paths.root)) throw new Error(`lab directory ${paths.root} does not exist`);
  if (await socketAnswers(socketPath)) throw new Error(`another link daemon already answers on ${socketPath}`);
  if (existsSync(socketPath)) unlinkSync(socketPath); // stale: its daemon is gone

  const started = Date.now();
  const table = new LinkTable(
    (spec) => reaper.connectionLeft(spec.from),
    (spec, session, timeoutMs) => sessions.granted(spec.from, spec.to, session, timeoutMs),
  );
  const sessions = new SessionRecorder(paths);
  // On the node network no proxy sees a contender connect: the servers' own lists of clients say whose session is whose.
  const consSessions = new ConsSessions(paths, (contender, server, session, timeoutMs) =>
    sessions.granted(contender, server, session, timeoutMs),
  );
  const resources = new ResourceRegisters(paths);
  let control: ControlServer | undefined;
  let ownInode: number | undefined;
  let watch: NodeJS.Timeout | undefined;
  let stopping = false;

  const shutdown = async (reason: string, code = 0): Promise<void> => {
    if (stopping) return;
    stopping = true;
    log(`shutting down: ${reason}`);
    clearInterval(watch);
    reaper.stop();
    consSessions.stop();
    // Closing the listener unlinks the socket path; never do that to a socket another daemon owns now.
    if (control && inodeOf(socketPath) === ownInode) await control.close();
    await table.stopAll();
    process.exit(code);
  };

  // One change at a time, requests and the reaper's alike: they change shared state and some of them await.
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn);
    queue = run.catch(() => undefined);
    return run;
  };
  const handle = (req: NetRequest): Promise<NetResponses[NetOp]> => inTurn(() => execute(req));
  const reaper = new ContenderReaper(paths, {
    clientMembers: () => table.clientMembers(),
    removeLinks: (ids) => inTurn(() => table.remove(ids)),
    log,
  });

  const execute = async (req: NetRequest): Promise<NetResponses[NetOp]> => {
    switch (req.op) {
      case 'ping':
        return { ok: true, pid: process.pid, labRoot: paths.root, uptimeMs: Date.now() - started };
      case 'add-links': {
        const links = await table.add(req.links);
        log(`added ${links.map((l) => `${l.id}@${l.port}`).join(', ') || 'no links'}`);
        return { ok: true, links };
      }
      case 'remove-links': {
        const removed = await table.remove(req.ids);
        log(`removed ${removed.join(', ') || 'no links'}`);
        return { ok: true, removed };
      }
      case 'set-rules': {
        const faults = table.setRules(req.rules, req.delays, req.members, req.seed);
        const rules = req.rules.map(describeRule).join('; ') || 'none';
        const delays =
          req.delays
            .map((d) => `${d.member} ${formatDuration(d.delayMs)} + up to ${formatDuration(d.jitterMs)}`)
            .join('; ') || 'none';
        log(`rules: ${rules}; delays: ${delays}${req.seed === undefined ? '' : `; jitter seed ${req.seed}`}`);
        return { ok: true, faults: Object.fromEntries(faults) };
      }
      case 'list':
        return { ok: true, ...table.list() };
      case 'shutdown':
        return { ok: true };
      case 'resource-configure':
        return { ok: true, state: resources.configure(req.name, req.fencing, req.reset) };
      case 'resource-read':
        return { ok: true, state: resources.read(req.name, req.holder, req.token) };
      case 'resource-write': {
        const { accepted, lastToken, previousValue, state } = resources.write(req.name, {
          holder: req.holder,
          token: req.token,
          value: req.value,
        });
        return { ok: true, accepted, lastToken, previousValue, state };
      }
    }
  };

  control = await serveControl(socketPath, handle, (req) => {
    if (req.op === 'shutdown') void shutdown('shutdown requested');
  });
  ownInode = inodeOf(socketPath);

  watch = setInterval(() => {
    if (!existsSync(paths.root)) void shutdown(`lab directory ${paths.root} is gone`);
    else if (inodeOf(socketPath) !== ownInode) void shutdown(`control socket ${socketPath} was removed or replaced`);
    else reaper.tick();
  }, WATCH_INTERVAL_MS);
  reaper.start();
  consSessions.start();

  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGHUP', () => log('ignoring SIGHUP'));
  log(`listening on ${socketPath} for lab ${paths.root}`);
}

process.on('uncaughtException', (err) => {
  log(`crashed: ${err.stack ?? err.message}`);
  process.exit(1);
});

main().catch((err: unknown) => {
  log(`failed to start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
