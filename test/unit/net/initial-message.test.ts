import { describe, expect, it } from 'vitest';
import {
  InitialMessageRewriter,
  MalformedInitialMessageError,
  PROTOCOL_VERSION_V1,
  PROTOCOL_VERSION_V2,
  encodeInitialMessage,
  formatHostPort,
  parseInitialMessage,
} from '../../../src/net/initial-message.js';

/** Built by hand, byte by byte, so the tests do not trust the encoder under test. */
function handBuilt(version: bigint, sid: bigint, address: string): Buffer {
  const addr = Buffer.from(address, 'utf8');
  const head = Buffer.alloc(20);
  head.writeBigInt64BE(version, 0);
  head.writeBigInt64BE(sid, 8);
  head.writeInt32BE(addr.length, 16);
  return Buffer.concat([head, addr]);
}

const ADVERTISE = '127.0.0.1:40001';

describe('parseInitialMessage', () => {
  it('reads a V1 message and rewrites its address with an updated length', () => {
    const msg = handBuilt(PROTOCOL_VERSION_V1, 3n, '127.0.0.1:3888');
    const r = parseInitialMessage(msg, ADVERTISE);
    expect(r).toMatchObject({ complete: true, protocolVersion: -65536n, sid: 3n, addresses: ['127.0.0.1:3888'], consumed: msg.length });
    if (!r.complete) throw new Error('unreachable');
    expect(r.rewritten).toEqual(handBuilt(PROTOCOL_VERSION_V1, 3n, ADVERTISE));
    expect(r.rewritten.readInt32BE(16)).toBe(ADVERTISE.length);
  });

  it('reads every address of a V2 message and advertises only the given one', () => {
    const msg = handBuilt(PROTOCOL_VERSION_V2, 7n, '10.0.0.1:3888|10.0.0.2:3888|[::1]:3888');
    const r = parseInitialMessage(msg, ADVERTISE);
    expect(r).toMatchObject({ complete: true, protocolVersion: -65535n, sid: 7n, addresses: ['10.0.0.1:3888', '10.0.0.2:3888', '[::1]:3888'] });
    if (!r.complete) throw new Error('unreachable');
    expect(r.rewritten).toEqual(handBuilt(PROTOCOL_VERSION_V2, 7n, ADVERTISE));
  });

  it('needs more bytes at every split point, then completes identically', () => {
    const msg = handBuilt(PROTOCOL_VERSION_V2, 2n, 'localhost:3888|127.0.0.1:3889');
    for (let cut = 0; cut < msg.length; cut++) {
      expect(parseInitialMessage(msg.subarray(0, cut), ADVERTISE)).toEqual({ complete: false });
    }
    // Arriving as three chunks, accumulated as a proxy does.
    let buffered = Buffer.alloc(0);
    const results = [msg.subarray(0, 5), msg.subarray(5, 19), msg.subarray(19)].map((chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      return parseInitialMessage(buffered, ADVERTISE).complete;
    });
    expect(results).toEqual([false, false, true]);
  });

  it('reports how many bytes it consumed when election traffic follows in the same chunk', () => {
    const msg = handBuilt(PROTOCOL_VERSION_V1, 1n, '127.0.0.1:3888');
    const after = Buffer.from([0, 0, 0, 4, 1, 2, 3, 4]);
    const r = parseInitialMessage(Buffer.concat([msg, after]), ADVERTISE);
    if (!r.complete) throw new Error('expected complete');
    expect(r.consumed).toBe(msg.length);
  });

  it('passes the old protocol (a bare non-negative sid) through untouched', () => {
    const old = Buffer.alloc(8);
    old.writeBigInt64BE(5n, 0);
    expect(parseInitialMessage(old.subarray(0, 7), ADVERTISE)).toEqual({ complete: false });
    const r = parseInitialMessage(Buffer.concat([old, Buffer.from('rest')]), ADVERTISE);
    expect(r).toMatchObject({ complete: true, protocolVersion: null, sid: 5n, addresses: [], consumed: 8 });
    if (!r.complete) throw new Error('unreachable');
    expect(r.rewritten).toEqual(old);
  });

  it('rejects unknown versions and unreasonable lengths as ZooKeeper does', () => {
    expect(() => parseInitialMessage(handBuilt(-1n, 1n, 'a:1'), ADVERTISE)).toThrow(MalformedInitialMessageError);
    const zero = handBuilt(PROTOCOL_VERSION_V1, 1n, '');
    expect(() => parseInitialMessage(zero, ADVERTISE)).toThrow(/unreasonable address length 0/);
    const huge = handBuilt(PROTOCOL_VERSION_V1, 1n, 'x');
    huge.writeInt32BE(2049, 16);
    expect(() => parseInitialMessage(huge, ADVERTISE)).toThrow(/2049/);
  });

  it('keeps multi-byte UTF-8 lengths in bytes, not characters', () => {
    const r = parseInitialMessage(handBuilt(PROTOCOL_VERSION_V1, 1n, 'hôst:1'), 'ĥost:2');
    if (!r.complete) throw new Error('expected complete');
    expect(r.addresses).toEqual(['hôst:1']);
    expect(r.rewritten.readInt32BE(16)).toBe(Buffer.byteLength('ĥost:2'));
  });
});

describe('InitialMessageRewriter', () => {
  it('holds pieces until the message is complete, then forwards it rewritten with what followed', () => {
    const msg = handBuilt(PROTOCOL_VERSION_V2, 4n, 'a:1|b:2');
    const stream = Buffer.concat([msg, Buffer.from('tail')]);
    const r = new InitialMessageRewriter(ADVERTISE);
    expect(r.feed(stream.subarray(0, 10))).toBeUndefined();
    expect(r.feed(stream.subarray(10, 22))).toBeUndefined();
    expect(r.feed(stream.subarray(22))).toEqual(Buffer.concat([handBuilt(PROTOCOL_VERSION_V2, 4n, ADVERTISE), Buffer.from('tail')]));
  });

  it('forwards a malformed start untouched', () => {
    const junk = Buffer.alloc(30, 0xff);
    const r = new InitialMessageRewriter(ADVERTISE);
    expect(r.feed(junk.subarray(0, 4))).toBeUndefined(); // not yet 8 bytes: cannot judge
    expect(r.feed(junk.subarray(4))).toEqual(junk);
  });
});

describe('helpers', () => {
  it('encodeInitialMessage matches the hand-built layout', () => {
    expect(encodeInitialMessage(PROTOCOL_VERSION_V2, 9n, ['a:1', 'b:2'])).toEqual(handBuilt(PROTOCOL_VERSION_V2, 9n, 'a:1|b:2'));
  });

  it('formatHostPort brackets IPv6 literals', () => {
    expect(formatHostPort('127.0.0.1', 1)).toBe('127.0.0.1:1');
    expect(formatHostPort('::1', 2)).toBe('[::1]:2');
  });
});
