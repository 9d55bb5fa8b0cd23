/**
 * The supervisor of a program run as a contender (`contenders spawn --exec`, the Curator and kazoo adapters). It
 * carries the lab's marker and leads the process group the program runs in, so the lab's signals (kill, pause,
 * stop) reach both. It records the program's `ZKLAB {…}` lines as the contender's beliefs, passes every other
 * line to the contender's log, and records how the program ended.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { EventLogWriter } from '../lab/event-log.js';
import type { ContenderEventFields, ContenderEventName } from '../lab/events.js';
import { LabPaths } from '../lab/paths.js';
import { ignoredNote, parseBeliefLine } from './belief-lines.js';
import { decodeChildConfig, type ExecChildConfig } from './child-config.js';

/** How many of the program's last stderr lines an `exited` event keeps. */
const STDERR_TAIL = 12;
/** How long the program has to stop after SIGTERM before it is killed: less than the lab's own 5 s. */
const STOP_GRACE_MS = 4000;

const cfg = decodeChildConfig<ExecChildConfig>(process.argv);
const log = new EventLogWriter(cfg.eventsFile, cfg.id);
const labState = new LabPaths(cfg.labRoot).stateFile;
let znode: string | null = null;
let stopRequested = false;
let reportedStop = false;
const stderrTail: string[] = [];

// The session is left to the link daemon, which records what the server granted ('session' events).
const write = <E extends ContenderEventName>(event: E, fields: ContenderEventFields[E], source?: 'stdout') =>
  log.write(event, null, znode, fields, source);

write('started', {
  recipe: cfg.kind,
  path: cfg.path,
  sessionTimeoutMs: cfg.sessionTimeoutMs,
  onDisconnect: 'program',
  connect: cfg.connect,
  program: [cfg.command, ...cfg.args],
});

// Not detached: the program stays in this process's group, which the lab signals as one.
const child = spawn(cfg.command, [...cfg.args], {
  stdio: ['ignore', 'pipe', 'pipe'],
  env: { ...process.env, ...cfg.env },
});

const stdoutDone = new Promise<void>((resolve) =>
  createInterface({ input: child.stdout })
    .on('line', (line) => {
      const b = parseBeliefLine(line);
      if (b.kind === 'text') return void process.stdout.write(`${line}\n`);
      if (b.kind === 'invalid')
        return void process.stdout.write(`zklab: ignored a ZKLAB line (${b.reason}): ${line}\n`);
      const note = ignoredNote(b, line);
      if (note !== undefined) process.stdout.write(`${note}\n`);
      // The program's word on its session is not taken (see `write`); its znode is.
      if (b.znode !== undefined) znode = b.znode;
      if (b.event === 'stopped') reportedStop = true;
      // Typed as far as the readers use them (parseBeliefLine); a program's extra fields are kept and ignored.
      write(b.event, b.fields as ContenderEventFields[typeof b.event], 'stdout');
    })
    .on('close', resolve),
);

const stderrDone = new Promise<void>((resolve) =>
  createInterface({ input: child.stderr })
    .on('line', (line) => {
      process.stderr.write(`${line}\n`);
      stderrTail.push(line);
      if (stderrTail.length > STDERR_TAIL) stderrTail.shift();
    })
    .on('close', resolve),
);

/** Ends this contender: whatever the program left in the group (a shell's children, a daemon it forked) goes too. */
function end(code: number): never {
  try {
    process.kill(-process.pid, 'SIGKILL');
  } catch {
    // not a group leader (run by hand): only the program was ours
  }
  process.exit(code);
}

child.on('error', (e) => {
  // The program could not be started at all (ENOENT, EACCES): the spawn checked, but the file may have changed since.
  stderrTail.push(e.message);
  write('exited', { code: null, signal: null, stderr: [...stderrTail] });
  end(1);
});

child.on('exit', (code, sig) => {
  // Its last lines belong before its end; a child it left holding the pipes must not keep that waiting.
  void Promise.race([Promise.all([stdoutDone, stderrDone]), sleep(500)]).then(() => {
    if (stopRequested) {
      if (!reportedStop) write('stopped', {});
    } else {
      write('exited', { code, signal: sig, stderr: [...stderrTail] });
    }
    end(stopRequested ? 0 : (code ?? 1));
  });
});

/**
 * The lab stops a contender by signalling its whole group, so the program has had its SIGTERM already (a second one
 * may make it skip closing its session); only a stop that reached this process alone is passed on.
 */
function stop(forward: boolean): void {
  if (stopRequested) return;
  stopRequested = true;
  if (forward) child.kill('SIGTERM');
  // Before the lab's own grace runs out, so that the stop is recorded.
  setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS).unref();
}
process.on('SIGTERM', () => stop(false));
process.on('SIGINT', () => stop(true));
process.on('SIGHUP', () => stop(true));
process.on('uncaughtException', (e) => {
  process.stderr.write(`zklab supervisor: ${e.stack ?? e.message}\n`);
  end(1);
});

// A contender never outlives its lab: when the lab's state is purged, it leaves.
setInterval(() => {
  if (!existsSync(labState)) stop(true);
}, 2000).unref();
