import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ensureDir } from '../fs.js';
import { setTimeout as sleep } from 'node:timers/promises';

/** The command line of a live process as an argument list, or undefined when it is gone (or a zombie). */
export function cmdlineOf(pid: number): string[] | undefined {
  try {
    const raw = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (raw.length === 0) return undefined; // zombie or kernel thread
    return raw.split('\0').filter((s) => s.length > 0);
  } catch {
    return undefined;
  }
}

/** The environment of a live process, as raw `KEY=value` entries; empty when it is gone or not ours to read. */
export function environOf(pid: number | string): string[] {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
  } catch {
    return [];
  }
}

/** True when a process with this pid exists (EPERM: it does, owned by someone else). */
export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when pid is alive and one of its arguments is one of `markers` (guards against pid reuse after a reboot). */
export function isOurs(pid: number | undefined, markers: readonly string[]): boolean {
  if (!pid || pid <= 0) return false;
  for (let waited = 0; ; waited++) {
    const args = cmdlineOf(pid);
    if (args !== undefined) return args.some((a) => markers.includes(a));
    // No command line: gone, a zombie, or a process in the middle of exec (a node starts as `sh -c '…; exec "$@"'`,
    // and /proc/PID/cmdline reads empty for that moment). Only the last is worth a second look.
    const state = processState(pid);
    if (state === undefined || state === 'Z' || waited >= EXEC_WAIT_MS) return false;
    Atomics.wait(PAUSE, 0, 0, 1);
  }
}

/** How long a process with no command line yet is given to finish its exec (ms). */
const EXEC_WAIT_MS = 50;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** 'R', 'S', 'T' (stopped), 'Z'… from /proc/pid/stat, or undefined if gone. */
export function processState(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return undefined;
  }
}

/** A process's start time (clock ticks since boot, /proc/pid/stat field 22), or undefined when it is gone. */
export function processStartTime(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** The pids of a process's children: the kernel's list where it keeps one, else a scan of /proc for its ppid. */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
  } catch {
    // a kernel without CONFIG_PROC_CHILDREN: the parent field of every process's stat
  }
  return readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .map(Number)
    .filter((p) => {
      try {
        const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] === String(pid);
      } catch {
        return false;
      }
    });
}

export function isStopped(pid: number): boolean {
  const s = processState(pid);
  return s === 'T' || s === 't';
}

/**
 * Sends SIGSTOP and waits until /proc shows the process stopped (or gone): SIGSTOP lands asynchronously, and whoever
 * paused a process expects the next look at it to see it frozen. The signal is sent before this returns its promise;
 * past timeoutMs it gives up waiting silently. An aborted `abort` interrupts the wait (the promise rejects).
 */
export async function signalStop(pid: number, timeoutMs = 2000, abort?: AbortSignal): Promise<void> {
  signal(pid, 'SIGSTOP');
  const deadline = Date.now() + timeoutMs;
  while (!isStopped(pid) && processState(pid) !== undefined && Date.now() < deadline)
    await sleep(5, undefined, { signal: abort });
}

/** Every live process with an argument equal to one of `markers` (or, with prefix, starting with one). */
export function findMarked(markers: readonly string[], prefix = false): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    if (pid === process.pid) continue;
    const args = cmdlineOf(pid);
    if (args?.some((a) => markers.some((m) => (prefix ? a.startsWith(m) : a === m)))) pids.push(pid);
  }
  return pids;
}

/** True when pid leads its own process group (every lab process does: spawnDetached starts it with setsid). */
function leadsGroup(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2] === String(pid);
  } catch {
    return false;
  }
}

/**
 * Signals a lab process, and with it its process group when it leads one: a program run as a contender lives in
 * its supervisor's group, so a kill or pause of the contender reaches the program too.
 */
export function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(leadsGroup(pid) ? -pid : pid, sig);
    return true;
  } catch {
    return false;
  }
}

/**
 * Gone, or a zombie whose threads have all exited. A killed JVM's main thread turns zombie while its other threads
 * are still tearing down and holding its sockets; only when they are gone are its ports free again.
 */
function gone(pid: number): boolean {
  const s = processState(pid);
  if (s === undefined) return true;
  if (s !== 'Z') return false;
  try {
    return readdirSync(`/proc/${pid}/task`).length <= 1;
  } catch {
    return true;
  }
}

/** Waits until every pid has exited (or is a zombie awaiting its parent). Returns the ones still alive at the deadline. */
export async function waitForExit(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter((p) => !gone(p));
  while (alive.length > 0 && Date.now() < deadline) {
    await sleep(20);
    alive = alive.filter((p) => !gone(p));
  }
  return alive;
}

/**
 * Stops processes: SIGCONT first (a paused process cannot act on SIGTERM), then `first`,
 * then SIGKILL for whatever is still there after graceMs. Resolves when all are gone.
 */
export async function stopProcesses(
  pids: readonly number[],
  first: NodeJS.Signals = 'SIGTERM',
  graceMs = 3000,
): Promise<void> {
  const live = pids.filter((p) => !gone(p));
  if (live.length === 0) return;
  for (const pid of live) {
    signal(pid, 'SIGCONT');
    signal(pid, first);
  }
  const stubborn = first === 'SIGKILL' ? live : await waitForExit(live, graceMs);
  for (const pid of stubborn) signal(pid, 'SIGKILL');
  const left = await waitForExit(stubborn, 5000);
  if (left.length > 0) throw new Error(`processes ${left.join(', ')} did not exit after SIGKILL`);
}

/**
 * Starts a lab process in its own process group, stdout and stderr appended to `logFile` (stdout to `stdoutFile`
 * when given), not tied to this process's life (the lab owns it from here: it records the pid). The caller checks
 * `pid` (undefined: it did not start) and may listen for 'error' and 'exit'.
 */
export function spawnDetached(
  command: string,
  args: readonly string[],
  logFile: string,
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; stdoutFile?: string } = {},
): ChildProcess {
  const { stdoutFile, ...spawnOpts } = opts;
  ensureDir(dirname(logFile));
  const fd = openSync(logFile, 'a');
  let out = fd;
  try {
    if (stdoutFile !== undefined) {
      ensureDir(dirname(stdoutFile));
      out = openSync(stdoutFile, 'a');
    }
    const child = spawn(command, args, { ...spawnOpts, detached: true, stdio: ['ignore', out, fd] });
    child.on('error', () => undefined);
    child.unref();
    return child;
  } finally {
    closeSync(fd);
    if (out !== fd) closeSync(out);
  }
}
