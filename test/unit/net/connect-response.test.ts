import { describe, expect, it } from 'vitest';
import { ConnectResponseSniffer, parseConnectResponse } from '../../../src/net/connect-response.js';

/** A ConnectResponse frame as a server writes it: length, protocol 0, timeout, session id, 16-byte password, read-only. */
function frame(timeoutMs: number, session: bigint): Buffer {
  const body = Buffer.alloc(4 + 4 + 8 + 4 + 16 + 1);
  body.writeInt32BE(0, 0);
  body.writeInt32BE(timeoutMs, 4);
  body.writeBigUInt64BE(session, 8);
  body.writeInt32BE(16, 16);
  const len = Buffer.alloc(4);
  len.writeInt32BE(body.length);
  return Buffer.concat([len, body]);
}

describe('parseConnectResponse', () => {
  it('reads the granted session and timeout', () => {
    expect(parseConnectResponse(frame(4000, 0x100007595920000n))).toEqual({
      complete: true,
      session: '100007595920000',
      timeoutMs: 4000,
    });
  });

  it('waits for the head, and ignores a refused session or bytes that are no ConnectResponse', () => {
    expect(parseConnectResponse(frame(4000, 1n).subarray(0, 19))).toEqual({ complete: false });
    expect(parseConnectResponse(frame(0, 0n))).toMatchObject({ complete: true, session: null });
    expect(parseConnectResponse(Buffer.from('imok\n'.repeat(5)))).toMatchObject({ complete: true, session: null });
  });
});

describe('ConnectResponseSniffer', () => {
  it('reports the session once however the bytes are cut, and nothing after the first frame', () => {
    const seen: string[] = [];
    const sniffer = new ConnectResponseSniffer((s) => seen.push(s));
    const bytes = Buffer.concat([frame(2000, 0xabcn), frame(2000, 0xdefn)]);
    for (let i = 0; i < bytes.length; i += 3) sniffer.feed(bytes.subarray(i, i + 3));
    expect(seen).toEqual(['abc']);
  });
});
