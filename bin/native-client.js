#!/usr/bin/env node
// The native ZooKeeper client must load, or nothing can talk to ZooKeeper: npm compiles it while it installs the
// `zookeeper` package, but may skip install scripts it has not been told to trust. Run after every install (a
// clone's `npm install`, bin/setup, an `npm install -g` of the packed tarball): it builds the client once if it does
// not load, and fails loudly if it still does not.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

function loads() {
  try {
    require('zookeeper');
    return true;
  } catch {
    return false;
  }
}

if (!loads()) {
  process.stderr.write('zklab: the native zookeeper client is not built; building it (npm rebuild zookeeper)\n');
  spawnSync('npm', ['rebuild', 'zookeeper', '--foreground-scripts'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (!loads()) {
    process.stderr.write(
      'zklab: the native zookeeper client does not load: it needs python3, make and g++ ' +
        '(apt-get install build-essential python3), then run this again: node bin/native-client.js\n',
    );
    process.exit(1);
  }
}
