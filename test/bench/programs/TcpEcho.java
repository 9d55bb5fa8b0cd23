import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The node-net bench's floor on the server's side: a JVM answering small round trips, as a ZooKeeper server does,
 * with a thread per connection. `java TcpEcho.java ADDR PORT` prints "up" once it listens.
 */
public class TcpEcho {
  public static void main(String[] args) throws Exception {
    ServerSocket server = new ServerSocket(Integer.parseInt(args[1]), 16, InetAddress.getByName(args[0]));
    System.out.println("up");
    System.out.flush();
    while (true) {
      Socket s = server.accept();
      s.setTcpNoDelay(true);
      new Thread(() -> {
        try (InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
          byte[] buf = new byte[256];
          int n;
          while ((n = in.read(buf)) > 0) out.write(buf, 0, n);
        } catch (Exception e) {
          // the bench closed it
        }
      }).start();
    }
  }
}
