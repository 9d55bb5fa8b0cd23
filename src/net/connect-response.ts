/**
 * The session a client link carries, read from ZooKeeper's ConnectResponse: the first frame a server sends on a
 * client connection (ClientCnxn / NIOServerCnxn.finishSessionInit):
 *
 *   int32 frame length
 *   int32 protocol version   0
 *   int32 negotiated timeout 0 when the server refuses the session (expired, or a bad password)
 *   int64 session id         0 when refused
 *   buffer password, bool read-only (not needed here)
 *
 * The link daemon sees every byte of a contender's connections, so this tells it which session each contender
 * owns without asking the program: the one way to map a foreign client's znodes to the contender that runs it.
 */

const HEAD_BYTES = 4 + 4 + 4 + 8;
/** The password is 16 bytes today; anything this far off is not a ConnectResponse. */
const MAX_FRAME = 1024;

export type ConnectResponseResult =
  | { readonly complete: false }
  /** `session` null: not a ConnectResponse, or the server refused the session. */
  | { readonly complete: true; readonly session: string | null; readonly timeoutMs: number };

/** Reads the head of the first frame of `buffered` (everything received on the connection so far). */
export function parseConnectResponse(buffered: Buffer): ConnectResponseResult {
  if (buffered.length < HEAD_BYTES) return { complete: false };
  const length = buffered.readInt32BE(0);
  const protocol = buffered.readInt32BE(4);
  const timeoutMs = buffered.readInt32BE(8);
  const id = buffered.readBigUInt64BE(12);
  if (length < HEAD_BYTES - 4 || length > MAX_FRAME || protocol !== 0 || timeoutMs <= 0 || id === 0n) {
    return { complete: true, session: null, timeoutMs: 0 };
  }
  return { complete: true, session: id.toString(16), timeoutMs };
}

/** Feeds a connection's first bytes to the parser and reports the session once; ignores everything after. */
export class ConnectResponseSniffer {
  private buffered: Buffer | undefined = Buffer.alloc(0);

  constructor(private readonly onSession: (session: string, timeoutMs: number) => void) {}

  feed(chunk: Buffer): void {
    if (this.buffered === undefined) return;
    this.buffered = Buffer.concat([this.buffered, chunk.subarray(0, HEAD_BYTES)]);
    const r = parseConnectResponse(this.buffered);
    if (!r.complete) return;
    this.buffered = undefined;
    if (r.session !== null) this.onSession(r.session, r.timeoutMs);
  }
}
