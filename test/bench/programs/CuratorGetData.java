import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryForever;

/**
 * The benchmark's Curator client: a getData loop against one znode, each call timed. Run once through a contender's
 * link proxies (as `contenders spawn --exec`) and once directly, it shows what the proxy adds. Prints one line
 * `latency {"n":…,"p50Us":…,"p99Us":…}`; as a contender it first says it has joined.
 */
public class CuratorGetData {
  public static void main(String[] args) throws Exception {
    String connect = args[0];
    int n = Integer.parseInt(args[1]);
    System.out.println("ZKLAB {\"event\":\"joined\"}");
    try (CuratorFramework client = CuratorFrameworkFactory.newClient(connect, 10_000, 5_000, new RetryForever(200))) {
      client.start();
      if (!client.blockUntilConnected(20, TimeUnit.SECONDS)) throw new IllegalStateException("not connected to " + connect);
      String path = "/bench-getdata";
      if (client.checkExists().forPath(path) == null) client.create().orSetData().forPath(path, new byte[64]);
      for (int i = 0; i < 200; i++) client.getData().forPath(path); // warm-up: class loading, JIT
      long[] us = new long[n];
      for (int i = 0; i < n; i++) {
        long t0 = System.nanoTime();
        client.getData().forPath(path);
        us[i] = (System.nanoTime() - t0) / 1000;
      }
      Arrays.sort(us);
      System.out.println("latency {\"n\":" + n + ",\"p50Us\":" + us[n / 2] + ",\"p99Us\":" + us[(int) Math.ceil(n * 0.99) - 1] + "}");
    }
  }
}
