import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { execa } from 'execa';
import { expect } from 'vitest';
import { PROGRAMS_DIR } from '../../src/templates.js';
import { waitFor } from './wait.js';
import { liveProcesses } from './node-processes.js';
import { freeTestPorts } from './sockets.js';

/**
 * templates/programs/ha_agent.py as a test drives it: an HA agent that elects through ZooKeeper and a database it
 * starts that daemonizes (double fork, setsid, 4 workers). Every fact here comes from the database itself (its heartbeat
 * file, its port) or from the kernel's process table, never from zklab.
 */
export const HA_AGENT = join(PROGRAMS_DIR, 'ha_agent.py');
export const HA_PROBE = join(PROGRAMS_DIR, 'ha_probe.py');

/** A python3 that imports kazoo: Debian's, where bin/setup installs python3-kazoo (or ZKLAB_PYTHON). */
export async function kazooPython(): Promise<string> {
  for (const python of [process.env.ZKLAB_PYTHON, '/usr/bin/python3', 'python3'].filter(Boolean) as string[]) {
    const r = await execa(python, ['-c', 'import kazoo'], { reject: false });
    if (r.exitCode === 0) return python;
  }
  throw new Error('no python3 imports kazoo: bin/setup installs python3-kazoo');
}

/** `count` consecutive free loopback ports after a base: the databases of members 1..count listen on base + n. */
export const freePortBase = (count: number): Promise<number> =>
  freeTestPorts(Array.from({ length: count }, (_, n) => n + 1));

/** The arguments of `contenders spawn` that run the agent (after the spawn's own flags). */
export function agentArgs(
  python: string,
  dir: string,
  portBase: number,
  opts: { joinDelaySeconds?: number; zklabLines?: boolean } = {},
): string[] {
  return [
    '--exec',
    '--',
    python,
    HA_AGENT,
    'agent',
    '--dir',
    dir,
    '--port-base',
    String(portBase),
    ...(opts.joinDelaySeconds ? ['--join-delay', String(opts.joinDelaySeconds)] : []),
    ...(opts.zklabLines ? ['--zklab-lines'] : []),
  ];
}

/** The probe that asks a member's database whether it is the primary. */
export const probeWords = (python: string, portBase: number): string => `${python} ${HA_PROBE} ${portBase} {n}`;

export interface Beat {
  readonly seq: number;
  readonly t: number;
  readonly role: string;
  readonly pid: number;
}

/** The database's last heartbeat, as it wrote it. */
export function beat(dir: string, id: string): Beat | undefined {
  try {
    const [seq, t, role, pid] = readFileSync(join(dir, `${id}.beat`), 'utf8')
      .trim()
      .split(' ');
    return { seq: Number(seq), t: Number(t), role: role!, pid: Number(pid) };
  } catch {
    return undefined;
  }
}

/** Resolves once the database's heartbeat has moved on (it runs). */
export async function beating(dir: string, id: string, timeoutMs = 5000): Promise<Beat> {
  const first = await waitFor(() => beat(dir, id), `${id}'s database to write a heartbeat`, timeoutMs);
  return waitFor(
    () => {
      const b = beat(dir, id);
      return b && b.seq >= first.seq + 2 ? b : undefined;
    },
    `${id}'s database to beat on`,
    timeoutMs,
  );
}

/** True when the heartbeat does not move for `quietMs` (it beats every 50 ms while it runs). */
export async function stillFor(dir: string, id: string, quietMs = 600): Promise<boolean> {
  const before = beat(dir, id)?.seq;
  await new Promise((r) => setTimeout(r, quietMs));
  return beat(dir, id)?.seq === before;
}

/** What the database on this port says it is: its own answer, or null when nobody answers within a second. */
export function roleOnPort(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    let text = '';
    const socket = createConnection({ host: '127.0.0.1', port });
    const done = (v: string | null) => {
      socket.destroy();
      resolve(v);
    };
    socket.setTimeout(1000, () => done(null));
    socket.on('data', (d) => {
      text += d.toString();
      if (text.includes('\n')) done(text.trim());
    });
    socket.on('error', () => done(null));
  });
}

/** Every live process whose command line names this directory: the agents, their databases and the workers. */
export const processesOf = (dir: string, role?: 'agent' | 'database'): number[] =>
  liveProcesses((args) => args.includes(dir) && (role === undefined || args.includes(role)));

/** Waits until no process of these nodes is left and their heartbeats have stopped: what "nothing left" means. */
export async function allGone(dir: string, ids: readonly string[], timeoutMs = 5000): Promise<void> {
  await waitFor(() => processesOf(dir).length === 0, `every process of ${dir} to be gone`, timeoutMs);
  for (const id of ids) if (beat(dir, id)) expect(await stillFor(dir, id, 300)).toBe(true);
}
