import { describe, expect, it } from 'vitest';
import { listeningPorts } from '../../../src/hosts/lab-hosts.js';

// Lines as this kernel writes /proc/net/tcp and tcp6 (state 0A: LISTEN; 01: ESTABLISHED).
const TCP = `  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 0B0012C6:47D0 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 81273 1 0000000000000000 100 0 0 10 0
   1: 0B0012C6:0016 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 80110 1 0000000000000000 100 0 0 10 0
   2: 0B0012C6:9C40 0C0012C6:47D1 01 00000000:00000000 02:000A4B5D 00000000     0        0 81400 2 0000000000000000 20 4 30 10 -1
  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode
   0: 00000000000000000000000000000000:1F90 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 8123 1 0000000000000000 100 0 0 10 0
`;

describe("a host's listening ports", () => {
  it('takes the LISTEN lines of tcp and tcp6 (ports in hex), not established connections', () => {
    expect(listeningPorts(TCP)).toEqual([0x47d0, 22, 8080]);
  });
});
