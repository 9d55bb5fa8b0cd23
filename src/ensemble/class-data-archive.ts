/** Building the class-data archive (src/ensemble/class-data.ts says what it is and where it lives). */
import { spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { archivePlan, type ClassDataTarget } from './class-data.js';
import { leadsQuorum, probeSrvr } from '../zk/four-letter.js';
import { TEMPLATES_DIR } from '../templates.js';
import { tryPidLock } from '../lab/pid-lock.js';
import { ephemeralPort } from '../lab/ports.js';

function waitExit(child: ReturnType<typeof spawn>, timeoutMs: number): Promise<boolean> {
  return new Promise((res) => {
    if (child.exitCode !== null || child.signalCode !== null) return res(true);
    const timer = setTimeout(() => res(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      res(true);
    });
  });
}

/**
 * Builds the archive now unless it exists (or another builder is at it): one single-member quorum server
 * (standaloneEnabled=false, so the quorum classes load: election, leader) runs with -XX:ArchiveClassesAtExit until it
 * serves, then SIGTERM makes it exit and write the archive. `serverArgs(cfg, dir)` is the lab's own command line, so
 * the archive holds what a lab server loads. Resolves the archive's path, or undefined.
 */
export async function buildArchive(
  t: ClassDataTarget,
  serverArgs: (cfg: string, dir: string) => string[],
  opts: { waitForOtherMs?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<string | undefined> {
  const env = opts.env ?? process.env;
  const plan = archivePlan(t, env);
  if (!plan) return undefined;
  if (plan.exists) return plan.path;
  mkdirSync(dirname(plan.path), { recursive: true });
  const lock = `${plan.path}.building`;
  // A build that ran for 5 minutes is stuck: another may take over.
  if (!tryPidLock(lock, { maxAgeMs: 5 * 60_000 })) {
    // Another builder is at it: wait for its archive (or give up without one).
    const deadline = Date.now() + (opts.waitForOtherMs ?? 0);
    while (Date.now() < deadline && !existsSync(plan.path) && existsSync(lock))
      await new Promise((r) => setTimeout(r, 200));
    return existsSync(plan.path) ? plan.path : undefined;
  }
  // What a builder killed half-way left behind (this one holds the lock: no other is writing).
  for (const f of readdirSync(dirname(plan.path))) {
    if (f.startsWith(`${basename(plan.path)}.`) && f.endsWith('.tmp'))
      rmSync(join(dirname(plan.path), f), { force: true });
  }
  const tmp = `${plan.path}.${process.pid}.tmp`;
  const dir = mkdtempSync(join(tmpdir(), 'zklab-cds-'));
  let child: ReturnType<typeof spawn> | undefined;
  try {
    const [client, quorum, election] = [await ephemeralPort(), await ephemeralPort(), await ephemeralPort()];
    mkdirSync(join(dir, 'data'));
    writeFileSync(join(dir, 'data', 'myid'), '1\n');
    writeFileSync(join(dir, 'log4j.properties'), readFileSync(join(TEMPLATES_DIR, 'log4j.properties')));
    writeFileSync(join(dir, 'logback.xml'), readFileSync(join(TEMPLATES_DIR, 'logback.xml')));
    const cfg = join(dir, 'zoo.cfg');
    writeFileSync(
      cfg,
      [
        'tickTime=200',
        'initLimit=20',
        'syncLimit=10',
        `dataDir=${join(dir, 'data')}`,
        `clientPort=${client}`,
        'clientPortAddress=127.0.0.1',
        'admin.enableServer=false',
        '4lw.commands.whitelist=srvr',
        'standaloneEnabled=false',
        `server.1=127.0.0.1:${quorum}:${election};127.0.0.1:${client}`,
        '',
      ].join('\n'),
    );
    const out = openSync(join(dir, 'server.log'), 'a');
    child = spawn(t.java, [`-XX:ArchiveClassesAtExit=${tmp}`, ...serverArgs(cfg, dir)], {
      stdio: ['ignore', out, out],
      env: { ...env, JVMFLAGS: '' },
    });
    closeSync(out);
    child.on('error', () => undefined);
    const deadline = Date.now() + 60_000;
    let serving = false;
    while (!serving && Date.now() < deadline && child.exitCode === null) {
      await new Promise((r) => setTimeout(r, 100));
      serving = leadsQuorum((await probeSrvr(client, 500)).mode);
    }
    child.kill('SIGTERM');
    if (!(await waitExit(child, 60_000))) {
      child.kill('SIGKILL');
      return undefined;
    }
    if (!serving || !existsSync(tmp)) return undefined;
    // A broken archive crashes the JVM that maps it: prove this one maps before anyone else can see it.
    const check = spawnSync(t.java, [`-XX:SharedArchiveFile=${tmp}`, '-Xshare:on', '-cp', t.zk.classpath, '-version'], {
      stdio: 'ignore',
      timeout: 30_000,
    });
    if (check.status !== 0) return undefined;
    renameSync(tmp, plan.path);
    return plan.path;
  } catch {
    return undefined;
  } finally {
    // Whatever went wrong above, the build's JVM does not outlive it.
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(tmp, { force: true });
    rmSync(dir, { recursive: true, force: true });
    rmSync(lock, { force: true });
  }
}
