import { describe, expect, it } from 'vitest';
import { findByGuid, predecessorOf, sameGuid, sequenceOf, sortBySequence } from '../../../src/recipes/sequence.js';
import { basename } from '../../../src/zk/paths.js';

describe('sequenceOf', () => {
  it('reads the 10-digit suffix ZooKeeper appends', () => {
    expect(sequenceOf('5f0c-n_0000000042')).toBe(42);
    expect(sequenceOf('_c_1a2b-latch-0000000003')).toBe(3);
    expect(sequenceOf('n_2147483647')).toBe(2147483647);
  });

  it('is null for names without a full 10-digit suffix', () => {
    expect(sequenceOf('leader')).toBeNull();
    expect(sequenceOf('n_000000042')).toBeNull();
    expect(sequenceOf('n_0000000042x')).toBeNull();
  });
});

describe('sortBySequence', () => {
  it('orders by the suffix only, so Curator names and zklab names interleave correctly', () => {
    const children = ['zzz-n_0000000005', '_c_0b1f-latch-0000000002', 'aaa-n_0000000010', '_c_ffff-latch-0000000001'];
    expect(sortBySequence(children)).toEqual([
      '_c_ffff-latch-0000000001',
      '_c_0b1f-latch-0000000002',
      'zzz-n_0000000005',
      'aaa-n_0000000010',
    ]);
  });

  it('leaves out names without a sequence and does not touch its input', () => {
    const children = ['b-n_0000000002', 'lock', 'a-n_0000000001'];
    expect(sortBySequence(children)).toEqual(['a-n_0000000001', 'b-n_0000000002']);
    expect(children).toEqual(['b-n_0000000002', 'lock', 'a-n_0000000001']);
  });

  it('breaks equal sequences (different parents merged, say) by name', () => {
    expect(sortBySequence(['b-n_0000000001', 'a-n_0000000001'])).toEqual(['a-n_0000000001', 'b-n_0000000001']);
  });
});

describe('predecessorOf', () => {
  const children = ['c-n_0000000007', 'a-n_0000000002', 'b-n_0000000004', 'other'];

  it('is null for the first in sequence order', () => {
    expect(predecessorOf(children, 'a-n_0000000002')).toBeNull();
  });

  it('is the znode just before, skipping gaps in the numbering', () => {
    expect(predecessorOf(children, 'b-n_0000000004')).toBe('a-n_0000000002');
    expect(predecessorOf(children, 'c-n_0000000007')).toBe('b-n_0000000004');
  });

  it('is undefined when our znode is not among the children', () => {
    expect(predecessorOf(children, 'd-n_0000000009')).toBeUndefined();
    expect(predecessorOf(children, 'other')).toBeUndefined();
  });
});

describe('findByGuid', () => {
  const guid = '3f2a9c1e-0000-4000-8000-000000000001';

  it('finds the znode whose name starts with our GUID', () => {
    expect(findByGuid(['x-n_0000000001', `${guid}-n_0000000002`], guid)).toBe(`${guid}-n_0000000002`);
  });

  it('does not match a GUID that only shares a prefix, or a Curator name holding it elsewhere', () => {
    expect(findByGuid([`${guid}0-n_0000000001`, `_c_${guid}-latch-0000000002`], guid)).toBeUndefined();
  });
});

describe('sameGuid', () => {
  const guid = '3f2a9c1e-0000-4000-8000-000000000001';

  it('pairs two places made under one GUID (a lost create and its retry), and nothing else', () => {
    expect(sameGuid(`${guid}-n_0000000001`, `${guid}-n_0000000007`)).toBe(true);
    expect(sameGuid(`${guid}-n_0000000001`, '3f2a9c1e-0000-4000-8000-000000000002-n_0000000007')).toBe(false);
    expect(sameGuid('x-n_0000000001', 'x-n_0000000002')).toBe(false);
  });
});

describe('basename', () => {
  it('is the last path segment', () => {
    expect(basename('/e/election/a-n_0000000001')).toBe('a-n_0000000001');
    expect(basename('leader')).toBe('leader');
  });
});
