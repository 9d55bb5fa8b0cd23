/**
 * `node dist/ensemble/class-data-build.js`: builds the class-data archive for this machine's Java and ZooKeeper
 * (bin/setup runs it): one single-member quorum server started with -XX:ArchiveClassesAtExit, stopped once it serves.
 */
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { archivePlan, classDataDisabled, MIN_DYNAMIC_ARCHIVE_JAVA, type ClassDataTarget } from './class-data.js';
import { buildArchive } from './class-data-archive.js';
import { findJava, findZooKeeper } from './discover.js';
import { serverJvmArgs } from './jvm.js';

/**
 * Builds (or finds) the archive for `target`, waiting up to `waitForOtherMs` for another builder already at it;
 * resolves its path, or undefined when there is none.
 */
export function buildServerArchive(target: ClassDataTarget, waitForOtherMs = 60_000): Promise<string | undefined> {
  return buildArchive(
    target,
    (cfg, dir) =>
      serverJvmArgs({
        java: target.java,
        zk: target.zk,
        configFile: cfg,
        confDir: dir,
        logDir: dir,
        markers: ['-Dzklab.cds-build=1'],
        classData: false,
      }),
    { waitForOtherMs },
  );
}

async function main(): Promise<void> {
  const target = { java: findJava().bin, zk: findZooKeeper() };
  if (!archivePlan(target)) {
    console.log(
      `class-data sharing: not used (${classDataDisabled() ? 'ZKLAB_CDS is off' : `needs Java ${MIN_DYNAMIC_ARCHIVE_JAVA} or newer`}); ` +
        'servers start without it',
    );
    return;
  }
  const built = await buildServerArchive(target);
  console.log(built ? `class-data archive: ${built}` : 'class-data archive: not built; servers start without it');
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  await main().catch((e: unknown) => {
    console.error(`class-data archive: ${(e as Error).message}`);
  });
}
