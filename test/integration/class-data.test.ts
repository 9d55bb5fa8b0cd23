import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { archivePlan, classDataFlags } from '../../src/ensemble/class-data.js';
import { buildServerArchive } from '../../src/ensemble/class-data-build.js';
import { findJava, findZooKeeper } from '../../src/ensemble/discover.js';

const target = { java: findJava().bin, zk: findZooKeeper() };
const plan = archivePlan(target);

describe.skipIf(!plan)('class-data sharing for lab servers', () => {
  it('builds the archive once, and a ZooKeeper server maps its classes from it', async () => {
    // bin/setup has built it already; if not, this builds it (one short-lived server, a second or two).
    const archive = await buildServerArchive(target);
    expect(archive).toBe(plan!.path);
    const flags = classDataFlags(target);
    expect(flags).toContain(`-XX:SharedArchiveFile=${archive}`);
    // No config file: the server reads its configuration class, logs, and exits at once.
    const r = await execa(
      target.java,
      [
        ...flags,
        '-Xlog:class+load=info',
        '-cp',
        target.zk.classpath,
        'org.apache.zookeeper.server.quorum.QuorumPeerMain',
        '/nonexistent/zoo.cfg',
      ],
      { reject: false },
    );
    expect(r.stdout).toMatch(/org\.apache\.zookeeper\.server\.quorum\.QuorumPeerConfig source: shared objects file/);
  }, 90_000);
});
