/**
 * `npm run bench [-- name…]`: runs every module in test/bench that exports `run()` (or only the named ones),
 * prints one table and writes the figures as JSON to bench-results/<timestamp>.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchModules } from './modules.js';
import type { BenchRow } from './types.js';

const here = fileURLToPath(new URL('.', import.meta.url));

const results: Record<string, BenchRow[]> = {};
let failed = 0;
for (const { name, run } of await benchModules(process.argv.slice(2))) {
  process.stderr.write(`bench: ${name} …\n`);
  try {
    results[name] = await run({ smoke: false });
  } catch (e) {
    failed++;
    process.stderr.write(`bench: ${name} failed: ${(e as Error).stack ?? e}\n`);
  }
}

const rows = Object.entries(results).flatMap(([m, rs]) =>
  rs.map((r) => [
    m,
    r.name,
    `${Number.isInteger(r.value) ? r.value : r.value.toFixed(r.value < 10 ? 3 : 1)} ${r.unit}`,
    r.target ?? '',
    r.pass === undefined ? '' : r.pass ? 'ok' : 'MISS',
  ]),
);
const header = ['bench', 'measure', 'value', 'target', ''];
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]) =>
  r
    .map((c, i) => c.padEnd(widths[i]!))
    .join('  ')
    .trimEnd();
console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));

const dir = join(here, '..', '..', 'bench-results');
mkdirSync(dir, { recursive: true });
const file = join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, results }, null, 2)}\n`);
console.log(`\nwritten ${file}`);
process.exitCode = failed > 0 ? 1 : 0;
