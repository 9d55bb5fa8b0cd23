import { execa } from 'execa';
import { cpSync, existsSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/templates.js';
import { tempDir } from '../helpers/paths.js';

/**
 * zklab as a user gets it without a clone: `npm pack`, the tarball installed with `npm install -g` into a prefix of
 * its own (its dependencies from npm's cache or the registry; the native client as the clone built it), and run from
 * there, in a directory far from the clone: the demo and a built-in drill, each within a minute. `npm test` builds
 * dist/ before this runs, so the pack takes it as it is (--ignore-scripts; a pack of one's own cleans and builds).
 */
describe('the package, packed and installed with npm install -g', () => {
  it('installs from its tarball and runs the demo and a built-in drill from the installed copy', async () => {
    const dir = tempDir();
    const pack = await execa('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: PACKAGE_ROOT,
    });
    const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
    const prefix = join(dir, 'prefix');
    // Install scripts aside: compiling the native client takes a minute or more of this machine's two cores, and it is
    // npm's own doing (bin/setup's npm install does it on every run). Its build from the clone, made for this very
    // Node, stands in for it; then the package's own postinstall runs, as npm would run it, and finds it loads.
    const install = await execa(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        prefix,
        '--prefer-offline',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        join(dir, filename),
      ],
      { cwd: dir, reject: false, timeout: 300_000 },
    );
    expect(install.exitCode, `${install.stdout}\n${install.stderr}`).toBe(0);
    const root = join(prefix, 'lib', 'node_modules', 'zklab');
    const addon = join('node_modules', 'zookeeper', 'build', 'Release');
    cpSync(join(PACKAGE_ROOT, addon), join(root, addon), { recursive: true });
    const postinstall = await execa('npm', ['run', 'postinstall'], { cwd: root, reject: false });
    expect(postinstall.exitCode, postinstall.stderr).toBe(0);

    // What was installed is the package's own copy: its files, and a native client that loads.
    const bin = join(prefix, 'bin', 'zklab');
    expect(realpathSync(bin)).toBe(join(root, 'bin', 'zklab.js'));
    for (const file of [
      'dist/cli/main.js',
      'dist/contenders/child.js',
      'templates/zoo.cfg',
      'templates/drills/join-and-elect.yaml',
      'templates/programs/ha_agent.py',
      'src/contenders/adapters/kazoo_election.py',
      'src/contenders/adapters/CuratorLatch.java',
      'src/faults/kinds/clock/shim.c',
    ])
      expect(existsSync(join(root, file)), file).toBe(true);
    expect(readdirSync(join(root, 'src'))).toEqual(['contenders', 'faults']);
    const native = await execa(process.execPath, ['-e', "require('zookeeper')"], { cwd: root, reject: false });
    expect(native.exitCode, native.stderr).toBe(0);

    const work = join(dir, 'work');
    mkdirSync(work);
    const zklab = (args: readonly string[]) =>
      execa(bin, args, {
        cwd: work,
        env: { CI: 'true', FORCE_COLOR: '0', PATH: `${join(prefix, 'bin')}:${process.env.PATH}` },
        reject: false,
        stdin: 'ignore',
        timeout: 120_000,
      });

    let started = Date.now();
    const demo = await zklab(['demo', '--lab', join(work, 'demo')]);
    expect(demo.exitCode, `${demo.stdout}\n${demo.stderr}`).toBe(0);
    expect(demo.stdout.replace(/\n {3,}/g, ' ')).toMatch(/failover: c2 leads .* ZooKeeper confirms: c2's session/);
    expect(Date.now() - started).toBeLessThan(60_000);

    started = Date.now();
    const drill = await zklab(['drill', 'run', 'join-and-elect', '--lab', join(work, 'drill')]);
    expect(drill.exitCode, `${drill.stdout}\n${drill.stderr}`).toBe(0);
    expect(drill.stdout).toMatch(/^drill join-and-elect: PASSED/m);
    // The drill the installed copy read is its own.
    expect(drill.stderr).toContain(`: ${join(root, 'templates', 'drills', 'join-and-elect.yaml')}`);
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(readdirSync(work)).toEqual([]);
  }, 720_000);
});
