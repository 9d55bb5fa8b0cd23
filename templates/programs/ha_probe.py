"""
Asks an ha_agent.py database whether it acts as the primary: `ha_probe.py PORT_BASE N [ADDR]` connects to ADDR
(default 127.0.0.1; the node's own address on a lab's node network: `{addr}`) at PORT_BASE + N. Exit 0: it answers
`primary` (it accepts writes); 1: it answers anything else; 2: nobody answers.
"""
import socket
import sys

base, n = int(sys.argv[1]), int(sys.argv[2])
addr = sys.argv[3] if len(sys.argv) > 3 else "127.0.0.1"
try:
    with socket.create_connection((addr, base + n), timeout=1) as s:
        answer = s.makefile().readline().strip()
except OSError:
    sys.exit(2)
sys.exit(0 if answer == "primary" else 1)
