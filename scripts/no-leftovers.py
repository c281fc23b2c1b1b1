#!/usr/bin/python3
"""Runs one part of the suite and fails it when it leaves a process behind.

    scripts/no-leftovers.py NAME COMMAND [ARGUMENT...]

The command runs under this process made a child subreaper (PR_SET_CHILD_SUBREAPER): whatever it
starts and leaves, however detached (a double fork, a new session), becomes this process's child
when its parent ends. Once the command has ended, every child still here is a process the part
left running: each is named on standard error, killed, and the exit status is the command's, or 1
if it succeeded and left something. While it runs, a process orphaned for over a minute (its
parent gone, so it came to this one) is named and killed at once: a runner that waits for the end
of an output an orphan holds (`swift test` waited ten minutes on a forgotten `sleep 600`) goes on.
"""
import ctypes
import os
import signal
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def children():
    """This process's children now (pid, command line)."""
    me = os.getpid()
    found = []
    for task in os.listdir("/proc/%d/task" % me):
        try:
            with open("/proc/%d/task/%s/children" % (me, task)) as f:
                found += [int(pid) for pid in f.read().split()]
        except OSError:
            pass
    described = []
    for pid in sorted(set(found)):
        try:
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                command = f.read().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            continue
        described.append((pid, command or "?"))
    return described


def reap():
    """Collects children that have ended (they are ours now)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    name, command = sys.argv[1], sys.argv[2:]
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("no-leftovers: cannot become a subreaper (errno %d)" % ctypes.get_errno())
    part = subprocess.Popen(command)
    orphaned = {}   # pid: when it was first seen here
    reported = []
    while True:
        try:
            status = part.wait(timeout=1)
            break
        except subprocess.TimeoutExpired:
            pass
        reap()
        now = time.monotonic()
        for pid, line in children():
            if pid == part.pid:
                continue
            first = orphaned.setdefault(pid, now)
            if now - first > 60 and pid not in reported:
                print("%s left a process running (orphaned for a minute): pid %d: %s" % (name, pid, line[:200]),
                      file=sys.stderr)
                reported.append(pid)
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
    # A process just orphaned may still be on its way to us, or exiting: a moment to settle.
    deadline = time.monotonic() + 2
    left = []
    while time.monotonic() < deadline:
        reap()
        left = children()
        if not left:
            break
        time.sleep(0.1)
    for pid, line in left:
        print("%s left a process running: pid %d: %s" % (name, pid, line[:200]), file=sys.stderr)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    reap()
    if left or reported:
        print("%s: %d process(es) left behind" % (name, len(left) + len(reported)), file=sys.stderr)
        sys.exit(status or 1)
    sys.exit(status)


if __name__ == "__main__":
    main()
