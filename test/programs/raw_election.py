"""
A contender that is none of zklab's: ZooKeeper's leader-election recipe written by hand on kazoo's plain client
(no kazoo recipe), run by the tests with `zklab contenders spawn --exec`. It reads the connect string, the election
path and the session timeout from its arguments ({connect} {path} {session}) and its id from ZKLAB_ID; it says
nothing to zklab about what it believes, which leaves leadership to ZooKeeper's view.
"""
import json
import os
import signal
import sys
import threading

from kazoo.client import KazooClient

connect, path, timeout_ms = sys.argv[1], sys.argv[2], int(sys.argv[3])
zk = KazooClient(hosts=connect, timeout=timeout_ms / 1000, connection_retry=dict(max_tries=-1, delay=0.1, max_delay=1))
stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())


def join():
    zk.ensure_path(path)
    # Who it is, for the tests to read from ZooKeeper itself: the id from its environment and its own pid.
    data = json.dumps({"id": os.environ["ZKLAB_ID"], "pid": os.getpid()}).encode()
    me = zk.create(path + "/n_", data, ephemeral=True, sequence=True)
    print("created", me, flush=True)
    return me.rsplit("/", 1)[1]


def check(me):
    """Leader when lowest; otherwise watch the next lower znode and check again when it goes."""
    names = sorted(zk.get_children(path), key=lambda n: n[-10:])
    if me not in names:
        return
    lower = [n for n in names if n[-10:] < me[-10:]]
    if not lower:
        print("leading as", me, flush=True)
        return
    if zk.exists(path + "/" + lower[-1], watch=lambda _event: check(me)) is None:
        check(me)


zk.start(timeout=30)
check(join())
stop.wait()
zk.stop()
zk.close()
