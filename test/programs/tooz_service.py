"""
A service as OpenStack's projects write them with tooz (Debian's python3-tooz), which zklab did not write and does
not tell where to elect: it joins a group and runs for its leader through tooz's ZooKeeper driver (tooz keeps
members at /tooz/<group>/<member> and its leader lock below /tooz/<group>/leader), and serves its role on a port
while tooz says it was elected. tooz has a callback for being elected and none for losing it: the service leads
until it stands down, as the projects that use it do.

  tooz_service.py --port-base B [--group NAME]

Member N serves one line, `primary` or `replica`, on ZKLAB_ADDR:B+N (ask it with templates/programs/ha_probe.py).
"""
import argparse
import os
import socket
import threading
import time

from tooz import coordination


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port-base", type=int, required=True)
    p.add_argument("--group", default="service")
    args = p.parse_args()

    ident = os.environ["ZKLAB_ID"]
    n = int("".join(ch for ch in ident if ch.isdigit()))
    session_s = max(1, round(int(os.environ["ZKLAB_SESSION_TIMEOUT_MS"]) / 1000))
    hosts = os.environ["ZKLAB_CONNECT"]
    state = {"leader": False}

    def serve():
        server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        server.bind((os.environ.get("ZKLAB_ADDR", "127.0.0.1"), args.port_base + n))
        server.listen(16)
        while True:
            conn, _ = server.accept()
            try:
                conn.sendall(b"primary\n" if state["leader"] else b"replica\n")
            finally:
                conn.close()

    threading.Thread(target=serve, daemon=True).start()

    coordinator = coordination.get_coordinator(
        "zookeeper://%s?timeout=%d" % (hosts, session_s), ident.encode()
    )
    coordinator.start(start_heart=True)
    group = args.group.encode()
    try:
        coordinator.create_group(group).get()
    except coordination.GroupAlreadyExist:
        pass
    coordinator.join_group(group).get()

    def elected(_event):
        state["leader"] = True

    coordinator.watch_elected_as_leader(group, elected)
    while True:
        try:
            coordinator.run_watchers()
        except Exception:
            pass
        time.sleep(0.2)


if __name__ == "__main__":
    main()
