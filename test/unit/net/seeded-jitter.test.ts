import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LinkTable } from '../../../src/net/link-table.js';
import { seededRandom } from '../../../src/net/seeded-random.js';
import { connectPeer, echoRoundTrip, TargetServer } from './helpers.js';

describe('seededRandom', () => {
  it('repeats for the same seed and key, and differs across seeds and keys', () => {
    const draw = (seed: number, key: string) => {
      const r = seededRandom(seed, key);
      return Array.from({ length: 50 }, () => r());
    };
    expect(draw(7, 'client:c1->zk1')).toEqual(draw(7, 'client:c1->zk1'));
    expect(draw(7, 'client:c1->zk1')).not.toEqual(draw(8, 'client:c1->zk1'));
    expect(draw(7, 'client:c1->zk1')).not.toEqual(draw(7, 'client:c1->zk2'));
    const all = draw(1, 'x').concat(draw(2, 'y'));
    expect(all.every((v) => v >= 0 && v < 1)).toBe(true);
    expect(new Set(all.map((v) => Math.floor(v * 4))).size).toBe(4); // spread over the range, not stuck
  });
});

describe('LinkTable with a jitter seed', () => {
  let target: TargetServer;
  let table: LinkTable;
  beforeEach(async () => {
    target = await new TargetServer(true).start();
    table = new LinkTable();
  });
  afterEach(async () => {
    await table.stopAll();
    await target.stop();
  });

  it("draws each link's jitter from the seeded stream: the round trips are the ones the seed predicts", async () => {
    const JITTER = 400;
    const id = 'client:c1->zk1';
    table.setRules([], [], undefined, 7);
    const [link] = await table.add([
      { id, from: 'c1', to: 'zk1', kind: 'client', listenPort: 0, targetHost: '127.0.0.1', targetPort: target.port },
    ]);
    table.setRules([], [{ member: 'c1', delayMs: 0, jitterMs: JITTER }]);
    const client = await connectPeer(link!.port);
    const expected = seededRandom(7, id);
    for (let i = 0; i < 4; i++) {
      const rtt = await echoRoundTrip(client, `m${i};`);
      const predicted = JITTER * expected() + JITTER * expected(); // one draw on the way there, one on the way back
      expect(
        Math.abs(rtt - predicted),
        `round trip ${i}: ${rtt.toFixed(1)} ms, seed predicts ${predicted.toFixed(1)} ms`,
      ).toBeLessThan(60);
    }
    client.socket.destroy();
  }, 15_000);
});
