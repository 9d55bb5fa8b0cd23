import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ZkError } from '../../../src/zk/errors.js';
import { decodeResults, MultiClient, MultiError, type MultiOp } from '../../../src/zk/multi.js';
import { JuteReader } from '../../../src/zk/wire.js';

/**
 * MultiClient against a fake ZooKeeper on 127.0.0.1 that checks every byte the client sends and answers with bytes
 * written here by hand, field by field, from zookeeper.jute and the server's serialization (MultiResponse,
 * FinalRequestProcessor): ints and longs big-endian, a bool one byte, a buffer or string an int length then its bytes
 * (-1: null), each frame a 4-byte length then its body. Nothing here is built with the client's own JuteWriter.
 */

/** One frame as hex from its fields (spaces ignored); the first field is the length, checked against the rest. */
function frame(...fields: string[]): string {
  const hex = fields.join('').replace(/\s+/g, '');
  const declared = Number.parseInt(hex.slice(0, 8), 16);
  const body = (hex.length - 8) / 2;
  if (declared !== body) throw new Error(`test bug: a frame declares ${declared} bytes and has ${body}`);
  return hex;
}

// ---- Records and their pieces ----

/** MultiHeader{type -1, done true, err -1}: the end of a multi's ops, and of its results. */
const MULTI_END = 'ffffffff 01 ffffffff';

/** A Stat: six longs and five ints, each value distinct so a reader off by a field reads nonsense. */
const STAT = [
  '0000000100000002', // czxid
  '0000000100000009', // mzxid
  '0000018bcfe56800', // ctime
  '0000018bcfe5a3c0', // mtime
  '00000005', // version
  '00000007', // cversion
  '00000003', // aversion
  '0000000000000000', // ephemeralOwner (none)
  '00000006', // dataLength
  '00000002', // numChildren
  '0000000100000004', // pzxid
].join('');

const TIMEOUT_30S = '00007530'; // 30000 ms
const SESSION = '01000a3f2c490000'; // server 1's first session: sid 1 in the top byte
const SESSION_KEY = '1000a3f2c490000';

/** ConnectRequest for a new session asking for 30 s. */
const CONNECT_REQUEST = frame(
  '0000002d', // length: 45
  '00000000', // protocolVersion 0
  '0000000000000000', // lastZxidSeen 0
  TIMEOUT_30S, // timeOut
  '0000000000000000', // sessionId 0: a new session
  '00000010', // passwd: 16 bytes,
  '00000000000000000000000000000000', // all zero
  '00', // readOnly false
);

/** ConnectResponse granting `session` for `timeout` (hex int). */
function connectResponse(timeout = TIMEOUT_30S, session = SESSION): string {
  return frame(
    '00000025', // length: 37
    '00000000', // protocolVersion 0
    timeout, // timeOut granted
    session, // sessionId
    '00000010', // passwd: 16 bytes,
    '0123456789abcdeffedcba9876543210',
    '00', // readOnly false
  );
}

/** The server's answer to a session it will not renew or grant: timeout 0, session 0. */
const CONNECT_REFUSED = connectResponse('00000000', '0000000000000000');

/** ReplyHeader{xid, zxid 0x100000010, err} as hex, for replies of any length. */
const reply = (xid: string, err = '00000000') => `${xid} 0000000100000010 ${err}`;

/** A ping: RequestHeader{xid -2, type 11 (ping)}, and its answer. */
const PING = frame('00000008', 'fffffffe', '0000000b');
const PING_REPLY = frame('00000010', reply('fffffffe'));

/** sync("/") as the first request (xid 1), and its answer SyncResponse{path "/"}. */
const SYNC_ROOT = frame('0000000d', '00000001', '00000009', '00000001 2f');
const SYNC_ROOT_REPLY = frame('00000015', reply('00000001'), '00000001 2f');

