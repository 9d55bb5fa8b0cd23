import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../../src/templates.js';

/**
 * A lab on hosts loads its part only when it runs: src/hosts/ reaches execa (its SSH channel), ~70 ms of every CLI
 * command's start-up. The modules nearly every command loads must not import it statically (a dynamic import in the
 * branch for hosts is what they do), or every command of every lab pays for hosts it does not have.
 */
const SRC = join(PACKAGE_ROOT, 'src');

/** Static (runtime) relative imports: `import … from`, `export … from`; not `import type`, not `import(…)`. */
function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/^(?:import|export)\s+(?!type\s)[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)].map(
    (m) => m[1]!,
  );
  return specs.flatMap((s) => {
    const base = resolve(dirname(file), s).replace(/\.js$/, '');
    for (const ext of ['.ts', '.tsx', '/index.ts']) {
      try {
        if (statSync(base + ext).isFile()) return [base + ext];
      } catch {
        // try the next ending
      }
    }
    return [];
  });
}

function closure(entry: string): Set<string> {
  const seen = new Set<string>();
  const todo = [entry];
  while (todo.length > 0) {
    const f = todo.pop()!;
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...staticImports(f));
  }
  return seen;
}

describe('hosts are loaded only for a lab on hosts', () => {
  it.each([
    'ensemble/service.ts',
    'net/service.ts',
    'net/lab-network.ts',
    'faults/server-signals.ts',
    'contenders/service.ts',
    'cli/main.ts',
  ])('%s does not import src/hosts/ statically', (entry) => {
    const reached = [...closure(join(SRC, entry))].map((f) => relative(SRC, f));
    expect(reached.filter((f) => f.startsWith('hosts/') || f === 'ensemble/host-servers.ts')).toEqual([]);
  });

  it('the check can fail: the hosts commands do import them', () => {
    const reached = [...closure(join(SRC, 'ensemble/host-servers.ts'))].map((f) => relative(SRC, f));
    expect(reached).toContain('hosts/ssh.ts');
  });
});
