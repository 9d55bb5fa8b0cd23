import { describe, expect, it } from 'vitest';
import { readEventFile } from '../../src/lab/event-log.js';
import { readState } from '../../src/lab/state.js';
import { zklab } from '../helpers/cli.js';
import { tempLab } from '../helpers/paths.js';
import { sharedLab } from '../helpers/shared-ensemble.js';
import { waitFor } from '../helpers/wait.js';
import { leadershipSpans } from '../helpers/beliefs.js';

/**
 * Pre-emption in the priority recipe and the administrator's policy znode, on one shared ensemble. Who leads is
 * read from ZooKeeper (leader/current: its owner session and READY; nodes/<id>: each member's session); whether two
 * ever believed they led, from the contenders' own event files, by this test's own reading of them.
 */
const paths = tempLab();
const lab = paths.root;
const { zk, cli } = sharedLab(paths);

async function spawned(args: string[]): Promise<string[]> {
  const out = JSON.parse(await cli(['contenders', 'spawn', ...args, '--json'])) as { contenders: { id: string }[] };
  return out.contenders.map((c) => c.id);
}

/** The contender whose session holds `<root>/leader/current` with READY, by ZooKeeper's znodes; null otherwise. */
async function readyLeader(root: string): Promise<string | null> {
  const current = await zk()
    .getData(`${root}/leader/current`)
    .catch(() => null);
  if (current?.data.toString() !== 'READY') return null;
  for (const id of await zk().getChildren(`${root}/nodes`)) {
    const member = await zk().exists(`${root}/nodes/${id}`);
    if (member?.ephemeralOwner === current.stat.ephemeralOwner) return id;
  }
  return null;
}

/** Waits for `id` to be the READY leader; on timeout the error carries what the elector and the contenders last logged. */
async function waitReady(root: string, id: string, what: string, watched: readonly string[]): Promise<void> {
  try {
    await waitFor(async () => (await readyLeader(root)) === id, what, 10_000);
  } catch (e) {
    const znodes = await Promise.all(
      ['elected', 'current'].map((n) =>
        zk()
          .getData(`${root}/leader/${n}`)
          .then(
            (r) => `${n}=${r.data.toString()} (owner ${r.stat.ephemeralOwner})`,
            () => `${n}: none`,
          ),
      ),
    );
    const tails = watched.map(
      (c) =>
        `${c}:\n${readEventFile(paths.contenderEvents(c))
          .slice(-12)
          .map((ev) => `  ${JSON.stringify(ev)}`)
          .join('\n')}`,
    );
    throw new Error(`${(e as Error).message}\n${znodes.join('; ')}\n${tails.join('\n')}`);
  }
}

