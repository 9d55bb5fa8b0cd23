"""
A service that elects its leader by a lease it keeps in ZooKeeper and times by its own wall clock: the mistake the
built-in drill clock-drift shows. Shipped with zklab as an example of what not to do (`{programs}/wall_lease.py`).

  wall_lease.py CONNECT        (run by zklab: ZKLAB_PATH, ZKLAB_ID, ZKLAB_SESSION_TIMEOUT_MS)

The lease is <path>/leader, an ephemeral znode (so ZooKeeper names its holder: `--leader-rule 'single-node leader'`)
whose data is the wall-clock time the lease runs out. Its holder renews it every second, a lease of three, and acts
while its own clock says the lease holds: a renewal that fails ends nothing before that time, for the lease was
granted until then. Another member takes the lease over (deletes the znode and creates its own) once *its* clock
says the lease ran out. That is right only while every member's clock agrees: when the holder's clock runs slow,
the others find its lease run out while, by its own clock, it still holds it and acts on.
"""
import json
import os
import signal
import sys
import threading
import time

from kazoo.client import KazooClient
from kazoo.exceptions import BadVersionError, NodeExistsError, NoNodeError

LEASE_S = 3.0
RENEW_S = 1.0
TICK_S = 0.2

stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())


def say(event):
    print("ZKLAB " + json.dumps({"event": event}), flush=True)


zk = KazooClient(hosts=sys.argv[1], timeout=int(os.environ["ZKLAB_SESSION_TIMEOUT_MS"]) / 1000)
zk.start()
lease = os.environ["ZKLAB_PATH"].rstrip("/") + "/leader"
zk.ensure_path(os.environ["ZKLAB_PATH"])
say("joined")

holding = False
renewing = False
expires = 0.0
version = -1
renewed = 0.0


def take(stat_version):
    """Deletes the lease it believes ran out (unless it changed meanwhile) and creates its own."""
    global holding, renewing, expires, version, renewed
    try:
        if stat_version is not None:
            zk.delete(lease, version=stat_version)
        expires = time.time() + LEASE_S
        zk.create(lease, json.dumps(expires).encode(), ephemeral=True)
        holding, renewing, version, renewed = True, True, 0, time.monotonic()
        say("leader")
    except (BadVersionError, NoNodeError, NodeExistsError):
        pass


def renew():
    global renewing, expires, version, renewed
    try:
        until = time.time() + LEASE_S
        version = zk.set(lease, json.dumps(until).encode(), version=version).version
        expires, renewed = until, time.monotonic()
    except (BadVersionError, NoNodeError):
        renewing = False  # taken over: it holds on until its lease runs out by its own clock


while not stop.is_set():
    try:
        if holding:
            if renewing and time.monotonic() - renewed >= RENEW_S:
                renew()
            if time.time() < expires:
                say("act")
            elif not renewing:
                holding = False
                say("follower")
        else:
            try:
                data, stat = zk.get(lease)
                if time.time() > json.loads(data):
                    take(stat.version)
            except NoNodeError:
                take(None)
    except Exception as e:  # a lost connection: try again on the next tick
        print("wall_lease: %s" % e, file=sys.stderr, flush=True)
    stop.wait(TICK_S)
zk.stop()
zk.close()
