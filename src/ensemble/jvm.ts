import type { ZooKeeperInstall } from './discover.js';

export interface JvmLaunch {
  readonly java: string;
  readonly zk: ZooKeeperInstall;
  readonly configFile: string;
  readonly confDir: string;
  readonly logDir: string;
  /**
   * The server's own hosts file: how it resolves the lab's server names (zk1, zk2, …) to the link proxies of its
   * own links. Absent: the JVM resolves names as usual.
   */
  readonly hostsFile?: string;
  /** Extra arguments that identify the process (the lab marker, the server name). */
  readonly markers: readonly string[];
}

/** How often a lab's servers reap expired TTL and container znodes (the default, a minute, is far too slow for a lab). */
export const TTL_REAPER_INTERVAL_MS = 1000;

/**
 * The JVM command line for one ensemble member. Shared by `ensemble up` and the benchmark's
 * raw launch, so the two compare the same JVMs.
 */
export function serverJvmArgs(l: JvmLaunch): string[] {
  return [
    // A lab server is small and short-lived: a small heap, the serial collector and C1 only start fastest.
    '-Xms32m',
    '-Xmx256m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    '-XX:-UsePerfData',
    ...l.markers,
    '-Dzookeeper.extendedTypesEnabled=true',
    `-Dznode.container.checkIntervalMs=${TTL_REAPER_INTERVAL_MS}`,
    '-Dzookeeper.admin.enableServer=false',
    // Election: give up on an unreachable peer after 1 s (default 5 s) and never back off past 2 s (default 60 s),
    // so a healed partition or a restarted server rejoins within seconds.
    '-Dzookeeper.cnxTimeout=1000',
    '-Dzookeeper.fastleader.maxNotificationInterval=2000',
    ...(l.hostsFile ? [`-Djdk.net.hosts.file=${l.hostsFile}`] : []),
    `-Dlog4j.configuration=file:${l.confDir}/log4j.properties`,
    `-Dlogback.configurationFile=${l.confDir}/logback.xml`,
    `-Dzookeeper.log.dir=${l.logDir}`,
    '-cp',
    l.zk.classpath,
    'org.apache.zookeeper.server.quorum.QuorumPeerMain',
    l.configFile,
  ];
}
