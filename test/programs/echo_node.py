"""
A node's data plane, for the node-network tests, in three modes:

  echo_node.py serve ADDR PORT DIR ID   answers TCP connections on ADDR:PORT with what they send, counts the UDP
                                        datagrams that reach ADDR:PORT by tag (the text before '#'), keeps
                                        DIR/ID.json ({"pid", "addr", "udp": {tag: count}, "last": {tag: the
                                        wall-clock second its latest datagram arrived}}) up to date, and says it
                                        joined the lab (ZKLAB {"event":"joined"}).
  echo_node.py connect ADDR PORT        exit 0: a TCP echo answered; 1: refused or reset; 2: no answer within 1 s.
  echo_node.py send ADDR PORT TAG N     sends N datagrams `TAG#i`, paced so that a receiver on the same machine
                                        keeps up (a lost datagram is then the network's doing, not a full buffer).

It needs nothing but Python's standard library; the test runs `connect` and `send` inside another node's network
namespace (nsenter), so what it sees is what that node's peers see.
"""
import json
import os
import socket
import sys
import threading
import time


def serve(addr, port, directory, ident):
    counts = {}
    last = {}
    lock = threading.Lock()
    record = os.path.join(directory, f"{ident}.json")

    def write():
        with lock:
            body = json.dumps({"pid": os.getpid(), "addr": addr, "udp": dict(counts), "last": dict(last)})
        tmp = f"{record}.tmp"
        with open(tmp, "w") as f:
            f.write(body)
        os.replace(tmp, record)

    def udp():
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        s.bind((addr, port))
        while True:
            data, _ = s.recvfrom(256)
            at = time.time()
            tag = data.decode(errors="replace").split("#", 1)[0]
            with lock:
                counts[tag] = counts.get(tag, 0) + 1
                last[tag] = at

    def echo(conn):
        with conn:
            conn.settimeout(5)
            try:
                while True:
                    data = conn.recv(256)
                    if not data:
                        return
                    conn.sendall(data)
            except OSError:
                return

    t = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    t.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    t.bind((addr, port))
    t.listen(64)
    threading.Thread(target=udp, daemon=True).start()

    def accept():
        while True:
            conn, _ = t.accept()
            threading.Thread(target=echo, args=(conn,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    write()
    print('ZKLAB {"event":"joined"}', flush=True)
    written = None
    while True:
        with lock:
            now = dict(counts)
        if now != written:
            write()
            written = now
        time.sleep(0.05)


def connect(addr, port):
    try:
        with socket.create_connection((addr, port), timeout=1) as s:
            s.settimeout(1)
            s.sendall(b"ping\n")
            sys.exit(0 if s.recv(16) == b"ping\n" else 1)
    except (ConnectionRefusedError, ConnectionResetError):
        sys.exit(1)
    except OSError:
        sys.exit(2)


def send(addr, port, tag, n):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    for i in range(n):
        s.sendto(f"{tag}#{i}".encode(), (addr, port))
        if i % 20 == 19:
            time.sleep(0.002)


mode = sys.argv[1]
if mode == "serve":
    serve(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
elif mode == "connect":
    connect(sys.argv[2], int(sys.argv[3]))
elif mode == "send":
    send(sys.argv[2], int(sys.argv[3]), sys.argv[4], int(sys.argv[5]))
else:
    sys.exit(f"unknown mode {mode}")
