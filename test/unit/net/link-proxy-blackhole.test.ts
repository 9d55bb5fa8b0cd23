import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { LinkProxy } from '../../../src/net/link-proxy.js';
import { HOLD_HIGH_WATER } from '../../../src/net/link-pump.js';
import { TargetServer, connectPeer, echoRoundTrip, stays, waitFor } from './helpers.js';

// Each test first waits until the proxy has *received* what was sent (heldBytes), then checks nothing was
// delivered: the proxy had the bytes in hand, so absence at the far end is its doing, not a race.

let target: TargetServer;
let proxy: LinkProxy;

beforeEach(async () => {
  target = await new TargetServer(false).start();
  proxy = new LinkProxy({ kind: 'quorum', targetHost: '127.0.0.1', targetPort: target.port });
  await proxy.start();
});

afterEach(async () => {
  await proxy.stop();
  await target.stop();
});

async function connected() {
  const client = await connectPeer(proxy.port);
  await waitFor(() => target.peers.length === 1, 3000, 'target accepted');
  return { client, server: target.peers[0]! };
}

describe('LinkProxy blackhole', () => {
  it('holds bytes in both directions with sockets open, and delivers them in order when healed', async () => {
    const { client, server } = await connected();
    proxy.setFault({ mode: 'blackhole' });
    client.socket.write('to-target-1;');
    client.socket.write('to-target-2;');
    server.socket.write('to-client;');
    await waitFor(() => proxy.stats().heldBytes === 34, 3000, 'proxy holding 34 bytes');
    await stays(() => server.received.length === 0 && client.received.length === 0, 200, 'nothing delivered');
    expect([client.closed, client.ended, client.errorCode, server.closed, server.ended, server.errorCode]).toEqual([
      false,
      false,
      undefined,
      false,
      false,
      undefined,
    ]);
    expect(proxy.stats().open).toBe(1);

    proxy.setFault({ mode: 'pass' });
    await waitFor(
      () => server.text === 'to-target-1;to-target-2;' && client.text === 'to-client;',
      3000,
      'delivery after heal',
    );
    expect(proxy.stats()).toMatchObject({ heldBytes: 0, open: 1 });
    expect(client.errorCode).toBeUndefined();
  });

  it('holds a FIN until healed', async () => {
    const { client, server } = await connected();
    proxy.setFault({ mode: 'blackhole' });
    client.socket.end('bye');
    await waitFor(() => proxy.stats().heldBytes === 3, 3000, 'proxy holding the bytes');
    await stays(() => !server.ended && server.received.length === 0, 200, 'target hears nothing');

    proxy.setFault({ mode: 'pass' });
    await waitFor(() => server.ended, 3000, 'FIN at target');
    expect(server.text).toBe('bye');
  });

  it('never sends a RST during the blackhole: a reset from the target arrives only after healing', async () => {
    const { client, server } = await connected();
    proxy.setFault({ mode: 'blackhole' });
    // No data in flight: on Linux a RST arriving behind unread data reads as a plain EOF.
    server.socket.resetAndDestroy();
    await waitFor(() => server.closed, 3000, 'target socket reset');
    await stays(() => !client.closed && !client.ended && client.errorCode === undefined, 200, 'client untouched');

    proxy.setFault({ mode: 'pass' });
    await waitFor(() => client.closed, 3000, 'client reset after heal');
    expect(client.errorCode).toBe('ECONNRESET');
  });

  it('accepts new connections silently and reaches the target only once healed', async () => {
    proxy.setFault({ mode: 'blackhole' });
    const client = await connectPeer(proxy.port);
    client.socket.write('early');
    await waitFor(() => proxy.stats().heldBytes === 5, 3000, 'proxy holding the bytes');
    expect(proxy.stats()).toMatchObject({ accepted: 1, open: 1 });
    await stays(() => target.peers.length === 0, 200, 'target never contacted');

    proxy.setFault({ mode: 'pass' });
    await waitFor(() => target.peers[0]?.text === 'early', 3000, 'bytes at target');
    target.peers[0]!.socket.write('late reply');
    await waitFor(() => client.text === 'late reply', 3000, 'reply at client');
  });

  it('drops a connection whose client gave up during the blackhole without ever telling the target', async () => {
    proxy.setFault({ mode: 'blackhole' });
    const quitter = await connectPeer(proxy.port);
    quitter.socket.end('never mind');
    await waitFor(() => proxy.stats().accepted === 1 && proxy.stats().open === 0, 3000, 'quitter dropped');

    proxy.setFault({ mode: 'pass' });
    const next = await connectPeer(proxy.port);
    next.socket.write('next');
    await waitFor(() => target.peers.length === 1 && target.peers[0]!.text === 'next', 3000, 'second connection');
    expect(target.peers.length).toBe(1);
  });

  it('holds chunks already waiting out a delay', async () => {
    const { client, server } = await connected();
    proxy.setFault({ delayMs: 150 });
    client.socket.write('slow');
    await waitFor(() => proxy.stats().heldBytes === 4, 3000, 'chunk queued');
    proxy.setFault({ mode: 'blackhole' });
    // Outlast the delay: the chunk must still be held because the link is blackholed.
    await stays(() => server.received.length === 0, 300, 'chunk held past its due time');
    proxy.setFault({ mode: 'pass', delayMs: 0 });
    await waitFor(() => server.text === 'slow', 3000, 'delivery after heal');
  });

  it('reject after blackhole resets the held connection', async () => {
    const { client, server } = await connected();
    proxy.setFault({ mode: 'blackhole' });
    client.socket.write('held');
    await waitFor(() => proxy.stats().heldBytes === 4, 3000, 'held');
    proxy.setFault({ mode: 'reject' });
    await waitFor(() => client.closed && server.closed, 3000, 'both reset');
    expect(client.errorCode).toBe('ECONNRESET');
    expect(server.errorCode).toBe('ECONNRESET');
    expect(server.received.length).toBe(0);
  });

  it('stops reading past the hold limit, pushing back on the sender, and loses nothing', async () => {
    const { client, server } = await connected();
    proxy.setFault({ mode: 'blackhole' });
    const payload = randomBytes(4 * HOLD_HIGH_WATER);
    client.socket.write(payload);
    await waitFor(() => proxy.stats().heldBytes > HOLD_HIGH_WATER, 5000, 'hold limit reached');
    // The rest waits in the kernel's socket buffers (TCP flow control from there on), not in the proxy.
    await stays(() => proxy.stats().heldBytes < HOLD_HIGH_WATER + (256 << 10), 200, 'proxy stops reading');

    proxy.setFault({ mode: 'pass' });
    await waitFor(() => server.received.length === payload.length, 5000, 'whole payload');
    expect(server.received.equals(payload)).toBe(true);
  });

  it('a healed connection keeps working normally', async () => {
    await target.stop();
    target = await new TargetServer(true).start();
    const p = new LinkProxy({ kind: 'client', targetHost: '127.0.0.1', targetPort: target.port });
    const client = await connectPeer(await p.start());
    try {
      await echoRoundTrip(client, 'one;');
      p.setFault({ mode: 'blackhole' });
      p.setFault({ mode: 'pass' });
      await echoRoundTrip(client, 'two;');
      expect(client.text).toBe('one;two;');
    } finally {
      await p.stop();
    }
  });
});
