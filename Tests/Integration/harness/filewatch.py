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


def wait_for_text(path, has, timeout=10.0):
    """The file's text once it contains `has`; raises AssertionError with the last text when it
    does not within `timeout` s."""
    directory = os.path.dirname(path) or "."
    fd = _libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
    if fd < 0:
        raise OSError(ctypes.get_errno(), "inotify_init1")
    try:
        if _libc.inotify_add_watch(fd, os.fsencode(directory), IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE) < 0:
            raise OSError(ctypes.get_errno(), "inotify_add_watch " + directory)
        # Watching first, then reading: a change between the two is seen either way.
        text = _read(path)
        deadline = time.monotonic() + timeout
        while has not in text:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise AssertionError("%s never held %r within %s s; it holds: %r" % (path, has, timeout, text))
            data = os.read(fd, 65536)
            names = set()
            offset = 0
            while offset < len(data):
                _, _, _, length = _EVENT.unpack_from(data, offset)
                names.add(data[offset + _EVENT.size:offset + _EVENT.size + length].rstrip(b"\0"))
                offset += _EVENT.size + length
            if os.fsencode(os.path.basename(path)) in names:
                text = _read(path)
        return text
    finally:
        os.close(fd)
