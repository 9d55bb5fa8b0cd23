import { spawnSync } from 'node:child_process';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listContenders, type ContenderInfo } from '../../src/contenders/service.js';
import { ensembleDown, ensembleUp } from '../../src/ensemble/service.js';
import { ZKLAB_BIN, zklab } from '../helpers/cli.js';
import { spawn } from '../helpers/contenders.js';
import { tempLab } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { bySequence } from '../helpers/zk-raw.js';
import { isFrozen } from '../helpers/frozen.js';

const hasTmux = spawnSync('tmux', ['-V']).status === 0;

if (!hasTmux) console.warn('inspect-tmux: skipped, tmux is not installed (bin/setup installs it on Debian)');

const paths = tempLab();
const PATH = '/election';
// A tmux server of its own: nothing here touches anyone else's sessions.
const SOCKET = `zklab-inspect-${process.pid}`;
const SESSION = 'inspect';

const tmux = (...args: string[]) => execa('tmux', ['-L', SOCKET, ...args], { reject: false, stdin: 'ignore' });

async function screen(): Promise<string[]> {
  const r = await tmux('capture-pane', '-p', '-t', SESSION);
  return r.stdout.split('\n');
}

/** Tree rows only: the event pane names contenders too. */
const treeRows = (lines: readonly string[]) => lines.filter((l) => /^[› ] +(?:[│ ] {2})*[├└]─ /.test(l));

async function untilScreen<T>(
  probe: (lines: string[]) => T | null | undefined | false,
  what: string,
  timeoutMs = 20_000,
): Promise<T> {
  let last: string[] = [];
  try {
    return (await waitFor(
      async () => {
        last = await screen();
        return probe(last);
      },
      what,
      timeoutMs,
      100,
    )) as T;
  } catch (e) {
    throw new Error(`${(e as Error).message}\nscreen:\n${last.join('\n')}`);
  }
}

function liveChain(): ContenderInfo[] | null {
  const live = listContenders(paths).filter((c) => c.alive && c.znode && c.path === PATH);
  if (live.length === 0 || !live.every((c) => c.state === 'leader' || c.state === 'follower')) return null;
  return bySequence(live.map((c) => c.znode!.slice(PATH.length + 1))).map(
    (n) => live.find((c) => c.znode === `${PATH}/${n}`)!,
  );
}

