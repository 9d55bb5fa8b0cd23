/**
 * The few pieces of ZooKeeper's client protocol (jute records, each frame prefixed with its length) that the multi
 * client speaks: ConnectRequest/Response, ping, closeSession, getData, sync and multi. Field order follows zookeeper.jute.
 */

export const OP = {
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
} as const;
export const PING_XID = -2;

/** Appends jute fields to a growing buffer; `frame()` prefixes the length. */
export class JuteWriter {
  private parts: Buffer[] = [];

  int(v: number): this {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v);
    this.parts.push(b);
    return this;
  }

  long(v: bigint): this {
    const b = Buffer.alloc(8);
    b.writeBigInt64BE(v);
    this.parts.push(b);
    return this;
  }

  bool(v: boolean): this {
    this.parts.push(Buffer.from([v ? 1 : 0]));
    return this;
  }

  /** A jute buffer: its length, then its bytes (-1 for none). */
  buffer(v: Buffer | null): this {
    if (v === null) return this.int(-1);
    this.int(v.length);
    this.parts.push(v);
    return this;
  }

  string(v: string): this {
    return this.buffer(Buffer.from(v, 'utf8'));
  }

  frame(): Buffer {
    const body = Buffer.concat(this.parts);
    const head = Buffer.alloc(4);
    head.writeInt32BE(body.length);
    return Buffer.concat([head, body]);
  }
}

/** Reads jute fields from one frame's body; reading past its end throws. */
export class JuteReader {
  private at = 0;
  constructor(private readonly b: Buffer) {}

  get remaining(): number {
    return this.b.length - this.at;
  }

  int(): number {
    const v = this.b.readInt32BE(this.at);
    this.at += 4;
    return v;
  }

  long(): bigint {
    const v = this.b.readBigInt64BE(this.at);
    this.at += 8;
    return v;
  }

  bool(): boolean {
    const v = this.b.readUInt8(this.at) !== 0;
    this.at += 1;
    return v;
  }

  /** A jute buffer: -1 is null; any other negative length is a corrupt frame (jute's own reader refuses it too). */
  buffer(): Buffer | null {
    const n = this.int();
    if (n === -1) return null;
    if (n < 0 || n > this.remaining) throw new RangeError(`a jute buffer of ${n} bytes in ${this.remaining}`);
    const v = this.b.subarray(this.at, this.at + n);
    this.at += n;
    return v;
  }

  string(): string | null {
    return this.buffer()?.toString('utf8') ?? null;
  }

  skip(bytes: number): void {
    if (bytes > this.remaining) throw new RangeError(`skipping ${bytes} bytes of ${this.remaining}`);
    this.at += bytes;
  }
}

/** A Stat record: six longs, five ints (zookeeper.jute). */
export const STAT_BYTES = 8 * 6 + 4 * 5;

/** Splits a stream into frames as they complete; keeps the rest for the next chunk. */
export class FrameSplitter {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Buffer[] = [];
    while (this.pending.length >= 4) {
      const n = this.pending.readInt32BE(0);
      if (n < 0 || n > 64 * 1024 * 1024) throw new RangeError(`a frame of ${n} bytes`);
      if (this.pending.length < 4 + n) break;
      frames.push(this.pending.subarray(4, 4 + n));
      this.pending = this.pending.subarray(4 + n);
    }
    return frames;
  }
}
