import { describe, expect, it } from 'vitest';
import { chooseCandidate, outranks, type Candidate } from '../../../src/recipes/elector-policy.js';
import { decide, held, member } from './elector-fixtures.js';

const m = (id: string, priority: number, sequence: number, site: string | null = null): Candidate => ({
  id,
  priority,
  site,
  sequence,
});

// Site a holds the lowest priority, the null-site member the highest; sequences disagree with both.
const a1 = m('a1', 1, 5, 'a');
const a5 = m('a5', 5, 3, 'a');
const b9 = m('b9', 9, 1, 'b');
const c7 = m('c7', 7, 0, 'c');
const n99 = m('n99', 99, 2, null);
const members = [a1, b9, c7, n99];

describe('chooseCandidate with the administrator site order', () => {
  describe('priority', () => {
    it('ranks by site order before priority', () => {
      expect(chooseCandidate('priority', members)).toBe('n99');
      expect(chooseCandidate('priority', members, { siteOrder: ['a', 'b'] })).toBe('a1');
      expect(chooseCandidate('priority', members, { siteOrder: ['b', 'a'] })).toBe('b9');
    });

    it('puts unlisted sites and the null site after the listed ones, by priority among themselves', () => {
      expect(chooseCandidate('priority', members, { siteOrder: ['a', 'b'], excluded: new Set(['a1']) })).toBe('b9');
      expect(chooseCandidate('priority', members, { siteOrder: ['a', 'b'], excluded: new Set(['a1', 'b9']) })).toBe(
        'n99',
      );
      expect(
        chooseCandidate('priority', members, { siteOrder: ['a', 'b'], excluded: new Set(['a1', 'b9', 'n99']) }),
      ).toBe('c7');
      expect(chooseCandidate('priority', [m('x', 1, 0, null), m('y', 2, 1, 'z')], { siteOrder: ['a'] })).toBe('y');
    });

    it('skips listed sites without members', () => {
      expect(chooseCandidate('priority', members, { siteOrder: ['ghost', 'c', 'a'] })).toBe('c7');
    });

    it('is plain priority with an empty site order', () => {
      expect(chooseCandidate('priority', members, { siteOrder: [] })).toBe('n99');
    });

    it('breaks ties of site and priority by the lowest election sequence', () => {
      const tied = [m('x', 5, 4, 'a'), m('y', 5, 2, 'a'), m('z', 5, 1, 'b'), m('w', 5, 0, null)];
      expect(chooseCandidate('priority', tied, { siteOrder: ['a'] })).toBe('y');
      expect(chooseCandidate('priority', tied, { siteOrder: ['a'], excluded: new Set(['y']) })).toBe('x');
      expect(chooseCandidate('priority', tied, { siteOrder: ['c'] })).toBe('w');
    });
  });

  describe('site', () => {
    it('follows the site order rather than the previous leader', () => {
      expect(chooseCandidate('site', members, { previousLeader: 'a1' })).toBe('a1');
      expect(chooseCandidate('site', members, { previousLeader: 'a1', siteOrder: ['b'] })).toBe('b9');
      expect(
        chooseCandidate('site', members, { previousLeader: 'gone', previousSite: 'c', siteOrder: ['a', 'c'] }),
      ).toBe('a1');
    });

    it('ranks by site order, then priority, with unlisted and null sites last', () => {
      expect(chooseCandidate('site', [a1, a5, b9, n99], { siteOrder: ['a'] })).toBe('a5');
      expect(chooseCandidate('site', members, { siteOrder: ['a'], excluded: new Set(['a1']) })).toBe('n99');
      expect(
        chooseCandidate('site', members, { siteOrder: ['b'], excluded: new Set(['b9']), previousLeader: 'c7' }),
      ).toBe('n99');
    });

    it('without a site order (or with an empty one) still prefers the previous leader’s site', () => {
      expect(chooseCandidate('site', members, { previousLeader: 'c7' })).toBe('c7');
      expect(chooseCandidate('site', members, { previousLeader: 'b9', siteOrder: [] })).toBe('b9');
      expect(chooseCandidate('site', [a1, a5, b9], { previousLeader: 'a1', siteOrder: [] })).toBe('a5');
      expect(chooseCandidate('site', members, { previousLeader: 'gone', previousSite: 'a', siteOrder: [] })).toBe('a1');
    });
  });
});

