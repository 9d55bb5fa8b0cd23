import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { zklab } from '../helpers/cli.js';
import { tempDir } from '../helpers/paths.js';

/** Bad input without a lab: one line saying what is wrong (plus a hint), exit 2, and no lab directory created. */
async function expectUsage(args: string[], message: RegExp, env?: NodeJS.ProcessEnv) {
  const dir = tempDir();
  const lab = `${dir}/lab`;
  const r = await zklab(args, { lab, env });
  expect(r.exitCode, r.stderr).toBe(2);
  expect(r.stderr.split('\n')[0]).toMatch(/^zklab: /);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /); // no stack without --verbose
  expect(existsSync(lab)).toBe(false);
}

describe('bad input, no lab', () => {
  it.each([['0'], ['-1'], ['abc'], ['10']])('ensemble up --servers %s', async (n) => {
    await expectUsage(['ensemble', 'up', '--servers', n], /--servers must be a whole number from 1 to 9/);
  });

  // yargs' number type turns "abc" into NaN (printed as null): every number option must quote what was typed.
  it.each([
    'ensemble up -n',
    'ensemble up --servers',
    'ensemble up --base-port',
    'config generate --out OUT -n',
    'config generate --out OUT --base-port',
    'drill run join-and-elect --repeat',
    'drill run join-and-elect --seed',
    'logs zk1 --lines',
  ])('%s abc says got "abc"', async (line) => {
    const out = `${tempDir()}/out`;
    const args = [...line.split(' ').map((a) => (a === 'OUT' ? out : a)), 'abc'];
    const option = line.endsWith('-n') ? '--servers' : line.split(' ').at(-1);
    await expectUsage(args, new RegExp(`^zklab: ${option} must be a whole number from \\d+ to \\d+, got "abc"\n`));
    expect(existsSync(out)).toBe(false);
  });

  // The audit refuses before it starts anything: no lab, no program run.
  it.each([
    [['audit', '--scenarios', 'quick,nope', '--recipe', 'herd'], /--scenarios quick,nope: "nope" is not a scenario/],
    [['audit', '--slo', 'churn=some', '--recipe', 'herd'], /--slo churn=some: a count is a whole number/],
    [['audit', '--slo', 'speed=1', '--recipe', 'herd'], /"speed" is not a bound the audit knows/],
    [['audit', '--members', '1', '--recipe', 'herd'], /--members must be a whole number from 2 to 9, got "1"/],
    [['audit', '--net', 'wifi', '--recipe', 'herd'], /--net wifi is unknown/],
    [['audit', '--report', '/nonexistent/a.html', '--recipe', 'herd'], /cannot write --report \/nonexistent\/a.html/],
    [
      ['audit', '--junit', 'audit.html', '--recipe', 'herd'],
      /--junit audit.html: the name says it holds something else/,
    ],
    [['audit', '--recipe', 'nope'], /--recipe/],
    [['audit', '--connect', '127.0.0.1:2181'], /Unknown argument|--connect/],
    [['audit', '--exec', '--', 'no-such-program-zklab'], /the program "no-such-program-zklab" is not on the PATH/],
    [['audit', '--recipe', 'herd', '--probe', 'no-such-probe-zklab {n}'], /no-such-probe-zklab/],
  ])('%j', async (args, message) => {
    await expectUsage(args, message);
  });

  it('status, kill and logs with no lab', async () => {
    await expectUsage(['ensemble', 'status'], /there is no lab at/);
    await expectUsage(['kill', 'server', 'zk1'], /there is no lab at/);
    await expectUsage(['kill', 'zk-leader'], /there is no lab at/);
    await expectUsage(['kill', 'leader'], /there is no lab at/);
    await expectUsage(['contenders', 'list'], /there is no lab at/);
    await expectUsage(['logs', 'zk1'], /there is no lab at/);
  });

  it('missing ZooKeeper and missing Java', async () => {
    await expectUsage(['ensemble', 'up'], /ZOOKEEPER_HOME points at \/nonexistent/, { ZOOKEEPER_HOME: '/nonexistent' });
    await expectUsage(['ensemble', 'up'], /JAVA_HOME=\/nonexistent has no bin\/java/, { JAVA_HOME: '/nonexistent' });
    await expectUsage(['ensemble', 'up'], /Java was not found/, { PATH: '/nonexistent', JAVA_HOME: '' });
  });

  it('an unwritable lab directory', async () => {
    const r = await zklab(['ensemble', 'up', '--lab', '/proc/zklab-lab']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/lab directory \/proc\/zklab-lab is not writable/);
  });

  it('a taken port', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const port = (srv.address() as { port: number }).port;
    try {
      // The block starting at the taken port: its first port is zk1's client port.
      await expectUsage(
        ['ensemble', 'up', '--base-port', String(port)],
        new RegExp(`port (\\d+, )*${port}(, \\d+)* on 127.0.0.1 is already in use`),
      );
    } finally {
      srv.close();
    }
  });

  it('contender spawn: bad counts, recipes, policies and lists; no ensemble', async () => {
    for (const n of ['0', '-3', 'abc', '201'])
      await expectUsage(['contenders', 'spawn', n], /<count>: must be a whole number from 1 to 200/);
    await expectUsage(['contenders', 'spawn', '3', '--recipe', 'paxos'], /--recipe: "paxos" is unknown/);
    await expectUsage(
      ['contenders', 'spawn', '3', '--recipe', 'priority', '--policy', 'loudest'],
      /--policy: "loudest" is unknown/,
    );
    await expectUsage(
      ['contenders', 'spawn', '3', '--recipe', 'priority', '--priority', '5,3'],
      /--priority: lists 2 values for 3 contenders/,
    );
    await expectUsage(
      ['contenders', 'spawn', '3', '--session-timeout', 'abc'],
      /^zklab: --session-timeout: "abc" is not a duration\n/,
    );
    await expectUsage(
      ['contenders', 'spawn', '3', '--recipe', 'priority', '--takeover-ms', 'abc'],
      /^zklab: --takeover-ms: "abc" is not a duration\n/,
    );
    await expectUsage(['contenders', 'spawn', '3'], /there is no ensemble in .* to contend on/);
  });

  it('unknown commands, options and kill targets', async () => {
    await expectUsage(
      ['ensembel', 'up'],
      /^zklab: zklab has no command "ensembel"\n {2}did you mean `zklab ensemble`\?/,
    );
    await expectUsage(
      ['labs', 'pruen'],
      /^zklab: `zklab labs` has no command "pruen"\n {2}did you mean `zklab labs prune`\? /,
    );
    await expectUsage(['ensemble', 'up', '--serverz', '3'], /Unknown argument/);
    await expectUsage(['kill', 'everything'], /unknown kill target "everything"/);
    await expectUsage(['kill', 'server', 'zk1', '--signal', 'HUP'], /--signal must be KILL or TERM/);
  });

  it('takes every duration one way (250ms, 2s, or a bare number of ms) and words a bad one alike', async () => {
    for (const args of [
      ['ensemble', 'up', '--tick'],
      ['config', 'generate', '--out', `${tempDir()}/out`, '--tick'],
      ['contenders', 'spawn', '3', '--session-timeout'],
      ['net', 'delay', 'c1'],
    ]) {
      const option = args.at(-1)!.startsWith('--') ? args.at(-1)! : '<ms>';
      await expectUsage([...args, 'soon'], new RegExp(`^zklab: ${option}: "soon" is not a duration\\n`));
    }
    await expectUsage(
      ['ensemble', 'up', '--tick', '5ms'],
      /^zklab: --tick 5ms is out of range\n {2}give a duration from 20ms to 10s/,
    );
  });

  // yargs reads `-5ms` as the short options -5 -m -s: a negative value must still reach the check that words it.
  it.each([
    ['net delay zk1 -5ms', /^zklab: <ms>: "-5ms" is negative\n {2}give a duration from 0ms to 1m00s/],
    ['net delay zk1 5ms --jitter -5ms', /^zklab: --jitter: "-5ms" is negative\n {2}give a duration from 0ms/],
    ['net delay zk1 -0.5s', /^zklab: <ms>: "-0.5s" is negative\n/],
    ['net loss c1 -3', /^zklab: <percent>: "-3" is negative\n {2}give a share of the packets from 0 to 100/],
    ['net loss c1 -3%', /^zklab: <percent>: "-3%" is negative\n/],
    ['net loss c1 120', /^zklab: <percent>: "120" is above 100\n/],
    ['net loss c1 some', /^zklab: <percent>: "some" is not a number\n/],
    ['jobs submit -3', /^zklab: the job count must be a whole number from 1 to 100000, got "-3"\n/],
    ['jobs submit 2 --ms -200ms', /^zklab: --ms: "-200ms" is negative\n/],
    ['contenders spawn -3x', /^zklab: <count>: must be a whole number from 1 to 200, got "-3x"\n/],
    ['contenders spawn 3 --session-timeout -2s', /^zklab: --session-timeout: "-2s" is negative\n {2}write a duration/],
    ['contenders spawn 3 --workload lock --hold -1s', /^zklab: --hold: "-1s" is negative\n/],
    ['contenders spawn 3 --probe-interval -250ms --probe true', /^zklab: --probe-interval: "-250ms" is negative\n/],
    ['ensemble up --tick -5ms', /^zklab: --tick: "-5ms" is negative\n {2}give a duration from 20ms to 10s/],
    ['ensemble up -n -3', /^zklab: --servers must be a whole number from 1 to 9, got "-3"\n/],
    ['config generate --out OUT --tick -1s', /^zklab: --tick: "-1s" is negative\n/],
    ['drill run join-and-elect --repeat -2', /^zklab: --repeat must be a whole number from 1 to 100, got "-2"\n/],
    [
      'drill run curator-696 --variant nope',
      /^zklab: --variant nope: drill curator-696 has no such variant\n {2}give one of: standard, session$/,
    ],
    [
      'drill run join-and-elect --variant standard',
      /^zklab: --variant standard: drill join-and-elect has no variants\n/,
    ],
    ['logs zk1 --lines -5', /^zklab: --lines must be a whole number from 1 to 100000, got "-5"\n/],
  ])('%s: says what is wrong with the value', async (line, message) => {
    const out = `${tempDir()}/out`;
    await expectUsage(
      line.split(' ').map((a) => (a === 'OUT' ? out : a)),
      message,
    );
    expect(existsSync(out)).toBe(false);
  });

  it('takes a negative number where one is allowed: a sum job of -2 and 3 gets as far as looking for the ensemble', async () => {
    await expectUsage(['jobs', 'submit', '1', '--kind', 'sum', '--args', '-2,3'], /^zklab: there is no ensemble in /);
  });

  it('a mistyped option names the one meant; a group without its command lists its commands; --version', async () => {
    await expectUsage(
      ['ensemble', 'up', '--server', '3'],
      /^zklab: Unknown argument: server\n {2}did you mean --servers\?/,
    );
    await expectUsage(['contenders', 'spawn', '3', '--session', '5s'], /did you mean --session-timeout\?/);
    // the hint names the command, never an option's value (`--lab DIR` follows here)
    await expectUsage(['heal', '--all'], /^zklab: Unknown argument: all\n {2}`zklab heal --help` lists its options$/m);
    for (const [group, commands] of [
      ['contenders', 'spawn, list or stop'],
      ['ensemble', 'up, status, down, restart, add, remove or config'],
      ['jobs', 'submit or status'],
      ['partition', 'isolate, split, one-way or list'],
    ] as const) {
      await expectUsage(
        [group],
        new RegExp(`^zklab: name an? ${group} command: ${commands}\\n  \`zklab ${group} --help\``),
      );
    }
    await expectUsage(['kill'], /^zklab: `zklab kill` is missing an argument\n/);
    const v = await zklab(['--version']);
    expect(v.exitCode, v.stderr).toBe(0);
    expect(v.stdout.trim()).toBe(JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).version);
  });

  it('config generate: bad counts and hosts write nothing', async () => {
    const dir = tempDir();
    const r = await zklab(['config', 'generate', '--servers', '0', '--out', `${dir}/out`]);
    expect(r.exitCode).toBe(2);
    expect(existsSync(`${dir}/out`)).toBe(false);
    const h = await zklab(['config', 'generate', '--servers', '2', '--hosts', 'a,b,c', '--out', `${dir}/out`]);
    expect(h.exitCode).toBe(2);
    expect(h.stderr).toMatch(/does not match the 3 hosts/);
    expect(existsSync(`${dir}/out`)).toBe(false);
  });
});

