/**
 * ZooKeeper's quorum InitialMessage, the first bytes a server sends on an election connection it opened
 * (QuorumCnxManager.initiateConnection):
 *
 *   int64 protocol version   -65536 (V1, since 3.5) or -65535 (V2, since 3.6: several addresses joined by `|`)
 *   int64 sid
 *   int32 length             ZooKeeper refuses <= 0 or > 2048
 *   UTF-8 `host:port[|host:port…]`
 *
 * A non-negative first int64 is the pre-3.5 form: the sid alone, no address. The receiver connects back to the
 * advertised address when it wins the tie-break (higher sid), which is why a link proxy rewrites it.
 */

export const PROTOCOL_VERSION_V1 = -65536n;
export const PROTOCOL_VERSION_V2 = -65535n;
/** ZooKeeper's QuorumCnxManager.maxBuffer: the receiver closes the connection on a longer address list. */
export const MAX_ADDRESS_BYTES = 2048;

const HEADER_BYTES = 8 + 8 + 4;

export type InitialMessageResult =
  | { readonly complete: false }
  | {
      readonly complete: true;
      /** The first int64 as sent; `null` for the old protocol (the first int64 was the sid). */
      readonly protocolVersion: bigint | null;
      readonly sid: bigint;
      /** As advertised by the sender; empty for the old protocol. */
      readonly addresses: readonly string[];
      /** Bytes of `buffered` that belong to the message; what follows is ordinary election traffic. */
      readonly consumed: number;
      /** The message to send instead (the original bytes for the old protocol). */
      readonly rewritten: Buffer;
    };

/** The sender spoke something that is not an InitialMessage; ZooKeeper would close such a connection itself. */
export class MalformedInitialMessageError extends Error {
  override readonly name = 'MalformedInitialMessageError';
}

/** `host:port`, with IPv6 literals in brackets as ZooKeeper's NetUtils.formatInetAddr writes them. */
export function formatHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * Reads the InitialMessage at the start of `buffered` (everything received so far on the connection) and builds
 * the same message advertising only `advertise` (`host:port`). Call again with more bytes while `complete` is false.
 * Throws MalformedInitialMessageError when the bytes cannot be an InitialMessage.
 */
export function parseInitialMessage(buffered: Buffer, advertise: string): InitialMessageResult {
  if (buffered.length < 8) return { complete: false };
  const first = buffered.readBigInt64BE(0);
  if (first >= 0n) {
    return { complete: true, protocolVersion: null, sid: first, addresses: [], consumed: 8, rewritten: buffered.subarray(0, 8) };
  }
  if (first !== PROTOCOL_VERSION_V1 && first !== PROTOCOL_VERSION_V2) {
    throw new MalformedInitialMessageError(`unknown quorum protocol version ${first}`);
  }
  if (buffered.length < HEADER_BYTES) return { complete: false };
  const sid = buffered.readBigInt64BE(8);
  const length = buffered.readInt32BE(16);
  if (length <= 0 || length > MAX_ADDRESS_BYTES) {
    throw new MalformedInitialMessageError(`unreasonable address length ${length} from sid ${sid}`);
  }
  const consumed = HEADER_BYTES + length;
  if (buffered.length < consumed) return { complete: false };

  const addresses = buffered.toString('utf8', HEADER_BYTES, consumed).split('|');
  const address = Buffer.from(advertise, 'utf8');
  const rewritten = Buffer.allocUnsafe(HEADER_BYTES + address.length);
  buffered.copy(rewritten, 0, 0, 16); // version and sid unchanged
  rewritten.writeInt32BE(address.length, 16);
  address.copy(rewritten, HEADER_BYTES);
  return { complete: true, protocolVersion: first, sid, addresses, consumed, rewritten };
}

/** Builds an InitialMessage; for tests and tools that speak to the election port. */
export function encodeInitialMessage(protocolVersion: bigint, sid: bigint, addresses: readonly string[]): Buffer {
  const address = Buffer.from(addresses.join('|'), 'utf8');
  const out = Buffer.allocUnsafe(HEADER_BYTES + address.length);
  out.writeBigInt64BE(protocolVersion, 0);
  out.writeBigInt64BE(sid, 8);
  out.writeInt32BE(address.length, 16);
  address.copy(out, HEADER_BYTES);
  return out;
}

/**
 * Rewrites the InitialMessage at the start of a stream fed chunk by chunk. `feed` returns undefined while the
 * message is incomplete, then the bytes to forward (rewritten message plus whatever followed it in the chunk);
 * after that the stream is no longer its business. A malformed start is forwarded untouched.
 */
export class InitialMessageRewriter {
  private buffered: Buffer = Buffer.alloc(0);

  constructor(private readonly advertise: string) {}

  feed(chunk: Buffer): Buffer | undefined {
    const buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    try {
      const msg = parseInitialMessage(buffered, this.advertise);
      if (!msg.complete) {
        this.buffered = buffered;
        return undefined;
      }
      return msg.consumed === buffered.length ? msg.rewritten : Buffer.concat([msg.rewritten, buffered.subarray(msg.consumed)]);
    } catch (err) {
      if (err instanceof MalformedInitialMessageError) return buffered; // the target refuses such a peer itself
      throw err;
    }
  }
}
