import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { LinkProxy } from '../../../src/net/link-proxy.js';
import { Peer, TargetServer, connectPeer, echoRoundTrip, waitFor } from './helpers.js';

let target: TargetServer;
let proxy: LinkProxy;

beforeEach(async () => {
  target = await new TargetServer(true).start();
  proxy = new LinkProxy({ kind: 'client', targetHost: '127.0.0.1', targetPort: target.port });
  await proxy.start();
});

afterEach(async () => {
  await proxy.stop();
  await target.stop();
});

describe('LinkProxy in pass mode', () => {
  it('forwards both ways and counts bytes and connections', async () => {
    const client = await connectPeer(proxy.port);
    await echoRoundTrip(client, 'hello');
    expect(client.text).toBe('hello');
    expect(target.peers[0]?.text).toBe('hello');
    expect(proxy.stats()).toMatchObject({ accepted: 1, open: 1, bytesToTarget: 5, bytesFromTarget: 5, heldBytes: 0 });
    client.socket.destroy();
    await waitFor(() => proxy.stats().open === 0, 3000, 'connection closed');
  });

  it('carries a large transfer intact both ways', async () => {
    const client = await connectPeer(proxy.port);
    const payload = randomBytes(8 << 20);
    client.socket.write(payload);
    await waitFor(() => client.received.length === payload.length, 10_000, 'whole echo');
    expect(client.received.equals(payload)).toBe(true);
    expect(proxy.stats()).toMatchObject({ bytesToTarget: payload.length, bytesFromTarget: payload.length });
  });

  it('carries half-closes in each direction separately', async () => {
    await target.stop();
    target = await new TargetServer(false).start();
    const p = new LinkProxy({ kind: 'quorum', targetHost: '127.0.0.1', targetPort: target.port });
    const client = await connectPeer(await p.start());
    try {
      client.socket.end('last words');
      await waitFor(() => target.peers[0]?.ended === true, 3000, 'FIN at target');
      expect(target.peers[0]?.text).toBe('last words');
      const server = target.peers[0]!;
      server.socket.end('reply after FIN');
      await waitFor(() => client.ended, 3000, 'FIN at client');
      expect(client.text).toBe('reply after FIN');
      await waitFor(() => p.stats().open === 0, 3000, 'connection closed');
    } finally {
      await p.stop();
    }
  });

  it('resets the client when the target refuses the connection', async () => {
    await target.stop();
    const client = await connectPeer(proxy.port);
    await waitFor(() => client.closed, 3000, 'client closed');
    expect(client.errorCode).toBe('ECONNRESET');
  });

  it('stop() closes the listener and open connections', async () => {
    const client = await connectPeer(proxy.port);
    await echoRoundTrip(client, 'x');
    await proxy.stop();
    await waitFor(() => client.ended, 3000, 'FIN at client');
    await expect(connectPeer(proxy.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });
});

describe('LinkProxy reject mode', () => {
  it('resets existing connections on both sides', async () => {
    const client = await connectPeer(proxy.port);
    await echoRoundTrip(client, 'before');
    proxy.setFault({ mode: 'reject' });
    await waitFor(() => client.closed && target.peers[0]!.closed, 3000, 'both sides closed');
    expect(client.errorCode).toBe('ECONNRESET');
    expect(target.peers[0]?.errorCode).toBe('ECONNRESET');
    expect(proxy.stats().open).toBe(0);
  });

  it('resets new connections at once and never reaches the target; pass restores service', async () => {
    proxy.setFault({ mode: 'reject' });
    // The RST may arrive before or after the client sees its connect complete.
    const client = new Peer(connect({ host: '127.0.0.1', port: proxy.port }));
    await waitFor(() => client.closed, 3000, 'client reset');
    expect(client.errorCode).toBe('ECONNRESET');
    expect(proxy.stats()).toMatchObject({ accepted: 1, rejected: 1, open: 0 });

    proxy.setFault({ mode: 'pass' });
    const again = await connectPeer(proxy.port);
    await echoRoundTrip(again, 'back');
    expect(target.peers.map((p) => p.text)).toEqual(['back']);
  });
});

describe('LinkProxy delay', () => {
  it('delays each direction by delayMs', async () => {
    const client = await connectPeer(proxy.port);
    const fast = await echoRoundTrip(client, 'a');
    proxy.setFault({ delayMs: 100 });
    const slow = await echoRoundTrip(client, 'b');
    expect(slow).toBeGreaterThanOrEqual(195); // 100 ms there and 100 ms back
    expect(slow).toBeLessThan(1000);
    proxy.setFault({ delayMs: 0 });
    const fastAgain = await echoRoundTrip(client, 'c');
    expect(Math.max(fast, fastAgain)).toBeLessThan(100);
    expect(client.text).toBe('abc');
  });

  it('keeps byte order under jitter even when later chunks draw shorter delays', async () => {
    // Alternating extreme draws: without the ordering guard, every other chunk would overtake its predecessor.
    let n = 0;
    const p = new LinkProxy({
      kind: 'client',
      targetHost: '127.0.0.1',
      targetPort: target.port,
      random: () => (n++ % 2 === 0 ? 0.99 : 0),
    });
    const client = await connectPeer(await p.start());
    try {
      p.setFault({ delayMs: 5, jitterMs: 40 });
      const sent: string[] = [];
      for (let i = 0; i < 30; i++) {
        const piece = `<${i}>`;
        sent.push(piece);
        client.socket.write(piece);
        await new Promise((r) => setTimeout(r, 2)); // spaces writes so they reach the proxy as separate chunks
      }
      const expected = sent.join('');
      await waitFor(() => client.text.length >= expected.length, 5000, 'all echoed');
      expect(target.peers[0]?.text).toBe(expected);
      expect(client.text).toBe(expected);
    } finally {
      await p.stop();
    }
  });

  it('adds jitter within [delay, delay + jitter] per direction', async () => {
    const p = new LinkProxy({ kind: 'client', targetHost: '127.0.0.1', targetPort: target.port, random: () => 0.5 });
    const client = await connectPeer(await p.start());
    try {
      p.setFault({ delayMs: 20, jitterMs: 100 });
      const rtt = await echoRoundTrip(client, 'j');
      expect(rtt).toBeGreaterThanOrEqual(135); // (20 + 50) each way
      expect(rtt).toBeLessThan(600);
    } finally {
      await p.stop();
    }
  });
});

describe('LinkProxy onClientLeft', () => {
  async function counting(): Promise<{ proxy: LinkProxy; left: () => number }> {
    let n = 0;
    const p = new LinkProxy({
      kind: 'client',
      targetHost: '127.0.0.1',
      targetPort: target.port,
      onClientLeft: () => n++,
    });
    await p.start();
    return { proxy: p, left: () => n };
  }

  it('reports a FIN at once, even during a blackhole that keeps the connection open, and only once', async () => {
    const { proxy: p, left } = await counting();
    try {
      const client = await connectPeer(p.port);
      await echoRoundTrip(client, 'hi');
      p.setFault({ mode: 'blackhole' });
      client.socket.end();
      await waitFor(() => left() === 1, 3000, 'the FIN reported');
      expect(p.stats().open).toBe(1);
      p.setFault({ mode: 'pass' });
      await waitFor(() => p.stats().open === 0, 3000, 'connection closed once healed');
      expect(left()).toBe(1);
    } finally {
      await p.stop();
    }
  });

  it('reports a reset, and not the target closing its side', async () => {
    const { proxy: p, left } = await counting();
    try {
      const a = await connectPeer(p.port);
      await echoRoundTrip(a, 'a');
      target.peers[0]!.socket.end();
      await waitFor(() => a.ended, 3000, "the target's FIN at the client");
      expect(left()).toBe(0);

      const b = await connectPeer(p.port);
      await echoRoundTrip(b, 'b');
      b.socket.resetAndDestroy();
      await waitFor(() => left() === 1, 3000, 'the reset reported');
    } finally {
      await p.stop();
    }
  });
});