describe('config generate', () => {
  it('writes one zoo.cfg and myid per server for a local lab', async () => {
    const dir = tempDir();
    const r = await zklab(['config', 'generate', '--servers', '3', '--out', dir, '--base-port', '31000']);
    expect(r.exitCode, r.stderr).toBe(0);
    for (const n of [1, 2, 3]) {
      expect(existsSync(`${dir}/zk${n}/zoo.cfg`)).toBe(true);
      expect(existsSync(`${dir}/zk${n}/data/myid`)).toBe(true);
    }
  });

  it('writes configs for real hosts with the standard ports', async () => {
    const dir = tempDir();
    const r = await zklab(['config', 'generate', '--hosts', 'zk-a.example,zk-b.example,zk-c.example', '--out', dir]);
    expect(r.exitCode, r.stderr).toBe(0);
    const { readFileSync } = await import('node:fs');
    const cfg = readFileSync(`${dir}/zk-b.example/zoo.cfg`, 'utf8');
    expect(cfg).toMatch(/^clientPort=2181$/m);
    expect(cfg).toMatch(/^tickTime=2000$/m);
    expect(cfg).toMatch(/^server\.3=zk-c\.example:2888:3888$/m);
    expect(readFileSync(`${dir}/zk-b.example/myid`, 'utf8').trim()).toBe('2');
  });
});