describe('outranks', () => {
  it('is true only for a strictly higher priority under the priority policy', () => {
    expect(outranks('priority', members, b9, a1)).toBe(true);
    expect(outranks('priority', members, a1, b9)).toBe(false);
    expect(outranks('priority', members, b9, b9)).toBe(false);
  });

  it('puts the site order before priority', () => {
    expect(outranks('priority', members, a1, b9, { siteOrder: ['a'] })).toBe(true);
    expect(outranks('priority', members, b9, a1, { siteOrder: ['a'] })).toBe(false);
    expect(outranks('priority', members, c7, n99, { siteOrder: ['c'] })).toBe(true);
    expect(outranks('priority', members, n99, c7, { siteOrder: ['c'] })).toBe(false);
    // Both unlisted: priority decides.
    expect(outranks('priority', members, n99, c7, { siteOrder: ['a'] })).toBe(true);
  });

  it('never pre-empts on a tie, however much older the challenger', () => {
    const old = m('old', 5, 0, 'a');
    const young = m('young', 5, 9, 'a');
    for (const policy of ['priority', 'site'] as const) {
      expect(outranks(policy, [old, young], old, young)).toBe(false);
      expect(outranks(policy, [old, young], young, old)).toBe(false);
      expect(outranks(policy, [old, young], old, young, { siteOrder: ['a'] })).toBe(false);
    }
    // Same rank through unlisted sites of different names.
    expect(outranks('priority', members, m('p', 7, 0, 'x'), c7, { siteOrder: ['a'] })).toBe(false);
  });

  it('ranks by the previous leader’s site under the site policy without a site order', () => {
    expect(outranks('site', members, b9, a1, { previousLeader: 'a1' })).toBe(false);
    expect(outranks('site', [...members, a5], a5, a1, { previousLeader: 'a1' })).toBe(true);
    expect(outranks('site', members, b9, a1, { previousLeader: 'a1', siteOrder: ['b'] })).toBe(true);
    expect(outranks('site', members, a1, b9, { previousLeader: 'gone', previousSite: 'a' })).toBe(true);
  });

  it('is always false for first and round-robin', () => {
    for (const policy of ['first', 'round-robin'] as const) {
      for (const [x, y] of [
        [b9, a1],
        [a1, b9],
        [c7, a1],
        [n99, c7],
      ] as const) {
        expect(outranks(policy, members, x, y)).toBe(false);
        expect(outranks(policy, members, x, y, { siteOrder: [x.site ?? 'a'], previousLeader: y.id })).toBe(false);
      }
    }
  });
});

