import { afterEach, describe, expect, it, vi } from 'vitest';
import { HerdElection } from '../../../src/recipes/herd.js';
import { PredecessorElection } from '../../../src/recipes/predecessor.js';
import type { RecipeName } from '../../../src/recipes/types.js';
import type { FakeSession } from './fake-zk.js';
import { RecipeLab } from './recipe-lab.js';

const PATH = '/election';
let lab: RecipeLab;

const until = (check: () => void, timeout = 3000): Promise<void> => vi.waitFor(check, { timeout, interval: 5 });

const VARIANTS: readonly [RecipeName, typeof PredecessorElection][] = [
  ['predecessor', PredecessorElection],
  ['herd', HerdElection],
];

/** The znodes under PATH owned by `id`'s latest session, as the scripted ensemble holds them. */
const ownedBy = (id: string): string[] =>
  lab.zk.children(PATH).filter((c) => lab.zk.ownerOf(`${PATH}/${c}`) === lab.session(id).sessionId);

/** The session's first `n` election creates are applied by the servers, and their replies lost. */
function loseCreateReplies(n: number): (s: FakeSession) => void {
  return (s) => {
    const create = s.create.bind(s);
    let left = n;
    s.create = (path, data, mode) => {
      if (mode === 'ephemeral-sequential' && left-- > 0) s.inject('create', 'lose-reply', path);
      return create(path, data, mode);
    };
  };
}

afterEach(async () => {
  await lab.stopAll();
});

describe.each(VARIANTS)(
  '%s election: one place per session, no wait on a predecessor that is gone',
  (recipe, Election) => {
    function newLab(): void {
      lab = new RecipeLab((o, io, d) => new Election(o, io, d), {
        recipe,
        path: PATH,
        sessionTimeoutMs: 4000,
        onDisconnect: 'pause',
      });
    }

    it('a create whose reply is lost, then a lost listing: one znode for the session, and it leads', async () => {
      newLab();
      await lab.start('c1', {}, (s) => {
        loseCreateReplies(1)(s);
        s.inject('getChildren', 'fail', PATH);
      });
      await until(() => expect(lab.leaders()).toEqual(['c1']));
      expect(ownedBy('c1')).toHaveLength(1);
      expect(lab.events('c1', 'joined')).toHaveLength(1);
    });

    it('two lost creates in a row still leave one znode, and a second contender follows it', async () => {
      newLab();
      await lab.start('c1', {}, loseCreateReplies(2));
      await lab.start('c2');
      await until(() => expect(lab.leaders()).toEqual(['c1']));
      expect(ownedBy('c1')).toHaveLength(1);
      expect(ownedBy('c2')).toHaveLength(1);
      lab.kill('c1');
      await until(() => expect(lab.leaders()).toEqual(['c2']));
    });

    /**
     * The session's first election create fails with CONNECTIONLOSS without being applied, and is applied later by
     * `land` (its request sat in the leader's pipeline past the retry's sync): as the session's, under its GUID.
     */
    function loseCreateUntilLater(beforeRetry?: () => void): { hook: (s: FakeSession) => void; land: () => void } {
      let late: (() => void) | undefined;
      return {
        hook: (s) => {
          const create = s.create.bind(s);
          let creates = 0;
          s.create = (path, data, mode) => {
            if (mode === 'ephemeral-sequential') {
              creates++;
              if (creates === 1) {
                late = () => lab.zk.create(s, path, Buffer.from(data), mode);
                s.inject('create', 'fail', path);
              } else if (creates === 2) beforeRetry?.();
            }
            return create(path, data, mode);
          };
        },
        land: () => late!(),
      };
    }

    it('a lost create that lands after the look, with another place between it and the retry: deleted, and the line leads', async () => {
      newLab();
      await lab.start('c0');
      // Just before the retried create (after its look found nothing): the lost one lands, then another's place.
      const lost = loseCreateUntilLater(() => {
        lost.land();
        lab.zk.create(lab.session('c0'), `${PATH}/someone-n_`, Buffer.from(''), 'ephemeral-sequential');
      });
      await lab.start('c1', {}, lost.hook);
      await until(() => {
        expect(lab.events('c1', 'retry').some((e) => e.fields.op === 'delete-orphan')).toBe(true);
        expect(ownedBy('c1')).toHaveLength(1);
      });
      lab.kill('c0');
      await until(() => expect(lab.leaders()).toEqual(['c1']));
    });

    it('a lost create that lands after its retry, behind its place: seen by the watch on the line, and deleted', async () => {
      newLab();
      const lost = loseCreateUntilLater();
      await lab.start('c1', {}, lost.hook);
      await until(() => expect(lab.leaders()).toEqual(['c1']));
      lost.land();
      await lab.start('c2');
      await until(() => expect(ownedBy('c1')).toHaveLength(1));
      lab.kill('c1');
      await until(() => expect(lab.leaders()).toEqual(['c2']));
    });

    it('follows on when its predecessor goes between its listing and its watch', async () => {
      newLab();
      await lab.start('c1');
      await lab.start('c2');
      // c2 has listed the children (c1 first) but its watch has not reached the servers yet.
      lab.kill('c1');
      await until(() => expect(lab.leaders()).toEqual(['c2']));
    });
  },
);
