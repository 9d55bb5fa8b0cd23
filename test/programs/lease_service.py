"""
A small service that elects its primary through ZooKeeper with kazoo's Election and serves on a port, in builds that
are wrong in one way each and one that is right: the programs that show whether zklab's judges catch a node that
begins to act while ZooKeeper names another.

  lease_service.py --port-base B --flaw none|thaw|heal|restart [--dir DIR] [--restart-after SECONDS]

Run by zklab as a contender (ZKLAB_CONNECT, ZKLAB_ID, ZKLAB_PATH, ZKLAB_SESSION_TIMEOUT_MS, ZKLAB_ADDR; DIR defaults
to lease/ in the lab's directory). Member N serves its role on ADDR:B+N (one line, `primary` or `replica`; ask it
with templates/programs/ha_probe.py). Only the first member ever to lead serves as primary (it marks DIR/first): so
no two ever serve at once, and only ZooKeeper's word shows a second leader.

  none     the right build: it serves while it leads and its lease holds (a round trip to ZooKeeper within the last
           third of its session, on the monotonic clock); when the connection is in doubt it stops, and once its
           session is lost it joins the election again. Restarted, it waits to win before it serves.
  thaw     serves for as long as it believes it leads: frozen past its session and thawed, it serves on.
  heal     stops serving while disconnected, but serves again the moment it reconnects, even with a new session.
  restart  right while it runs, but a primary that is restarted serves at once, from its mark on disk.

Every build starts a supervisor (double fork, setsid) that restarts the program --restart-after seconds after it
dies (default 4): what `kill --scope process` leaves of the node.
"""
import argparse
import os
import socket
import sys
import threading
import time

HERE = os.path.abspath(__file__)


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--port-base", type=int, required=True)
    p.add_argument("--flaw", choices=["none", "thaw", "heal", "restart"], required=True)
    p.add_argument("--dir", default=None)
    p.add_argument("--restart-after", type=float, default=4.0)
    p.add_argument("--restarted", action="store_true")
    return p.parse_args()


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def supervise(args, agent_pid):
    """Double fork and setsid: the supervisor is in no process group of the program's, as a service manager is not."""
    if os.fork() != 0:
        os.wait()
        return
    os.setsid()
    if os.fork() != 0:
        os._exit(0)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    pid = agent_pid
    while True:
        while alive(pid):
            time.sleep(0.1)
        time.sleep(args.restart_after)
        argv = [sys.executable, HERE, "--port-base", str(args.port_base), "--flaw", args.flaw, "--dir", args.dir,
                "--restart-after", str(args.restart_after), "--restarted"]
        pid = os.spawnv(os.P_NOWAIT, sys.executable, argv)
        os.waitpid(pid, 0)


def main():
    from kazoo.client import KazooClient, KazooState

    args = parse()
    ident = os.environ["ZKLAB_ID"]
    n = int("".join(ch for ch in ident if ch.isdigit()))
    args.dir = args.dir or os.path.join(os.environ["ZKLAB_LAB"], "lease")
    os.makedirs(args.dir, exist_ok=True)
    session_s = int(os.environ["ZKLAB_SESSION_TIMEOUT_MS"]) / 1000
    mark = os.path.join(args.dir, ident + ".primary")
    first = os.path.join(args.dir, "first")

    state = {"leads": False, "connected": False, "confirmed": 0.0}
    if args.restarted and args.flaw == "restart" and os.path.exists(mark):
        state["leads"] = state["connected"] = True
        state["confirmed"] = float("inf")

    def serving():
        if not state["leads"]:
            return False
        if args.flaw == "thaw":
            return True
        if args.flaw == "heal":
            return state["connected"]
        return state["connected"] and time.monotonic() - state["confirmed"] < session_s / 3

    def serve():
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((os.environ.get("ZKLAB_ADDR", "127.0.0.1"), args.port_base + n))
        server.listen(16)
        while True:
            conn, _ = server.accept()
            try:
                conn.sendall(b"primary\n" if serving() else b"replica\n")
            finally:
                conn.close()

    if not args.restarted:
        # Before the port is opened: the supervisor must not hold it for the program it restarts.
        supervise(args, os.getpid())
    threading.Thread(target=serve, daemon=True).start()

    zk = KazooClient(hosts=os.environ["ZKLAB_CONNECT"], timeout=session_s)
    lost = threading.Event()

    def listen(s):
        if s == KazooState.CONNECTED:
            state["connected"] = True
        else:
            state["connected"] = False
            if s == KazooState.LOST:
                lost.set()

    zk.add_listener(listen)
    zk.start()
    state["connected"] = True

    def confirm():
        # The lease: a round trip to ZooKeeper, on the monotonic clock.
        while True:
            try:
                zk.exists(os.environ["ZKLAB_PATH"])
                state["confirmed"] = time.monotonic()
            except Exception:
                pass
            time.sleep(0.2)

    threading.Thread(target=confirm, daemon=True).start()

    def lead():
        # Only the first member ever to lead serves: the others lead in ZooKeeper's eyes alone.
        try:
            fd = os.open(first, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            os.write(fd, ident.encode())
            os.close(fd)
        except FileExistsError:
            pass
        with open(first) as f:
            if f.read().strip() != ident:
                threading.Event().wait()
        open(mark, "w").close()
        state["leads"] = True
        if args.flaw in ("thaw", "heal"):
            threading.Event().wait()
        lost.wait()
        state["leads"] = False
        os.remove(mark)

    while True:
        lost.clear()
        zk.Election(os.environ["ZKLAB_PATH"], ident).run(lead)


if __name__ == "__main__":
    main()
