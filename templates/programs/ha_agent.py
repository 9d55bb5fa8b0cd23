"""
An HA agent as real systems have them, shipped with zklab (`{programs}/ha_agent.py`) for its node examples, drills
and tests: it elects through ZooKeeper with kazoo, and runs a
database beside it that daemonizes (double fork and setsid), with worker processes of its own.

  ha_agent.py agent [--dir DIR] --port-base B [--join-delay SECONDS] [--zklab-lines]
  ha_agent.py standalone --id ID --dir DIR --port P [--same-group]   (benchmarks: no ZooKeeper, a database and a
                                                                    sleeping agent; --same-group: no daemon)

The agent (run by zklab as a contender; ZKLAB_CONNECT, ZKLAB_ID, ZKLAB_PATH, ZKLAB_SESSION_TIMEOUT_MS; DIR defaults to
ha/ in the lab's directory, ZKLAB_LAB, which goes with the lab):
  - starts its database first, as a replica;
  - copies data for --join-delay seconds before it takes part (a replica catching up);
  - registers <path>/members/<id> (ephemeral), and leads by owning <path>/leader (ephemeral, first come);
  - tells its database its role through DIR/<id>.role; it never demotes a database it cannot reach, and on
    SIGTERM it closes its session and leaves, its database left as it was (as a crashed agent would);
  - prints nothing for zklab unless --zklab-lines (a real system knows nothing of zklab).

The database (`ha_agent.py database --id ID --dir DIR --port P --addr A`, started by the agent, 5 processes: itself
and 4 workers) serves its role on A:P (one line, `primary` or `replica`; A is the node's own address, ZKLAB_ADDR, on
a lab's node network, else 127.0.0.1) and writes DIR/<id>.beat every 50 ms
(`<seq> <unix ms> <role> <pid>`). It keeps its last role when its agent is gone: that is the point.
"""
import argparse
import os
import signal
import socket
import sys
import threading
import time

HERE = os.path.abspath(__file__)


def role_file(directory, ident):
    return os.path.join(directory, ident + ".role")


def beat_file(directory, ident):
    return os.path.join(directory, ident + ".beat")


def write_atomic(path, text):
    tmp = "%s.%d.tmp" % (path, os.getpid())
    with open(tmp, "w") as f:
        f.write(text)
    os.replace(tmp, path)


def read_role(directory, ident):
    try:
        with open(role_file(directory, ident)) as f:
            return f.read().strip() or "replica"
    except OSError:
        return "replica"


# --- the database ---------------------------------------------------------------------------------------------


def database(args):
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    for _ in range(4):
        if os.fork() == 0:
            # A worker: it only lives (a real one would serve queries).
            while True:
                time.sleep(1)
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind((args.addr, args.port))
    server.listen(16)

    def serve():
        while True:
            conn, _ = server.accept()
            try:
                conn.sendall((read_role(args.dir, args.id) + "\n").encode())
            finally:
                conn.close()

    threading.Thread(target=serve, daemon=True).start()
    seq = 0
    while True:
        seq += 1
        role = read_role(args.dir, args.id)
        write_atomic(beat_file(args.dir, args.id), "%d %d %s %d\n" % (seq, int(time.time() * 1000), role, os.getpid()))
        time.sleep(0.05)


def start_database(directory, ident, port, daemon=True):
    """Double fork and setsid, as a daemon does: the database is in no process group or session of the agent's."""
    if os.fork() == 0:
        if daemon:
            os.setsid()
        if os.fork() == 0:
            devnull = os.open(os.devnull, os.O_RDWR)
            for fd in (0, 1, 2):
                os.dup2(devnull, fd)
            os.execv(sys.executable, [sys.executable, HERE, "database", "--id", ident, "--dir", directory,
                                      "--port", str(port), "--addr", os.environ.get("ZKLAB_ADDR", "127.0.0.1")])
        os._exit(0)
    os.wait()
    deadline = time.time() + 10
    while not os.path.exists(beat_file(directory, ident)) and time.time() < deadline:
        time.sleep(0.02)


# --- the agent ------------------------------------------------------------------------------------------------


def agent(args):
    from kazoo.client import KazooClient
    from kazoo.exceptions import NodeExistsError, NoNodeError

    ident = os.environ["ZKLAB_ID"]
    path = os.environ["ZKLAB_PATH"].rstrip("/")
    n = int("".join(ch for ch in ident if ch.isdigit()))
    os.makedirs(args.dir, exist_ok=True)
    write_atomic(role_file(args.dir, ident), "replica\n")
    start_database(args.dir, ident, args.port_base + n)

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    zk = KazooClient(hosts=os.environ["ZKLAB_CONNECT"], timeout=int(os.environ["ZKLAB_SESSION_TIMEOUT_MS"]) / 1000)
    zk.start(timeout=30)
    # A replica copies the primary's data before it takes part.
    stop.wait(args.join_delay)
    member = path + "/members/" + ident
    leader = path + "/leader"
    zk.ensure_path(path + "/members")
    said = None

    def say(role):
        nonlocal said
        if role != said:
            write_atomic(role_file(args.dir, ident), role + "\n")
            if args.zklab_lines:
                print('ZKLAB {"event":"%s"}' % ("leader" if role == "primary" else "follower"), flush=True)
            said = role

    while not stop.is_set():
        try:
            if zk.connected:
                session = zk.client_id[0]
                stat = zk.exists(member)
                if stat is None:
                    zk.create(member, ident.encode(), ephemeral=True)
                try:
                    zk.create(leader, ident.encode(), ephemeral=True)
                except NodeExistsError:
                    pass
                stat = zk.exists(leader)
                say("primary" if stat is not None and stat.ephemeralOwner == session else "replica")
        except (NodeExistsError, NoNodeError):
            pass
        except Exception as e:  # a lost connection: the next round tries again
            print("agent: %s" % e, file=sys.stderr, flush=True)
        stop.wait(0.1)
    zk.stop()
    zk.close()


def standalone(args):
    os.makedirs(args.dir, exist_ok=True)
    write_atomic(role_file(args.dir, args.id), "primary\n")
    start_database(args.dir, args.id, args.port, daemon=not args.same_group)
    while True:
        time.sleep(1)


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="mode", required=True)
    a = sub.add_parser("agent")
    a.add_argument("--dir")
    a.add_argument("--port-base", type=int, required=True)
    a.add_argument("--join-delay", type=float, default=0)
    a.add_argument("--zklab-lines", action="store_true")
    s = sub.add_parser("standalone")
    s.add_argument("--id", required=True)
    s.add_argument("--dir", required=True)
    s.add_argument("--port", type=int, required=True)
    s.add_argument("--same-group", action="store_true")
    d = sub.add_parser("database")
    d.add_argument("--id", required=True)
    d.add_argument("--dir", required=True)
    d.add_argument("--port", type=int, required=True)
    d.add_argument("--addr", default="127.0.0.1")
    args = parser.parse_args()
    if args.mode == "agent":
        args.dir = args.dir or os.path.join(os.environ["ZKLAB_LAB"], "ha")
        agent(args)
    elif args.mode == "standalone":
        standalone(args)
    else:
        database(args)


if __name__ == "__main__":
    main()
