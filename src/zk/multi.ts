/**
 * ZooKeeper's multi (one transaction of checks, creates, deletes and sets: all happen or none) for the few steps
 * that need it, such as the scheduler's assignment (create the assignment, delete the job). The native `zookeeper`
 * package has no multi, so this client speaks the protocol's multi itself (src/zk/wire.ts), on a session of its
 * own: connect, multi, getData (for the reads that prepare a multi), ping, close, and nothing else. Everything else
 * stays on the native client.
 *
 * Why not node-zookeeper-client, which has transaction(): it worked, but loading it cost a leader 9 MB of RSS (its
 * whole protocol table), a sixth of a worker's budget, for one request type whose wire format is small and fixed.
 */
import { formatDuration } from '../duration.js';
import { connect as netConnect, type Socket } from 'node:net';
import { normalizeSessionId } from './session-id.js';
import { ZkError, zkErrorFromRc } from './errors.js';
import { FrameSplitter, JuteReader, JuteWriter, OP, PING_XID, STAT_BYTES } from './wire.js';
import { parseConnectString } from '../connect-string.js';
import { monotonicMs } from '../monotonic.js';

export type MultiOp =
  /** Holds only if the znode exists (and has `version`, unless -1). */
  | { readonly op: 'check'; readonly path: string; readonly version?: number }
  | { readonly op: 'create'; readonly path: string; readonly data: string }
  | { readonly op: 'delete'; readonly path: string; readonly version?: number }
  | { readonly op: 'set'; readonly path: string; readonly data: string; readonly version?: number };

/** A ZkError's message without the `op path: ` head its constructor puts in front (a path may hold a colon). */
function detail(e: ZkError): string {
  const head = `${e.op}${e.path ? ` ${e.path}` : ''}: `;
  return e.message.startsWith(head) ? e.message.slice(head.length) : e.message;
}

/** A multi that did not apply: `index` is the op that failed (its code is the error's). */
export class MultiError extends ZkError {
  constructor(
    base: ZkError,
    readonly index: number | null,
  ) {
    super(base.code, base.rc, base.op, base.path, detail(base));
    this.name = 'MultiError';
  }
}

export interface MultiOptions {
  readonly connect: string;
  readonly sessionTimeoutMs: number;
  /** How long a commit waits for a session before it fails with CONNECTIONLOSS (the caller decides to retry). */
  readonly connectTimeoutMs: number;
}

const OPEN_ACL = { perms: 31, scheme: 'world', id: 'anyone' } as const;
const RC_CONNECTIONLOSS = -4;
const RC_CLOSING = -116;

interface Pending {
  resolve(reply: JuteReader, err: number): void;
  reject(e: ZkError): void;
}

/** One connection and the session it carries; gone for good when the connection drops (a new one is opened). */
interface Session {
  readonly socket: Socket;
  readonly id: bigint;
  readonly pending: Map<number, Pending>;
  readonly ping: NodeJS.Timeout;
  /** When the server last sent anything: silence for 2/3 of the session timeout means the link is dead. */
  heardAt: number;
}

function encodeOps(xid: number, ops: readonly MultiOp[]): Buffer {
  const w = new JuteWriter().int(xid).int(OP.multi);
  for (const o of ops) {
    if (o.op === 'check')
      w.int(OP.check)
        .bool(false)
        .int(-1)
        .string(o.path)
        .int(o.version ?? -1);
    else if (o.op === 'delete')
      w.int(OP.delete)
        .bool(false)
        .int(-1)
        .string(o.path)
        .int(o.version ?? -1);
    else if (o.op === 'set')
      w.int(OP.setData)
        .bool(false)
        .int(-1)
        .string(o.path)
        .buffer(Buffer.from(o.data))
        .int(o.version ?? -1);
    else
      w.int(OP.create)
        .bool(false)
        .int(-1)
        .string(o.path)
        .buffer(Buffer.from(o.data))
        .int(1)
        .int(OPEN_ACL.perms)
        .string(OPEN_ACL.scheme)
        .string(OPEN_ACL.id)
        .int(0);
  }
  return w.int(-1).bool(true).int(-1).frame();
}

/** Each op's result code (0: applied), from a MultiResponse (read up to its end marker). */
export function decodeResults(r: JuteReader): number[] {
  const codes: number[] = [];
  for (;;) {
    const type = r.int();
    const done = r.bool();
    const err = r.int();
    if (done) return codes;
    if (type === OP.error) codes.push(r.int());
    else {
      if (type === OP.create) r.string();
      else if (type === 15) {
        r.string(); // create2: the path and a stat
        r.skip(STAT_BYTES);
      } else if (type === OP.setData) r.skip(STAT_BYTES);
      codes.push(err === -1 ? 0 : err);
    }
  }
}

