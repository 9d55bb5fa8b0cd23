#!/usr/bin/env node
// The zklab shim: run main(argv) and map what it throws to an exit code. All logic lives in src/.
import { realpathSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

// React (under Ink) picks its build when first loaded: the production one renders about a third cheaper.
process.env.NODE_ENV ??= 'production';
// bin/setup links this file as `zklab` on the PATH: dist/ is found beside the file itself, not beside the link
// (Node resolves the main module's symlinks already, but not under --preserve-symlinks-main).
const dist = new URL('../dist/', pathToFileURL(realpathSync(fileURLToPath(import.meta.url))));
const { main } = await import(new URL('cli/main.js', dist).href);
const { formatError } = await import(new URL('errors.js', dist).href);

// A reader that goes away (`zklab … | head -1`) must not crash a command half-way through changing the lab: the
// output is dropped, the work finishes.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code !== 'EPIPE') throw e;
  });
}

const argv = process.argv.slice(2);
const verbose = argv.includes('--verbose');
const controller = new AbortController();
let interrupted = false;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (interrupted) process.exit(130); // a second Ctrl-C: leave now
    interrupted = true;
    controller.abort(new Error(`interrupted by ${sig}`));
  });
}

try {
  await main(argv, controller.signal);
} catch (err) {
  if (interrupted) {
    process.stderr.write('zklab: interrupted; what this command started has been stopped\n');
    process.exitCode = 130;
  } else {
    const { text, exitCode } = formatError(err, verbose);
    process.stderr.write(`${text}\n`);
    process.exitCode = exitCode;
  }
}
