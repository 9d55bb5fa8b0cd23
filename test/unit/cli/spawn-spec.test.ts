import { describe, expect, it } from 'vitest';
import { CONTENDER_FIELDS, SPEC_FIELDS } from '../../../src/contenders/fields.js';
import { SPAWN_HELP_ORDER, specInput } from '../../../src/cli/spawn-spec.js';

describe('the contender spec on a command line', () => {
  it('lists every field of the table once in --help', () => {
    expect([...SPAWN_HELP_ORDER].sort()).toEqual([...SPEC_FIELDS].sort());
  });

  it('carries each field by an option of its own', () => {
    const options = SPEC_FIELDS.map((f) => CONTENDER_FIELDS[f].option);
    expect(new Set(options).size).toBe(options.length);
  });

  it('reads each field from its option, and the program after -- only with --exec', () => {
    expect(specInput({ count: '3', recipe: 'herd', 'takeover-ms': '1s', priority: '5,3,1' })).toEqual({
      count: '3',
      recipe: 'herd',
      takeoverMs: '1s',
      priorities: '5,3,1',
    });
    expect(specInput({ count: '2', exec: true, '--': ['python3', 'x.py', 7] })).toEqual({
      count: '2',
      exec: ['python3', 'x.py', '7'],
    });
    expect(() => specInput({ count: '2', '--': ['python3'] })).toThrow('"python3" after -- is only read with --exec');
  });
});
