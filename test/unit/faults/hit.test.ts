import { describe, expect, it } from 'vitest';
import { hitWords } from '../../../src/faults/hit.js';

const c2 = { name: 'c2', kind: 'contender' } as const;

describe('what a fault says it hit', () => {
  it('names the program by its pid, and the other processes of its node it reached', () => {
    expect(hitWords({ target: c2, pid: 412, processes: 1 })).toBe('c2 (pid 412)');
    expect(hitWords({ target: c2, pid: 412, processes: 3 })).toBe('c2 (pid 412) and 2 other processes of its node');
    expect(hitWords({ target: c2, pid: 412, processes: 2 })).toBe('c2 (pid 412) and 1 other process of its node');
    expect(hitWords({ target: { name: 'zk1', kind: 'server' }, pid: 9 })).toBe('zk1 (pid 9)');
  });

  it('gives no pid when the program was not running: its node, and how many processes', () => {
    expect(hitWords({ target: c2, processes: 5 })).toBe("c2's node, 5 processes (its program was not running)");
    expect(hitWords({ target: c2, processes: 1 })).toBe("c2's node, 1 process (its program was not running)");
  });
});
