import { describe, expect, it } from 'vitest';
import { normalizeSessionId } from '../../../src/zk/session-id.js';
import { parseCons, parseMntr, parseSrvr, parseWchc, parseWchp } from '../../../src/zk/four-letter.js';

describe('four-letter-word parsers', () => {
  it('reads mode, zxid, connections and node count from srvr', () => {
    const s = parseSrvr(
      'Zookeeper version: 3.8.0-debian, built on\nLatency min/avg/max: 0/0.0/0\nReceived: 5\nSent: 4\nConnections: 2\nOutstanding: 0\nZxid: 0x100000003\nMode: follower\nNode count: 7\n',
    );
    expect(s).toEqual({ mode: 'follower', zxid: '0x100000003', connections: 2, nodeCount: 7, version: '3.8.0-debian' });
  });

  it('says not-serving when the server says so', () => {
    expect(parseSrvr('This ZooKeeper instance is not currently serving requests\n').mode).toBe('not-serving');
  });

  it('parses mntr numbers', () => {
    const m = parseMntr('zk_version\t3.8.0\nzk_watch_count\t12\nzk_server_state\tleader\n');
    expect(m.get('zk_watch_count')).toBe(12);
    expect(m.get('zk_server_state')).toBe('leader');
  });

  it('parses wchp and wchc into normalized session ids', () => {
    expect(parseWchp('/election/a-n_0000000001\n\t0x10000090f750001\n\t0x2000000000000aa\n/other\n\t0x3\n')).toEqual(
      new Map([
        ['/election/a-n_0000000001', ['10000090f750001', '2000000000000aa']],
        ['/other', ['3']],
      ]),
    );
    expect(parseWchc('0x10000090f750001\n\t/election/a\n\t/election/b\n')).toEqual(
      new Map([['10000090f750001', ['/election/a', '/election/b']]]),
    );
  });

  it('parses cons lines', () => {
    const c = parseCons(
      ' /127.0.0.1:45678[1](queued=0,recved=5,sent=5,sid=0x10000090f750001,lop=PING,est=1700000000000,to=2000,lcxid=0x3,lzxid=0x10,lresp=1,llat=0,minlat=0,avglat=0,maxlat=1)\n /127.0.0.1:45679[0](queued=0,recved=1,sent=0)\n',
    );
    expect(c).toEqual([
      { remote: '127.0.0.1:45678', sessionId: '10000090f750001', timeoutMs: 2000 },
      { remote: '127.0.0.1:45679', sessionId: undefined, timeoutMs: undefined },
    ]);
  });

  it('normalizes session ids', () => {
    expect(normalizeSessionId('0x00000ABC')).toBe('abc');
    expect(normalizeSessionId('0')).toBe('0');
  });
});
