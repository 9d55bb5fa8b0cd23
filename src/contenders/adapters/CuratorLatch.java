import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.leader.LeaderLatch;
import org.apache.curator.framework.recipes.leader.LeaderLatchListener;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateErrorPolicy;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.framework.state.StandardConnectionStateErrorPolicy;
import org.apache.curator.retry.RetryForever;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * What a typical Apache Curator service does to elect a leader: a LeaderLatch, and "work" every 200 ms while the
 * latch says we lead. It trusts Curator completely: it acts when isLeader() is called and stops when notLeader() is.
 *
 * zklab runs it as a contender. Environment: ZKLAB_CONNECT, ZKLAB_ID, ZKLAB_SESSION_TIMEOUT_MS, ZKLAB_PATH.
 * Argument: --error-policy standard|session. It reports on stdout as lines `ZKLAB {json}`.
 */
public class CuratorLatch {
    private static final PrintStream OUT = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    /** One thread runs every latch callback, the acting and the polling, so they never race each other. */
    private static final ScheduledExecutorService WORKER = Executors.newSingleThreadScheduledExecutor();

    private static CuratorFramework client;
    private static LeaderLatch latch;
    private static String electionPath;
    private static volatile boolean leading;
    private static ScheduledFuture<?> acting;
    private static String joinedPath;
    /** The session id while the client has a session (set on CONNECTED/RECONNECTED, cleared on LOST). */
    private static volatile long session;

    public static void main(String[] args) {
        Thread.setDefaultUncaughtExceptionHandler((thread, e) -> fail(e));
        try {
            start(args);
        } catch (Throwable e) {
            fail(e);
        }
    }

    private static void start(String[] args) throws Exception {
        String policy = "standard";
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--error-policy") && i + 1 < args.length) policy = args[++i];
            else throw new IllegalArgumentException("unknown argument " + args[i]);
        }
        ConnectionStateErrorPolicy errorPolicy;
        if (policy.equals("standard")) errorPolicy = new StandardConnectionStateErrorPolicy(); // leadership ends on SUSPENDED
        else if (policy.equals("session")) errorPolicy = new SessionConnectionStateErrorPolicy(); // ... only on LOST
        else throw new IllegalArgumentException("--error-policy must be standard or session, not " + policy);

        int sessionTimeoutMs = Integer.parseInt(env("ZKLAB_SESSION_TIMEOUT_MS"));
        electionPath = env("ZKLAB_PATH");
        client = CuratorFrameworkFactory.builder()
                .connectString(env("ZKLAB_CONNECT"))
                .sessionTimeoutMs(sessionTimeoutMs)
                .connectionTimeoutMs(Math.min(sessionTimeoutMs, 5000))
                .retryPolicy(new RetryForever(200))
                .connectionStateErrorPolicy(errorPolicy)
                // The lab's connect string is this contender's own link proxies. The tracker would replace it with the
                // client addresses in /zookeeper/config (servers added by reconfig have them), past the lab's faults.
                .ensembleTracker(false)
                .build();
        client.getConnectionStateListenable().addListener((c, state) -> onConnectionState(state));
        client.getUnhandledErrorListenable().addListener((message, e) -> System.err.println("curator: " + message + ": " + e));

        latch = new LeaderLatch(client, electionPath, env("ZKLAB_ID"));
        latch.addListener(new LeaderLatchListener() {
            @Override
            public void isLeader() {
                lead();
            }

            @Override
            public void notLeader() {
                follow();
            }
        }, WORKER);

        Runtime.getRuntime().addShutdownHook(new Thread(CuratorLatch::stop));
        client.start();
        latch.start();
        // LeaderLatch has no callback for "my znode is created": poll getOurPath().
        WORKER.scheduleWithFixedDelay(guard(CuratorLatch::checkOurPath), 0, 50, TimeUnit.MILLISECONDS);
    }

    private static void lead() {
        checkOurPath(); // report the znode before the leadership it carries
        leading = true;
        Long token = czxid(latch.getOurPath());
        emit("leader", "\"token\":" + token);
        if (acting != null) acting.cancel(false);
        // With a fixed delay, not a fixed rate: a process resumed after a pause acts once, not once per missed tick.
        acting = WORKER.scheduleWithFixedDelay(guard(() -> emit("act", "\"token\":" + token)), 200, 200, TimeUnit.MILLISECONDS);
    }

    private static void follow() {
        leading = false;
        if (acting != null) acting.cancel(false);
        acting = null;
        emit("follower", "");
    }

    private static void checkOurPath() {
        String path = latch.getOurPath();
        if (path == null || path.equals(joinedPath)) return;
        joinedPath = path;
        emit("joined", "\"znode\":" + quote(path));
        // A follower until Curator says otherwise, unless ours is the lowest node and isLeader() is on its way.
        if (!leading && !latch.hasLeadership() && !isLowest(path)) emit("follower", "");
    }

    private static void onConnectionState(ConnectionState state) {
        if (state == ConnectionState.LOST) session = 0;
        if (state == ConnectionState.CONNECTED || state == ConnectionState.RECONNECTED) {
            ZooKeeper zk = zooKeeper();
            if (zk != null && zk.getSessionId() != session) {
                session = zk.getSessionId();
                emit("connected", "\"timeoutMs\":" + zk.getSessionTimeout());
            }
        }
        emit("client-state", "\"state\":" + quote(state.name()) + ",\"wasLeader\":" + leading);
    }

    private static void stop() {
        try {
            WORKER.shutdownNow();
            if (latch != null && latch.getState() == LeaderLatch.State.STARTED) latch.close();
            if (client != null) client.close();
            emit("stopped", "");
        } catch (Throwable e) {
            fail(e);
        }
        Runtime.getRuntime().halt(0);
    }

    /** The raw ZooKeeper handle, for single reads that must not enter Curator's retry-forever loop. Curator's
     *  getZooKeeper() also hands over queued background errors, so it is called only when needed. */
    private static ZooKeeper zooKeeper() {
        try {
            return client.getZookeeperClient().getZooKeeper();
        } catch (Exception e) {
            return null;
        }
    }

    private static Long czxid(String path) {
        try {
            Stat stat = zooKeeper().exists(path, false);
            return stat == null ? null : stat.getCzxid();
        } catch (Exception e) {
            return null;
        }
    }

    private static boolean isLowest(String path) {
        try {
            List<String> children = zooKeeper().getChildren(electionPath, false);
            String ours = sequence(path);
            return children.stream().map(CuratorLatch::sequence).allMatch(s -> s.compareTo(ours) >= 0);
        } catch (Exception e) {
            return false;
        }
    }

    private static String sequence(String name) {
        return name.substring(Math.max(0, name.length() - 10));
    }

    private static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) throw new IllegalArgumentException(name + " is not set");
        return value;
    }

    private static Runnable guard(Runnable task) {
        return () -> {
            try {
                task.run();
            } catch (Throwable e) {
                fail(e);
            }
        };
    }

    private static void fail(Throwable e) {
        emit("error", "\"message\":" + quote(String.valueOf(e)));
        Runtime.getRuntime().halt(1);
    }

    private static synchronized void emit(String event, String fields) {
        StringBuilder line = new StringBuilder("ZKLAB {\"event\":").append(quote(event));
        if (session != 0) line.append(",\"session\":").append(quote(Long.toHexString(session)));
        if (!fields.isEmpty()) line.append(',').append(fields);
        OUT.println(line.append('}'));
    }

    private static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c == '\n') b.append("\\n");
            else if (c < 0x20) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        return b.append('"').toString();
    }
}
