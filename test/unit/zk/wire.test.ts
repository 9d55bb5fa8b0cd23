import { describe, expect, it } from 'vitest';
import { FrameSplitter, JuteReader, JuteWriter, OP, PING_XID, STAT_BYTES } from '../../../src/zk/wire.js';

/**
 * The jute encoding against bytes written by hand from ZooKeeper's BinaryOutputArchive/BinaryInputArchive: ints and
 * longs big-endian two's complement, a bool one byte, a buffer an int length (-1 for null) then its bytes, a string
 * the buffer of its UTF-8, a frame a 4-byte big-endian length then the body.
 */

/** Bytes from hex, spaces ignored. */
const bytes = (hex: string): Buffer => Buffer.from(hex.replace(/\s+/g, ''), 'hex');
const hexOf = (b: Buffer): string => b.toString('hex');

describe('op codes', () => {
  it('are ZooDefs.OpCode values, and a ping goes with xid -2', () => {
    expect(OP).toEqual({
      create: 1,
      delete: 2,
      getData: 4,
      setData: 5,
      sync: 9,
      ping: 11,
      check: 13,
      multi: 14,
      closeSession: -11,
      error: -1,
    });
    expect(PING_XID).toBe(-2);
  });

  it('a Stat is six longs and five ints', () => {
    expect(STAT_BYTES).toBe(68);
  });
});

describe('JuteWriter', () => {
  it('writes ints big-endian, negatives in two’s complement', () => {
    const f = new JuteWriter().int(0).int(1).int(-1).int(-110).int(0x7fffffff).int(-0x80000000).frame();
    expect(hexOf(f)).toBe(
      [
        '00000018', // frame length: 24
        '00000000', // 0
        '00000001', // 1
        'ffffffff', // -1
        'ffffff92', // -110 (NODEEXISTS)
        '7fffffff', // the largest int
        '80000000', // the smallest int
      ].join(''),
    );
  });

  it('writes longs as eight bytes', () => {
    const f = new JuteWriter().long(0n).long(0x100000005n).long(-1n).long(-0x8000000000000000n).frame();
    expect(hexOf(f)).toBe(
      [
        '00000020', // frame length: 32
        '0000000000000000', // 0
        '0000000100000005', // zxid 0x100000005: epoch 1, counter 5
        'ffffffffffffffff', // -1
        '8000000000000000', // the smallest long
      ].join(''),
    );
  });

  it('writes a bool as one byte', () => {
    expect(hexOf(new JuteWriter().bool(true).bool(false).frame())).toBe(
      [
        '00000002', // frame length: 2
        '01', // true
        '00', // false
      ].join(''),
    );
  });

  it('writes buffers with their length, null as -1 and no bytes', () => {
    const f = new JuteWriter()
      .buffer(null)
      .buffer(Buffer.alloc(0))
      .buffer(Buffer.from([1, 2, 0xff]))
      .frame();
    expect(hexOf(f)).toBe(
      [
        '0000000f', // frame length: 15
        'ffffffff', // null: length -1, nothing after it
        '00000000', // empty: length 0
        '00000003', // three bytes:
        '0102ff',
      ].join(''),
    );
  });

  it('writes strings as the buffer of their UTF-8, not of their UTF-16 code units', () => {
    const f = new JuteWriter().string('/é😀').string('').frame();
    expect(hexOf(f)).toBe(
      [
        '0000000f', // frame length: 15
        '00000007', // 7 bytes of UTF-8 (3 code points, 4 UTF-16 units):
        '2f', // '/'
        'c3a9', // 'é' U+00E9
        'f09f9880', // '😀' U+1F600
        '00000000', // '': length 0
      ].join(''),
    );
  });

  it('frames an empty body as a zero length', () => {
    expect(hexOf(new JuteWriter().frame())).toBe('00000000');
  });
});

