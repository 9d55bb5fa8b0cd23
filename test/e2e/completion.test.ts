import { execa } from 'execa';
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ZKLAB_BIN, zklab } from '../helpers/cli.js';
import { tempDir } from '../helpers/paths.js';

const BASH = { SHELL: '/bin/bash' };

describe('zklab completion', () => {
  it('prints a bash completion script for zklab on stdout, exit 0', async () => {
    const r = await zklab(['completion'], { env: BASH });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^###-begin-zklab-completions-###$/m);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own ${…}, in the script zklab prints
    expect(r.stdout).toContain('zklab --get-yargs-completions "${args[@]}"');
    expect(r.stdout).toMatch(/^complete -o bashdefault -o default -F _zklab_yargs_completions zklab$/m);
  });

  it('answers what the script asks: commands, then subcommands', async () => {
    const top = await zklab(['--get-yargs-completions', 'ens'], { env: BASH });
    expect(top.exitCode, top.stderr).toBe(0);
    expect(top.stdout.split('\n')).toContain('ensemble');
    const sub = await zklab(['--get-yargs-completions', 'zklab', 'ensemble', ''], { env: BASH });
    expect(sub.stdout.split('\n')).toEqual(expect.arrayContaining(['up', 'status', 'down', 'restart']));
  });

  it('completes in bash through zklab on the PATH', async () => {
    const dir = tempDir();
    symlinkSync(ZKLAB_BIN, join(dir, 'zklab'));
    const script =
      // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own ${…}
      'source <(zklab completion); COMP_WORDS=(zklab ens); COMP_CWORD=1; _zklab_yargs_completions; echo "${COMPREPLY[@]}"';
    const r = await execa('bash', ['-c', script], {
      env: { ...BASH, PATH: `${dir}:${process.env.PATH}` },
      cwd: '/',
      reject: false,
    });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe('ensemble');
  });

  it('prints a fish script with SHELL=fish, not the bash one, which asks zklab the same way', async () => {
    const r = await zklab(['completion'], { env: { SHELL: '/usr/bin/fish' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/COMP_WORDS|compgen/);
    expect(r.stdout).toMatch(/^complete -c zklab -f -a '\(__zklab_yargs_completions\)'$/m);
    expect(r.stdout).toContain('zklab --get-yargs-completions (commandline -opc) (commandline -ct)');
    // What fish's `commandline -opc` gives for "zklab ensemble <tab>": the words so far, the command first.
    const sub = await zklab(['--get-yargs-completions', 'zklab', 'ensemble', ''], { env: { SHELL: '/usr/bin/fish' } });
    expect(sub.stdout.split('\n')).toEqual(expect.arrayContaining(['up', 'status', 'down', 'restart']));
  });

  it('rejects extra arguments before printing anything', async () => {
    const r = await zklab(['completion', 'extra'], { env: BASH });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^zklab: Unknown argument: extra$/m);
  });
});