// Multi ops: MultiHeader{type, done false, err -1} then the op's request record.
const CHECK_A = [
  '0000000d 00 ffffffff', // MultiHeader{13 check}
  '00000002 2f61', // path "/a"
  'ffffffff', // version -1: any
].join(''); // 19 bytes
const CREATE_A_B_X = [
  '00000001 00 ffffffff', // MultiHeader{1 create}
  '00000004 2f612f62', // path "/a/b"
  '00000001 78', // data "x"
  '00000001', // acl: a vector of one ACL,
  '0000001f', //   perms 31 (ALL)
  '00000005 776f726c64', //   scheme "world"
  '00000006 616e796f6e65', //   id "anyone"
  '00000000', // flags 0: persistent
].join(''); // 53 bytes
const DELETE_A_C = [
  '00000002 00 ffffffff', // MultiHeader{2 delete}
  '00000004 2f612f63', // path "/a/c"
  'ffffffff', // version -1: any
].join(''); // 21 bytes

/** multi([check /a, create /a/b "x", delete /a/c]) as the first request (xid 1). */
const THREE_OPS: MultiOp[] = [
  { op: 'check', path: '/a' },
  { op: 'create', path: '/a/b', data: 'x' },
  { op: 'delete', path: '/a/c' },
];
const THREE_OPS_REQUEST = frame(
  '0000006e', // length: 110
  '00000001 0000000e', // RequestHeader{xid 1, type 14 multi}
  CHECK_A,
  CREATE_A_B_X,
  DELETE_A_C,
  MULTI_END,
);

/** A failed multi's answer to THREE_OPS: an ErrorResult per op, MultiHeader{-1, false, code} then int code. */
function threeOpsFailed(first: string, second: string, third: string): string {
  return frame(
    '00000040', // length: 64
    reply('00000001'), // xid 1, err 0: the multi ran; its results tell
    `ffffffff 00 ${first} ${first}`,
    `ffffffff 00 ${second} ${second}`,
    `ffffffff 00 ${third} ${third}`,
    MULTI_END,
  );
}

const OK = '00000000';
const RUNTIMEINCONSISTENCY = 'fffffffe'; // -2
const NONODE = 'ffffff9b'; // -101
const BADVERSION = 'ffffff99'; // -103
const NODEEXISTS = 'ffffff92'; // -110
const SESSIONEXPIRED = 'ffffff90'; // -112

// ---- The fake server ----

/** Values in arrival order; take() waits for the next one, failing after 2 s rather than at the test's timeout. */
class Inbox<T> {
  private readonly items: T[] = [];
  private waiter: ((v: T) => void) | null = null;

  put(v: T): void {
    const w = this.waiter;
    this.waiter = null;
    if (w) w(v);
    else this.items.push(v);
  }

  get size(): number {
    return this.items.length;
  }

  take(what: string): Promise<T> {
    if (this.items.length > 0) return Promise.resolve(this.items.shift()!);
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new Error(`no ${what} within 2 s`));
      }, 2000);
      this.waiter = (v) => {
        clearTimeout(timer);
        resolve(v);
      };
    });
  }
}

/** One client connection as the fake server sees it: whole frames (length included) as hex. */
class Conn {
  private pending = Buffer.alloc(0);
  private readonly frames = new Inbox<string>();
  /** When set, pings are answered here and counted instead of being handed to read(). */
  answerPings = false;
  private pingsAnswered = 0;
  private pingWaiters: { n: number; resolve: () => void }[] = [];
  /** The client ended its side (a FIN). */
  readonly ended: Promise<void>;
  readonly closed: Promise<void>;

