import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { renderContenders, renderSpawned } from '../../../src/cli/views/contenders.js';
import { requireContenderSpec } from '../../../src/contenders/spec.js';
import { labSessionBounds } from '../../../src/ensemble/config.js';
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

describe('contenders spawn: the session timeout the servers granted', () => {
  const spawned = (grantedTimeoutMs: number) => [info('c1', { recipe: 'predecessor', grantedTimeoutMs })];

  it("says what the lab's servers grant, from its own numbers, when they granted other than was asked", () => {
    const req = requireContenderSpec({ count: 1, sessionTimeout: '90s' });
    const grants = labSessionBounds(200);
    const out = plain(renderSpawned(req, { spawned: spawned(60_000), all: spawned(60_000), grants }));
    expect(out.replace(/\n\s+/g, ' ')).toMatch(
      /session timeout 1m00s as the servers granted it, 1m30s asked: the lab's servers grant 400ms to 1m00s\)/,
    );
  });

  it('names no range for an ensemble outside the lab, and no words when the ask was granted', () => {
    const req = requireContenderSpec({ count: 1, sessionTimeout: '90s' });
    const out = plain(renderSpawned(req, { spawned: spawned(40_000), all: spawned(40_000) })).replace(/\n\s+/g, ' ');
    expect(out).toMatch(/40s as the servers granted it, 1m30s asked: the servers grant what their min and maxSession/);
    const same = plain(renderSpawned(req, { spawned: spawned(90_000), all: spawned(90_000) }));
    expect(same).toMatch(/\(predecessor, session timeout 1m30s\)/);
  });
});
