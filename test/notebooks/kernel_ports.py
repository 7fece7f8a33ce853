"""A kernel manager whose kernel's ports no other process takes before the kernel binds them.

jupyter_client picks a kernel's five ports by binding port 0 and letting go, and the kernel
binds them seconds later, once Node (tslab) or Deno has started. Port 0 hands out ports of
the ephemeral range, the range every outgoing connection on the machine takes its local
port from too, so while tests talk to services over loopback, or another kernel starts
beside this one, a port can be taken in between and the kernel dies with EADDRINUSE.

Here the ports come from below the ephemeral range (/proc/sys/net/ipv4/ip_local_port_range),
which neither port 0 nor outgoing connections use, and each is handed to one kernel only:
the choice is made under a lock shared by every runner on the machine and recorded there.
"""
import fcntl
import json
import os
import random
import socket
import tempfile
import time

from jupyter_client.manager import KernelManager

PORT_NAMES = ("shell_port", "iopub_port", "stdin_port", "hb_port", "control_port")
# A kernel binds its ports within its startup timeout; a record older than this is stale.
RECORD_TTL_S = 600
REGISTRY = os.path.join(tempfile.gettempdir(), "mdps-kernel-ports.json")


def _ephemeral_start() -> int:
    try:
        with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
            return int(f.read().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768  # Linux's default


def _free(ip: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((ip, port))
            return True
        except OSError:
            return False


def reserve_ports(ip: str, count: int = len(PORT_NAMES)) -> list:
    """`count` free ports below the ephemeral range that no other runner was given recently."""
    high = _ephemeral_start()
    low = max(1024, high - 12000)
    with open(REGISTRY + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            with open(REGISTRY) as f:
                given = json.load(f)
        except (OSError, ValueError):
            given = {}
        now = time.time()
        given = {port: at for port, at in given.items() if now - at < RECORD_TTL_S}
        ports = []
        for _ in range(10 * (high - low)):
            port = random.randrange(low, high)
            if str(port) in given or port in ports or not _free(ip, port):
                continue
            ports.append(port)
            if len(ports) == count:
                break
        if len(ports) < count:
            raise RuntimeError(f"no {count} free ports between {low} and {high} for a kernel")
        for port in ports:
            given[str(port)] = now
        with open(REGISTRY + ".tmp", "w") as f:
            json.dump(given, f)
        os.replace(REGISTRY + ".tmp", REGISTRY)
        return ports


class ReservedPortsKernelManager(KernelManager):
    """A KernelManager that starts its kernel on ports from reserve_ports."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        # Without the cache, the provisioner keeps the ports set here instead of picking its own.
        self.cache_ports = False
        for name, port in zip(PORT_NAMES, reserve_ports(self.ip)):
            setattr(self, name, port)
