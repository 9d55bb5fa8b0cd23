import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { join } from 'node:path';
import { execa, type ResultPromise } from 'execa';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { findJava, findZooKeeper } from '../../src/ensemble/discover.js';
import { isPortFree } from '../../src/lab/ports.js';
import { zklab } from '../helpers/cli.js';
import { tempDir } from '../helpers/paths.js';
import { freeTestPorts } from '../helpers/sockets.js';
import { waitFor } from '../helpers/wait.js';

// The native client itself, not zklab's port over it: the test asks ZooKeeper, not the code under test.
const ZooKeeper = createRequire(import.meta.url)('zookeeper') as {
  new (o: { connect: string; timeout: number }): NativeClient;
  readonly constants: { readonly ZOO_PERSISTENT_WITH_TTL: number };
};
interface NativeClient {
  init(o: object): void;
  on(event: 'connect', cb: () => void): void;
  create(path: string, data: string, flags: number, ttl: number): Promise<string>;
  close(): void;
}

const servers: ResultPromise[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.kill('SIGKILL');
    await s.catch(() => undefined);
  }
});

/** `srvr` on the port, as the server answers it. */
function srvr(port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1', () => s.end('srvr'));
    // A listener that is not a serving ZooKeeper may hold the connection open: give up on it, and ask again.
    s.setTimeout(2000, () => s.destroy());
    let out = '';
    s.on('data', (d) => {
      out += d.toString();
    });
    s.on('close', () => resolve(out));
    s.on('error', () => resolve(''));
  });
}

/** A server started by hand on a config: plain `java -cp … QuorumPeerMain zoo.cfg`, no zklab flag. */
async function startByHand(cfg: string, port: number): Promise<void> {
  const zk = findZooKeeper();
  const server = execa(
    findJava().bin,
    ['-cp', zk.classpath, 'org.apache.zookeeper.server.quorum.QuorumPeerMain', cfg],
    {
      reject: false,
      cleanup: true,
    },
  );
  servers.push(server);
  await waitFor(async () => /Mode: standalone/.test(await srvr(port)), 'the hand-started server to serve', 30_000, 100);
}

/** `p`, or an error naming what did not come: a hang here would otherwise surface only as the test's timeout. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([
    p,
    sleep(ms, undefined, { ref: false }).then(() => {
      throw new Error(`no ${what} within ${ms} ms`);
    }),
  ]);
}

async function createTtl(port: number): Promise<string> {
  const client = new ZooKeeper({ connect: `127.0.0.1:${port}`, timeout: 4000 });
  const connected = new Promise<void>((resolve) => client.on('connect', resolve));
  client.init({});
  try {
    await within(connected, 20_000, 'session');
    return await within(
      client.create('/ttl-by-hand', 'x', ZooKeeper.constants.ZOO_PERSISTENT_WITH_TTL, 30_000),
      20_000,
      'answer to the create',
    );
  } catch (e) {
    return (e as Error).message;
  } finally {
    client.close();
  }
}

describe('zklab config generate: the files a user takes elsewhere', () => {
  it('make a server started by hand, without zklab, accept a TTL znode (and without the line, it refuses)', async () => {
    const out = join(tempDir(), 'conf');
    const base = await freeTestPorts([0, 10, 20]);
    const r = await zklab(['config', 'generate', '--out', out, '--servers', '1', '--base-port', String(base)]);
    expect(r.exitCode).toBe(0);
    const cfg = join(out, 'zk1', 'zoo.cfg');
    const text = readFileSync(cfg, 'utf8');
    expect(text).toMatch(/^extendedTypesEnabled=true$/m);
    const port = Number(/^clientPort=(\d+)$/m.exec(text)?.[1]);

    await startByHand(cfg, port);
    expect(await createTtl(port)).toBe('/ttl-by-hand');

    // The same server without the line: ZooKeeper refuses TTL creates, so the line is what made the difference.
    servers.pop()?.kill('SIGKILL');
    await waitFor(() => isPortFree(port), 'the first server to let go of its port', 10_000, 100);
    writeFileSync(cfg, text.replace(/^extendedTypesEnabled=true$/m, ''));
    await startByHand(cfg, port);
    expect(await createTtl(port)).toMatch(/unimplemented/i);
  }, 90_000);
});

describe('zklab config generate: its words', () => {
  it('says that two servers tolerate no failure, as one does', async () => {
    const r = await zklab(['config', 'generate', '--out', join(tempDir(), 'two'), '--servers', '2']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^warning: 2 servers tolerate no failure, as 1 does: a quorum needs 2/m);
    const three = await zklab(['config', 'generate', '--out', join(tempDir(), 'three'), '--servers', '3']);
    expect(three.stderr).toBe('');
  });
});
