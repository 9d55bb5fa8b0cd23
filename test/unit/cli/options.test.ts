import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../../src/cli/context.js';
import { buildParser, COMMANDS } from '../../../src/cli/main.js';
import { maskNegatives, subcommandNames } from '../../../src/cli/usage.js';
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
    expect((await refusal(['labs', '--verbse'])).hint).toMatch(/^did you mean --verbose\?/);
  });
});

describe('a mistyped command', () => {
  /** The second letter missed, as a quick hand does: `spawn` → `sawn`. */
  const typo = (word: string) => `${word[0]}${word.slice(2)}`;

  it('in every command group, names the subcommand most likely meant', async () => {
    const groups = (await Promise.all(COMMANDS.map((c) => c.load(ctx)))).flat();
    let checked = 0;
    for (const group of groups) {
      const name = String(group.command).split(' ')[0]!;
      for (const sub of subcommandNames(group)) {
        const r = await refusal([name, typo(sub), '--lab', '/tmp/zklab-no-such-lab']);
        expect(r.message).toBe(`\`zklab ${name}\` has no command "${typo(sub)}"`);
        expect(r.hint).toBe(`did you mean \`zklab ${name} ${sub}\`? \`zklab ${name} --help\` lists its commands`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(20);
    expect(await refusal(['labs', 'pruen'])).toEqual({
      message: '`zklab labs` has no command "pruen"',
      hint: 'did you mean `zklab labs prune`? `zklab labs --help` lists its commands',
    });
  });

  it('lists the commands when none is close, and names a top-level command too', async () => {
    expect(await refusal(['jobs', 'frobnicate'])).toEqual({
      message: '`zklab jobs` has no command "frobnicate"',
      hint: 'its commands are submit or status; `zklab jobs --help` describes each',
    });
    expect(await refusal(['ensembel', 'up'])).toEqual({
      message: 'zklab has no command "ensembel"',
      hint: 'did you mean `zklab ensemble`? `zklab --help` lists the commands',
    });
    expect((await refusal(['labs', 'down'])).message).toBe('`zklab labs down` is missing an argument');
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
