import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  allPorts,
  BLOCK_SIZE,
  choosePorts,
  planServerPorts,
  preferredBase,
  validateBasePort,
} from '../../../src/lab/ports.js';
import { EnvironmentError, UsageError } from '../../../src/errors.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

function occupy(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    servers.push(s);
    s.once('error', reject);
    s.listen(port, '127.0.0.1', () => resolve());
  });
}

describe('port planning', () => {
  it('gives every server distinct client, quorum and election ports within one block', () => {
    const plan = planServerPorts(30000, 9);
    const ports = allPorts(plan);
    expect(new Set(ports).size).toBe(27);
    expect(Math.max(...ports) - 30000).toBeLessThan(BLOCK_SIZE);
    expect(plan[0]).toEqual({ id: 1, clientPort: 30000, quorumPort: 30010, electionPort: 30020 });
  });

  it('starts two labs in two directories from different blocks', () => {
    expect(preferredBase('/home/a/.zklab')).not.toBe(preferredBase('/home/b/.zklab'));
    expect(preferredBase('/home/a/.zklab') % BLOCK_SIZE).toBe(0);
    expect(preferredBase('/x')).toBe(preferredBase('/x'));
  });

  it('moves to the next free block when the preferred one is taken', async () => {
    const lab = '/tmp/ports-test-lab';
    const first = preferredBase(lab);
    await occupy(first + 10);
    const { base } = await choosePorts(lab, 3);
    expect(base).not.toBe(first);
  });

  it('passes over a block in use where the servers will listen (a lab on hosts), and names it when asked for', async () => {
    const lab = '/tmp/ports-test-lab-hosts';
    const first = preferredBase(lab);
    const { base } = await choosePorts(lab, 3, undefined, new Set([first + 21]));
    expect(base).not.toBe(first);
    await expect(choosePorts('/tmp/ports-test-lab-hosts-2', 3, first, new Set([first + 21]))).rejects.toThrow(
      `port ${first + 21} is already in use on the lab's hosts`,
    );
  });

  it('names the taken port when an explicit base collides', async () => {
    const lab = '/tmp/ports-test-lab-2';
    const { base } = await choosePorts(lab, 3);
    await occupy(base + 1);
    await expect(choosePorts(lab, 3, base)).rejects.toThrow(EnvironmentError);
    await expect(choosePorts(lab, 3, base)).rejects.toThrow(String(base + 1));
  });

  it('rejects a base port out of range', async () => {
    await expect(choosePorts('/x', 3, 80)).rejects.toThrow(UsageError);
    await expect(choosePorts('/x', 3, 65500)).rejects.toThrow(UsageError);
  });

  it('takes a base port as typed and quotes a bad one', () => {
    expect(validateBasePort('30000')).toBe(30000);
    expect(() => validateBasePort('abc')).toThrow(/--base-port must be a whole number from 1024 to 65335, got "abc"$/);
  });
});

describe('a block in use elsewhere than the servers’ ports', () => {
  it('passes over a block whose pair address another lab’s link daemon still holds', async () => {
    const lab = '/tmp/ports-test-lab-3';
    const first = preferredBase(lab);
    await occupyAt(first + 11, '127.1.2.1');
    const { base } = await choosePorts(lab, 3);
    expect(base).not.toBe(first);
  });

  it('gives two labs starting at once from the same preferred block two blocks', async () => {
    const lab = '/tmp/ports-test-lab-4';
    let other = 0;
    while (preferredBase(`/tmp/ports-test-other-${other}`) !== preferredBase(lab)) other++;
    const [a, b] = await Promise.all([choosePorts(lab, 3), choosePorts(`/tmp/ports-test-other-${other}`, 3)]);
    expect(a.base).not.toBe(b.base);
    await expect(choosePorts('/tmp/ports-test-lab-5', 3, a.base)).rejects.toThrow(
      /already in use: .*a lab starting on this block/,
    );
  });

  it('lets a lab that comes up again in the same process keep its block', async () => {
    const lab = '/tmp/ports-test-lab-6';
    const { base } = await choosePorts(lab, 3);
    expect((await choosePorts(lab, 3)).base).toBe(base);
    expect((await choosePorts(lab, 3, base)).base).toBe(base);
  });
});

function occupyAt(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    servers.push(s);
    s.once('error', reject);
    s.listen(port, host, () => resolve());
  });
}