describe('priority pre-emption', () => {
  it('hands over to a better contender 20 times in a row, never with two leaders', async () => {
    // The watchdog is far above the hand-over's length: on a loaded machine a starved contender would otherwise be
    // passed over for good (that is the watchdog's job), and this test is about the hand-over, not the watchdog.
    const timing = ['--takeover-ms', '100', '--watchdog-ms', '8000'];
    const [c1] = await spawned(['2', '--recipe', 'priority', '--path', '/pp', '--priority', '5,1', ...timing]);
    await waitFor(async () => (await readyLeader('/pp')) === c1, `${c1} READY`);
    const ids = [c1!];
    for (let i = 0; i < 20; i++) {
      const [better] = await spawned(['1', '--recipe', 'priority', '--path', '/pp', '--priority', '9', ...timing]);
      ids.push(better!);
      await waitReady('/pp', better!, `round ${i + 1}: ${better} READY`, [c1!, better!]);
      expect((await zk().getData('/pp/leader/elected')).data.toString()).toBe(better);
      await cli(['contenders', 'stop', better!]);
      await waitReady('/pp', c1!, `round ${i + 1}: ${c1} READY again`, [c1!]);
    }
    const spans = leadershipSpans(paths, ids).sort((a, b) => a.start - b.start);
    expect(spans.filter((s) => s.id !== c1)).toHaveLength(20);
    for (let i = 1; i < spans.length; i++) {
      expect(
        spans[i]!.start,
        `${spans[i]!.id} began leading before ${spans[i - 1]!.id} stopped`,
      ).toBeGreaterThanOrEqual(spans[i - 1]!.end);
    }
    // Each hand-over was the seed's: the leader let go before its successor marked PROGRESS.
    const c1Events = readEventFile(paths.contenderEvents(c1!));
    for (const id of ids.slice(1)) {
      const progress = readEventFile(paths.contenderEvents(id)).find((e) => e.event === 'progress')!;
      const letGo = c1Events.filter((e) => e.event === 'resigned' && e.t <= progress.t).at(-1);
      expect(letGo, `${c1} let go before ${id} went PROGRESS`).toBeDefined();
    }
  }, 240_000);

  it('moves leadership when an administrator writes the policy, with zklab priority or any client', async () => {
    // Site a first: with no site order written, the site policy keeps leadership on the leader's site, so the site
    // that leads first must not be left to which spawn joins first.
    const [a1, a2] = await spawned([
      '2',
      '--recipe',
      'priority',
      '--path',
      '/ps',
      '--policy',
      'site',
      '--priority',
      '10,5',
      '--site',
      'a,a',
      '--takeover-ms',
      '100',
    ]);
    await waitFor(async () => (await readyLeader('/ps')) === a1, `${a1} READY`);
    const [b1, b2] = await spawned([
      '2',
      '--recipe',
      'priority',
      '--path',
      '/ps',
      '--policy',
      'site',
      '--priority',
      '8,3',
      '--site',
      'b,b',
      '--takeover-ms',
      '100',
    ]);
    await cli(['priority', 'prefer-site', 'b', '--path', '/ps']);
    expect(JSON.parse((await zk().getData('/ps/policy')).data.toString())).toEqual({
      sites: ['b', 'a'],
      priorities: {},
    });
    await waitFor(async () => (await readyLeader('/ps')) === b1, `${b1} READY on site b`, 10_000);
    await cli(['priority', 'set', b2!, '20', '--path', '/ps']);
    await waitFor(async () => (await readyLeader('/ps')) === b2, `${b2} READY with priority 20`, 10_000);
    // Any client may write the policy: the elector watches the znode, not zklab.
    const { stat } = await zk().getData('/ps/policy');
    await zk().setData('/ps/policy', JSON.stringify({ sites: ['a'], priorities: { [a2!]: 50 } }), stat.version);
    await waitFor(async () => (await readyLeader('/ps')) === a2, `${a2} READY after a hand edit`, 10_000);
    const shown = JSON.parse(await cli(['priority', 'show', '--path', '/ps', '--json'])) as {
      elected: string;
      policy: unknown;
      members: { id: string; effective: number }[];
    };
    expect(shown.elected).toBe(a2);
    expect(shown.policy).toEqual({ sites: ['a'], priorities: { [a2!]: 50 } });
    expect(shown.members.find((m) => m.id === a2)!.effective).toBe(50);
  }, 90_000);

  it('keeps a live leader with --no-preempt', async () => {
    const [c1] = await spawned([
      '1',
      '--recipe',
      'priority',
      '--path',
      '/pn',
      '--priority',
      '1',
      '--no-preempt',
      '--takeover-ms',
      '100',
    ]);
    await waitFor(async () => (await readyLeader('/pn')) === c1, `${c1} READY`);
    const [better] = await spawned(['1', '--recipe', 'priority', '--path', '/pn', '--priority', '9', '--no-preempt']);
    // The elector (c1) hears of the newcomer through nodes/ (before the newcomer logs joined: it creates its nodes/
    // entry first); with pre-emption it would name it at once.
    const joined = readEventFile(paths.contenderEvents(better!)).find((e) => e.event === 'started')!.t;
    await waitFor(
      () =>
        readEventFile(paths.contenderEvents(c1!)).some(
          (e) => e.event === 'notified' && e.path === '/pn/nodes' && e.t >= joined,
        ),
      'the elector to hear of the newcomer',
    );
    expect(await readyLeader('/pn')).toBe(c1);
    await cli(['contenders', 'stop', c1!]);
    expect(
      readEventFile(paths.contenderEvents(c1!)).filter((e) => e.event === 'elected' && e.candidate === better),
    ).toEqual([]);
    expect(
      readEventFile(paths.contenderEvents(c1!)).filter((e) => e.event === 'resigned' && e.reason === 'not-elected'),
    ).toEqual([]);
    // It was eligible all along: with c1 gone, it leads.
    await waitFor(async () => (await readyLeader('/pn')) === better, `${better} READY once c1 is gone`, 10_000);
  }, 60_000);

  it('refuses bad policy commands with one line and exit 2, changing nothing', async () => {
    const [p1] = await spawned(['2', '--recipe', 'priority', '--path', '/pb', '--site', 'a,b']);
    const [other] = await spawned(['1', '--path', '/pother']);
    await cli(['priority', 'set', p1!, '7']);
    const before = { policy: await zk().getData('/pb/policy') };
    const refused: [string[], RegExp][] = [
      [['priority', 'set', p1!, 'high'], /priority "high" is not a whole number/],
      [['priority', 'set', p1!, '2.5'], /priority "2.5" is not a whole number/],
      [['priority', 'set', other!, '3'], new RegExp(`${other} runs the predecessor recipe, not the priority recipe`)],
      [['priority', 'set', 'c99', '3'], /no contender c99 in this lab/],
      [['priority', 'set', p1!, '3', '--path', '/pother'], new RegExp(`${p1} contends at /pb, not at /pother`)],
      [['priority', 'prefer-site', 'mars', '--path', '/pb'], /no site "mars" in the election at \/pb/],
      [['contenders', 'spawn', '1', '--no-preempt'], /--no-preempt: only applies to --recipe priority/],
      [
        ['contenders', 'spawn', '1', '--recipe', 'priority', '--path', '/pb', '--no-preempt'],
        /\/pb already has priority contenders with pre-emption on/,
      ],
    ];
    await spawned(['1', '--recipe', 'priority', '--path', '/pf', '--policy', 'first', '--site', 'a']);
    refused.push([
      ['priority', 'prefer-site', 'a', '--path', '/pf'],
      /the election at \/pf elects by first \(c\d+\): the site order would change nothing/,
    ]);
    const firstState = readState(paths);
    for (const [args, message] of refused) {
      const r = await zklab(args, { lab });
      expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n').length).toBeLessThanOrEqual(2);
    }
    expect(readState(paths)).toEqual(firstState);
    expect(await zk().exists('/pf/policy')).toBeNull();
    const after = await zk().getData('/pb/policy');
    expect(after.stat.version).toBe(before.policy.stat.version);
    expect(after.data.toString()).toBe(before.policy.data.toString());
  }, 60_000);
});
