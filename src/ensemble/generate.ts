import { existsSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { planServerPorts, validateBasePort } from '../lab/ports.js';
import { readTemplate } from '../templates.js';
import {
  DEFAULT_TICK_MS,
  loopbackPeers,
  PRODUCTION_TICK_MS,
  productionConfigs,
  renderZooCfg,
  serverName,
  validateServerCount,
  validateTick,
  type ServerConfig,
  labServerConfig,
} from './config.js';
import { ensureDir } from '../lab/fs.js';

/** As given on the command line; the numbers are checked here. */
export interface GenerateOptions {
  readonly servers?: unknown;
  readonly out: string;
  readonly tickMs?: unknown;
  readonly hosts?: string;
  readonly basePort?: unknown;
}

export interface Written {
  readonly server: string;
  readonly files: string[];
  readonly note?: string;
}

/** Validates everything first, then writes: bad input never leaves half a directory behind. */
export function generateConfigs(opts: GenerateOptions): Written[] {
  const hosts = opts.hosts
    ?.split(',')
    .map((h) => h.trim())
    .filter(Boolean);
  if (opts.hosts !== undefined && (!hosts || hosts.length === 0))
    throw new UsageError(
      '--hosts is empty',
      'give comma-separated host names, e.g. --hosts zk1.example.com,zk2.example.com,zk3.example.com',
    );
  const servers = opts.servers === undefined ? undefined : validateServerCount(opts.servers);
  if (hosts && servers !== undefined && servers !== hosts.length) {
    throw new UsageError(
      `--servers ${servers} does not match the ${hosts.length} hosts of --hosts`,
      'drop --servers, or list one host per server',
    );
  }
  const tickMs = opts.tickMs === undefined ? (hosts ? PRODUCTION_TICK_MS : DEFAULT_TICK_MS) : validateTick(opts.tickMs);
  const out = resolve(opts.out);
  if (existsSync(out) && !statSync(out).isDirectory())
    throw new UsageError(`--out ${out} is a file`, 'name a directory');
  const template = readTemplate('zoo.cfg');
  let configs: ServerConfig[];
  let dataDirOnHost = false;
  if (hosts) {
    configs = productionConfigs(hosts, tickMs);
    dataDirOnHost = true;
  } else {
    const count = servers ?? 3;
    const base = opts.basePort === undefined ? 2181 : validateBasePort(opts.basePort);
    const plan = planServerPorts(base, count);
    const peers = loopbackPeers(plan);
    configs = plan.map((p) =>
      labServerConfig({ ...p, name: serverName(p.id) }, tickMs, join(out, serverName(p.id), 'data'), peers),
    );
  }
  const rendered = configs.map((c) => ({ c, text: renderZooCfg(template, c) }));
  return rendered.map(({ c, text }) => {
    const dir = join(out, c.name);
    ensureDir(dir);
    const cfg = join(dir, 'zoo.cfg');
    writeFileSync(cfg, text);
    // ZooKeeper reads myid from dataDir: locally that is inside the output; on a real host the operator copies it there.
    const myidDir = dataDirOnHost ? dir : c.dataDir;
    ensureDir(myidDir);
    const myid = join(myidDir, 'myid');
    writeFileSync(myid, `${c.id}\n`);
    return {
      server: c.name,
      files: [cfg, myid],
      note: dataDirOnHost ? `copy myid to ${c.dataDir}/myid on ${c.name}` : undefined,
    };
  });
}
