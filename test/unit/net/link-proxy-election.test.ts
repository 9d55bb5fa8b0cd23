import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LinkProxy } from '../../../src/net/link-proxy.js';
import { TargetServer, connectPeer, waitFor } from './helpers.js';

let target: TargetServer;
let proxy: LinkProxy;

beforeEach(async () => {
  target = await new TargetServer(false).start();
  proxy = new LinkProxy({ kind: 'election', targetHost: '127.0.0.1', targetPort: target.port });
  await proxy.start();
});

afterEach(async () => {
  await proxy.stop();
  await target.stop();
});

/** ZooKeeper's V2 InitialMessage (protocol version, sid, length, `host:port|…`), the first bytes on an election connection. */
function initialMessage(sid: bigint, addresses: string): Buffer {
  const address = Buffer.from(addresses, 'utf8');
  const header = Buffer.alloc(20);
  header.writeBigInt64BE(-65535n, 0);
  header.writeBigInt64BE(sid, 8);
  header.writeInt32BE(address.length, 16);
  return Buffer.concat([header, address]);
}

const notification = Buffer.from([0, 0, 0, 3, 0xa, 0xb, 0xc]);

// The sender advertises its own election address by name (zkN:port); a receiver that connects back resolves that
// name through its own hosts file to its own pair's proxy address, so the link must deliver the message as sent.
describe('LinkProxy on an election link passes the InitialMessage through unchanged', () => {
  it('in pieces, with what follows it, in both directions', async () => {
    const client = await connectPeer(proxy.port);
    const stream = Buffer.concat([initialMessage(2n, 'zk2:3888|zk2:3889'), notification]);
    for (const piece of [stream.subarray(0, 3), stream.subarray(3, 21), stream.subarray(21)]) {
      client.socket.write(piece);
      await new Promise((r) => setTimeout(r, 10)); // encourages separate chunks; correctness does not depend on it
    }
    await waitFor(() => (target.peers[0]?.received.length ?? 0) >= stream.length, 3000, 'stream');
    expect(target.peers[0]?.received).toEqual(stream);
    expect(proxy.stats().bytesToTarget).toBe(stream.length);

    const back = initialMessage(3n, 'zk3:3888');
    target.peers[0]!.socket.write(back);
    await waitFor(() => client.received.length >= back.length, 3000, 'reply');
    expect(client.received).toEqual(back);
  });

  it('when held by a blackhole and healed', async () => {
    proxy.setFault({ mode: 'blackhole' });
    const client = await connectPeer(proxy.port);
    const msg = initialMessage(2n, 'zk2:3888');
    client.socket.write(msg);
    await waitFor(() => proxy.stats().heldBytes > 0, 3000, 'held');
    proxy.setFault({ mode: 'pass' });
    await waitFor(() => (target.peers[0]?.received.length ?? 0) >= msg.length, 3000, 'message');
    expect(target.peers[0]?.received).toEqual(msg);
  });
});