  constructor(readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.pending = Buffer.concat([this.pending, chunk]);
      while (this.pending.length >= 4) {
        const n = this.pending.readUInt32BE(0);
        if (this.pending.length < 4 + n) break;
        const f = this.pending.subarray(0, 4 + n).toString('hex');
        this.pending = this.pending.subarray(4 + n);
        if (this.answerPings && f === PING) {
          this.write(PING_REPLY);
          this.pingsAnswered++;
          for (const w of this.pingWaiters.filter((x) => x.n <= this.pingsAnswered)) w.resolve();
          this.pingWaiters = this.pingWaiters.filter((x) => x.n > this.pingsAnswered);
        } else this.frames.put(f);
      }
    });
    socket.on('error', () => undefined);
    this.ended = new Promise((resolve) => socket.once('end', () => resolve()));
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
  }

  read(): Promise<string> {
    return this.frames.take('frame from the client');
  }

  /** Resolves once `n` pings have been answered (answerPings on); fails if the client hangs up first. */
  pinged(n: number): Promise<void> {
    if (this.pingsAnswered >= n) return Promise.resolve();
    const reached = new Promise<void>((resolve) => this.pingWaiters.push({ n, resolve }));
    const hungUp = this.closed.then(() => {
      throw new Error(`the client hung up after ${this.pingsAnswered} answered pings`);
    });
    return within(Promise.race([reached, hungUp]), `${n} answered pings`);
  }

  /** Frames received and not read. */
  get unread(): number {
    return this.frames.size;
  }

  write(hex: string): void {
    this.socket.write(Buffer.from(hex.replace(/\s+/g, ''), 'hex'));
  }
}

class FakeZk {
  private readonly conns = new Inbox<Conn>();
  private readonly all: Conn[] = [];

  private constructor(private readonly server: Server) {
    server.on('connection', (s) => {
      const c = new Conn(s);
      this.all.push(c);
      this.conns.put(c);
    });
  }

