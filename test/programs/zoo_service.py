"""
The audit's zoo: a small primary/replica service that elects through ZooKeeper with kazoo (an ephemeral sequential
znode under ZKLAB_PATH; the lowest leads) and serves its role on a port, in one build that is right and builds wrong
in one way each. `zklab audit` must fail each wrong build in exactly the scenarios its flaw shows, and pass the
right one in all.

  zoo_service.py --port-base B --flaw FLAW [--join-delay SECONDS]

Member N serves one line, `primary` or `replica`, on ZKLAB_ADDR:B+N (ask it with templates/programs/ha_probe.py).
It prints nothing for zklab: its leadership is ZooKeeper's word, what it does is its probe's.

  none       right: primary only while it leads, is connected, and its lease holds (a round trip to ZooKeeper in
             the last third of its session, timed on the monotonic clock); it joins again when its session is lost
  suspended  acts while SUSPENDED: it stops serving only when kazoo says the session is LOST
  dataplane  right, but its data plane is a daemon of its own (double fork, setsid) that keeps the last role it
             was told when its agent dies
  thaw       once it leads it never looks at its connection or its session again: thawed after a freeze (or cut
             off) it serves on its old belief, until its process ends
  flap       right, but resigns and joins again at every SUSPENDED: leadership flaps under packet loss
  wallclock  keeps no watch on SUSPENDED and trusts its lease alone, timed on the wall clock: a clock jumped
             back keeps the lease for as long as the jump
"""
import argparse
import os
import socket
import sys
import threading
import time

FLAWS = ["none", "suspended", "dataplane", "thaw", "flap", "wallclock"]


def serve_role(addr, port, role):
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((addr, port))
    server.listen(16)
    while True:
        conn, _ = server.accept()
        try:
            conn.sendall((role() + "\n").encode())
        finally:
            conn.close()


def data_plane_daemon(addr, port, role_file):
    """The `dataplane` build's server: a daemon that reads its role from a file its agent writes, and outlives it."""
    if os.fork() != 0:
        os.wait()
        return
    os.setsid()
    if os.fork() != 0:
        os._exit(0)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)

    def role():
        try:
            with open(role_file) as f:
                return f.read().strip() or "replica"
        except OSError:
            return "replica"

    serve_role(addr, port, role)
    os._exit(0)


def main():
    from kazoo.client import KazooClient, KazooState
    from kazoo.exceptions import NoNodeError

    p = argparse.ArgumentParser()
    p.add_argument("--port-base", type=int, required=True)
    p.add_argument("--flaw", choices=FLAWS, required=True)
    p.add_argument("--join-delay", type=float, default=0.0)
    args = p.parse_args()

    ident = os.environ["ZKLAB_ID"]
    n = int("".join(ch for ch in ident if ch.isdigit()))
    path = os.environ["ZKLAB_PATH"]
    session_s = int(os.environ["ZKLAB_SESSION_TIMEOUT_MS"]) / 1000
    addr = os.environ.get("ZKLAB_ADDR", "127.0.0.1")
    lease_s = session_s / 3
    clock = time.time if args.flaw == "wallclock" else time.monotonic

    st = {"leads": False, "connected": False, "confirmed": -1e18, "znode": None}
    lock = threading.Lock()

    def acts():
        if not st["leads"]:
            return False
        if args.flaw in ("suspended", "thaw"):
            return True
        if args.flaw == "wallclock":
            return clock() - st["confirmed"] < lease_s
        return st["connected"] and clock() - st["confirmed"] < lease_s

    role = lambda: "primary" if acts() else "replica"  # noqa: E731
    if args.flaw == "dataplane":
        role_file = os.path.join(os.environ["ZKLAB_LAB"], "zoo-%s.role" % ident)
        data_plane_daemon(addr, args.port_base + n, role_file)

        def publish():
            while True:
                r = role()
                tmp = role_file + ".tmp"
                with open(tmp, "w") as f:
                    f.write(r)
                os.replace(tmp, role_file)
                time.sleep(0.05)

        threading.Thread(target=publish, daemon=True).start()
    else:
        threading.Thread(target=serve_role, args=(addr, args.port_base + n, role), daemon=True).start()

    time.sleep(args.join_delay)
    zk = KazooClient(hosts=os.environ["ZKLAB_CONNECT"], timeout=session_s)
    wake = threading.Event()

    def listen(s):
        st["connected"] = s == KazooState.CONNECTED
        if s == KazooState.LOST:
            if args.flaw != "thaw":
                st["leads"] = False
            st["znode"] = None
        if s == KazooState.SUSPENDED and args.flaw == "flap":
            st["leads"] = False
            st["resign"] = True
        wake.set()

    zk.add_listener(listen)
    zk.start()
    st["connected"] = True

    def confirm():
        while True:
            try:
                zk.exists(path)
                st["confirmed"] = clock()
            except Exception:
                pass
            time.sleep(lease_s / 4)

    threading.Thread(target=confirm, daemon=True).start()
    zk.ensure_path(path)

    while True:
        wake.clear()
        try:
            with lock:
                if st.pop("resign", False) and st["znode"]:
                    try:
                        zk.delete(st["znode"])
                    except NoNodeError:
                        pass
                    st["znode"] = None
                if st["znode"] is None:
                    st["znode"] = zk.create(path + "/n_", ident.encode(), ephemeral=True, sequence=True)
                children = sorted(zk.get_children(path, watch=lambda _e: wake.set()))
                mine = st["znode"].rsplit("/", 1)[1]
                if mine not in children:
                    st["znode"] = None
                    continue
                # The thaw build, once leading, never asks again.
                st["leads"] = (args.flaw == "thaw" and st["leads"]) or children[0] == mine
        except Exception:
            time.sleep(0.1)
            continue
        wake.wait(1.0)


if __name__ == "__main__":
    sys.exit(main())
