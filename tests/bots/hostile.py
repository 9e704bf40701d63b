#!/usr/bin/env python3
"""A hostile bot for the sandbox tests. Before playing it tries every way out that a hostile
review found, reads its targets from TARGETS (a JSON file the organiser granted), and writes one
line per attempt to REPORT_DIR/attempts-*.txt: "NAME: SUCCEEDED (what it got)" or
"NAME: denied (why)". Then it plays as RANDOM_BOT.

    hostile.py REPORT_DIR TARGETS RANDOM_BOT

It never stops a process it should not reach for good: the victim is a `sleep` started by the
test, and every other process is only probed with signal 0 (may I signal it?).
"""
import json
import os
import signal
import socket
import struct
import sys

report, targets_file, random_bot = sys.argv[1], sys.argv[2], sys.argv[3]
lines = []


class Denied(Exception):
    pass


def attempt(name, action):
    try:
        got = action()
        lines.append(f"{name}: SUCCEEDED ({got})")
    except (OSError, Denied) as e:
        lines.append(f"{name}: denied ({getattr(e, 'strerror', None) or e})")


def ancestors():
    """This process and the ones it runs under (signalling those proves nothing)."""
    pids, pid = set(), os.getpid()
    while pid > 0 and pid not in pids:
        pids.add(pid)
        try:
            with open(f"/proc/{pid}/stat") as f:
                pid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            break
    return pids


def signal_every_other_process():
    mine, reached = ancestors(), []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in mine:
            try:
                os.kill(int(entry), 0)
                reached.append(entry)
            except OSError:
                pass
    if not reached:
        raise Denied("no other process to signal")
    return f"{len(reached)} processes"


def stop_victim():
    os.kill(targets["victim_pid"], signal.SIGSTOP)
    return f"stopped {targets['victim_pid']}"


def signal_runner():
    os.kill(targets["runner_pid"], 0)
    return "may signal the runner"


def runner_environment():
    with open(f"/proc/{targets['runner_pid']}/environ", "rb") as f:
        data = f.read()
    if targets["secret"].encode() not in data:
        raise Denied("read, but no secret in it")
    return "the secret"


def own_environment():
    found = [k for k, v in os.environ.items() if targets["secret"] in v or k == "SSH_AUTH_SOCK"]
    if not found:
        raise Denied(f"only {sorted(os.environ)}")
    return ", ".join(found)


def agent_request(sock):
    # SSH_AGENTC_REQUEST_IDENTITIES; the answer is SSH_AGENT_IDENTITIES_ANSWER (12).
    sock.settimeout(2)
    sock.sendall(struct.pack(">IB", 1, 11))
    head = sock.recv(5)
    if len(head) < 5 or head[4] != 12:
        raise Denied("no identities answer")
    return f"{struct.unpack('>I', sock.recv(4))[0]} keys listed"


def ssh_agent():
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect(targets["agent_socket"])
        return agent_request(s)


def any_listed_unix_socket():
    """Every path socket /proc/net/unix lists, as the review found the agent."""
    reached = []
    with open("/proc/net/unix") as f:
        for row in f.read().splitlines()[1:]:
            parts = row.split()
            if len(parts) >= 8 and parts[7].startswith("/"):
                try:
                    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
                        s.settimeout(1)
                        s.connect(parts[7])
                        reached.append(parts[7])
                except OSError:
                    pass
    if not reached:
        raise Denied("none reachable")
    return f"{len(reached)} sockets"


def abstract_socket():
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.connect("\0" + targets["abstract"])
        return "connected"


def loopback_tcp():
    with socket.create_connection(("127.0.0.1", targets["tcp_port"]), timeout=2):
        return "connected"


def read_shm():
    with open(targets["shm_secret"]) as f:
        return f.read().strip()


def write_shm():
    with open(targets["shm_planted"], "w") as f:
        f.write("planted")
    return "wrote (the test checks the host's /dev/shm)"


def inherited_descriptor():
    fd = targets["fd"]
    data = os.pread(fd, 100, 0)
    return data.decode(errors="replace").strip()


def any_open_descriptor():
    extra = [int(fd) for fd in os.listdir("/proc/self/fd") if int(fd) > 2]
    found = []
    for fd in extra:
        try:
            if os.path.isfile(os.readlink(f"/proc/self/fd/{fd}")):
                found.append(fd)
        except OSError:
            pass
    if not found:
        raise Denied("none but 0-2")
    return f"descriptors {found}"


def read(path):
    with open(path, "rb") as f:
        return f"{len(f.read())} bytes"


def opponent_folder():
    here = os.getcwd()
    parent = os.path.dirname(here)
    others = [
        os.path.join(parent, n)
        for n in os.listdir(parent)
        if n.startswith("qijudge-bot-") and os.path.join(parent, n) != here
    ]
    if not others:
        raise Denied(f"no other bot folder in {parent}")
    for other in others:
        os.listdir(other)
    return f"listed {len(others)} folders"


targets = json.load(open(targets_file))
attempt("signal every other process", signal_every_other_process)
attempt("stop the victim", stop_victim)
attempt("signal the runner", signal_runner)
attempt("read the runner's environment", runner_environment)
attempt("own environment", own_environment)
attempt("ssh-agent", ssh_agent)
attempt("listed unix sockets", any_listed_unix_socket)
attempt("abstract socket", abstract_socket)
attempt("loopback tcp", loopback_tcp)
attempt("read /dev/shm", read_shm)
attempt("write /dev/shm", write_shm)
attempt("inherited descriptor", inherited_descriptor)
attempt("open descriptors", any_open_descriptor)
attempt("judge key", lambda: read(os.path.join(targets["match"], "keys", "judge")))
attempt("list match", lambda: f"{len(os.listdir(targets['match']))} entries")
attempt("opponent folder", opponent_folder)
attempt("write a read-only grant", lambda: open(os.path.join(os.path.dirname(targets_file), "planted"), "w").close())
if targets.get("write_root"):
    # Writable by the mount namespace alone (bwrap's root is a tmpfs): Landlock must refuse.
    attempt("write the root folder", lambda: open("/planted", "w").close())
attempt("own folder", lambda: open("scratch.txt", "w").close())
with open(os.path.join(report, f"attempts-{os.urandom(6).hex()}.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
os.execv(sys.executable, [sys.executable, random_bot])
