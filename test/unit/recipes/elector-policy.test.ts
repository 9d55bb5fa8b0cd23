import { describe, expect, it } from 'vitest';
import { chooseCandidate, compareIds, type Candidate } from '../../../src/recipes/elector-policy.js';

const m = (id: string, priority: number, sequence: number, site: string | null = null): Candidate => ({
  id,
  priority,
  site,
  sequence,
});

// Sequences deliberately disagree with both id order and priority order.
const members = [m('c1', 5, 7, 'east'), m('c2', 9, 3, 'west'), m('c3', 9, 1, 'east'), m('c10', 1, 0, 'west')];

describe('chooseCandidate', () => {
  it('returns null when there is nobody, or everybody is excluded', () => {
    for (const policy of ['priority', 'site', 'first', 'round-robin'] as const) {
      expect(chooseCandidate(policy, [])).toBeNull();
      expect(chooseCandidate(policy, members, { excluded: new Set(members.map((x) => x.id)) })).toBeNull();
    }
  });

  describe('priority', () => {
    it('takes the highest priority, breaking ties by the lowest election sequence', () => {
      expect(chooseCandidate('priority', members)).toBe('c3');
      expect(chooseCandidate('priority', [m('a', 2, 9), m('b', 2, 4), m('c', 1, 0)])).toBe('b');
    });

    it('skips excluded candidates', () => {
      expect(chooseCandidate('priority', members, { excluded: new Set(['c3']) })).toBe('c2');
      expect(chooseCandidate('priority', members, { excluded: new Set(['c3', 'c2']) })).toBe('c1');
    });

    it('puts a member without an election znode (sequence Infinity) after its equals, and breaks full ties by id', () => {
      expect(chooseCandidate('priority', [m('a', 3, Infinity), m('b', 3, 8)])).toBe('b');
      expect(chooseCandidate('priority', [m('b', 3, Infinity), m('a', 3, Infinity)])).toBe('a');
    });

    it('handles negative priorities', () => {
      expect(chooseCandidate('priority', [m('a', -1, 0), m('b', -5, 1)])).toBe('a');
    });
  });

  describe('first', () => {
    it('takes the lowest election sequence whatever the priorities', () => {
      expect(chooseCandidate('first', members)).toBe('c10');
      expect(chooseCandidate('first', members, { excluded: new Set(['c10']) })).toBe('c3');
    });
  });

  describe('site', () => {
    it('prefers the site of a previous leader that is still a member, then priority within it', () => {
      expect(chooseCandidate('site', members, { previousLeader: 'c10' })).toBe('c2');
      expect(chooseCandidate('site', members, { previousLeader: 'c1' })).toBe('c3');
    });

    it('uses the remembered site when the previous leader is gone', () => {
      expect(chooseCandidate('site', members, { previousLeader: 'gone', previousSite: 'west' })).toBe('c2');
      expect(chooseCandidate('site', members, { previousLeader: 'gone', previousSite: 'east' })).toBe('c3');
    });

    it('prefers a low-priority member of the site over a high-priority one elsewhere', () => {
      const two = [m('hi', 9, 0, 'east'), m('lo', 1, 1, 'west')];
      expect(chooseCandidate('site', two, { previousSite: 'west' })).toBe('lo');
    });

    it('falls back to other sites when the site has no eligible member', () => {
      expect(chooseCandidate('site', members, { previousSite: 'west', excluded: new Set(['c2', 'c10']) })).toBe('c3');
    });

    it('is plain priority when no previous site is known', () => {
      expect(chooseCandidate('site', members)).toBe('c3');
      expect(chooseCandidate('site', members, { previousLeader: 'gone' })).toBe('c3');
    });
  });

  describe('round-robin', () => {
    it('takes the next id after the previous leader, with numeric id order', () => {
      expect(chooseCandidate('round-robin', members, { previousLeader: 'c1' })).toBe('c2');
      expect(chooseCandidate('round-robin', members, { previousLeader: 'c3' })).toBe('c10');
    });

    it('wraps around after the last id', () => {
      expect(chooseCandidate('round-robin', members, { previousLeader: 'c10' })).toBe('c1');
    });

    it('continues from a previous leader that is no longer a member', () => {
      expect(chooseCandidate('round-robin', members, { previousLeader: 'c2x' })).toBe('c3');
      expect(chooseCandidate('round-robin', members, { previousLeader: 'c5' })).toBe('c10');
    });

    it('skips excluded ids and starts at the lowest id without a previous leader', () => {
      expect(chooseCandidate('round-robin', members, { previousLeader: 'c1', excluded: new Set(['c2']) })).toBe('c3');
      expect(chooseCandidate('round-robin', members)).toBe('c1');
    });

    it('comes back to the same member when it is the only one', () => {
      expect(chooseCandidate('round-robin', [m('solo', 0, 0)], { previousLeader: 'solo' })).toBe('solo');
    });
  });
});

describe('compareIds', () => {
  it('orders embedded numbers numerically', () => {
    expect(['c10', 'c2', 'c1', 'b3'].sort(compareIds)).toEqual(['b3', 'c1', 'c2', 'c10']);
  });
});
