import { classDataFlags } from './class-data.js';
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
  /**
   * Class-data sharing (src/ensemble/class-data.ts): by default the archive for this Java and ZooKeeper when
   * bin/setup built it (none otherwise); false: none (the archive's own build).
   */
  readonly classData?: boolean;
}

/** How often a lab's servers reap expired TTL and container znodes (the default, a minute, is far too slow for a lab). */
export const TTL_REAPER_INTERVAL_MS = 1000;

/**
 * The JVM command line for one ensemble member (and for the server that builds the class-data archive, so the archive
 * holds what a member loads). Start-up options were measured side by side on 3-server launches (CPU and time to
 * serving); candidates that did not help (-XX:CICompilerCount=1, G1 instead of Serial, -Xint, CompileThresholdScaling
 * 20, -Djava.net.preferIPv4Stack) are left out.
 */
export function serverJvmArgs(l: JvmLaunch): string[] {
  return [
    // ZooKeeper's classes mapped from an archive built once, not read and verified from the jars at every start.
    ...(l.classData === false ? [] : classDataFlags({ java: l.java, zk: l.zk })),
    // A lab server is small and short-lived: a small heap, the serial collector and C1 only start fastest.
    '-Xms32m',
    '-Xmx256m',
    '-XX:+UseSerialGC',
    '-XX:TieredStopAtLevel=1',
    // Compile only what runs 5× more often than usual: a starting server uses ~10-15% less CPU (measured; 20× was worse).
    '-XX:CompileThresholdScaling=5',
    '-XX:-UsePerfData',
    ...l.markers,
    `-Dznode.container.checkIntervalMs=${TTL_REAPER_INTERVAL_MS}`,
    '-Dzookeeper.admin.enableServer=false',
    // Election: give up on an unreachable peer after 1 s (default 5 s) and never back off past 2 s (default 60 s),
    // so a healed partition or a restarted server rejoins within seconds.
    '-Dzookeeper.cnxTimeout=1000',
    '-Dzookeeper.fastleader.maxNotificationInterval=2000',
    // No log4j MBeans (nobody tunes a lab server's logging over JMX): ~25 ms less start-up CPU per server.
    '-Dzookeeper.jmx.log4j.disable=true',
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
