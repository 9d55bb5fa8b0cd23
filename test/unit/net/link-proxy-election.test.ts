import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LinkProxy } from '../../../src/net/link-proxy.js';
import { PROTOCOL_VERSION_V2, encodeInitialMessage } from '../../../src/net/initial-message.js';
import { TargetServer, connectPeer, waitFor } from './helpers.js';

let target: TargetServer;
const proxies: LinkProxy[] = [];

beforeEach(async () => {
  target = await new TargetServer(false).start();
});

afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.stop()));
  await target.stop();
});

async function proxyOf(kind: 'election' | 'quorum'): Promise<LinkProxy> {
  const p = new LinkProxy({ kind, targetHost: '127.0.0.1', targetPort: target.port, advertise: { host: '127.0.0.1', port: 47001 } });
  proxies.push(p);
  await p.start();
  return p;
}

const notification = Buffer.from([0, 0, 0, 3, 0xa, 0xb, 0xc]);

describe('LinkProxy on an election link', () => {
  it('rewrites the first InitialMessage, even when it arrives in pieces, and leaves the rest alone', async () => {
    const p = await proxyOf('election');
    const client = await connectPeer(p.port);
    const msg = encodeInitialMessage(PROTOCOL_VERSION_V2, 2n, ['127.0.0.1:3888', '10.1.1.1:3888']);
    const stream = Buffer.concat([msg, notification, msg]); // a second InitialMessage-shaped run is just data
    for (const piece of [stream.subarray(0, 3), stream.subarray(3, 21), stream.subarray(21)]) {
      client.socket.write(piece);
      await new Promise((r) => setTimeout(r, 10)); // encourages separate chunks; correctness does not depend on it
    }
    const expected = Buffer.concat([encodeInitialMessage(PROTOCOL_VERSION_V2, 2n, ['127.0.0.1:47001']), notification, msg]);
    await waitFor(() => (target.peers[0]?.received.length ?? 0) >= expected.length, 3000, 'rewritten stream');
    expect(target.peers[0]?.received).toEqual(expected);
    expect(p.stats().bytesToTarget).toBe(expected.length);
  });

  it('does not touch the target-to-client direction', async () => {
    const p = await proxyOf('election');
    const client = await connectPeer(p.port);
    client.socket.write(encodeInitialMessage(PROTOCOL_VERSION_V2, 1n, ['127.0.0.1:3888']));
    await waitFor(() => target.peers.length === 1, 3000, 'connection');
    const back = encodeInitialMessage(PROTOCOL_VERSION_V2, 3n, ['127.0.0.1:3999']);
    target.peers[0]!.socket.write(back);
    await waitFor(() => client.received.length >= back.length, 3000, 'reply');
    expect(client.received).toEqual(back);
  });

  it('passes an old-protocol message (bare sid) through untouched', async () => {
    const p = await proxyOf('election');
    const client = await connectPeer(p.port);
    const old = Buffer.alloc(8);
    old.writeBigInt64BE(4n, 0);
    const stream = Buffer.concat([old, notification]);
    client.socket.write(stream);
    await waitFor(() => (target.peers[0]?.received.length ?? 0) >= stream.length, 3000, 'stream');
    expect(target.peers[0]?.received).toEqual(stream);
  });

  it('passes a malformed first message through for the target to refuse', async () => {
    const p = await proxyOf('election');
    const client = await connectPeer(p.port);
    const junk = Buffer.alloc(24, 0xff); // version -1: not a protocol ZooKeeper knows
    client.socket.write(junk);
    await waitFor(() => (target.peers[0]?.received.length ?? 0) >= junk.length, 3000, 'junk');
    expect(target.peers[0]?.received).toEqual(junk);
  });

  it('rewrites nothing on a quorum link, advertise or not', async () => {
    const p = await proxyOf('quorum');
    const client = await connectPeer(p.port);
    const msg = encodeInitialMessage(PROTOCOL_VERSION_V2, 2n, ['127.0.0.1:3888']);
    client.socket.write(msg);
    await waitFor(() => (target.peers[0]?.received.length ?? 0) >= msg.length, 3000, 'message');
    expect(target.peers[0]?.received).toEqual(msg);
  });

  it('rewrites a message held by a blackhole once healed', async () => {
    const p = await proxyOf('election');
    p.setFault({ mode: 'blackhole' });
    const client = await connectPeer(p.port);
    client.socket.write(encodeInitialMessage(PROTOCOL_VERSION_V2, 2n, ['127.0.0.1:3888']));
    await waitFor(() => p.stats().heldBytes > 0, 3000, 'held');
    p.setFault({ mode: 'pass' });
    const expected = encodeInitialMessage(PROTOCOL_VERSION_V2, 2n, ['127.0.0.1:47001']);
    await waitFor(() => (target.peers[0]?.received.length ?? 0) >= expected.length, 3000, 'rewritten');
    expect(target.peers[0]?.received).toEqual(expected);
  });
});
