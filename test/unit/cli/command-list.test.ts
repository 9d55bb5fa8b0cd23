import { describe, expect, it } from 'vitest';
import { COMMANDS, startsNodes } from '../../../src/cli/main.js';
import type { CommandContext } from '../../../src/cli/context.js';

const ctx: CommandContext = {
  signal: new AbortController().signal,
  out: () => undefined,
  err: () => undefined,
  isTTY: false,
};

/** The name yargs matches a command by: the first word of its `command` string. */
function commandName(def: { command?: string | readonly string[] }): string {
  const c = Array.isArray(def.command) ? def.command[0] : def.command;
  return String(c).split(' ')[0]!;
}

describe('the CLI command list', () => {
  it('names each command the way its module defines it, so a command line that names one loads the right module', async () => {
    for (const entry of COMMANDS) {
      const defs = await entry.load(ctx);
      expect(defs.map(commandName)).toEqual(entry.names);
    }
  });

  it('answers to each name once', () => {
    const names = COMMANDS.flatMap((c) => c.names);
    expect(new Set(names).size).toBe(names.length);
  });

  it('prepares nodes for the fault kinds on the commands that start them, wherever the command word sits', () => {
    expect(startsNodes(['ensemble', 'up'])).toBe(true);
    expect(startsNodes(['--lab', '/tmp/x', 'contenders', 'spawn', '2'])).toBe(true);
    expect(startsNodes(['clock', 'skew', 'zk1', '+1s'])).toBe(false);
    expect(startsNodes(['kill', 'leader', '--', 'ensemble'])).toBe(false);
  });
});
