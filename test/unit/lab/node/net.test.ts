import { describe, expect, it } from 'vitest';
import { freeContenderAddr, nsName, serverAddr } from '../../../../src/lab/node/net.js';
import { LabPaths } from '../../../../src/lab/paths.js';

describe('node network addresses and names', () => {
  it('servers at .11 to .19 by id; contenders from .32, the lowest free one, never a server address', () => {
    expect(serverAddr({ subnet: '198.18.4' }, 1)).toBe('198.18.4.11');
    expect(serverAddr({ subnet: '198.18.4' }, 9)).toBe('198.18.4.19');
    const addrs = { zk1: '198.18.4.11', c1: '198.18.4.32', c3: '198.18.4.34' };
    expect(freeContenderAddr({ subnet: '198.18.4', addrs })).toBe('198.18.4.33');
  });

  it('a full /24 is refused with what to do', () => {
    const addrs = Object.fromEntries(Array.from({ length: 223 }, (_, i) => [`c${i + 1}`, `198.18.4.${32 + i}`]));
    expect(() => freeContenderAddr({ subnet: '198.18.4', addrs })).toThrow(/stop some contenders/);
  });

  it("every name carries the lab's own prefix, and two labs never share one", () => {
    const [a, b] = [new LabPaths('/tmp/lab-a'), new LabPaths('/tmp/lab-b')];
    expect(nsName(a, 'zk1')).toMatch(/^zl[0-9a-f]{8}-zk1$/);
    expect(nsName(a, 'zk1')).not.toBe(nsName(b, 'zk1'));
  });
});
