import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { LinkProxy } from '../../../src/net/link-proxy.js';
import { Peer, connectPeer, echoRoundTrip, waitFor } from './helpers.js';

const proxies: LinkProxy[] = [];
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.stop()));
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A loopback port nothing listens on (bound and released). */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

/** An echo server on `port`, from now on. */
async function listenEcho(port: number): Promise<void> {
  const s = createServer((socket) => socket.on('data', (c: Buffer) => socket.write(c)).on('error', () => {}));
  servers.push(s);
  await new Promise<void>((r) => s.listen(port, '127.0.0.1', () => r()));
}

async function proxyTo(port: number, kind: 'quorum' | 'client', refusedRetryMs?: number): Promise<LinkProxy> {
  const p = new LinkProxy({ kind, targetHost: '127.0.0.1', targetPort: port, refusedRetryMs });
  proxies.push(p);
  await p.start();
  return p;
}

describe('LinkProxy when the target refuses', () => {
  it('a quorum link retries a refused connect, so a learner that came early reaches a leader that listens late', async () => {
    const port = await freePort();
    const p = await proxyTo(port, 'quorum');
    const client = await connectPeer(p.port);
    client.socket.write('early ');
    await new Promise((r) => setTimeout(r, 300));
    expect(client.closed).toBe(false);
    await listenEcho(port);
    await echoRoundTrip(client, 'then');
    expect(client.text).toBe('early then');
    expect(p.stats()).toMatchObject({ open: 1, bytesToTarget: 10 });
  });

  it('resets the client once the retry window has passed', async () => {
    const port = await freePort();
    const p = await proxyTo(port, 'quorum', 200);
    const t0 = Date.now();
    const client = await connectPeer(p.port);
    await waitFor(() => client.closed, 3000, 'client reset');
    expect(client.errorCode).toBe('ECONNRESET');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(150);
    await waitFor(() => p.stats().open === 0, 3000, 'connection gone');
  });

  it('a client link resets at once (a client moves on to the next server)', async () => {
    const p = await proxyTo(await freePort(), 'client');
    const t0 = Date.now();
    const client = new Peer((await connectPeer(p.port)).socket);
    await waitFor(() => client.closed, 3000, 'client reset');
    expect(Date.now() - t0).toBeLessThan(150);
  });

  it('a client that leaves while the proxy retries is forgotten', async () => {
    const port = await freePort();
    const p = await proxyTo(port, 'quorum');
    const client = await connectPeer(p.port);
    await new Promise((r) => setTimeout(r, 100));
    client.socket.destroy();
    await waitFor(() => p.stats().open === 0, 3000, 'connection forgotten');
    await listenEcho(port);
    await new Promise((r) => setTimeout(r, 150));
    expect(p.stats().bytesToTarget).toBe(0);
  });
});
