import { describe, expect, it } from 'vitest';
import { splitShellWords } from '../../src/shell-words.js';

const words = (text: string) => {
  const r = splitShellWords(text);
  if ('error' in r) throw new Error(r.error);
  return r.words;
};
const error = (text: string) => {
  const r = splitShellWords(text);
  return 'error' in r ? r.error : undefined;
};

describe('splitting a command line as a shell would, without one', () => {
  it('splits at blanks, keeps quoted blanks, and takes backslashes and quotes away', () => {
    expect(words('  python3  probe.py {n} ')).toEqual(['python3', 'probe.py', '{n}']);
    expect(words(`sh -c 'curl -s :80{n} | grep primary'`)).toEqual(['sh', '-c', 'curl -s :80{n} | grep primary']);
    expect(words(`echo "a \\"b\\" c" d\\ e ''`)).toEqual(['echo', 'a "b" c', 'd e', '']);
    expect(words(`a'b'"c"`)).toEqual(['abc']);
    expect(words('')).toEqual([]);
  });

  it('refuses what only a shell would do, and an unclosed quote', () => {
    expect(error('curl x | grep y')).toMatch(/\| .*no shell/);
    expect(error('a; b')).toMatch(/;/);
    expect(error('a && b')).toMatch(/&/);
    expect(error('a > out')).toMatch(/>/);
    expect(error('echo $HOME')).toMatch(/\$/);
    expect(error('echo "$HOME"')).toMatch(/\$ inside double quotes/);
    expect(error("echo 'open")).toMatch(/single quote is not closed/);
    expect(error('echo "open')).toMatch(/double quote is not closed/);
  });

  it('takes a quoted or escaped operator as a word', () => {
    expect(words(`test '|' = \\| ';'`)).toEqual(['test', '|', '=', '|', ';']);
  });
});
