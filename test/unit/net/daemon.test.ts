import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { NetControl, DAEMON_SCRIPT, pingDaemon, startDaemon } from '../../../src/net/control.js';
import { isolate } from '../../../src/net/partition.js';
import { UsageError } from '../../../src/errors.js';
import type { LabPaths } from '../../../src/lab/paths.js';
import { isOurs, signal, waitForExit } from '../../../src/lab/node/procs.js';
import { tempLab } from '../../helpers/paths.js';
import { TargetServer, connectPeer, echoRoundTrip, eventually, waitFor } from './helpers.js';

/** Every daemon a test starts; afterAll kills whatever is still alive. */
const started: { pid: number; lab: LabPaths }[] = [];

async function newDaemon(): Promise<{ pid: number; lab: LabPaths }> {
  const lab = tempLab();
  mkdirSync(lab.root, { recursive: true });
  const { pid } = await startDaemon(lab.root);
  const d = { pid, lab };
  started.push(d);
  return d;
}

function assertFreshBuild(): void {
  const srcDir = join(dirname(DAEMON_SCRIPT), '..', '..', 'src', 'net');
  if (!existsSync(DAEMON_SCRIPT))
    throw new Error(`${DAEMON_SCRIPT} is missing: run \`npx tsc -p tsconfig.json\` first`);
  const built = statSync(DAEMON_SCRIPT).mtimeMs;
  const newer = readdirSync(srcDir).filter((f) => statSync(join(srcDir, f)).mtimeMs > built);
  if (newer.length > 0)
    throw new Error(`dist/net is older than src/net (${newer.join(', ')}): run \`npx tsc -p tsconfig.json\` first`);
}

let target: TargetServer;
let main: { pid: number; lab: LabPaths };
let ctl: NetControl;

beforeAll(async () => {
  assertFreshBuild();
  target = await new TargetServer(true).start();
  main = await newDaemon();
  ctl = await NetControl.connect(main.lab.controlSocket, 2000);
});

afterAll(async () => {
  ctl?.close();
  for (const d of started) signal(d.pid, 'SIGKILL');
  await waitForExit(
    started.map((d) => d.pid),
    5000,
  );
  for (const d of started) rmSync(dirname(d.lab.root), { recursive: true, force: true });
  await target?.stop();
});