  static async start(): Promise<FakeZk> {
    const server = createServer();
    const zk = new FakeZk(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return zk;
  }

  get connect(): string {
    const a = this.server.address();
    if (a === null || typeof a === 'string') throw new Error('not listening');
    return `127.0.0.1:${a.port}`;
  }

  /** How many connections the client has opened so far. */
  get accepted(): number {
    return this.all.length;
  }

  accept(): Promise<Conn> {
    return this.conns.take('connection');
  }

  async stop(): Promise<void> {
    for (const c of this.all) c.socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let zk: FakeZk | null = null;
let client: MultiClient | null = null;

afterEach(async () => {
  client?.close();
  client = null;
  await zk?.stop();
  zk = null;
});

async function start(connectTimeoutMs = 5000): Promise<{ zk: FakeZk; client: MultiClient }> {
  zk = await FakeZk.start();
  client = new MultiClient({ connect: zk.connect, sessionTimeoutMs: 30_000, connectTimeoutMs });
  return { zk, client };
}

/** The handshake, checked byte for byte, granting `timeout`; the connection carrying the new session. */
async function handshake(server: FakeZk, timeout = TIMEOUT_30S, session = SESSION): Promise<Conn> {
  const conn = await server.accept();
  expect(await conn.read()).toBe(CONNECT_REQUEST);
  conn.write(connectResponse(timeout, session));
  return conn;
}

/** A session opened by sync("/") (xid 1), so the next request has xid 2. */
async function openSession(c: MultiClient, server: FakeZk, timeout = TIMEOUT_30S): Promise<Conn> {
  const synced = c.sync('/');
  const conn = await handshake(server, timeout);
  expect(await conn.read()).toBe(SYNC_ROOT);
  conn.write(SYNC_ROOT_REPLY);
  await synced;
  return conn;
}

/** `p`, or a failure naming `what` when it takes more than 3 s (rather than the test's whole timeout). */
function within<T>(p: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no ${what} within 3 s`)), 3000);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** What a promise rejected with (fails the test when it resolves, or does neither within 3 s). */
async function rejection(p: Promise<unknown>): Promise<unknown> {
  return within(
    p.then(
      () => {
        throw new Error('expected a rejection');
      },
      (e: unknown) => e,
    ),
    'rejection',
  );
}

describe('MultiClient: the session', () => {
  it('opens a session with a ConnectRequest on the first request, and keeps the granted session id', async () => {
    const { zk, client } = await start();
    expect(client.sessionId).toBeNull();
    await openSession(client, zk);
    expect(client.sessionId).toBe(SESSION_KEY);
    expect(zk.accepted).toBe(1);
  });

  it('gives a session id with the top bit set (a server id of 128 or more) as unsigned hex', async () => {
    const { zk, client } = await start();
    const synced = client.sync('/');
    const conn = await handshake(zk, TIMEOUT_30S, 'c800000012340000'); // sid 200
    expect(await conn.read()).toBe(SYNC_ROOT);
    conn.write(SYNC_ROOT_REPLY);
    await synced;
    expect(client.sessionId).toBe('c800000012340000');
  });

  it('fails with CONNECTIONLOSS when the server refuses every session until the connect deadline', async () => {
    const { zk, client } = await start(500);
    const failed = rejection(client.commit(THREE_OPS));
    const over = failed.then(() => null);
    // Each attempt is a new connection, answered with timeout 0 and session 0, until the client gives up.
    for (;;) {
      const conn = await Promise.race([zk.accept(), over]);
      if (!conn) break;
      expect(await conn.read()).toBe(CONNECT_REQUEST);
      conn.write(CONNECT_REFUSED);
    }
    const e = await failed;
    expect(e).toBeInstanceOf(ZkError);
    expect(e).toMatchObject({ code: 'CONNECTIONLOSS', rc: -4 });
    expect((e as Error).message).toMatch(/refused the session/);
    expect(zk.accepted).toBeGreaterThanOrEqual(1);
    expect(client.sessionId).toBeNull();
  });
});

describe('decodeResults', () => {
  const results = (...fields: string[]) => new JuteReader(Buffer.from(fields.join('').replace(/\s+/g, ''), 'hex'));

  it('gives one code per result, reading each result’s record to the end marker and no further', () => {
    const r = results(
      '0000000d 00 00000000', // check: no body
      '00000001 00 00000000', // create:
      '00000004 2f612f62', //   CreateResponse: path "/a/b"
      '00000005 00 00000000', // setData:
      STAT, //   SetDataResponse: stat
      '00000002 00 00000000', // delete: no body
      '0000000f 00 00000000', // create2:
      '00000004 2f612f63', //   Create2Response: path "/a/c",
      STAT, //   stat
      '0000000d 00 00000000', // check
      MULTI_END,
    );
    expect(decodeResults(r)).toEqual([0, 0, 0, 0, 0, 0]);
    expect(r.remaining).toBe(0);
  });

  it('gives an ErrorResult’s code from its ErrorResponse', () => {
    const r = results(
      `ffffffff 00 ${OK} ${OK}`, // MultiHeader{-1 error, false, 0}, ErrorResponse{0}
      `ffffffff 00 ${NODEEXISTS} ${NODEEXISTS}`,
      `ffffffff 00 ${RUNTIMEINCONSISTENCY} ${RUNTIMEINCONSISTENCY}`,
      MULTI_END,
    );
    expect(decodeResults(r)).toEqual([0, -110, -2]);
    expect(r.remaining).toBe(0);
  });
});

describe('MultiClient.commit', () => {
  it('sends each op kind as its MultiHeader and request record, and resolves when every result applied', async () => {
    const { zk, client } = await start();
    const committed = client.commit([
      { op: 'check', path: '/a' },
      { op: 'create', path: '/a/b', data: 'hé' },
      { op: 'set', path: '/a', data: 'x', version: 3 },
      { op: 'delete', path: '/a/c', version: 7 },
      { op: 'delete', path: '/a/d' },
      { op: 'check', path: '/a/b', version: 0 },
    ]);
    const conn = await handshake(zk);
    expect(await conn.read()).toBe(
      frame(
        '000000b2', // length: 178
        '00000001', // RequestHeader: xid 1
        '0000000e', //   type 14: multi
        '0000000d 00 ffffffff', // MultiHeader{13 check, done false, err -1}
        '00000002 2f61', //   CheckVersionRequest: path "/a"
        'ffffffff', //   version -1
        '00000001 00 ffffffff', // MultiHeader{1 create}
        '00000004 2f612f62', //   CreateRequest: path "/a/b"
        '00000003 68c3a9', //   data "hé" in UTF-8
        '00000001', //   acl: one ACL,
        '0000001f', //     perms 31
        '00000005 776f726c64', //     Id: scheme "world"
        '00000006 616e796f6e65', //     id "anyone"
        '00000000', //   flags 0
        '00000005 00 ffffffff', // MultiHeader{5 setData}
        '00000002 2f61', //   SetDataRequest: path "/a"
        '00000001 78', //   data "x"
        '00000003', //   version 3
        '00000002 00 ffffffff', // MultiHeader{2 delete}
        '00000004 2f612f63', //   DeleteRequest: path "/a/c"
        '00000007', //   version 7
        '00000002 00 ffffffff', // MultiHeader{2 delete}
        '00000004 2f612f64', //   DeleteRequest: path "/a/d"
        'ffffffff', //   version -1
        '0000000d 00 ffffffff', // MultiHeader{13 check}
        '00000004 2f612f62', //   CheckVersionRequest: path "/a/b"
        '00000000', //   version 0
        MULTI_END,
      ),
    );
    conn.write(
      frame(
        '0000009b', // length: 155
        reply('00000001'), // ReplyHeader{xid 1, zxid, err 0}
        '0000000d 00 00000000', // check: MultiHeader{13, false, 0}, no body
        '00000001 00 00000000', // create: MultiHeader{1, false, 0}
        '00000004 2f612f62', //   CreateResponse: path "/a/b"
        '00000005 00 00000000', // setData: MultiHeader{5, false, 0}
        STAT, //   SetDataResponse: stat
        '00000002 00 00000000', // delete: no body
        '00000002 00 00000000', // delete: no body
        '0000000d 00 00000000', // check: no body
        MULTI_END,
      ),
    );
    await committed;
    expect(conn.unread).toBe(0);
  });

  it('reads a create2 result (a path and a Stat) as applied', async () => {
    const { zk, client } = await start();
    const committed = client.commit([
      { op: 'create', path: '/a/b', data: 'x' },
      { op: 'check', path: '/a' },
    ]);
    const conn = await handshake(zk);
    expect(await conn.read()).toBe(
      frame(
        '00000059', // length: 89
        '00000001 0000000e', // RequestHeader{xid 1, multi}
        CREATE_A_B_X,
        CHECK_A,
        MULTI_END,
      ),
    );
    conn.write(
      frame(
        '00000077', // length: 119
        reply('00000001'),
        '0000000f 00 00000000', // MultiHeader{15 create2, false, 0}
        '00000004 2f612f62', //   Create2Response: path "/a/b"
        STAT, //   stat
        '0000000d 00 00000000', // check
        MULTI_END,
      ),
    );
    await committed;
  });

  it.each([
    {
      which: 'first',
      index: 0,
      code: 'NONODE',
      rc: -101,
      results: [NONODE, RUNTIMEINCONSISTENCY, RUNTIMEINCONSISTENCY],
    },
    { which: 'second', index: 1, code: 'NODEEXISTS', rc: -110, results: [OK, NODEEXISTS, RUNTIMEINCONSISTENCY] },
    { which: 'last', index: 2, code: 'BADVERSION', rc: -103, results: [OK, OK, BADVERSION] },
  ])(
    'names the $which op as the failure when it carries $code (RUNTIMEINCONSISTENCY after it is none)',
    async ({ index, code, rc, results }) => {
      const { zk, client } = await start();
      const failed = rejection(client.commit(THREE_OPS));
      const conn = await handshake(zk);
      expect(await conn.read()).toBe(THREE_OPS_REQUEST);
      conn.write(threeOpsFailed(results[0]!, results[1]!, results[2]!));
      const e = await failed;
      expect(e).toBeInstanceOf(MultiError);
      expect(e).toMatchObject({ index, code, rc, op: 'multi', path: THREE_OPS[index]!.path });
    },
  );

  it('words the failure once: the op, its place, its path and its code', async () => {
    const { zk, client } = await start();
    const failed = rejection(client.commit(THREE_OPS));
    const conn = await handshake(zk);
    expect(await conn.read()).toBe(THREE_OPS_REQUEST);
    conn.write(threeOpsFailed(OK, NODEEXISTS, RUNTIMEINCONSISTENCY));
    expect((await failed) as Error).toMatchObject({
      name: 'MultiError',
      message: 'multi /a/b: op 2 of 3 (create) failed (-110)',
    });
  });

  it('words a failure on a path with a colon in it once too', async () => {
    const { zk, client } = await start();
    const failed = rejection(client.commit([{ op: 'check', path: '/a:b' }]));
    const conn = await handshake(zk);
    expect(await conn.read()).toBe(
      frame(
        '00000026', // length: 38
        '00000001 0000000e', // RequestHeader{xid 1, multi}
        '0000000d 00 ffffffff', // MultiHeader{13 check}
        '00000004 2f613a62', //   path "/a:b"
        'ffffffff', //   version -1
        MULTI_END,
      ),
    );
    conn.write(
      frame(
        '00000026', // length: 38
        reply('00000001'),
        `ffffffff 00 ${NONODE} ${NONODE}`, // ErrorResult NONODE
        MULTI_END,
      ),
    );
    expect(await failed).toMatchObject({ path: '/a:b', message: 'multi /a:b: op 1 of 1 (check) failed (-101)' });
  });

  it('fails with the reply header’s error and no op index when the server refuses the whole multi', async () => {
    const { zk, client } = await start();
    const failed = rejection(client.commit(THREE_OPS));
    const conn = await handshake(zk);
    expect(await conn.read()).toBe(THREE_OPS_REQUEST);
    // ReplyHeader only, err -8 (BADARGUMENTS): no MultiResponse follows an error in the header.
    conn.write(frame('00000010', reply('00000001', 'fffffff8')));
    const e = await failed;
    expect(e).toBeInstanceOf(MultiError);
    expect(e).toMatchObject({ index: null, code: 'BADARGUMENTS', rc: -8, op: 'multi' });
    // The session goes on: the next request is on the same connection, xid 2.
    const synced = client.sync('/');
    expect(await conn.read()).toBe(frame('0000000d', '00000002 00000009', '00000001 2f'));
    conn.write(frame('00000015', reply('00000002'), '00000001 2f'));
    await synced;
    expect(zk.accepted).toBe(1);
  });

  it('gives up a session the multi found expired: the next commit opens a new one', async () => {
    const { zk, client } = await start();
    const failed = rejection(client.commit([{ op: 'check', path: '/a' }]));
    const first = await handshake(zk);
    expect(await first.read()).toBe(frame('00000024', '00000001 0000000e', CHECK_A, MULTI_END)); // length: 36
    first.write(frame('00000026', reply('00000001'), `ffffffff 00 ${SESSIONEXPIRED} ${SESSIONEXPIRED}`, MULTI_END));
    expect(await failed).toMatchObject({ index: 0, code: 'SESSIONEXPIRED', rc: -112 });
    // Given up at once, not when the pings would have found the link silent.
    expect(client.sessionId).toBeNull();
    await within(first.closed, 'hang-up');

    const again = client.commit([{ op: 'check', path: '/a' }]);
    const second = await handshake(zk);
    // A new session: xids go on counting (2), the ConnectRequest asks for a new session again.
    expect(await second.read()).toBe(frame('00000024', '00000002 0000000e', CHECK_A, MULTI_END));
    second.write(frame('00000022', reply('00000002'), '0000000d 00 00000000', MULTI_END)); // length: 34
    await again;
    expect(zk.accepted).toBe(2);
  });

  it('takes replies cut anywhere across chunks', async () => {
    const { zk, client } = await start();
    const committed = client.commit(THREE_OPS);
    const conn = await zk.accept();
    expect(await conn.read()).toBe(CONNECT_REQUEST);
    const bytes = `${connectResponse()}${frame(
      '0000003c', // length: 60
      reply('00000001'),
      '0000000d 00 00000000', // check
      '00000001 00 00000000 00000004 2f612f62', // create "/a/b"
      '00000002 00 00000000', // delete
      MULTI_END,
    )}`;
    // The ConnectResponse in two pieces, then the reply byte by byte (the multi is sent between).
    conn.write(bytes.slice(0, 10));
    conn.write(bytes.slice(10, 82));
    expect(await conn.read()).toBe(THREE_OPS_REQUEST);
    for (let i = 82; i < bytes.length; i += 2) conn.write(bytes.slice(i, i + 2));
    await committed;
  });
});

describe('MultiClient.getData and sync', () => {
  it('sends GetDataRequest without a watch and reads the data and the version from the Stat', async () => {
    const { zk, client } = await start();
    const read = client.getData('/a');
    const conn = await handshake(zk);
    expect(await conn.read()).toBe(
      frame(
        '0000000f', // length: 15
        '00000001 00000004', // RequestHeader{xid 1, type 4 getData}
        '00000002 2f61', // path "/a"
        '00', // watch false
      ),
    );
    conn.write(
      frame(
        '0000005e', // length: 94
        reply('00000001'),
        '00000006 68c3a96c6c6f', // data "héllo" (6 bytes of UTF-8)
        STAT, // version 5
      ),
    );
    const r = await read;
    expect(r.data.toString('utf8')).toBe('héllo');
    expect(r.version).toBe(5);
  });

  it('reads null data as empty', async () => {
    const { zk, client } = await start();
    const read = client.getData('/a');
    const conn = await handshake(zk);
    expect(await conn.read()).toBe(frame('0000000f', '00000001 00000004', '00000002 2f61', '00'));
    conn.write(frame('00000058', reply('00000001'), 'ffffffff', STAT)); // data null; length: 88
    expect(await read).toEqual({ data: Buffer.alloc(0), version: 5 });
  });

  it('fails with the reply header’s error, naming the path', async () => {
    const { zk, client } = await start();
    const read = rejection(client.getData('/a'));
    const conn = await handshake(zk);
    await conn.read();
    conn.write(frame('00000010', reply('00000001', NONODE)));
    const e = await read;
    expect(e).toBeInstanceOf(ZkError);
    expect(e).toMatchObject({ code: 'NONODE', rc: -101, op: 'getData', path: '/a' });
  });

  it('sends SyncRequest, and fails sync with the reply header’s error', async () => {
    const { zk, client } = await start();
    const conn = await openSession(client, zk); // sync("/") checked there
    const synced = rejection(client.sync('/gone'));
    expect(await conn.read()).toBe(
      frame(
        '00000011', // length: 17
        '00000002 00000009', // RequestHeader{xid 2, type 9 sync}
        '00000005 2f676f6e65', // path "/gone"
      ),
    );
    conn.write(frame('00000010', reply('00000002', NONODE)));
    expect(await synced).toMatchObject({ code: 'NONODE', op: 'sync', path: '/gone' });
  });

  it('numbers requests with xids counting up on one session: a getData, then a multi', async () => {
    const { zk, client } = await start();
    const read = client.getData('/a');
    const conn = await handshake(zk);
    expect(await conn.read()).toBe(frame('0000000f', '00000001 00000004', '00000002 2f61', '00')); // xid 1
    conn.write(frame('00000058', reply('00000001'), 'ffffffff', STAT));
    await read;
    const committed = client.commit([{ op: 'check', path: '/a' }]);
    expect(await conn.read()).toBe(frame('00000024', '00000002 0000000e', CHECK_A, MULTI_END)); // xid 2
    conn.write(frame('00000026', reply('00000002'), `ffffffff 00 ${BADVERSION} ${BADVERSION}`, MULTI_END));
    expect(await rejection(committed)).toMatchObject({ index: 0, code: 'BADVERSION' });
  });
});

describe('MultiClient pings', () => {
  it('keeps a session whose pings are answered well past the silence that would end it', async () => {
    const { zk, client } = await start();
    const opened = client.sync('/');
    const conn = await handshake(zk, '00000258'); // 600 ms: a ping every 200 ms, given up after 400 ms of silence
    conn.answerPings = true;
    expect(await conn.read()).toBe(SYNC_ROOT);
    conn.write(SYNC_ROOT_REPLY);
    await opened;
    // 4 pings, 800 ms: twice the silence after which an unanswered link is given up.
    await conn.pinged(4);
    // An unsolicited ping reply (xid -2) answers no request: the sync waits for its own.
    const synced = client.sync('/');
    expect(await conn.read()).toBe(frame('0000000d', '00000002 00000009', '00000001 2f'));
    conn.write(PING_REPLY);
    conn.write(frame('00000015', reply('00000002'), '00000001 2f'));
    await synced;
    expect(zk.accepted).toBe(1);
    expect(client.sessionId).toBe(SESSION_KEY);
  });

  it('sends pings as RequestHeader{-2, 11}, and gives the connection up when they go unanswered', async () => {
    const { zk, client } = await start();
    const conn = await openSession(client, zk, '00000258'); // 600 ms
    const synced = rejection(client.sync('/'));
    expect(await conn.read()).toBe(frame('0000000d', '00000002 00000009', '00000001 2f'));
    expect(await conn.read()).toBe(PING);
    const e = await synced;
    expect(e).toMatchObject({ code: 'CONNECTIONLOSS', rc: -4 });
    expect((e as Error).message).toMatch(/went silent/);
    await within(conn.closed, 'hang-up');
    expect(client.sessionId).toBeNull();
  });
});

describe('MultiClient.close', () => {
  it('asks the server to close the session with the next xid, hangs up, and fails what waited', async () => {
    const { zk, client } = await start();
    const conn = await openSession(client, zk);
    const read = rejection(client.getData('/a'));
    expect(await conn.read()).toBe(frame('0000000f', '00000002 00000004', '00000002 2f61', '00'));
    client.close();
    expect(await conn.read()).toBe(
      frame(
        '00000008', // length: 8
        '00000003', // RequestHeader: xid 3
        'fffffff5', //   type -11: closeSession
      ),
    );
    await within(conn.ended, 'end of the client’s side');
    expect(await read).toMatchObject({ code: 'CLOSED', rc: -116 });
    expect(client.sessionId).toBeNull();
    // Closed for good: nothing more is sent, nothing new is opened.
    client.close();
    expect(await rejection(client.commit(THREE_OPS))).toMatchObject({ code: 'CLOSED' });
    expect(conn.unread).toBe(0);
    expect(zk.accepted).toBe(1);
  });

  it('opens nothing once closed before its first request', async () => {
    const { zk, client } = await start();
    client.close();
    expect(await rejection(client.commit(THREE_OPS))).toMatchObject({ code: 'CLOSED', rc: -116 });
    expect(await rejection(client.getData('/a'))).toMatchObject({ code: 'CLOSED' });
    expect(zk.accepted).toBe(0);
  });

  it('cuts a handshake under way, and the request that waited on it fails as CLOSED', async () => {
    const { zk, client } = await start();
    const failed = rejection(client.commit(THREE_OPS));
    const conn = await zk.accept();
    expect(await conn.read()).toBe(CONNECT_REQUEST);
    client.close();
    await within(conn.closed, 'hang-up');
    const e = await failed;
    expect(e).toBeInstanceOf(ZkError);
    expect(e).toMatchObject({ code: 'CLOSED', rc: -116 });
    expect(zk.accepted).toBe(1);
  });
});
