import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { NetControl, startDaemon } from '../../../src/net/control.js';
import { withLabLock } from '../../../src/lab/lock.js';
import type { LabPaths } from '../../../src/lab/paths.js';
import { isStopped, signal, waitForExit } from '../../../src/lab/node/procs.js';
import { emptyState, readState, writeState, type ContenderRecord, type LabState } from '../../../src/lab/state.js';
import { tempLab } from '../../helpers/paths.js';
import { TargetServer, eventually, waitFor } from './helpers.js';

/**
 * The link daemon closes a contender's links by itself when the contender's process dies: real daemon, real
 * proxies, and stand-in contender processes (node, with the lab's marker) that hold a connection through their link.
 */

/** Connects to the port given last and holds the connection; SIGUSR1 moves it to a new one (a session that moves). */
const STAND_IN = `
const net = require('node:net');
const port = Number(process.argv.at(-1));
let socket;
const open = () => { socket = net.connect(port, '127.0.0.1'); socket.on('error', () => {}); };
if (port > 0) open();
process.on('SIGUSR1', () => { socket.destroy(); open(); });
setInterval(() => {}, 1000);
`;

let lab: LabPaths;
let target: TargetServer;
let daemonPid: number;
let ctl: NetControl;
const children: ChildProcess[] = [];
let nextId = 1;

beforeAll(async () => {
  lab = tempLab();
  mkdirSync(lab.root, { recursive: true });
  target = await new TargetServer(true).start();
  writeState(lab, {
    ...emptyState(),
    servers: [{ id: 1, name: 'zk1', clientPort: target.port, quorumPort: 1, electionPort: 1 }],
    net: { rules: [], delays: [], contenderPorts: {} },
  });
  daemonPid = (await startDaemon(lab.root)).pid;
  ctl = await NetControl.connect(lab.controlSocket, 2000);
});

afterEach(async () => {
  for (const c of children) {
    signal(c.pid!, 'SIGCONT');
    signal(c.pid!, 'SIGKILL');
  }
  await waitForExit(
    children.splice(0).map((c) => c.pid!),
    5000,
  );
});

afterAll(async () => {
  ctl?.close();
  if (daemonPid) signal(daemonPid, 'SIGKILL');
  await waitForExit(daemonPid ? [daemonPid] : [], 5000);
  await target?.stop();
  if (lab) rmSync(dirname(lab.root), { recursive: true, force: true });
});

async function linkIds(): Promise<string[]> {
  return (await ctl.request({ op: 'list' })).links.map((l) => l.id);
}

async function openOn(id: string): Promise<number> {
  return (await ctl.request({ op: 'list' })).links.find((l) => l.id === id)?.stats.open ?? 0;
}

function recordedPorts(): Record<string, unknown> {
  return readState(lab)!.net!.contenderPorts;
}

/** Records a contender in the lab state the way `contenders spawn` does (under the lab lock). */
function record(id: string, pid: number, port: number): Promise<void> {
  return withLabLock(lab, async () => {
    const state = readState(lab)!;
    const rec: ContenderRecord = {
      id,
      pid,
      recipe: 'predecessor',
      path: '/e',
      sessionTimeoutMs: 2000,
      startedAt: Date.now(),
    };
    state.contenders.push(rec);
    state.net!.contenderPorts[id] = { zk1: port };
    writeState(lab, state);
  });
}

/** A contender's link in the daemon, and a stand-in process for it; `connect: false` never connects. */
async function contender(
  opts: { connect?: boolean; listed?: boolean } = {},
): Promise<{ id: string; link: string; pid: number; port: number }> {
  const id = `c${nextId++}`;
  const link = `client:${id}->zk1`;
  const { links } = await ctl.request({
    op: 'add-links',
    links: [
      {
        id: link,
        from: id,
        to: 'zk1',
        kind: 'client',
        listenPort: 0,
        targetHost: '127.0.0.1',
        targetPort: target.port,
      },
    ],
  });
  const port = links[0]!.port;
  const child = spawn(
    process.execPath,
    ['-e', STAND_IN, '--', lab.nodeMarker, `--id=${id}`, String(opts.connect === false ? 0 : port)],
    { stdio: 'ignore' },
  );
  children.push(child);
  const pid = child.pid!;
  if (opts.connect !== false) await eventually(async () => (await openOn(link)) === 1, 5000, `${id} to connect`);
  if (opts.listed !== false) await record(id, pid, port);
  return { id, link, pid, port };
}

function pause(pid: number): Promise<void> {
  signal(pid, 'SIGSTOP');
  return waitFor(() => isStopped(pid), 2000, `pid ${pid} to stop`);
}