/**
 * Commits multis on a session of its own, opened on the first commit and again after its connection drops (the
 * old session then expires on its own: it owns no znodes). A CONNECTIONLOSS means the multi may or may not have
 * applied: the caller reads ZooKeeper to know.
 */
export class MultiClient {
  private current: Promise<Session> | null = null;
  private live: Session | null = null;
  private xid = 1;
  private closed = false;
  /** The socket of a handshake under way, for close() to cut. */
  private connecting: Socket | null = null;

  constructor(private readonly opts: MultiOptions) {}

  /**
   * The session this client's multis run in, as normalized hex; null while it has none. Unsigned, as ZooKeeper prints
   * it: the server id is the top byte, so a server id of 128 or more makes the long negative.
   */
  get sessionId(): string | null {
    return this.live ? normalizeSessionId(BigInt.asUintN(64, this.live.id).toString(16)) : null;
  }

  async commit(ops: readonly MultiOp[]): Promise<void> {
    const s = await this.session();
    const xid = this.xid++;
    const { reply, err } = await this.request(s, xid, encodeOps(xid, ops), 'multi');
    if (err !== 0) throw new MultiError(zkErrorFromRc(err, 'multi', undefined, `failed (${err})`), null);
    const codes = decodeResults(reply);
    // The failing op reports its own code; those before it 0, those after it RUNTIMEINCONSISTENCY (-2).
    const index = codes.findIndex((c) => c !== 0 && c !== -2);
    if (index < 0) return;
    const base = zkErrorFromRc(
      codes[index]!,
      'multi',
      ops[index]?.path,
      `op ${index + 1} of ${ops.length} (${ops[index]?.op}) failed (${codes[index]})`,
    );
    if (base.code === 'SESSIONEXPIRED') this.drop(s, base);
    throw new MultiError(base, index);
  }

  /**
   * A znode's data, read on this client's session. ZooKeeper answers a session's requests in order, so a read on a
   * busy session waits behind its writes; the reads that prepare a multi belong on the multi's own session. The
   * server this session is on may not have seen a change another session saw yet: NONODE can mean "not yet".
   */
  async getData(path: string): Promise<{ data: Buffer; version: number }> {
    const s = await this.session();
    const xid = this.xid++;
    const { reply, err } = await this.request(
      s,
      xid,
      new JuteWriter().int(xid).int(OP.getData).string(path).bool(false).frame(),
      'getData',
    );
    if (err !== 0) throw zkErrorFromRc(err, 'getData', path, `failed (${err})`);
    const data = Buffer.from(reply.buffer() ?? Buffer.alloc(0));
    reply.skip(8 * 4); // czxid, mzxid, ctime, mtime: the version follows
    return { data, version: reply.int() };
  }

  /** Brings this session's server up to date with the leader (ZooKeeper's sync), so its reads see what others saw. */
  async sync(path: string): Promise<void> {
    const s = await this.session();
    const xid = this.xid++;
    const { err } = await this.request(s, xid, new JuteWriter().int(xid).int(OP.sync).string(path).frame(), 'sync');
    if (err !== 0) throw zkErrorFromRc(err, 'sync', path, `failed (${err})`);
  }

