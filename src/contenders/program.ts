import { accessSync, constants, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ProcessError, UsageError } from '../errors.js';
import type { ContenderEvent } from '../lab/events.js';
import { LabPaths } from '../lab/paths.js';
import { spawnNode } from '../lab/nodes.js';
import { entryPoint } from '../entry-points.js';
import { encodeChildConfig, type ExecChildConfig } from './child-config.js';
import { type ContenderRecord, type LabState, nodeHost } from '../lab/state.js';
import type { ContenderSpec } from './spec.js';
import { DEFAULT_PATH } from './fields.js';
import { prepareAdapter } from './adapters/adapters.js';
import { fillPlaceholders, type PlaceholderValues } from './placeholders.js';
import { findIn, pathDirs } from '../search-path.js';
import { PROGRAMS_DIR } from '../templates.js';
import { locateKazoo } from './adapters/kazoo-runtime.js';

/** Programs run as contenders: finding the program, filling in its arguments, starting it under a supervisor. */

export const EXEC_CHILD_ENTRY = entryPoint('contenders/exec-child');

function executable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The program's absolute path: as given when it names a path, else the first match on PATH. UsageError if none. */
export function resolveProgram(command: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  if (command.includes('/')) {
    const file = isAbsolute(command) ? command : resolve(cwd, command);
    if (!executable(file))
      throw new UsageError(
        `the program ${command} does not exist or is not executable`,
        'give the path of an executable file (chmod +x), or a program on the PATH',
      );
    return file;
  }
  const found = findIn(pathDirs(env), command, executable);
  if (found) return found;
  throw new UsageError(`the program "${command}" is not on the PATH`, 'give its path (./my-contender) or install it');
}

/** What a program is told, in its environment and through placeholders in its arguments. */
export type ProgramContext = PlaceholderValues;

export function programEnv(c: ProgramContext, labRoot: string): Record<string, string> {
  return {
    ZKLAB_CONNECT: c.connect,
    ZKLAB_ID: c.id,
    ZKLAB_PATH: c.path,
    ZKLAB_SESSION_TIMEOUT_MS: String(c.sessionTimeoutMs),
    // Where its peers and the lab reach it: its node's address on the node network, else loopback.
    ZKLAB_ADDR: c.addr,
    // A program that runs zklab itself acts on the lab it belongs to.
    ZKLAB_LAB: labRoot,
  };
}

/** Starts the supervisor, which starts the program in its own process group. Resolves the supervisor's pid. */
const SUPERVISOR_FLAGS = ['--max-old-space-size=48'];

export async function launchProgram(paths: LabPaths, state: LabState, cfg: ExecChildConfig): Promise<number> {
  if (state.hosts)
    return (await import('./host-contenders.js')).launchOnHost(
      paths,
      state,
      'contenders/exec-child',
      SUPERVISOR_FLAGS,
      cfg,
    );
  const args = [...SUPERVISOR_FLAGS, EXEC_CHILD_ENTRY, paths.nodeMarker, `--id=${cfg.id}`, encodeChildConfig(cfg)];
  const child = spawnNode(paths, cfg.id, state, process.execPath, args, paths.contenderLog(cfg.id));
  if (child.pid === undefined) throw new ProcessError(`could not start the supervisor of contender ${cfg.id}`);
  return child.pid;
}

/** The words for a program that ended while it should have been joining: its exit code and its last stderr lines. */
export function programExitError(
  id: string,
  program: readonly string[],
  events: readonly ContenderEvent[],
): UsageError | undefined {
  const exited = events.findLast((e) => e.event === 'exited');
  if (exited?.event !== 'exited') return undefined;
  const how =
    exited.code !== null ? `with code ${exited.code}` : exited.signal ? `on ${exited.signal}` : 'before it could start';
  const tail =
    exited.stderr.length > 0
      ? `its last stderr lines:\n  ${exited.stderr.join('\n  ')}`
      : 'it printed nothing on stderr';
  return new UsageError(`${id}: ${program.join(' ')} exited ${how} before it joined`, tail);
}

/**
 * The words of a program or probe with the spawn's placeholders filled in (SPAWN_PLACEHOLDERS): `{programs}` and,
 * when a word names it, `{python}`, the interpreter that imports kazoo (asked for only then: it runs a Python).
 */
export async function fillSpawnPlaceholders(
  argv: readonly string[],
  python: () => Promise<string> = async () => (await locateKazoo()).python,
): Promise<string[]> {
  const interpreter = argv.some((w) => w.includes('{python}')) ? await python() : '';
  return argv.map((w) => w.replaceAll('{programs}', PROGRAMS_DIR).replaceAll('{python}', interpreter));
}

/** What a program contender runs: the command (resolved), its arguments, and how `contenders list` shows it. */
export interface ProgramSpec {
  readonly command: string;
  readonly args: readonly string[];
  /** Adapters: flags that mark the program as the lab's, so clearing a lab finds it even without its supervisor. */
  readonly marked: 'jvm' | 'node-arg' | 'none';
  readonly shown: readonly string[];
}

export async function programFor(req: ContenderSpec): Promise<ProgramSpec | undefined> {
  if (req.recipe === 'exec') {
    const [command, ...args] = await fillSpawnPlaceholders(req.program!);
    return { command: resolveProgram(command!), args, marked: 'none', shown: req.program! };
  }
  if (req.recipe === 'curator-latch' || req.recipe === 'kazoo-election') {
    const a = await prepareAdapter(req.recipe, { curatorErrorPolicy: req.curatorErrorPolicy });
    return {
      command: a.command,
      args: a.args,
      marked: req.recipe === 'curator-latch' ? 'jvm' : 'node-arg',
      shown: [a.command, ...a.args],
    };
  }
  return undefined;
}

export function launchProgramContender(
  paths: LabPaths,
  state: LabState,
  req: ContenderSpec,
  rec: ContenderRecord,
  program: ProgramSpec,
  connect: string,
): Promise<number> {
  const context = {
    connect,
    id: rec.id,
    addr: nodeHost(state, rec.id),
    // Spawned at the root (the audit looks for where a program keeps its election, and a member joins by owning any
    // ephemeral znode), a program that takes its path from zklab is told the default one: "/" names no election.
    path: req.path === '/' ? DEFAULT_PATH : req.path,
    sessionTimeoutMs: req.sessionTimeoutMs,
  };
  const args = fillPlaceholders(program.args, context);
  // On hosts the program carries the remote lab's marker, not this one's (see hosts/remote-node.ts).
  const marks = state.hosts ? new LabPaths(state.hosts.dir) : paths;
  const marked =
    program.marked === 'jvm'
      ? [marks.jvmMarker, ...args]
      : program.marked === 'node-arg'
        ? [...args, marks.nodeMarker]
        : args;
  return launchProgram(paths, state, {
    id: rec.id,
    labRoot: paths.root,
    eventsFile: paths.contenderEvents(rec.id),
    kind: req.recipe,
    path: req.path,
    sessionTimeoutMs: req.sessionTimeoutMs,
    connect,
    command: program.command,
    args: marked,
    env: programEnv(context, paths.root),
  });
}
