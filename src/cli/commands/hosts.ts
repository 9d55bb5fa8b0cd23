import chalk from 'chalk';
import type { Argv, CommandModule } from 'yargs';
import { CheckFailedError } from '../../errors.js';
import type { HostReport } from '../../hosts/check.js';
import { withOptions } from '../options.js';
import type { CommandContext, GlobalArgs } from '../context.js';

const DIR = {
  dir: {
    type: 'string',
    describe: 'where the sandbox keeps its keys and hosts file (default: ~/.cache/zklab/sandbox)',
  },
} as const;
const FILE = { file: { type: 'string', demandOption: true, describe: 'a hosts file (hosts.yaml)' } } as const;

export function hostsCommand(ctx: CommandContext): CommandModule<GlobalArgs, GlobalArgs> {
  return {
    command: 'hosts',
    describe: 'Machines reached over SSH: check and prepare them, or make a sandbox of local hosts to try them on',
    builder: (y: Argv<GlobalArgs>) =>
      y
        .command<GlobalArgs & { what: string; dir?: string }>({
          command: 'sandbox <what>',
          describe:
            'sandbox N: make N local hosts (network namespaces, each with its own sshd) and print their hosts file; ' +
            'sandbox down: remove them',
          builder: (b) =>
            withOptions(b, DIR, {
              what: { type: 'string', demandOption: true, describe: 'how many hosts (1-9), or down' },
            }) as Argv<GlobalArgs & { what: string; dir?: string }>,
          handler: async (a) => {
            const sandbox = await import('../../hosts/sandbox.js');
            const { wholeNumber } = await import('../../validate.js');
            const { resolve } = await import('node:path');
            const dir = resolve(a.dir ?? sandbox.defaultSandboxDir());
            if (a.what === 'down') {
              const r = await sandbox.removeSandbox(dir);
              ctx.out(
                r.hosts === 0 && r.processes === 0
                  ? `no sandbox at ${dir}: nothing to remove`
                  : `removed the sandbox at ${dir}: ${r.hosts} host(s), ${r.processes} process(es) ended`,
              );
              return;
            }
            const n = wholeNumber(a.what, 'the number of sandbox hosts', 1, sandbox.SANDBOX_MAX, 'or give down');
            const made = await sandbox.makeSandbox(dir, n);
            const { readFileSync } = await import('node:fs');
            ctx.out(readFileSync(made.hostsFile, 'utf8').trimEnd());
            ctx.err(`hosts file: ${made.hostsFile}`);
          },
        })
        .command<GlobalArgs & { file: string; json?: boolean }>({
          command: 'check <file>',
          describe:
            'Ask every host over SSH: root, Java, ZooKeeper, Node, kazoo, Curator, nftables, cgroup v2, netem; ' +
            'the fix for each problem',
          builder: (b) =>
            withOptions(b, { json: { type: 'boolean', default: false, describe: 'print JSON' } }, FILE) as Argv<
              GlobalArgs & { file: string; json?: boolean }
            >,
          handler: async (a) => {
            const { reports } = await checkFileWithHosts(ctx, a.file);
            if (a.json) ctx.out(JSON.stringify(reports, null, 2));
            else ctx.out(renderReports(reports));
            const bad = reports.filter((r) => r.checks.some((c) => c.required && !c.ok)).map((r) => r.host.name);
            if (bad.length > 0)
              throw new CheckFailedError(
                `${bad.join(', ')} cannot run a lab yet`,
                `apply the fixes above (\`zklab hosts prepare ${a.file}\` installs the packages), then check again`,
              );
          },
        })
        .command<GlobalArgs & { file: string; 'dry-run'?: boolean }>({
          command: 'prepare <file>',
          describe: 'Install what the checks found missing on Debian hosts (apt-get over SSH), as bin/setup does here',
          builder: (b) =>
            withOptions(
              b,
              { 'dry-run': { type: 'boolean', default: false, describe: 'print what it would run on each host' } },
              FILE,
            ) as Argv<GlobalArgs & { file: string; 'dry-run'?: boolean }>,
          handler: async (a) => {
            const { preparePlan } = await import('../../hosts/check.js');
            const { shellCommand } = await import('../../hosts/quote.js');
            const { hosts, reports } = await checkFileWithHosts(ctx, a.file);
            const failed: string[] = [];
            for (const report of reports) {
              const name = report.host.name;
              if (!report.reachable) {
                ctx.out(`${name}: ${report.checks[0]!.detail}`);
                failed.push(name);
                continue;
              }
              const plan = preparePlan(report);
              if (!plan) {
                ctx.out(`${name}: nothing to install`);
                continue;
              }
              ctx.out(`${name}: ${a['dry-run'] ? 'would run' : 'running'} ${shellCommand(plan)}`);
              if (a['dry-run']) continue;
              const r = await hosts.find((h) => h.spec.name === name)!.run(plan, { timeoutMs: 15 * 60_000 });
              if (r.code !== 0) {
                ctx.out(`${name}: apt-get failed (exit ${r.code}): ${r.stderr.trim().split('\n').at(-1) ?? ''}`);
                failed.push(name);
              }
            }
            if (failed.length > 0)
              throw new CheckFailedError(
                `could not prepare ${failed.join(', ')}`,
                'see above, then `zklab hosts check`',
              );
          },
        }),
    handler: () => undefined,
  };
}

async function checkFileWithHosts(ctx: CommandContext, file: string) {
  const { loadHostsFile } = await import('../../hosts/hosts-file.js');
  const { SshHost } = await import('../../hosts/ssh.js');
  const { checkHosts } = await import('../../hosts/check.js');
  const { arch } = await import('node:os');
  const hostsFile = loadHostsFile(file);
  const hosts = hostsFile.hosts.map(
    (spec) =>
      new SshHost(spec, {
        knownHosts: hostsFile.knownHosts,
        onFirstContact: (h, fp) =>
          ctx.err(`${h.name}: first contact, host key ${fp} pinned in ${hostsFile.knownHosts}`),
      }),
  );
  const machine = { x64: 'x86_64', arm64: 'aarch64' }[arch() as string] ?? arch();
  return { hosts, reports: await checkHosts(hosts, machine) };
}

function renderReports(reports: readonly HostReport[]): string {
  const lines: string[] = [];
  for (const r of reports) {
    lines.push(`${r.host.name} (${r.host.user}@${r.host.host}:${r.host.port}, nodes at ${r.host.addr})`);
    for (const c of r.checks) {
      const mark = c.ok ? chalk.green('✓') : c.required ? chalk.red('✗') : chalk.yellow('–');
      lines.push(`  ${mark} ${c.name}: ${c.detail}${!c.ok && c.fix ? `\n      fix: ${c.fix}` : ''}`);
    }
  }
  return lines.join('\n');
}
