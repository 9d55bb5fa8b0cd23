/**
 * ZooKeeper's multi (one transaction of checks, creates, deletes and sets: all happen or none) for the few steps
 * that need it, such as the scheduler's assignment (create the assignment, delete the job). The native `zookeeper`
 * package has no multi, so this one operation goes through `node-zookeeper-client`, a pure-JS client that speaks the
 * same protocol, on a session of its own. Everything else stays on the native client (TTL creates, the recipes).
 */
import type zookeeper from 'node-zookeeper-client';
import { normalizeSessionId } from './session-id.js';
import { ZkError, zkErrorFromRc } from './errors.js';

export type MultiOp =
  /** Holds only if the znode exists (and has `version`, unless -1). */
  | { readonly op: 'check'; readonly path: string; readonly version?: number }
  | { readonly op: 'create'; readonly path: string; readonly data: string }
  | { readonly op: 'delete'; readonly path: string; readonly version?: number }
  | { readonly op: 'set'; readonly path: string; readonly data: string; readonly version?: number };

/** A multi that did not apply: `index` is the op that failed (its code is the error's). */
export class MultiError extends ZkError {
  constructor(base: ZkError, readonly index: number | null) {
    super(base.code, base.rc, base.op, base.path, base.message.replace(/^[^:]*: /, ''));
    this.name = 'MultiError';
  }
}

export interface MultiOptions {
  readonly connect: string;
  readonly sessionTimeoutMs: number;
  /** How long a commit waits for a session before it fails with CONNECTIONLOSS (the caller decides to retry). */
  readonly connectTimeoutMs: number;
}

interface Rc {
  readonly getCode?: () => number;
  readonly code?: number;
}

/** Loaded on first use: only a leader commits multis, and a worker need not carry the library until it leads. */
let library: Promise<typeof zookeeper> | undefined;
const loadClient = (): Promise<typeof zookeeper> => (library ??= import('node-zookeeper-client').then((m) => m.default));

const rcOf = (e: unknown): number => (e as Rc)?.getCode?.() ?? (e as Rc)?.code ?? 0;

/**
 * Commits multis on a session of its own, opened on the first commit and again after that session expires.
 * A CONNECTIONLOSS means the multi may or may not have applied: the caller reads ZooKeeper to know.
 */
export class MultiClient {
  private client: zookeeper.Client | null = null;
  private ready: Promise<zookeeper.Client> | null = null;
  private closed = false;

  constructor(private readonly opts: MultiOptions) {}

  /** The session this client's multis run in, as normalized hex; null before it has one. */
  get sessionId(): string | null {
    const id = this.client?.getSessionId();
    return id && id.length > 0 ? normalizeSessionId(id.toString('hex')) : null;
  }

  async commit(ops: readonly MultiOp[]): Promise<void> {
    const client = await this.session();
    const { CreateMode } = await loadClient();
    const tx = client.transaction();
    for (const o of ops) {
      if (o.op === 'check') tx.check(o.path, o.version ?? -1);
      else if (o.op === 'create') tx.create(o.path, Buffer.from(o.data), CreateMode.PERSISTENT);
      else if (o.op === 'delete') tx.remove(o.path, o.version ?? -1);
      else tx.setData(o.path, Buffer.from(o.data), o.version ?? -1);
    }
    await new Promise<void>((resolve, reject) => {
      tx.commit((err: unknown, results: unknown) => {
        if (!err) return resolve();
        const rc = rcOf(err);
        const list = Array.isArray(results) ? (results as { err?: number }[]) : [];
        // Every op after (and before) the failing one reports RUNTIMEINCONSISTENCY (-2); the failing one its own code.
        const index = list.findIndex((r) => typeof r.err === 'number' && r.err !== 0 && r.err !== -2);
        const path = index >= 0 ? ops[index]?.path : undefined;
        const base = zkErrorFromRc(rc, 'multi', path, err instanceof Error ? err.message : String(err));
        if (base.code === 'SESSIONEXPIRED') this.drop();
        reject(new MultiError(base, index >= 0 ? index : null));
      });
    });
  }

  private session(): Promise<zookeeper.Client> {
    if (this.closed) return Promise.reject(zkErrorFromRc(-116, 'multi', undefined, 'closed'));
    this.ready ??= loadClient().then((lib) => new Promise<zookeeper.Client>((resolve, reject) => {
      const client = lib.createClient(this.opts.connect, { sessionTimeout: this.opts.sessionTimeoutMs, spinDelay: 100, retries: 0 });
      this.client = client;
      const timer = setTimeout(() => {
        this.drop();
        reject(zkErrorFromRc(-4, 'multi', undefined, `no session with ${this.opts.connect} within ${this.opts.connectTimeoutMs} ms`));
      }, this.opts.connectTimeoutMs);
      client.once('connected', () => {
        clearTimeout(timer);
        resolve(client);
      });
      client.on('expired', () => {
        if (this.client === client) this.drop();
      });
      client.connect();
    }));
    return this.ready;
  }

  private drop(): void {
    const c = this.client;
    this.client = null;
    this.ready = null;
    c?.close();
  }

  /** Closes the session (safe to call twice). */
  close(): void {
    this.closed = true;
    this.drop();
  }
}