describe('JuteReader', () => {
  it('reads ints, longs and bools', () => {
    const r = new JuteReader(
      bytes(
        [
          '00000001', // 1
          'ffffffff', // -1
          'ffffff92', // -110
          '80000000', // the smallest int
          '0000000100000005', // 0x100000005
          'ffffffffffffff90', // -112
          '01', // true
          '00', // false
          '02', // true too: any byte but 0 (Java's DataInput.readBoolean)
        ].join(''),
      ),
    );
    expect([r.int(), r.int(), r.int(), r.int()]).toEqual([1, -1, -110, -0x80000000]);
    expect([r.long(), r.long()]).toEqual([0x100000005n, -112n]);
    expect([r.bool(), r.bool(), r.bool()]).toEqual([true, false, true]);
    expect(r.remaining).toBe(0);
  });

  it('reads buffers and strings: -1 as null, UTF-8 as text', () => {
    const r = new JuteReader(
      bytes(
        [
          'ffffffff', // null buffer
          '00000000', // empty buffer
          '00000003', // three bytes:
          '0102ff',
          'ffffffff', // null string
          '00000007', // '/é😀' in 7 bytes of UTF-8:
          '2fc3a9f09f9880',
          '0000002a', // 42: what follows is read from the right place
        ].join(''),
      ),
    );
    expect(r.buffer()).toBeNull();
    expect(r.buffer()).toEqual(Buffer.alloc(0));
    expect(r.buffer()).toEqual(Buffer.from([1, 2, 0xff]));
    expect(r.string()).toBeNull();
    expect(r.string()).toBe('/é😀');
    expect(r.int()).toBe(42);
    expect(r.remaining).toBe(0);
  });

  it('skips bytes and counts what remains', () => {
    const r = new JuteReader(bytes('00000001 00000002 00000003'));
    expect(r.remaining).toBe(12);
    r.skip(4);
    expect(r.remaining).toBe(8);
    expect(r.int()).toBe(2);
  });

  it('throws when a read goes past the end of the frame', () => {
    expect(() => new JuteReader(bytes('000000')).int()).toThrow(RangeError);
    expect(() => new JuteReader(bytes('00000000000000')).long()).toThrow(RangeError);
    expect(() => new JuteReader(Buffer.alloc(0)).bool()).toThrow(RangeError);
    // A buffer that says 4 bytes and has 3.
    expect(() => new JuteReader(bytes('00000004 616263')).buffer()).toThrow(RangeError);
    expect(() => new JuteReader(bytes('00000004 616263')).string()).toThrow(RangeError);
    expect(() => new JuteReader(bytes('0000')).skip(3)).toThrow(RangeError);
    const r = new JuteReader(bytes('00000001'));
    r.int();
    expect(() => r.int()).toThrow(RangeError);
  });

  it('refuses a buffer length below -1 (a corrupt frame, as jute’s checkLength says), not read as null', () => {
    expect(() => new JuteReader(bytes('fffffffe')).buffer()).toThrow(RangeError);
    expect(() => new JuteReader(bytes('80000000')).string()).toThrow(RangeError);
  });
});

describe('FrameSplitter', () => {
  // Two frames: a 5-byte body, then a 2-byte one.
  const first = bytes('00000005 0102030405');
  const second = bytes('00000002 aabb');

  it('returns nothing until a frame is whole, then its body', () => {
    const s = new FrameSplitter();
    expect(s.push(first.subarray(0, 2))).toEqual([]); // half the length
    expect(s.push(first.subarray(2, 6))).toEqual([]); // the length and one byte of the body
    expect(s.push(first.subarray(6))).toEqual([bytes('0102030405')]);
  });

  it('takes a frame fed one byte at a time', () => {
    const s = new FrameSplitter();
    const out: Buffer[] = [];
    for (let i = 0; i < first.length; i++) out.push(...s.push(first.subarray(i, i + 1)));
    expect(out).toEqual([bytes('0102030405')]);
  });

  it('returns both frames of one chunk in order, and keeps a third one’s start for the next chunk', () => {
    const s = new FrameSplitter();
    const third = bytes('00000001 7f');
    expect(s.push(Buffer.concat([first, second, third.subarray(0, 3)]))).toEqual([bytes('0102030405'), bytes('aabb')]);
    expect(s.push(third.subarray(3))).toEqual([bytes('7f')]);
  });

  it('returns an empty body for a zero length', () => {
    expect(new FrameSplitter().push(bytes('00000000 00000001 09'))).toEqual([Buffer.alloc(0), bytes('09')]);
  });

  it('throws on a negative length or one over 64 MiB', () => {
    expect(() => new FrameSplitter().push(bytes('ffffffff 00'))).toThrow(RangeError);
    expect(() => new FrameSplitter().push(bytes('80000000'))).toThrow(RangeError);
    expect(() => new FrameSplitter().push(bytes('04000001'))).toThrow(/a frame of 67108865 bytes/);
    // 64 MiB itself is allowed: it waits for the body.
    expect(new FrameSplitter().push(bytes('04000000 00'))).toEqual([]);
  });
});
