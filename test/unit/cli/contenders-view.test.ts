import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderContenders } from '../../../src/cli/views/contenders.js';
import type { ContenderInfo } from '../../../src/contenders/service.js';

const plain = stripVTControlCharacters;

function info(id: string, f: Partial<ContenderInfo> = {}): ContenderInfo {
  return {
    id,
    pid: 4000 + Number(id.slice(1)),
    alive: true,
    node: 7,
    probed: null,
    recipe: 'exec',
    path: '/ha',
    priority: null,
    site: null,
    workload: null,
    state: 'running',
    stateSince: null,
    session: `1c53c000${id.slice(1)}aa`,
    sessions: [],
    znode: null,
    watching: null,
    childWatches: [],
    token: null,
    lastEventAt: null,
    grantedTimeoutMs: 2000,
    ...f,
  };
}

describe('contenders list: nodes, what their programs left, and what their probes say', () => {
  const list = [
    info('c1', { alive: false, state: 'dead', node: 5, probed: { leads: true, since: 1 } }),
    info('c2', { probed: { leads: false, since: 1 } }),
    info('c3', { probed: { leads: true, since: 2 } }),
    info('c4', { alive: false, state: 'dead', node: 0 }),
  ];

  it('counts each node, keeps a dead program whose node lives, and names the pair that acts as leader at once', () => {
    const lines = plain(renderContenders(list)).split('\n');
    expect(lines[0]).toMatch(/^id\s+pid\s+procs\s+runs\s+state\s+probe\s+znode\s+session\s+watching$/);
    expect(lines[1]).toMatch(/^c1\s+4001\s+5\s+program\s+dead\s+acts\s/);
    expect(lines[2]).toMatch(/^c2\s+4002\s+7\s+program\s+running\s+no\s/);
    expect(lines[3]).toMatch(/^c3\s+4003\s+7\s+program\s+running\s+acts\s/);
    expect(lines.slice(4)).toEqual([
      "c1's program is dead, its node holds 5 processes still: `zklab contenders stop c1` ends them",
      '! split brain: c1 and c3 act as leader at once, by their probes',
      '1 dead or stopped contender not shown: `zklab contenders list --all`',
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('says nothing of probes when none runs, and nothing of a split when one node acts', () => {
    const out = plain(renderContenders([info('c1'), info('c2', { probed: { leads: true, since: 1 } })]));
    expect(out).not.toMatch(/split brain/);
    expect(plain(renderContenders([info('c1')]))).not.toMatch(/probe/);
  });
});
