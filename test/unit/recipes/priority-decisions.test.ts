import { describe, expect, it } from 'vitest';
import { contenderAction, type ContenderView } from '../../../src/recipes/priority-decisions.js';
import { decide, held, member, MEMBERS } from './elector-fixtures.js';

describe('contenderAction', () => {
  const me = { me: 'c1', mySession: 's1', takeover: 'none' as const };
  const mine = (ready: boolean) => ({ ownerSession: 's1', ready, czxid: 40 });
  const theirs = (ready: boolean) => ({ ownerSession: 's2', ready, czxid: 30 });
  const act = (v: Partial<ContenderView>) => contenderAction({ ...me, elected: null, current: null, ...v });

  it('creates leader/current when named and it is free', () => {
    expect(act({ elected: 'c1' })).toEqual({ kind: 'create-current' });
  });

  it('waits for the holder to let go when named while someone else holds it', () => {
    expect(act({ elected: 'c1', current: theirs(true) })).toEqual({ kind: 'await-release' });
    expect(act({ elected: 'c1', current: theirs(false) })).toEqual({ kind: 'await-release' });
  });

  it('follows when not named and not holding, whatever the state of leader/current', () => {
    for (const current of [null, theirs(true), theirs(false)]) {
      expect(act({ elected: 'c2', current })).toEqual({ kind: 'follow' });
      expect(act({ elected: null, current })).toEqual({ kind: 'follow' });
    }
  });

  it('walks its own PROGRESS current through the takeover stages', () => {
    expect(act({ elected: 'c1', current: mine(false), takeover: 'none' })).toEqual({
      kind: 'start-takeover',
      czxid: 40,
    });
    expect(act({ elected: 'c1', current: mine(false), takeover: 'running' })).toEqual({ kind: 'await-takeover' });
    expect(act({ elected: 'c1', current: mine(false), takeover: 'done' })).toEqual({ kind: 'set-ready', czxid: 40 });
  });

  it('leads on its own READY current while named, or while elected is missing', () => {
    expect(act({ elected: 'c1', current: mine(true) })).toEqual({ kind: 'lead', czxid: 40 });
    expect(act({ elected: null, current: mine(true) })).toEqual({ kind: 'lead', czxid: 40 });
  });

  it('releases its current, READY or not, as soon as elected names someone else', () => {
    expect(act({ elected: 'c2', current: mine(true) })).toEqual({ kind: 'release', czxid: 40 });
    expect(act({ elected: 'c2', current: mine(false), takeover: 'done' })).toEqual({ kind: 'release', czxid: 40 });
  });

  it('neither proceeds nor lets go of a PROGRESS current while elected is missing', () => {
    expect(act({ elected: null, current: mine(false), takeover: 'done' })).toEqual({ kind: 'hold' });
  });
});

