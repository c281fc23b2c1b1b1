"""Waiting for a file's text through inotify: the plugin saves state.toml on a thread of its own
and says nothing when it has, so a test waits on the kernel's word that the file was replaced
(a rename into its directory, or a write closed) rather than reading it over and over."""
import ctypes
import ctypes.util
import os
import select
import struct
import time

_libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
IN_CLOSE_WRITE = 0x00000008
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_NONBLOCK = 0o4000
IN_CLOEXEC = 0o2000000
_EVENT = struct.Struct("iIII")


def _read(path):
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError:
        return ""


class DirectoryWatch:
    """inotify on one directory: the names of its entries that had one of `mask`'s events."""

    def __init__(self, directory, mask):
        self.fd = _libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1")
        if _libc.inotify_add_watch(self.fd, os.fsencode(directory), mask) < 0:
            error = ctypes.get_errno()
            os.close(self.fd)
            raise OSError(error, "inotify_add_watch " + directory)

    def names(self, timeout):
        """The names of the events that came within `timeout` s (none: an empty set)."""
        if not select.select([self.fd], [], [], max(0.0, timeout))[0]:
            return set()
        data = os.read(self.fd, 65536)
        names = set()
        offset = 0
        while offset < len(data):
            _, _, _, length = _EVENT.unpack_from(data, offset)
            names.add(os.fsdecode(data[offset + _EVENT.size:offset + _EVENT.size + length].rstrip(b"\0")))
            offset += _EVENT.size + length
        return names

    def close(self):
        os.close(self.fd)


def wait_for_text(path, has, timeout=10.0):
    """The file's text once it contains `has`; raises AssertionError with the last text when it
    does not within `timeout` s."""
    watch = DirectoryWatch(os.path.dirname(path) or ".", IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE)
    try:
        # Watching first, then reading: a change between the two is seen either way.
        text = _read(path)
        deadline = time.monotonic() + timeout
        while has not in text:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("%s never held %r within %s s; it holds: %r" % (path, has, timeout, text))
            if os.path.basename(path) in watch.names(left):
                text = _read(path)
        return text
    finally:
        watch.close()
