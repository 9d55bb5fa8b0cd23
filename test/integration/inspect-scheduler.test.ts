import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import type { Snapshot, SnapshotNode } from '../../src/inspect/snapshot.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { zklab } from '../helpers/cli.js';
import { tempLab } from '../helpers/paths.js';

/**
 * `zklab inspect` on a scheduler's root, against znodes this test writes with its own client (the `zookeeper`
 * package, not zklab's): a real TTL znode shows ephemeralOwner 0 to every client, so its TTL can only come from the
 * worker-shaped status in its data.
 */

interface RawStat {
  readonly ephemeralOwner: string;
  readonly mtime: Date | number;
}
interface RawClient {
  init(config: object): void;
  on(event: 'connect', listener: () => void): void;
  create(path: string, data: string, flags: number, ttl?: number): Promise<string>;
  exists(path: string, watch: boolean): Promise<RawStat | null>;
  close(): void;
  readonly client_id: string;
}
interface RawClientModule {
  new (config: object): RawClient;
  readonly constants: {
    readonly ZOO_PERSISTENT: number;
    readonly ZOO_EPHEMERAL: number;
    readonly ZOO_PERSISTENT_WITH_TTL: number;
    readonly ZOO_LOG_LEVEL_ERROR: number;
  };
}
const ZooKeeper = createRequire(import.meta.url)('zookeeper') as RawClientModule;

const paths = tempLab();
const ROOT = '/scheduler';
const TTL_NODE = `${ROOT}/status/job-0000000001`;
const PLAIN_NODE = `${ROOT}/status/job-0000000002`;
/** Long enough to outlast the test, short enough to show as seconds ("ttl 59.2s"). */
const TTL_MS = 60_000;
let zk: RawClient | undefined;

