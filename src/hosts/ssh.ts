import type { Readable } from 'node:stream';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { execa } from 'execa';
import { ProcessError } from '../errors.js';
import type { HostSpec } from './hosts-file.js';
import { shellCommand } from './quote.js';

/**
 * The one channel to a host: OpenSSH's client, run once per command. Why OpenSSH rather than an SSH library: it is
 * on every machine that has sshd's hosts (Debian's openssh-client), it pins host keys in a file the user can read
 * and edit with ssh-keygen, and its ControlMaster multiplexes one connection per host when a lab wants that. The
 * options make it hermetic: no user config (`-F none`), this key alone, host keys only from the lab's own file,
 * first contact accepted and shown (accept-new), a changed key refused, never a prompt (BatchMode).
 *
 * The remote side always receives one command line, each word quoted by shellQuote (quote.ts); larger input
 * (scripts, files) goes over stdin, never into the line.
 */
export interface SshResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** SSH itself failed (exit 255: no route, refused, a key not accepted, a host key changed), not the command. */
export class HostUnreachable extends ProcessError {}

const SSH_FAILED = 255;

export interface SshOptions {
  readonly knownHosts: string;
  /** Seconds to wait for the TCP connection and the key exchange. */
  readonly connectTimeoutS?: number;
  /** Told once per host whose key was not pinned before this connection (`ssh-keygen -l` of the new line). */
  readonly onFirstContact?: (host: HostSpec, fingerprint: string) => void;
  /**
   * A master connection's socket (masterArgs): commands go over it when it answers (a few ms, where a connection of
   * their own takes ~300 ms of key exchange), and over a connection of their own when it does not.
   */
  readonly controlPath?: string;
}

/** Where `host` is written in a known-hosts file: `[host]:port` off port 22. */
export const knownHostsName = (h: Pick<HostSpec, 'host' | 'port'>): string =>
  h.port === 22 ? h.host : `[${h.host}]:${h.port}`;

/** The line of `host` in the known-hosts file, fingerprinted (`ssh-keygen -l -F`), or undefined when it has none. */
export function pinnedFingerprint(knownHosts: string, h: Pick<HostSpec, 'host' | 'port'>): string | undefined {
  if (!existsSync(knownHosts)) return undefined;
  const r = spawnSync('ssh-keygen', ['-l', '-F', knownHostsName(h), '-f', knownHosts], { encoding: 'utf8' });
  if (r.status !== 0) return undefined;
  const line = r.stdout.split('\n').find((l) => l !== '' && !l.startsWith('#'));
  return line?.split(' ').slice(1).join(' ');
}

export class SshHost {
  constructor(
    readonly spec: HostSpec,
    private readonly options: SshOptions,
  ) {}

  /** ssh's own arguments, up to and including the destination; `direct`: never over the master. */
  sshArgs(direct = false): string[] {
    const cp = this.options.controlPath;
    const mux = cp && !direct ? ['-o', 'ControlMaster=no', '-o', `ControlPath=${cp}`] : [];
    return [...mux, ...this.baseArgs()];
  }

  /** A master connection for `controlPath`: `ssh -M -N`, in the foreground, until it is killed or the link drops. */
  masterArgs(): string[] {
    const cp = this.options.controlPath;
    if (!cp) throw new Error('a master needs a control path');
    return [
      '-M',
      '-N',
      '-o',
      'ControlMaster=yes',
      '-o',
      'ControlPersist=no',
      '-o',
      `ControlPath=${cp}`,
      ...this.baseArgs(),
    ];
  }

  private baseArgs(): string[] {
    const h = this.spec;
    return [
      '-F',
      'none',
      '-o',
      'BatchMode=yes',
      '-o',
      'IdentitiesOnly=yes',
      '-i',
      h.key,
      '-o',
      `UserKnownHostsFile=${this.options.knownHosts}`,
      '-o',
      'GlobalKnownHostsFile=/dev/null',
      '-o',
      'StrictHostKeyChecking=accept-new',
      '-o',
      `ConnectTimeout=${this.options.connectTimeoutS ?? 5}`,
      '-o',
      'ServerAliveInterval=2',
      '-o',
      'ServerAliveCountMax=3',
      '-o',
      'LogLevel=ERROR',
      '-p',
      String(h.port),
      '-l',
      h.user,
      h.host,
    ];
  }

  /**
   * Runs `argv` on the host (each word quoted), feeding `input` on stdin. Resolves the command's exit code and
   * output; a failure of SSH itself is a HostUnreachable saying which host and why, in ssh's own words.
   */
  async run(
    argv: readonly string[],
    opts: { input?: string | Buffer | Readable; timeoutMs?: number } = {},
  ): Promise<SshResult> {
    this.prepareKnownHosts();
    const before = this.options.onFirstContact ? pinnedFingerprint(this.options.knownHosts, this.spec) : 'n/a';
    const r = await execa('ssh', [...this.sshArgs(), '--', shellCommand(argv)], {
      input: opts.input ?? '',
      reject: false,
      timeout: opts.timeoutMs ?? 60_000,
      stripFinalNewline: false,
      encoding: 'utf8',
    });
    if (r.timedOut) throw new HostUnreachable(`${this.describe()}: no answer in ${(opts.timeoutMs ?? 60_000) / 1000}s`);
    if (r.exitCode === SSH_FAILED || r.exitCode === undefined) {
      const why = lastLine(r.stderr) || r.shortMessage;
      throw new HostUnreachable(`${this.describe()} cannot be reached over SSH: ${why}`, reachHint(this.spec));
    }
    if (before === undefined) {
      const after = pinnedFingerprint(this.options.knownHosts, this.spec);
      if (after) this.options.onFirstContact?.(this.spec, after);
    }
    return { code: r.exitCode, stdout: String(r.stdout), stderr: String(r.stderr) };
  }

  /** Runs a shell script of ours (never user text) on the host with `sh -s`, its arguments quoted. */
  script(text: string, args: readonly string[] = [], timeoutMs?: number): Promise<SshResult> {
    return this.run(['sh', '-s', '--', ...args], { input: text, timeoutMs });
  }

  describe(): string {
    const h = this.spec;
    return `${h.name} (${h.user}@${h.host}${h.port === 22 ? '' : `:${h.port}`})`;
  }

  /** The known-hosts file and its directory exist and are the user's alone (ssh writes first contacts to it). */
  private prepareKnownHosts(): void {
    const file = this.options.knownHosts;
    if (existsSync(file)) return;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(file, '', { mode: 0o600 });
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).at(-1)?.trim() ?? '';
}

function reachHint(h: HostSpec): string {
  const mode = existsSync(h.key) ? statSync(h.key).mode & 0o077 : 0;
  if (mode !== 0) return `its key ${h.key} is readable by others, and ssh refuses it: chmod 600 ${h.key}`;
  return `check that sshd runs on ${h.host}:${h.port} and takes the key ${h.key} for ${h.user}`;
}
