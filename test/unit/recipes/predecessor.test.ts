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
