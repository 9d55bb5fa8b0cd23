"""What a typical kazoo service does to elect a leader: Election(...).run(lead), where lead "works" every 200 ms.

zklab runs it as a contender. Environment: ZKLAB_CONNECT, ZKLAB_ID, ZKLAB_SESSION_TIMEOUT_MS, ZKLAB_PATH.
It reports on stdout as lines `ZKLAB {json}`. Like most kazoo code it trusts Election completely, and Election never
stops the leader function: not on SUSPENDED, not even when the session is LOST.
"""
import json
import logging
import os
import signal
import sys
import threading
import time

from kazoo.client import KazooClient, KazooState
from kazoo.recipe.election import Election

out_lock = threading.Lock()
node_lock = threading.Lock()
stop = threading.Event()
zk = None
election = None
path = None
requested_timeout_ms = None
negotiated_timeout_ms = None
session = None  # the session id while the client has one (set on a new CONNECTED, cleared on LOST)
leading = False
joined = None


def emit(event, **fields):
    line = {"event": event}
    if session:
        line["session"] = format(session, "x")
    line.update(fields)
    with out_lock:
        sys.stdout.write("ZKLAB " + json.dumps(line) + "\n")
        sys.stdout.flush()


def fail(error):
    emit("error", message=str(error) or repr(error))
    os._exit(1)


def env(name):
    value = os.environ.get(name)
    if not value:
        raise ValueError(name + " is not set")
    return value


def lead():
    """The leader function: Election.run calls it once the lock is ours. It never returns."""
    global leading
    leading = True
    check_node()  # report the znode before the leadership it carries
    token = czxid(path + "/" + election.lock.node)
    emit("leader", token=token)
    while True:
        time.sleep(0.2)
        if not stop.is_set():
            emit("act", token=token)


def czxid(znode):
    try:
        return zk.exists_async(znode).get(timeout=2).czxid
    except Exception:  # gone, or no answer: no token
        return None


def check_node():
    """kazoo has no callback for "my lock znode exists": look at Lock.node (its name under the path)."""
    global joined
    with node_lock:
        node = election.lock.node
        if node is None or node == joined or stop.is_set():
            return
        joined = node
        emit("joined", znode=path + "/" + node)
        # A follower until run() calls lead(), unless ours is the lowest node and lead() is on its way.
        if not leading and not is_lowest(node):
            emit("follower")


def is_lowest(node):
    try:
        children = zk.get_children_async(path).get(timeout=2)
    except Exception:
        return False
    return all(child[-10:] >= node[-10:] for child in children)


def watch_node():
    while True:
        check_node()
        time.sleep(0.05)


def on_state(state):
    """Connection states, reported only: leadership is whatever Election does about them (nothing)."""
    global session
    if stop.is_set():
        return False
    if state == KazooState.LOST:
        session = None
    if state == KazooState.CONNECTED:
        client_id = zk.client_id
        if client_id and client_id[0] != session:
            session = client_id[0]
            emit("connected", timeoutMs=negotiated_timeout_ms or requested_timeout_ms)
    emit("client-state", state=str(state), wasLeader=leading)
    return False  # keep listening


def capture_negotiated_timeout(record):
    """kazoo keeps the negotiated session timeout only in a log record ("Session created, ...")."""
    global negotiated_timeout_ms
    if isinstance(record.msg, str) and record.msg.startswith("Session created") and len(record.args) >= 3:
        negotiated_timeout_ms = int(record.args[2])
    return True


def contend(live):
    try:
        live.wait()  # until the first session: requests made before it fail instead of queueing
        election.run(lead)
        raise RuntimeError("Election.run returned")
    except Exception as e:
        if not stop.is_set():
            fail(e)


def main():
    global zk, election, path, requested_timeout_ms
    threading.excepthook = lambda args: fail(args.exc_value)
    to_stderr = logging.StreamHandler(sys.stderr)
    to_stderr.setLevel(logging.INFO)
    to_stderr.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.getLogger().addHandler(to_stderr)
    kazoo_log = logging.getLogger("kazoo.client")
    kazoo_log.setLevel(5)  # kazoo's BLATHER level, where it logs the negotiated timeout; stderr still shows INFO+
    kazoo_log.addFilter(capture_negotiated_timeout)

    path = env("ZKLAB_PATH")
    if not path.startswith("/"):
        raise ValueError("ZKLAB_PATH must start with /, not " + path)
    requested_timeout_ms = int(env("ZKLAB_SESSION_TIMEOUT_MS"))
    zk = KazooClient(
        hosts=env("ZKLAB_CONNECT"),
        timeout=requested_timeout_ms / 1000.0,
        connection_retry=dict(max_tries=-1, delay=0.1, max_delay=1),
        logger=kazoo_log,
    )
    zk.add_listener(on_state)
    election = Election(zk, path, identifier=env("ZKLAB_ID"))

    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    live = zk.start_async()  # retries forever in the background, where zk.start() would give up after 15 s
    threading.Thread(target=contend, args=(live,), name="election", daemon=True).start()
    threading.Thread(target=watch_node, name="watch-node", daemon=True).start()

    while not stop.wait(0.5):
        pass
    zk.stop()
    zk.close()
    emit("stopped")
    os._exit(0)


if __name__ == "__main__":
    try:
        main()
    except Exception as e:
        fail(e)
