import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { NetControl, MAX_UNIX_SOCKET_PATH, startDaemon } from '../../../src/net/control.js';
import { serveControl, type ControlServer } from '../../../src/net/control-server.js';
import { InvalidRequestError } from '../../../src/net/link-table.js';
import { EnvironmentError, ProcessError, UsageError } from '../../../src/errors.js';

// The client against in-process servers: no daemon process involved.

const dir = mkdtempSync('/tmp/zklab-net-control-');
const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function fakeDaemon(): Promise<{ path: string; server: ControlServer }> {
  const path = join(dir, `s${cleanups.length}-${Date.now()}.sock`);
  let n = 0;
  const server = await serveControl(path, async (req) => {
    if (req.op === 'ping') return { ok: true, pid: ++n, labRoot: dir, uptimeMs: 0 };
    if (req.op === 'set-rules') throw new InvalidRequestError("unknown member 'zz'");
    if (req.op === 'remove-links') throw new Error('disk on fire');
    // Slow answer: later requests must still be answered in order after it.
    if (req.op === 'list') await new Promise((r) => setTimeout(r, 50));
    return { ok: true, links: [], members: [], rules: [], delays: [] };
  });
  cleanups.push(() => server.close());
  return { path, server };
}

describe('NetControl', () => {
  it('matches responses to requests in order', async () => {
    const { path } = await fakeDaemon();
    const ctl = await NetControl.connect(path, 1000);
    cleanups.push(() => ctl.close());
    const [a, list, b] = await Promise.all([
      ctl.request({ op: 'ping' }),
      ctl.request({ op: 'list' }),
      ctl.request({ op: 'ping' }),
    ]);
    expect([a.pid, b.pid]).toEqual([1, 2]);
    expect(list.links).toEqual([]);
  });

  it('maps refusals to UsageError and failures to ProcessError', async () => {
    const { path } = await fakeDaemon();
    const ctl = await NetControl.connect(path, 1000);
    cleanups.push(() => ctl.close());
    await expect(ctl.request({ op: 'set-rules', rules: [], delays: [] })).rejects.toSatisfy(
      (e: Error) => e instanceof UsageError && /unknown member 'zz'/.test(e.message),
    );
    await expect(ctl.request({ op: 'remove-links', ids: [] })).rejects.toSatisfy(
      (e: Error) => e instanceof ProcessError && /disk on fire/.test(e.message),
    );
    expect((await ctl.request({ op: 'ping' })).ok).toBe(true); // the connection survives refusals
  });

  it('fails to connect with a hint when no daemon listens', async () => {
    await expect(NetControl.connect(join(dir, 'nobody.sock'), 1000)).rejects.toSatisfy(
      (e: ProcessError) => e instanceof ProcessError && /ENOENT/.test(e.message) && /ensemble up/.test(e.hint ?? ''),
    );
  });

  it('rejects pending requests when the daemon goes away, and times out a silent one', async () => {
    const path = join(dir, 'silent.sock');
    const sockets: Socket[] = [];
    const silent: Server = createServer((s) => {
      sockets.push(s);
      s.resume(); // reads (and ignores) requests, so it sees its clients leave
    });
    await new Promise<void>((r) => silent.listen(path, r));
    cleanups.push(() => new Promise<void>((r) => silent.close(() => r())));

    const timed = await NetControl.connect(path, 1000);
    await expect(timed.request({ op: 'ping' }, 100)).rejects.toThrow(/did not answer 'ping' within 100ms/);

    const dropped = await NetControl.connect(path, 1000);
    const pending = dropped.request({ op: 'ping' }, 5000);
    await new Promise<void>((r) => (sockets.length === 2 ? r() : silent.once('connection', () => r())));
    sockets[1]!.destroy();
    await expect(pending).rejects.toThrow(/closed the connection|lost the link daemon/);
    await expect(dropped.request({ op: 'ping' })).rejects.toBeInstanceOf(ProcessError);
  });
});

describe('startDaemon', () => {
  it('refuses a lab whose socket path cannot fit in a unix socket address', async () => {
    const deep = join(dir, 'x'.repeat(MAX_UNIX_SOCKET_PATH));
    await expect(startDaemon(deep)).rejects.toBeInstanceOf(EnvironmentError);
  });
});