describe('link daemon', () => {
  it('answers ping, carries the lab marker, logs to logs/net.log, and is not started twice', async () => {
    const pong = await ctl.request({ op: 'ping' });
    expect(pong).toMatchObject({ ok: true, pid: main.pid, labRoot: main.lab.root });
    expect(isOurs(main.pid, [main.lab.nodeMarker])).toBe(true);
    expect(existsSync(join(main.lab.logDir, 'net.log'))).toBe(true);
    expect(await startDaemon(main.lab.root)).toEqual({ pid: main.pid, alreadyRunning: true });
  });

  it('adds links, forwards through them, applies rules, lists them and removes them', async () => {
    const added = await ctl.request({
      op: 'add-links',
      links: [
        {
          id: 'client:c1->zk1',
          from: 'c1',
          to: 'zk1',
          kind: 'client',
          listenPort: 0,
          targetHost: '127.0.0.1',
          targetPort: target.port,
        },
        {
          id: 'quorum:zk2->zk1',
          from: 'zk2',
          to: 'zk1',
          kind: 'quorum',
          listenPort: 0,
          targetHost: '127.0.0.1',
          targetPort: target.port,
        },
      ],
    });
    expect(added.links.map((l) => l.id)).toEqual(['client:c1->zk1', 'quorum:zk2->zk1']);
    const clientPort = added.links[0]!.port;
    expect(clientPort).toBeGreaterThan(0);

    const client = await connectPeer(clientPort);
    await echoRoundTrip(client, 'ping;');

    const set = await ctl.request({ op: 'set-rules', rules: [isolate('zk1')], delays: [] });
    expect(set.faults['client:c1->zk1']).toEqual({ mode: 'blackhole', delayMs: 0, jitterMs: 0 });
    client.socket.write('held;');
    const list = async () => (await ctl.request({ op: 'list' })).links.find((l) => l.id === 'client:c1->zk1')!;
    await eventually(async () => (await list()).stats.heldBytes === 5, 3000, 'daemon holding 5 bytes');
    expect(await list()).toMatchObject({
      port: clientPort,
      fault: { mode: 'blackhole' },
      stats: { open: 1, heldBytes: 5, bytesToTarget: 5 },
    });
    expect((await ctl.request({ op: 'list' })).rules).toEqual([isolate('zk1')]);

    await ctl.request({ op: 'set-rules', rules: [], delays: [] });
    await waitFor(() => client.text === 'ping;held;', 3000, 'held bytes after heal');

    expect(await ctl.request({ op: 'remove-links', ids: ['client:c1->zk1', 'nope'] })).toEqual({
      ok: true,
      removed: ['client:c1->zk1'],
    });
    await expect(connectPeer(clientPort)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await ctl.request({ op: 'remove-links', ids: ['quorum:zk2->zk1'] });
  });

  it('refuses invalid requests without changing anything', async () => {
    const link = {
      id: 'l',
      from: 'a',
      to: 'b',
      kind: 'quorum' as const,
      listenPort: 0,
      targetHost: '127.0.0.1',
      targetPort: target.port,
    };
    const { links } = await ctl.request({ op: 'add-links', links: [link] });
    // Same definition again: idempotent. A different one under the same id: refused.
    expect((await ctl.request({ op: 'add-links', links: [link] })).links).toEqual(links);
    await expect(ctl.request({ op: 'add-links', links: [{ ...link, targetPort: 1 }] })).rejects.toThrow(
      /already exists/,
    );
    await expect(ctl.request({ op: 'set-rules', rules: [isolate('zz')], delays: [] })).rejects.toBeInstanceOf(
      UsageError,
    );
    await expect(
      ctl.request({ op: 'set-rules', rules: [], delays: [{ member: 'a', delayMs: 70_000, jitterMs: 0 }] }),
    ).rejects.toThrow(/delayMs/);
    expect((await ctl.request({ op: 'list' })).links.find((l) => l.id === 'l')?.fault.mode).toBe('pass');

    // A port taken by another link: the whole request fails and the first link of it is not left behind.
    const taken = links[0]!.port;
    const clash = [
      { ...link, id: 'm' },
      { ...link, id: 'n', listenPort: taken },
    ];
    await expect(ctl.request({ op: 'add-links', links: clash })).rejects.toThrow(/link 'n' cannot listen/);
    expect((await ctl.request({ op: 'list' })).links.map((l) => l.id)).toEqual(['l']);
    await ctl.request({ op: 'remove-links', ids: ['l'] });
  });

  it('answers garbage with an error line and keeps serving', async () => {
    const raw = connect(main.lab.controlSocket);
    let text = '';
    raw.on('data', (c: Buffer) => (text += c.toString()));
    raw.write('not json\n{"op":"dance"}\n{"op":"ping"}\n');
    await waitFor(() => text.split('\n').length > 3, 3000, 'three answers');
    raw.destroy();
    const [a, b, c] = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { ok: boolean; invalid?: boolean });
    expect([a, b, c]).toMatchObject([{ ok: false, invalid: true }, { ok: false, invalid: true }, { ok: true }]);
  });

  it('shuts down on request: answers, closes its links, removes its socket, exits', async () => {
    const d = await newDaemon();
    const c = await NetControl.connect(d.lab.controlSocket, 2000);
    const { links } = await c.request({
      op: 'add-links',
      links: [
        {
          id: 'x',
          from: 'a',
          to: 'b',
          kind: 'client',
          listenPort: 0,
          targetHost: '127.0.0.1',
          targetPort: target.port,
        },
      ],
    });
    expect(await c.request({ op: 'shutdown' })).toEqual({ ok: true });
    expect(await waitForExit([d.pid], 5000)).toEqual([]);
    expect(existsSync(d.lab.controlSocket)).toBe(false);
    await expect(connectPeer(links[0]!.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    expect(await pingDaemon(d.lab.root)).toBeUndefined();
  });

  it('exits cleanly on SIGTERM and SIGINT', async () => {
    for (const sig of ['SIGTERM', 'SIGINT'] as const) {
      const d = await newDaemon();
      signal(d.pid, sig);
      expect(await waitForExit([d.pid], 5000)).toEqual([]);
      expect(existsSync(d.lab.controlSocket)).toBe(false);
    }
  });

  it('exits by itself when its lab directory disappears', async () => {
    const d = await newDaemon();
    rmSync(d.lab.root, { recursive: true, force: true });
    expect(await waitForExit([d.pid], 5000)).toEqual([]);
  });

  it('starts over a stale socket file', async () => {
    const lab = tempLab();
    mkdirSync(lab.root, { recursive: true });
    writeFileSync(lab.controlSocket, ''); // left by a daemon that was SIGKILLed
    const { pid } = await startDaemon(lab.root);
    started.push({ pid, lab });
    expect((await pingDaemon(lab.root))?.pid).toBe(pid);
  });

  it('refuses to start next to a live daemon of the same lab, leaving it untouched', async () => {
    const second = spawnSync(process.execPath, [DAEMON_SCRIPT, '--lab-root', main.lab.root, main.lab.nodeMarker], {
      timeout: 10_000,
      encoding: 'utf8',
    });
    expect(second.status).toBe(1);
    expect(second.stdout).toMatch(/another link daemon already answers/);
    expect((await ctl.request({ op: 'ping' })).pid).toBe(main.pid);
  });
});
