import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { parsePlace, placeNodes, splitPlace } from '../../../src/hosts/placement.js';

const host = (name: string) => ({ name, user: 'root', host: name, port: 22, key: '/k', addr: name });
const hosts = ['h1', 'h2', 'h3'].map(host);

describe('placement', () => {
  it('spreads servers over the hosts in turn, in the file order', () => {
    expect(placeNodes(hosts, ['zk1', 'zk2', 'zk3'], {})).toEqual({ zk1: 'h1', zk2: 'h2', zk3: 'h3' });
    expect(placeNodes(hosts, ['zk1', 'zk2'], {})).toEqual({ zk1: 'h1', zk2: 'h2' });
  });

  it('takes what --place asks and fills the rest around it', () => {
    expect(placeNodes(hosts, ['zk1', 'zk2', 'zk3'], parsePlace('zk1=h3, zk2=h1'))).toEqual({
      zk1: 'h3',
      zk2: 'h1',
      zk3: 'h2',
    });
  });

  it('gives each server a host to itself, and says why it cannot', () => {
    expect(() => placeNodes(hosts.slice(0, 2), ['zk1', 'zk2', 'zk3'], {})).toThrow(/zk3 has no host of its own/);
    expect(() => placeNodes(hosts, ['zk1', 'zk2'], { zk1: 'h1', zk2: 'h1' })).toThrow(/two servers on h1/);
  });

  it("keeps --place's contenders for their spawn, beside a server if asked; refuses other names and hosts", () => {
    const { servers, contenders } = splitPlace(hosts, parsePlace('zk1=h2,c2=h3,c5=h2'));
    expect(servers).toEqual({ zk1: 'h2' });
    expect(contenders).toEqual({ c2: 'h3', c5: 'h2' });
    const taken = placeNodes(hosts, ['zk1', 'zk2', 'zk3'], servers);
    // c1 goes where fewest nodes are (in file order), c2 where it was asked, though a server and c1 are there.
    expect(placeNodes(hosts, ['c1', 'c2'], { c2: 'h3' }, taken)).toMatchObject({ c1: 'h1', c2: 'h3' });
    expect(() => splitPlace(hosts, { c2: 'h9' })).toThrow(/puts c2 on h9, which the hosts file lacks/);
    expect(() => splitPlace(hosts, { web1: 'h1' })).toThrow(/neither a server \(zkN\) nor a contender \(cN\)/);
  });

  it('refuses names the command or the file lacks, and malformed pairs, as usage errors', () => {
    expect(() => placeNodes(hosts, ['zk1'], { zk9: 'h1' })).toThrow(/names zk9, which this command does not start/);
    expect(() => placeNodes(hosts, ['zk1'], { zk1: 'h9' })).toThrow(/which the hosts file lacks/);
    for (const bad of ['zk1', 'zk1=', '=h1', 'zk1=h1=h2', 'ZK1=h1'])
      expect(() => parsePlace(bad), bad).toThrow(UsageError);
    expect(() => parsePlace('zk1=h1,zk1=h2')).toThrow(/names zk1 twice/);
    expect(parsePlace(undefined)).toEqual({});
  });
});
