import { describe, expect, it } from 'vitest';
import {
  ownMemberInfo,
  parseMemberInfo,
  priorityPaths,
  takeoverMsOf,
  watchdogMsOf,
} from '../../../src/recipes/priority-layout.js';

describe('priorityPaths', () => {
  it('lays nodes, election and leader out under the path', () => {
    expect(priorityPaths('/zklab/p')).toEqual({
      nodes: '/zklab/p/nodes',
      election: '/zklab/p/election',
      leader: '/zklab/p/leader',
      elected: '/zklab/p/leader/elected',
      current: '/zklab/p/leader/current',
    });
  });
});

describe('timings', () => {
  it('defaults the takeover to 500 ms and the watchdog to three takeovers plus a second', () => {
    expect(takeoverMsOf({})).toBe(500);
    expect(watchdogMsOf({})).toBe(2500);
    expect(watchdogMsOf({ takeoverMs: 100 })).toBe(1300);
    expect(watchdogMsOf({ takeoverMs: 100, watchdogMs: 50 })).toBe(50);
  });
});

describe('member info', () => {
  it('writes id, pid, priority and site, the options winning over memberData', () => {
    const data = JSON.stringify({ id: 'ignored', pid: 77, recipe: 'priority', priority: 3, site: 'east' });
    expect(ownMemberInfo({ id: 'c1' }, data, 1)).toEqual({ id: 'c1', pid: 77, priority: 3, site: 'east' });
    expect(ownMemberInfo({ id: 'c1', priority: 8, site: 'west' }, data, 1)).toEqual({
      id: 'c1',
      pid: 77,
      priority: 8,
      site: 'west',
    });
    expect(ownMemberInfo({ id: 'c1' }, 'not json', 42)).toEqual({ id: 'c1', pid: 42, priority: 0, site: null });
  });

  it('reads a member leniently, naming it after its znode', () => {
    expect(parseMemberInfo('c2', JSON.stringify({ id: 'x', pid: 5, priority: 4, site: 'b' }))).toEqual({
      id: 'c2',
      pid: 5,
      priority: 4,
      site: 'b',
    });
    expect(parseMemberInfo('c3', '')).toEqual({ id: 'c3', pid: 0, priority: 0, site: null });
    expect(parseMemberInfo('c4', JSON.stringify({ priority: '9', site: '' }))).toEqual({
      id: 'c4',
      pid: 0,
      priority: 0,
      site: null,
    });
    expect(parseMemberInfo('c5', '[1,2]')).toEqual({ id: 'c5', pid: 0, priority: 0, site: null });
  });
});