describe('the link daemon and contenders that die', () => {
  it("closes a SIGKILLed contender's links within a second and the lab state forgets its ports; a paused one keeps them", async () => {
    const dead = await contender();
    const paused = await contender();
    const idle = await contender({ connect: false });
    await pause(paused.pid);
    await pause(idle.pid);

    const t0 = Date.now();
    signal(dead.pid, 'SIGKILL');
    await eventually(async () => !(await linkIds()).includes(dead.link), 1500, `${dead.link} to be removed`);
    const elapsed = Date.now() - t0;
    await waitFor(() => !(dead.id in recordedPorts()), 3000, `lab.json to forget ${dead.id}'s ports`);

    // A contender with no connection is looked at on every tick: the tick that reaps this one looked at the paused
    // idle one as well, and left it alone.
    const again = await contender({ connect: false });
    signal(again.pid, 'SIGKILL');
    await eventually(
      async () => !(await linkIds()).includes(again.link),
      2500,
      `${again.link} to be removed by a tick`,
    );

    expect(await linkIds()).toEqual(expect.arrayContaining([paused.link, idle.link]));
    expect(await openOn(paused.link)).toBe(1);
    expect(recordedPorts()).toMatchObject({ [paused.id]: { zk1: paused.port }, [idle.id]: { zk1: idle.port } });
    expect(readFileSync(lab.netLog, 'utf8')).toMatch(
      new RegExp(`contender process gone: ${dead.id} \\(pid ${dead.pid}\\); removed ${dead.link}`),
    );
    expect(elapsed).toBeLessThan(1000);
  });

  it('keeps the links of a contender that moves its connection', async () => {
    const mover = await contender();
    const accepted = async () =>
      (await ctl.request({ op: 'list' })).links.find((l) => l.id === mover.link)!.stats.accepted;
    signal(mover.pid, 'SIGUSR1');
    await eventually(
      async () => (await accepted()) === 2 && (await openOn(mover.link)) === 1,
      3000,
      `${mover.id} to reconnect`,
    );
    // A death after it, noticed by the daemon, shows the close of the first connection was judged already.
    const dead = await contender();
    signal(dead.pid, 'SIGKILL');
    await eventually(async () => !(await linkIds()).includes(dead.link), 1500, `${dead.link} to be removed`);
    expect(await linkIds()).toContain(mover.link);
    expect(recordedPorts()).toHaveProperty(mover.id);
  });

  it("takes a pid that runs without the lab's marker (reused) for a dead contender", async () => {
    const c = await contender({ connect: false, listed: false });
    signal(c.pid, 'SIGKILL');
    await record(c.id, process.pid, c.port); // alive, but not one of the lab's processes
    await eventually(async () => !(await linkIds()).includes(c.link), 2500, `${c.link} to be removed`);
    await waitFor(() => !(c.id in recordedPorts()), 3000, `lab.json to forget ${c.id}'s ports`);
  });

  it('leaves a contender the state does not list yet alone, and reaps it once listed dead', async () => {
    const unlisted = await contender({ listed: false });
    signal(unlisted.pid, 'SIGKILL');
    // Another death, listed, with no connection: the tick that reaps it looked at the unlisted one too.
    const listed = await contender({ connect: false });
    signal(listed.pid, 'SIGKILL');
    await eventually(async () => !(await linkIds()).includes(listed.link), 2500, `${listed.link} to be removed`);
    expect(await linkIds()).toContain(unlisted.link);

    await record(unlisted.id, unlisted.pid, unlisted.port);
    await eventually(
      async () => !(await linkIds()).includes(unlisted.link),
      2500,
      `${unlisted.link} to be removed once listed`,
    );
  });

  it('closes the links while a command holds the lab lock, and updates the state once the lock is free', async () => {
    const c = await contender();
    let removedUnderLock = false;
    await withLabLock(lab, async () => {
      signal(c.pid, 'SIGKILL');
      await eventually(
        async () => !(await linkIds()).includes(c.link),
        1500,
        `${c.link} to be removed while the lock is held`,
      );
      removedUnderLock = true;
      expect(recordedPorts()).toHaveProperty(c.id);
    });
    expect(removedUnderLock).toBe(true);
    await waitFor(() => !(c.id in recordedPorts()), 3000, `lab.json to forget ${c.id}'s ports`);
  });

  it('on start, forgets the ports of contenders that died while no daemon ran', async () => {
    const state: LabState = readState(lab)!;
    state.contenders.push({
      id: 'c99',
      pid: 0,
      recipe: 'predecessor',
      path: '/e',
      sessionTimeoutMs: 2000,
      startedAt: 0,
    });
    state.net!.contenderPorts.c99 = { zk1: 1 };
    writeState(lab, state);
    await ctl.request({ op: 'shutdown' });
    ctl.close();
    expect(await waitForExit([daemonPid], 5000)).toEqual([]);
    daemonPid = (await startDaemon(lab.root)).pid;
    ctl = await NetControl.connect(lab.controlSocket, 2000);
    await waitFor(() => !('c99' in recordedPorts()), 3000, "lab.json to forget c99's ports");
  });
});