describe('electorDecision with preempt', () => {
  it('replaces a settled leader with a strictly better member', () => {
    expect(decide({ elected: 'c1', current: held('c1', true), preempt: true })).toEqual({
      kind: 'elect',
      candidate: 'c2',
      exclude: null,
      reason: 'preempt',
    });
    expect(decide({ elected: 'c3', current: held('c3', true), preempt: true })).toEqual({
      kind: 'elect',
      candidate: 'c2',
      exclude: null,
      reason: 'preempt',
    });
  });

  it('keeps a settled leader nobody outranks', () => {
    expect(decide({ elected: 'c2', current: held('c2', true), preempt: true })).toEqual({
      kind: 'settled',
      leader: 'c2',
    });
  });

  it('does not replace a leader on a tie, even by an older member', () => {
    const tied = [member('c1', 5, 0, 'a'), member('c2', 5, 1, 'a')];
    expect(decide({ members: tied, elected: 'c2', current: held('c2', true), preempt: true })).toEqual({
      kind: 'settled',
      leader: 'c2',
    });
    expect(
      decide({ members: tied, elected: 'c2', current: held('c2', true), preempt: true, siteOrder: ['a'] }),
    ).toEqual({ kind: 'settled', leader: 'c2' });
  });

  it('does not replace a live leader with preempt false or absent', () => {
    expect(decide({ elected: 'c1', current: held('c1', true), preempt: false })).toEqual({
      kind: 'settled',
      leader: 'c1',
    });
    expect(decide({ elected: 'c1', current: held('c1', true) })).toEqual({ kind: 'settled', leader: 'c1' });
    expect(decide({ elected: 'c2', current: held('c2', true), siteOrder: ['a'], preempt: false })).toEqual({
      kind: 'settled',
      leader: 'c2',
    });
  });

  it('does not let an excluded member pre-empt, but the next best one may', () => {
    expect(decide({ elected: 'c3', current: held('c3', true), preempt: true, excluded: new Set(['c2']) })).toEqual({
      kind: 'settled',
      leader: 'c3',
    });
    expect(decide({ elected: 'c1', current: held('c1', true), preempt: true, excluded: new Set(['c2']) })).toEqual({
      kind: 'elect',
      candidate: 'c3',
      exclude: null,
      reason: 'preempt',
    });
    expect(
      decide({ elected: 'c1', current: held('c1', true), preempt: true, excluded: new Set(['c2', 'c3']) }),
    ).toEqual({ kind: 'settled', leader: 'c1' });
  });

  it('lets a lower-priority member of the preferred site pre-empt when the site order changes', () => {
    expect(decide({ elected: 'c2', current: held('c2', true), preempt: true, siteOrder: ['a'] })).toEqual({
      kind: 'elect',
      candidate: 'c3',
      exclude: null,
      reason: 'preempt',
    });
    expect(decide({ elected: 'c2', current: held('c2', true), preempt: true, siteOrder: ['b', 'a'] })).toEqual({
      kind: 'settled',
      leader: 'c2',
    });
    expect(decide({ elected: 'c3', current: held('c3', true), preempt: true, siteOrder: ['b'] })).toEqual({
      kind: 'elect',
      candidate: 'c2',
      exclude: null,
      reason: 'preempt',
    });
  });

  it('replaces a waiting candidate (elected, not READY yet) with a strictly better member', () => {
    expect(decide({ elected: 'c1', current: held('c1', false), preempt: true })).toEqual({
      kind: 'elect',
      candidate: 'c2',
      exclude: null,
      reason: 'preempt',
    });
    expect(decide({ elected: 'c1', preempt: true })).toEqual({
      kind: 'elect',
      candidate: 'c2',
      exclude: null,
      reason: 'preempt',
    });
    expect(decide({ elected: 'c3', current: held('c1', true), preempt: true })).toEqual({
      kind: 'elect',
      candidate: 'c2',
      exclude: null,
      reason: 'preempt',
    });
    // Without preempt the same candidate is waited for.
    expect(decide({ elected: 'c1', current: held('c1', false), preempt: false })).toEqual({
      kind: 'wait',
      candidate: 'c1',
      blockedBy: null,
    });
    // A waiting best candidate is waited for.
    expect(decide({ elected: 'c2', current: held('c2', false), preempt: true })).toEqual({
      kind: 'wait',
      candidate: 'c2',
      blockedBy: null,
    });
  });

  it('excludes a candidate whose watchdog ran out rather than pre-empting it', () => {
    expect(decide({ elected: 'c1', current: held('c1', false), watchdogFired: 'c1', preempt: true })).toEqual({
      kind: 'elect',
      candidate: 'c2',
      exclude: 'c1',
      reason: 'policy',
    });
  });

  it('never pre-empts under first or round-robin', () => {
    for (const policy of ['first', 'round-robin'] as const) {
      expect(decide({ policy, elected: 'c3', current: held('c3', true), preempt: true })).toEqual({
        kind: 'settled',
        leader: 'c3',
      });
      expect(decide({ policy, elected: 'c3', current: held('c3', true), preempt: true, siteOrder: ['b'] })).toEqual({
        kind: 'settled',
        leader: 'c3',
      });
    }
  });

  it('pre-empts within the elected leader’s site under the site policy without a site order', () => {
    expect(decide({ policy: 'site', elected: 'c1', current: held('c1', true), preempt: true })).toEqual({
      kind: 'elect',
      candidate: 'c3',
      exclude: null,
      reason: 'preempt',
    });
    expect(decide({ policy: 'site', elected: 'c3', current: held('c3', true), preempt: true })).toEqual({
      kind: 'settled',
      leader: 'c3',
    });
    expect(
      decide({ policy: 'site', elected: 'c3', current: held('c3', true), preempt: true, siteOrder: ['b'] }),
    ).toEqual({
      kind: 'elect',
      candidate: 'c2',
      exclude: null,
      reason: 'preempt',
    });
  });
});
