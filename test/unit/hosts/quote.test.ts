import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellCommand, shellQuote } from '../../../src/hosts/quote.js';

/** What a real POSIX shell makes of the quoted line: each word it passes to printf, NUL-separated. */
function shellWords(line: string): string[] {
  const r = spawnSync('/bin/sh', ['-c', `printf '%s\\0' ${line}`], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\0').slice(0, -1);
}

const NASTY = [
  'plain',
  '',
  ' ',
  'two words',
  "it's",
  "''",
  '"double"',
  '$HOME',
  '$' + '{PATH}',
  '$(touch /tmp/zklab-quote-pwned)',
  '`id`',
  'a;b',
  'a&&b',
  'a|b',
  '> /tmp/x',
  '*',
  '~',
  '~root',
  '-n',
  '\\',
  'line\nbreak',
  'tab\there',
  '#comment',
  '!event',
  'ünïcødé',
  "'; rm -rf / #",
];

describe('shellQuote', () => {
  it.each(NASTY)('a POSIX shell gets %j back as one word, unexpanded', (word) => {
    expect(shellWords(shellQuote(word))).toEqual([word]);
  });

  it('a command line keeps every word apart and in order', () => {
    expect(shellWords(shellCommand(NASTY))).toEqual(NASTY);
  });

  it('leaves safe words readable', () => {
    expect(shellCommand(['java', '-Dzookeeper.admin.enableServer=false', '/srv/zklab/zk1.cfg'])).toBe(
      'java -Dzookeeper.admin.enableServer=false /srv/zklab/zk1.cfg',
    );
  });

  it('refuses a NUL byte and an empty command', () => {
    expect(() => shellQuote('a\0b')).toThrow(/NUL/);
    expect(() => shellCommand([])).toThrow(/empty/);
  });
});