describe.skipIf(!hasTmux)('zklab inspect in a terminal (tmux)', () => {
  beforeAll(async () => {
    await ensembleUp(paths, { servers: 3, tickMs: 200 });
    await spawn(paths, { count: 5, path: PATH });
    await waitFor(() => liveChain()?.length === 5, 'five contenders in a chain', 30_000);
    const r = await tmux(
      'new-session',
      '-d',
      '-s',
      SESSION,
      '-x',
      '140',
      '-y',
      '45',
      process.execPath,
      ZKLAB_BIN,
      'inspect',
      '--lab',
      paths.root,
    );
    expect(r.exitCode, r.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await tmux('kill-session', '-t', SESSION);
    await tmux('kill-server');
    await ensembleDown(paths, { purge: true });
  });

  it('shows the leader, and the mark moves to the next contender when the leader is killed from another shell', async () => {
    const chain = liveChain()!;
    await untilScreen(
      (l) => l.find((x) => x.includes('★ LEADER'))?.includes(`${chain[0]!.id} pid ${chain[0]!.pid}`),
      `${chain[0]!.id} marked as leader`,
    );
    const lines = await screen();
    expect(lines[0]).toMatch(/^zklab inspect \/election · sequential · leader c\d+ #\d+ · 6 znodes/);
    expect(lines.some((l) => l.startsWith('── ensemble'))).toBe(true);
    expect(lines.filter((l) => l.trim() !== '').at(-1)).toContain('q quit');

    const kill = await zklab(['kill', 'leader'], { lab: paths.root });
    expect(kill.exitCode, kill.stderr).toBe(0);
    expect(kill.stdout).toContain(`killed ${chain[0]!.id}`);
    await untilScreen(
      (l) => l.find((x) => x.includes('★ LEADER'))?.includes(`${chain[1]!.id} pid ${chain[1]!.pid}`),
      `the leader mark to move to ${chain[1]!.id}`,
    );
    await untilScreen(
      (l) => !treeRows(l).some((x) => x.includes(`${chain[0]!.id} pid`)),
      `${chain[0]!.id}'s znode to go`,
    );
  });

  it('selects a contender with the arrow keys and kills it with k', async () => {
    const chain = await waitFor(() => {
      const c = liveChain();
      return c?.length === 4 ? c : null;
    }, 'four live contenders');
    const target = chain[2]!;
    // Rows are told apart by their contender, not by the whole line: ages change while we wait.
    const selectedOwner = (l: string[]) => /\bc\d+ pid \d+/.exec(l.find((x) => x.startsWith('› ')) ?? '')?.[0];
    let selected = '';
    for (let i = 0; i < 8 && selected !== `${target.id} pid ${target.pid}`; i++) {
      const before = selected;
      await tmux('send-keys', '-t', SESSION, 'Down');
      selected = await untilScreen(
        (l) => {
          const owner = selectedOwner(l);
          return owner !== undefined && owner !== before && owner;
        },
        'the selection to move',
        5000,
      );
    }
    expect(selected).toBe(`${target.id} pid ${target.pid}`);

    await tmux('send-keys', '-t', SESSION, 'k');
    await untilScreen(
      (l) => l.some((x) => x.includes(`killed ${target.id} (pid ${target.pid}) with SIGKILL`)),
      'the footer to report the kill',
      10_000,
    );
    await untilScreen(
      (l) => treeRows(l).length === 3 && !treeRows(l).some((x) => x.includes(`${target.id} pid`)),
      `${target.id}'s znode to go`,
    );
  });

  it('keeps acting on the contender it paused after its znode expired: p again resumes that one, not a neighbour', async () => {
    const chain = await waitFor(() => {
      const c = liveChain();
      return c?.length === 3 ? c : null;
    }, 'three live contenders');
    const target = chain[1]!;
    const selectedLine = (l: string[]) => l.find((x) => x.startsWith('› ')) ?? '';
    const owner = (l: string[]) => /\bc\d+ pid \d+/.exec(selectedLine(l))?.[0] ?? '';
    // One key at a time, each once the screen shows where it went: up to the top, then down to the target.
    const press = async (key: 'Up' | 'Down'): Promise<string> => {
      const before = owner(await screen());
      await tmux('send-keys', '-t', SESSION, key);
      return untilScreen((l) => (owner(l) !== before ? owner(l) : null), `the selection to move ${key}`, 3000).catch(
        () => before,
      );
    };
    let top = owner(await screen());
    for (let i = 0; i < 6; i++) {
      const next = await press('Up');
      if (next === top) break;
      top = next;
    }
    for (let i = 0; i < 6 && owner(await screen()) !== `${target.id} pid ${target.pid}`; i++) await press('Down');
    expect(owner(await screen())).toBe(`${target.id} pid ${target.pid}`);
    await tmux('send-keys', '-t', SESSION, 'p');
    await untilScreen((l) => l.some((x) => x.includes(`paused ${target.id} (pid ${target.pid})`)), 'the pause', 10_000);
    // Its session expires while it is frozen: its znode goes, its line stays below the tree, still selected.
    await untilScreen(
      (l) => selectedLine(l).includes(`${target.id} pid ${target.pid} · owns no znode: paused by the lab`),
      `${target.id} listed without a znode and still selected`,
      20_000,
    );
    expect(isFrozen(target.pid!)).toBe(true);
    await tmux('send-keys', '-t', SESSION, 'p');
    await untilScreen(
      (l) => l.some((x) => x.includes(`resumed ${target.id} (pid ${target.pid})`)),
      'the resume',
      10_000,
    );
    expect(isFrozen(target.pid!)).toBe(false);
    for (const other of chain.filter((c) => c.id !== target.id)) expect(isFrozen(other.pid!)).toBe(false);
  });

  it('follows a terminal resize, down to one that is too small, and back', async () => {
    await tmux('resize-window', '-t', SESSION, '-x', '70', '-y', '20');
    await untilScreen(
      (l) =>
        l[0]!.startsWith('zklab inspect') && l[1]!.startsWith('  /election') && l.some((x) => x.includes('★ LEADER')),
      'the view laid out for 70×20 (nothing wrapped)',
    );
    await tmux('resize-window', '-t', SESSION, '-x', '24', '-y', '4');
    await untilScreen((l) => /^too small 24×\d/.test(l[0] ?? ''), 'the too-small notice');
    await tmux('resize-window', '-t', SESSION, '-x', '140', '-y', '45');
    await untilScreen(
      (l) => l.some((x) => x.includes('★ LEADER')) && l.some((x) => x.startsWith('── events')),
      'the full view again',
    );
  });

  it('q quits and ends the program', async () => {
    await tmux('send-keys', '-t', SESSION, 'q');
    await waitFor(
      async () => (await tmux('has-session', '-t', SESSION)).exitCode !== 0,
      'the inspect process to exit',
      10_000,
      100,
    );
  });
});