  private request(s: Session, xid: number, frame: Buffer, op: string): Promise<{ reply: JuteReader; err: number }> {
    return new Promise<{ reply: JuteReader; err: number }>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.drop(
          s,
          zkErrorFromRc(
            RC_CONNECTIONLOSS,
            op,
            undefined,
            `no reply within ${formatDuration(this.opts.connectTimeoutMs)}`,
          ),
        );
      }, this.opts.connectTimeoutMs);
      s.pending.set(xid, {
        resolve: (r, e) => {
          clearTimeout(timer);
          resolve({ reply: r, err: e });
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      s.socket.write(frame);
    });
  }

  private session(): Promise<Session> {
    if (this.closed) return Promise.reject(zkErrorFromRc(RC_CLOSING, 'multi', undefined, 'closed'));
    this.current ??= this.open().catch((e: unknown) => {
      this.current = null;
      throw e;
    });
    return this.current;
  }

  /** A new session on the first server that grants one, trying each in turn until the connect deadline. */
  private async open(): Promise<Session> {
    const hosts = parseConnectString(this.opts.connect);
    const deadline = monotonicMs() + this.opts.connectTimeoutMs;
    let last: unknown;
    // Each server gets a share of the time, so one that is cut off or frozen does not use it all.
    const share = Math.max(300, Math.floor(this.opts.sessionTimeoutMs / Math.max(1, hosts.length)));
    for (let i = Math.floor(Math.random() * hosts.length); monotonicMs() < deadline && !this.closed; i++) {
      try {
        const s = await this.handshake(hosts[i % hosts.length]!, Math.min(deadline, monotonicMs() + share));
        if (this.closed) {
          this.drop(s, zkErrorFromRc(RC_CLOSING, 'multi', undefined, 'closed'));
          throw zkErrorFromRc(RC_CLOSING, 'multi', undefined, 'closed');
        }
        this.live = s;
        return s;
      } catch (e) {
        last = e;
        if (this.closed) break; // close() cut this handshake: CLOSED, below
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    if (this.closed) throw zkErrorFromRc(RC_CLOSING, 'multi', undefined, 'closed');
    throw zkErrorFromRc(
      RC_CONNECTIONLOSS,
      'multi',
      undefined,
      `no session with ${this.opts.connect} within ${formatDuration(this.opts.connectTimeoutMs)} ` +
        `(${(last as Error)?.message ?? 'no server tried'})`,
    );
  }

  private handshake(server: { host: string; port: number }, deadline: number): Promise<Session> {
    return new Promise<Session>((resolve, reject) => {
      const socket = netConnect(server);
      socket.setNoDelay(true);
      this.connecting = socket;
      socket.once('close', () => {
        if (this.connecting === socket) this.connecting = null;
      });
      const frames = new FrameSplitter();
      let session: Session | null = null;
      const fail = (why: string) => {
        socket.destroy();
        reject(new Error(`${server.host}:${server.port}: ${why}`));
      };
      const timer = setTimeout(() => fail('no session granted in time'), Math.max(100, deadline - monotonicMs()));
      socket.on('connect', () => {
        socket.write(
          new JuteWriter()
            .int(0)
            .long(0n)
            .int(this.opts.sessionTimeoutMs)
            .long(0n)
            .buffer(Buffer.alloc(16))
            .bool(false)
            .frame(),
        );
      });
      socket.on('data', (chunk: Buffer) => {
        let list: Buffer[];
        try {
          list = frames.push(chunk);
        } catch (e) {
          socket.destroy(e as Error);
          return;
        }
        for (const f of list) {
          const r = new JuteReader(f);
          if (!session) {
            clearTimeout(timer);
            r.int(); // protocol version
            const timeoutMs = r.int();
            const id = r.long();
            if (timeoutMs <= 0 || id === 0n) return fail('the server refused the session');
            const ping = setInterval(
              () => {
                if (!session) return;
                // A blackholed link or a frozen server keeps the socket open and says nothing: like the native
                // client, give the connection up when the pings go unanswered (the next commit opens a new session).
                if (monotonicMs() - session.heardAt > (timeoutMs * 2) / 3) {
                  this.drop(
                    session,
                    zkErrorFromRc(RC_CONNECTIONLOSS, 'multi', undefined, `${server.host}:${server.port} went silent`),
                  );
                  return;
                }
                socket.write(new JuteWriter().int(PING_XID).int(OP.ping).frame());
              },
              Math.max(100, Math.floor(timeoutMs / 3)),
            );
            ping.unref();
            session = { socket, id, pending: new Map(), ping, heardAt: monotonicMs() };
            if (this.connecting === socket) this.connecting = null;
            resolve(session);
            continue;
          }
          session.heardAt = monotonicMs();
          const xid = r.int();
          r.long(); // zxid
          const err = r.int();
          const waiting = session.pending.get(xid);
          if (!waiting) continue; // a ping's reply (there are no watches)
          session.pending.delete(xid);
          waiting.resolve(r, err);
        }
      });
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        if (!session) return fail('the connection closed before a session was granted');
        this.drop(
          session,
          zkErrorFromRc(
            RC_CONNECTIONLOSS,
            'multi',
            undefined,
            `the connection to ${server.host}:${server.port} closed`,
          ),
        );
      });
    });
  }

  /** Fails what waits on `s` and forgets it; the next commit opens a new session. */
  private drop(s: Session, why: ZkError, closeFrame?: Buffer): void {
    clearInterval(s.ping);
    for (const p of s.pending.values()) p.reject(why);
    s.pending.clear();
    if (this.live === s) {
      this.live = null;
      this.current = null;
    }
    if (!closeFrame) {
      s.socket.destroy();
      return;
    }
    // Ask the server to end the session (its ephemerals, were there any, would go at once), then hang up.
    s.socket.end(closeFrame);
    setTimeout(() => s.socket.destroy(), 1000).unref();
  }

  /** Closes the session (its end is asked of the server, not awaited); safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.connecting?.destroy();
    const s = this.live;
    if (!s) return;
    this.drop(
      s,
      zkErrorFromRc(RC_CLOSING, 'multi', undefined, 'closed'),
      new JuteWriter()
        .int(this.xid++)
        .int(OP.closeSession)
        .frame(),
    );
  }
}