function connect(connectString: string): Promise<RawClient> {
  const client = new ZooKeeper({
    connect: connectString,
    timeout: 4000,
    debug_level: ZooKeeper.constants.ZOO_LOG_LEVEL_ERROR,
    host_order_deterministic: false,
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no session with ${connectString} within 15 s`)), 15_000);
    client.on('connect', () => {
      clearTimeout(timer);
      resolve(client);
    });
    client.init({});
  });
}

beforeAll(async () => {
  await ensembleUp(paths, { servers: 1, tickMs: 200 });
  zk = await connect(directConnectString(readState(paths)!));
  const { ZOO_PERSISTENT, ZOO_EPHEMERAL, ZOO_PERSISTENT_WITH_TTL } = ZooKeeper.constants;
  for (const p of [ROOT, `${ROOT}/election`, `${ROOT}/workers`, `${ROOT}/jobs`, `${ROOT}/status`])
    await zk.create(p, '', ZOO_PERSISTENT);
  await zk.create(`${ROOT}/workers/c1-1`, '{"contender":"c1"}', ZOO_EPHEMERAL);
  // What a worker writes when a job ends: its status, carrying the TTL it creates the znode with.
  const status = {
    job: 'job-0000000001',
    worker: 'c1-1',
    contender: 'c1',
    attempt: 1,
    ok: true,
    result: 5,
    startedAt: Date.now() - 20,
    endedAt: Date.now(),
    ttlMs: TTL_MS,
  };
  await zk.create(TTL_NODE, JSON.stringify(status), ZOO_PERSISTENT_WITH_TTL, TTL_MS);
  await zk.create(PLAIN_NODE, '', ZOO_PERSISTENT);
}, 120_000);

afterAll(async () => {
  zk?.close();
  await ensembleDown(paths, { purge: true });
});

async function inspectJson(): Promise<Snapshot> {
  const r = await zklab(['inspect', '--path', ROOT, '--once', '--json'], { lab: paths.root });
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Snapshot;
}

const nodeAt = (s: Snapshot, path: string): SnapshotNode => {
  const n = s.nodes.find((x) => x.path === path);
  if (!n) throw new Error(`${path} is not in the snapshot`);
  return n;
};

const ms = (t: Date | number): number => (t instanceof Date ? t.getTime() : Number(t));

describe('zklab inspect on a scheduler root of a real server', () => {
  it("the server hides the TTL node's type: ephemeralOwner 0, like the plain persistent znode", async () => {
    const ttl = (await zk!.exists(TTL_NODE, false))!;
    const plain = (await zk!.exists(PLAIN_NODE, false))!;
    expect(Number.parseInt(ttl.ephemeralOwner, 16)).toBe(0);
    expect(Number.parseInt(plain.ephemeralOwner, 16)).toBe(0);
  });

  it('--json shows the TTL from the status data, counting down, and none for the plain znode', async () => {
    const first = await inspectJson();
    await new Promise((r) => setTimeout(r, 1100));
    const second = await inspectJson();
    const stat = (await zk!.exists(TTL_NODE, false))!;

    for (const s of [first, second]) {
      expect(s).toMatchObject({ path: ROOT, exists: true });
      const ttl = nodeAt(s, TTL_NODE);
      expect(ttl).toMatchObject({ ephemeral: false, sessionId: null, ttl: { ms: TTL_MS, source: 'status-data' } });
      // Counted from the znode's last change, as ZooKeeper counts it.
      expect(ttl.ttl!.remainingMs).toBe(ms(stat.mtime) + TTL_MS - s.takenAt);
      expect(ttl.ttl!.remainingMs).toBeGreaterThan(0);
      expect(ttl.scheduler).toEqual({
        role: 'done',
        job: 'job-0000000001',
        worker: 'c1-1',
        attempt: 1,
        ok: true,
        result: 5,
        error: null,
      });

      const plain = nodeAt(s, PLAIN_NODE);
      expect(plain).toMatchObject({ ephemeral: false, sessionId: null, ttl: null, state: 'unknown' });
      expect(plain.scheduler).toMatchObject({ role: 'done', ok: null });
      expect(s.nodes.filter((n) => n.ttl !== null).map((n) => n.path)).toEqual([TTL_NODE]);

      expect(nodeAt(s, `${ROOT}/workers/c1-1`)).toMatchObject({
        ephemeral: true,
        sessionId: `0x${zk!.client_id.toLowerCase().replace(/^(0x)?0*/, '')}`,
      });
      expect(s.scheduler).toMatchObject({
        root: ROOT,
        queued: 0,
        assigned: 0,
        done: 2,
        ok: 1,
        failed: 0,
        unreadable: 1,
        nextExpiryMs: ttl.ttl!.remainingMs,
      });
      expect(s.scheduler!.workers).toEqual([
        { worker: 'c1-1', contender: 'c1', registered: true, alive: true, state: 'foreign', assignments: [] },
      ]);
    }
    const [a, b] = [nodeAt(first, TTL_NODE).ttl!, nodeAt(second, TTL_NODE).ttl!];
    expect(b.remainingMs).toBeLessThan(a.remainingMs);
    expect(a.remainingMs - b.remainingMs).toBe(second.takenAt - first.takenAt);
  });

  it('--once marks the TTL node with its TTL and names no type for the plain one', async () => {
    const r = await zklab(['inspect', '--path', ROOT, '--once'], { lab: paths.root });
    expect(r.exitCode, r.stderr).toBe(0);
    const row = (name: string) => r.stdout.split('\n').find((l) => l.includes(`─ ${name}`)) ?? '';
    expect(row('job-0000000001')).toMatch(/ttl \d+(\.\d)?s ok = 5 · c1-1 · attempt 1/);
    expect(row('job-0000000002')).not.toContain('ttl');
    expect(row('job-0000000002')).toContain("not a worker's status");
    expect(r.stdout).toContain('── scheduler /scheduler');
    expect(r.stdout).toMatch(
      /1 worker · 0 queued · 0 assigned · 2 done \(1 ok, 1 unreadable\) · no leader · next status ttl \d/,
    );
  });
});
