"""
The README's my_service.py, as a reader might write it: a service that elects its leader through ZooKeeper with
kazoo's Election recipe, at the path zklab gives it (ZKLAB_PATH), and says when it leads. Shipped with zklab as an
example (`{programs}/my_service.py`).
"""
import os
import signal
import sys
import threading

from kazoo.client import KazooClient

stop = threading.Event()
signal.signal(signal.SIGTERM, lambda *_: stop.set())

zk = KazooClient(hosts=sys.argv[1], timeout=int(os.environ["ZKLAB_SESSION_TIMEOUT_MS"]) / 1000)
zk.start()


def lead():
    print('ZKLAB {"event":"leader"}', flush=True)
    stop.wait()


election = zk.Election(os.environ["ZKLAB_PATH"], os.environ["ZKLAB_ID"])
threading.Thread(target=election.run, args=(lead,), daemon=True).start()
stop.wait()
zk.stop()
zk.close()
