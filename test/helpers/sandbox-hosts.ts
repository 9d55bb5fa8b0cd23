import { execa, type ResultPromise } from 'execa';

/** A host of a sandbox as its printed hosts file lists it. */
export interface SandboxHost {
  readonly name: string;
  readonly ssh: string;
  readonly key: string;
  readonly addr: string;
}

/**
 * A command on a sandbox host over the test's own ssh (not zklab's channel): the sandbox's key, its pinned host keys
 * (a changed key refused), never a prompt. `extra`: more ssh options (a control socket, say).
 */
export function sandboxSsh(
  h: SandboxHost,
  knownHosts: string,
  command: string,
  opts: { input?: string; extra?: readonly string[] } = {},
): ResultPromise {
  const args = [
    ...(opts.extra ?? []),
    '-F',
    'none',
    '-i',
    h.key,
    '-o',
    'BatchMode=yes',
    '-o',
    `UserKnownHostsFile=${knownHosts}`,
    '-o',
    'StrictHostKeyChecking=yes',
    `root@${h.addr}`,
    command,
  ];
  return execa('ssh', args, {
    reject: false,
    timeout: 20_000,
    ...(opts.input === undefined ? {} : { input: opts.input }),
  });
}
