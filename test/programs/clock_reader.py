"""
A contender that reads its own clocks, for the clock-fault tests:

  clock_reader.py DIR ID   every 100 ms appends a line to DIR/ID.jsonl: {"pid", "wall": time.time(), "mono":
                           time.monotonic()}, both read together, and says it joined the lab (ZKLAB {"event":"joined"}).

time.monotonic() is CLOCK_MONOTONIC, the machine's: the test reads the same clock and so can tell, for each reading,
what the true wall time was when it was taken. It needs nothing but Python's standard library.
"""
import json
import os
import sys
import time


def main(directory, ident):
    record = os.path.join(directory, f"{ident}.jsonl")
    print('ZKLAB {"event":"joined"}', flush=True)
    with open(record, "a", buffering=1) as f:
        while True:
            f.write(json.dumps({"pid": os.getpid(), "wall": time.time(), "mono": time.monotonic()}) + "\n")
            time.sleep(0.1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
