import { describe, expect, it } from 'vitest';
import { ignoredNote, parseBeliefLine } from '../../../src/contenders/belief-lines.js';

describe('parseBeliefLine', () => {
  it('passes other output through as text', () => {
    expect(parseBeliefLine('INFO connected')).toEqual({ kind: 'text' });
    expect(parseBeliefLine(' ZKLAB {"event":"leader"}')).toEqual({ kind: 'text' });
  });

  it('reads an event with its fields, session and znode, keeping the head for the lab', () => {
    const b = parseBeliefLine('ZKLAB {"event":"leader","token":77,"session":"0x1000A","t":1,"id":"c9","pid":4}');
    expect(b).toEqual({ kind: 'event', event: 'leader', fields: { token: 77 }, session: '1000a' });
    expect(parseBeliefLine('ZKLAB {"event":"joined","znode":"/election/x_0000000001"}')).toMatchObject({
      znode: '/election/x_0000000001',
      fields: {},
    });
  });

  it('turns a token that is no number into none', () => {
    expect(parseBeliefLine('ZKLAB {"event":"leader"}')).toMatchObject({ fields: { token: null } });
    expect(parseBeliefLine('ZKLAB {"event":"act","token":"42"}')).toMatchObject({ fields: { token: null } });
  });

  it('says in the log what it did not take: a token that is no number, a field of the wrong type', () => {
    const line = 'ZKLAB {"event":"leader","token":"abc"}';
    const b = parseBeliefLine(line);
    expect(b).toMatchObject({ fields: { token: null }, ignored: ['token "abc" is not a number'] });
    expect(ignoredNote(b, line)).toBe(
      `zklab: token "abc" is not a number, so it was ignored; the leader event is recorded without it: ${line}`,
    );
    const two = 'ZKLAB {"event":"resigned","token":[1],"reason":42}';
    expect(ignoredNote(parseBeliefLine(two), two)).toMatch(
      /^zklab: reason 42 is not a string; token \[1\] is not a number, so they were ignored; the resigned event/,
    );
    // Nothing to say: a number, no token at all, or a line that is no event.
    for (const ok of ['ZKLAB {"event":"leader","token":42}', 'ZKLAB {"event":"leader"}', 'plain text'])
      expect(ignoredNote(parseBeliefLine(ok), ok)).toBeUndefined();
  });

  it('refuses what is not an event a program may report', () => {
    expect(parseBeliefLine('ZKLAB {oops')).toMatchObject({ kind: 'invalid', reason: 'not JSON after "ZKLAB "' });
    expect(parseBeliefLine('ZKLAB [1]')).toMatchObject({ kind: 'invalid' });
    expect(parseBeliefLine('ZKLAB {"event":"elected-king"}')).toMatchObject({
      kind: 'invalid',
      reason: 'unknown event "elected-king"',
    });
    expect(parseBeliefLine('ZKLAB {"event":"session"}')).toMatchObject({ kind: 'invalid' });
    expect(parseBeliefLine('ZKLAB {"event":"exited"}')).toMatchObject({ kind: 'invalid' });
    expect(parseBeliefLine('ZKLAB {"event":"leader","session":"; rm -rf /"}')).toMatchObject({
      kind: 'event',
      fields: { token: null },
    });
    expect(parseBeliefLine('ZKLAB {"event":"leader","session":"; rm -rf /"}')).not.toHaveProperty('session');
  });

  it('drops fields of the wrong type and refuses events without the fields their readers need', () => {
    expect(parseBeliefLine('ZKLAB {"event":"paused","reason":42,"wasLeader":true,"extra":[1]}')).toMatchObject({
      fields: { wasLeader: true, extra: [1] },
    });
    expect(parseBeliefLine('ZKLAB {"event":"paused","reason":42}')).not.toHaveProperty('fields.reason');
    expect(parseBeliefLine('ZKLAB {"event":"watching","path":{"x":1},"kind":"exists"}')).toMatchObject({
      kind: 'invalid',
      reason: '"watching" needs path',
    });
    expect(parseBeliefLine('ZKLAB {"event":"state","state":"__proto__"}')).toMatchObject({
      kind: 'event',
      fields: { state: '__proto__' },
    });
  });
});
