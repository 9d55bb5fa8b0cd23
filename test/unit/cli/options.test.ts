import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/cli/context.js';
import { buildParser, maskNegatives } from '../../../src/cli/main.js';
import { declaredOptions } from '../../../src/cli/options.js';

const ctx: CommandContext = {
  signal: new AbortController().signal,
  out: () => undefined,
  err: () => undefined,
  isTTY: false,
};

async function refusal(argv: string[]): Promise<{ message: string; hint?: string }> {
  const parser = await buildParser(argv, ctx);
  try {
    await parser.parseAsync();
  } catch (e) {
    return { message: (e as Error).message, hint: (e as { hint?: string }).hint };
  }
  throw new Error('the command line was taken');
}

describe('the options a command declares, as zklab keeps them', () => {
  it("are the innermost command's: its positionals, then its options", async () => {
    const argv = ['contenders', 'list', '--jsn', '--lab', '/tmp/zklab-no-such-lab'];
    const parser = await buildParser(argv, ctx);
    await expect(async () => parser.parseAsync()).rejects.toThrow('Unknown argument: jsn');
    expect(declaredOptions(parser)).toEqual(['json', 'all', 'wide']);
  });

  it('name what a mistyped option most likely meant', async () => {
    expect(await refusal(['contenders', 'spawn', '3', '--session', '5s'])).toMatchObject({
      message: 'Unknown argument: session',
      hint: expect.stringMatching(/^did you mean --session-timeout\?/),
    });
    expect((await refusal(['kill', 'leader', '--sope', 'process'])).hint).toMatch(/^did you mean --scope\?/);
    expect((await refusal(['labs', 'list', '--verbse'])).hint).toMatch(/^did you mean --verbose\?/);
  });
});

describe('a negative value on the command line', () => {
  it('reaches the check of the argument or option it was given for, as typed', async () => {
    expect(await refusal(['net', 'delay', 'zk1', '-5ms', '--lab', '/tmp/zklab-no-such-lab'])).toMatchObject({
      message: '<ms>: "-5ms" is negative',
    });
    expect(await refusal(['net', 'delay', 'zk1', '5ms', '--jitter', '-.5s'])).toMatchObject({
      message: '--jitter: "-.5s" is negative',
    });
    expect((await refusal(['ensemble', 'up', '--servers', '-3', '--serverz'])).message).toBe(
      'Unknown argument: serverz',
    );
  });

  it("is masked before `--` only: what follows is the program's, as typed", () => {
    expect(maskNegatives(['contenders', 'spawn', '-2', '--exec', '--', 'prog', '-5ms'])).toEqual([
      'contenders',
      'spawn',
      '\u0000-2',
      '--exec',
      '--',
      'prog',
      '-5ms',
    ]);
    expect(maskNegatives(['-n', '--tick', '-1s'])).toEqual(['-n', '--tick', '\u0000-1s']);
  });
});