describe('electorDecision', () => {
  it('elects by policy when nobody was ever elected', () => {
    expect(decide({})).toEqual({ kind: 'elect', candidate: 'c2', exclude: null, reason: 'policy' });
  });

  it('is settled when the elected contender holds a READY current', () => {
    expect(decide({ elected: 'c3', current: held('c3', true) })).toEqual({ kind: 'settled', leader: 'c3' });
  });

  it('does not pre-empt a live leader when a better contender is around', () => {
    expect(decide({ elected: 'c1', current: held('c1', true) })).toEqual({ kind: 'settled', leader: 'c1' });
  });

  it('waits, with the watchdog running, while the elected contender takes over or has not started', () => {
    expect(decide({ elected: 'c3', current: held('c3', false) })).toEqual({
      kind: 'wait',
      candidate: 'c3',
      blockedBy: null,
    });
    expect(decide({ elected: 'c3' })).toEqual({ kind: 'wait', candidate: 'c3', blockedBy: null });
  });

  it('waits without blaming the candidate while another contender, or an unknown session, still holds current', () => {
    expect(decide({ elected: 'c3', current: held('c1', true) })).toEqual({
      kind: 'wait',
      candidate: 'c3',
      blockedBy: 'c1',
    });
    expect(decide({ elected: 'c3', current: { ownerSession: 'stranger', ready: false } })).toEqual({
      kind: 'wait',
      candidate: 'c3',
      blockedBy: 'stranger',
    });
    expect(decide({ elected: 'c3', current: held('c1', false), watchdogFired: 'c3' })).toEqual({
      kind: 'wait',
      candidate: 'c3',
      blockedBy: 'c1',
    });
  });

  it('excludes a candidate whose watchdog ran out before READY and elects the next one', () => {
    expect(decide({ elected: 'c2', current: held('c2', false), watchdogFired: 'c2' })).toEqual({
      kind: 'elect',
      candidate: 'c3',
      exclude: 'c2',
      reason: 'policy',
    });
    expect(decide({ elected: 'c2', watchdogFired: 'c2' })).toEqual({
      kind: 'elect',
      candidate: 'c3',
      exclude: 'c2',
      reason: 'policy',
    });
  });

  it('ignores a watchdog that fired for someone no longer elected, or after READY', () => {
    expect(decide({ elected: 'c3', watchdogFired: 'c2' })).toEqual({ kind: 'wait', candidate: 'c3', blockedBy: null });
    expect(decide({ elected: 'c2', current: held('c2', true), watchdogFired: 'c2' })).toEqual({
      kind: 'settled',
      leader: 'c2',
    });
  });

  it('elects again when the elected contender is gone, from the previous leader for round-robin', () => {
    const rest = MEMBERS.filter((m) => m.id !== 'c2');
    expect(decide({ members: rest, elected: 'c2' })).toEqual({
      kind: 'elect',
      candidate: 'c3',
      exclude: null,
      reason: 'policy',
    });
    expect(decide({ members: rest, elected: 'c2', policy: 'round-robin' })).toEqual({
      kind: 'elect',
      candidate: 'c3',
      exclude: null,
      reason: 'policy',
    });
    expect(decide({ members: rest, elected: 'c2', policy: 'round-robin', previousLeader: 'c3' })).toEqual({
      kind: 'elect',
      candidate: 'c1',
      exclude: null,
      reason: 'policy',
    });
  });

  it('passes the remembered site of a departed leader to the site policy', () => {
    const rest = MEMBERS.filter((m) => m.id !== 'c2');
    expect(
      decide({ members: [...rest, member('c4', 0, 3, 'b')], elected: 'c2', policy: 'site', previousSite: 'b' }),
    ).toMatchObject({ candidate: 'c4' });
  });

  it('elects the live holder of current again when elected is missing or names the departed (NL == CL)', () => {
    expect(decide({ elected: null, current: held('c1', true) })).toEqual({
      kind: 'elect',
      candidate: 'c1',
      exclude: null,
      reason: 'holder',
    });
    expect(decide({ elected: 'gone', current: held('c3', false) })).toEqual({
      kind: 'elect',
      candidate: 'c3',
      exclude: null,
      reason: 'holder',
    });
  });

  it('passes over an excluded holder and an excluded elected contender', () => {
    const excluded = new Set(['c2']);
    expect(decide({ elected: 'c2', current: held('c2', false), excluded })).toEqual({
      kind: 'elect',
      candidate: 'c3',
      exclude: null,
      reason: 'policy',
    });
  });

  it('forgives every exclusion when nobody else is left, trying the one just given up on last', () => {
    const excluded = new Set(['c1', 'c3']);
    expect(decide({ elected: 'c2', watchdogFired: 'c2', excluded })).toEqual({
      kind: 'elect',
      candidate: 'c3',
      exclude: 'c2',
      reason: 'forgiven',
    });
    const one = [member('c1', 1, 0)];
    expect(decide({ members: one, elected: 'c1', watchdogFired: 'c1' })).toEqual({
      kind: 'elect',
      candidate: 'c1',
      exclude: 'c1',
      reason: 'forgiven',
    });
  });

  it('has nothing to do without members', () => {
    expect(decide({ members: [] })).toEqual({ kind: 'none', exclude: null });
    expect(decide({ members: [], elected: 'c1', current: held('c1', false) })).toEqual({ kind: 'none', exclude: null });
  });
});
