import { describe, expect, it } from 'vitest';
import type { LabPaths } from '../../src/lab/paths.js';
import { directConnectString, readState } from '../../src/lab/state.js';
import { ZkClient } from '../../src/zk/client.js';
import { zklab } from '../helpers/cli.js';
import { sharedEnsemble } from '../helpers/shared-ensemble.js';
import { zkLeaderContender } from '../helpers/contenders.js';
import { tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

// A drill's `leader` target, aimed at this file's shared lab. A drill run makes a fresh lab of its own, so this
// calls what a drill's fault step calls just before it acts (src/drills/run/fault-steps.ts): the faults' resolver.
import { resolveTarget } from '../../src/faults/targets.js';

async function drillLeaderTarget(paths: LabPaths): Promise<string> {
  const r = await resolveTarget(paths, 'leader');
  if (r.kind !== 'contender') throw new Error(`a drill's leader target resolved to a ${r.kind}: ${r.name}`);
  return r.name;
}

/**
 * One 3-server ensemble for the whole file; each recipe runs 3 contenders on a path of its own. For every recipe,
 * and again after each leader kill, the production answers to "who leads" — inspect's JSON, contenders list's
 * JSON, kill leader's choice, a drill's `leader` target — must name the contender ZooKeeper's own znodes say
 * leads (zkLeaderContender, which reads the znodes directly and calls no production leadership code).
 */
const paths = tempLab();
const lab = paths.root;

const RECIPES = [
  { recipe: 'predecessor', path: '/agree-predecessor' },
  { recipe: 'herd', path: '/agree-herd' },
  { recipe: 'single-file', path: '/agree-single-file' },
  { recipe: 'priority', path: '/agree-priority' },
] as const;

/** Leader rounds per recipe: 3 contenders, so the leader is killed twice and the last one is checked too. */
const ROUNDS = 3;

sharedEnsemble(paths);

/** Runs the CLI on the shared lab; a non-zero exit is an error naming the command and its stderr. */
async function cli(args: string[]): Promise<string> {
  const r = await zklab(args, { lab });
  if (r.exitCode !== 0) throw new Error(`zklab ${args.join(' ')} exited ${r.exitCode}: ${r.stderr.trim()}`);
  return r.stdout;
}

/** leader/current's data as ZooKeeper holds it (PROGRESS / READY), null when it does not exist. */
async function currentData(path: string): Promise<string | null> {
  const zk = await ZkClient.connect({
    connect: directConnectString(readState(paths)!),
    sessionTimeoutMs: 10_000,
    connectTimeoutMs: 5000,
    quiet: true,
  });
  try {
    if (!(await zk.exists(`${path}/leader/current`))) return null;
    return (await zk.getData(`${path}/leader/current`)).data.toString('utf8');
  } catch (e) {
    if (await zk.exists(`${path}/leader/current`)) throw e;
    return null;
  } finally {
    await zk.close();
  }
}

/**
 * Waits until ZooKeeper names a leader on `path` that is none of `gone`; for the priority recipe, until
 * leader/current is READY (the same leader read before and after the READY check).
 */
async function zkLeader(recipe: string, path: string, gone: readonly string[]): Promise<string> {
  return waitFor(
    async () => {
      const id = await zkLeaderContender(paths, path);
      if (id === null || gone.includes(id)) return null;
      if (recipe !== 'priority') return id;
      if ((await currentData(path)) !== 'READY') return null;
      return (await zkLeaderContender(paths, path)) === id ? id : null;
    },
    `ZooKeeper to name a ${recipe} leader on ${path}${gone.length ? ` other than ${gone.join(', ')}` : ''}`,
    30_000,
    50,
  );
}

/**
 * Expects `probe` to name `expected`. It is polled for a while, because what zklab reports comes partly from the
 * contenders' event logs, which trail ZooKeeper by a moment; an answer that stays different fails, showing it.
 */
async function expectNames(what: string, probe: () => Promise<string | null>, expected: string): Promise<void> {
  let said: string | null = '(no answer yet)';
  await waitFor(
    async () => {
      try {
        said = await probe();
      } catch (e) {
        said = `error: ${(e as Error).message}`;
      }
      return said === expected;
    },
    `${what} to name ${expected}`,
    10_000,
    100,
  ).catch(() => undefined);
  expect(said, `${what} disagrees with ZooKeeper, which says ${expected} leads`).toBe(expected);
}

interface InspectJson {
  readonly nodes: readonly { readonly path: string; readonly leader: boolean; readonly contender: string | null }[];
}

/** The contender(s) `inspect --json` marks as leader ("c1,c2" if it marked several), null if none. */
async function inspectLeader(path: string): Promise<string | null> {
  const snapshot = JSON.parse(await cli(['inspect', '--once', '--json', '--path', path])) as InspectJson;
  const marked = snapshot.nodes.filter((n) => n.leader);
  return marked.length === 0 ? null : marked.map((n) => n.contender ?? `(${n.path}: no contender)`).join(',');
}

/** The contender(s) among `ids` whose state `contenders list --json` gives as leader, null if none. */
async function listLeader(ids: readonly string[]): Promise<string | null> {
  const list = JSON.parse(await cli(['contenders', 'list', '--json'])) as {
    contenders: { id: string; state: string }[];
  };
  const leaders = list.contenders.filter((c) => ids.includes(c.id) && c.state === 'leader').map((c) => c.id);
  return leaders.length === 0 ? null : leaders.join(',');
}

describe('every view of "who leads" agrees with ZooKeeper, for every recipe, before and after leader kills', () => {
  for (const { recipe, path } of RECIPES) {
    it(`${recipe} on ${path}: inspect, contenders list, kill leader and a drill's leader target`, async () => {
      try {
        const spawned = JSON.parse(
          await cli(['contenders', 'spawn', '3', '--recipe', recipe, '--path', path, '--json']),
        ) as { contenders: { id: string }[] };
        const ids = spawned.contenders.map((c) => c.id);
        expect(ids).toHaveLength(3);
        const killed: string[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          const step = `${recipe}, round ${round}`;
          const leader = await zkLeader(recipe, path, killed);
          expect(ids, `${step}: ZooKeeper's leader is one of this recipe's contenders`).toContain(leader);

          await expectNames(`${step}: zklab contenders list --json`, () => listLeader(ids), leader);
          await expectNames(`${step}: zklab inspect --once --json --path ${path}`, () => inspectLeader(path), leader);
          await expectNames(`${step}: a drill's leader target`, () => drillLeaderTarget(paths), leader);
          // Nothing changed leadership meanwhile: the comparisons above were against the current leader.
          expect(await zkLeaderContender(paths, path), `${step}: ZooKeeper's leader during the checks`).toBe(leader);

          if (round === ROUNDS) break;
          const out = await cli(['kill', 'leader', '--signal', 'TERM']);
          const victim = /^killed (c\d+)\b/m.exec(out)?.[1] ?? `(unparsed: ${out.trim()})`;
          expect(
            victim,
            `${step}: zklab kill leader --signal TERM killed another contender than ZooKeeper's leader`,
          ).toBe(leader);
          killed.push(victim);
        }
        await cli(['contenders', 'stop', '--all']);
      } finally {
        // Contenders left running would make the next recipe's `kill leader` see two election paths.
        await zklab(['contenders', 'stop', '--all'], { lab });
      }
    }, 120_000);
  }

  it('refuses "leader" while contenders lead on two paths, killing nobody', async () => {
    try {
      const spawnOn = async (path: string) =>
        (
          JSON.parse(await cli(['contenders', 'spawn', '1', '--path', path, '--json'])) as {
            contenders: { id: string }[];
          }
        ).contenders[0]!.id;
      const [a, b] = [await spawnOn('/two-a'), await spawnOn('/two-b')];
      await waitFor(
        async () =>
          (await zkLeaderContender(paths, '/two-a')) === a && (await zkLeaderContender(paths, '/two-b')) === b,
        'each path led by its own contender',
      );
      const r = await zklab(['kill', 'leader'], { lab });
      expect(r.exitCode, r.stderr).toBe(2);
      expect(r.stderr).toContain(`"leader" is ambiguous: contenders lead on 2 paths (${a} on /two-a, ${b} on /two-b)`);
      expect(await zkLeaderContender(paths, '/two-a')).toBe(a);
      expect(await zkLeaderContender(paths, '/two-b')).toBe(b);
    } finally {
      await zklab(['contenders', 'stop', '--all'], { lab });
    }
  }, 60_000);
});
