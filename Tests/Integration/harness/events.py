"""The plugin's and the daemon's events (OrientEvent in OrientCore): one JSON object a message,
on a sequenced-packet connection each sender makes to the listener WLR_ORIENT_EVENTS names. Tests
wait on these, typed, instead of on the log's sentences (the log is for people; its wording is
free). No event is lost in silence: a sender that had no room for some says how many in their
place (a `lost` event), and a wait then fails at once, saying so."""
import contextlib
import json
import os
import selectors
import socket
import threading

from .fakeiio import Lines


class EventsLost(AssertionError):
    pass


class Events:
    def __init__(self, directory, name="events"):
        """Listens in `directory` (anyone may connect: a host run as another user does) and reads
        every sender's messages, in the order each sent them; `env` is what to add to a
        program's environment."""
        self.path = os.path.join(directory, name + ".sock")
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.socket.bind(self.path)
        os.chmod(self.path, 0o666)
        self.socket.listen(64)
        self._wake, self._woken = socket.socketpair()
        self._reading = threading.Event()   # cleared: the reader holds off (see `held`)
        self._reading.set()
        self.lines = Lines(self._messages())
        self.env = {"WLR_ORIENT_EVENTS": self.path}

    def _messages(self):
        """Every sender's messages as they come (one thread reads them all), until `close`."""
        chosen = selectors.DefaultSelector()
        chosen.register(self.socket, selectors.EVENT_READ, "listener")
        chosen.register(self._woken, selectors.EVENT_READ, "wake")
        try:
            while True:
                self._reading.wait()
                for key, _ in chosen.select():
                    if key.data == "wake":
                        return
                    if key.data == "listener":
                        try:
                            connection, _ = self.socket.accept()
                        except OSError:
                            continue
                        chosen.register(connection, selectors.EVENT_READ, "sender")
                        continue
                    try:
                        message = key.fileobj.recv(1 << 20)
                    except OSError:
                        message = b""
                    if not message:   # the sender has gone
                        chosen.unregister(key.fileobj)
                        key.fileobj.close()
                        continue
                    yield message.decode(errors="replace")
        finally:
            for key in list(chosen.get_map().values()):
                if key.data == "sender":
                    key.fileobj.close()
            chosen.close()

    @contextlib.contextmanager
    def held(self):
        """Reads nothing while in it (a reader that stops, as a busy test's thread may): what the
        senders send meanwhile waits in them, or is counted as lost."""
        self._reading.clear()
        try:
            yield
        finally:
            self._reading.set()

    def _parse(self, line):
        try:
            event = json.loads(line)
        except ValueError:
            return None
        if not isinstance(event, dict):
            return None
        if event.get("event") == "lost":
            raise EventsLost("the events channel lost %d events (a sender had no room for them)" % event["count"])
        return event

    def wait_for(self, name, predicate=lambda event: True, timeout=10.0, what=None):
        """The first new event called `name` for which predicate(event) is true."""
        def match(line):
            event = self._parse(line)
            return event is not None and event.get("event") == name and predicate(event)
        return self._parse(self.lines.next(match, timeout, what or "a %s event" % name))

    def wait(self, kind, /, timeout=10.0, **fields):
        """The first new event called `kind` whose fields equal `fields` (one may be called name)."""
        what = "%s %s" % (kind, fields)
        return self.wait_for(kind, lambda e: all(e.get(k) == v for k, v in fields.items()), timeout, what)

    def wait_status(self, predicate, timeout=10.0, what="a status"):
        """The first new status (as `wlr-orient status --json` gives it) for which predicate is true."""
        return self.wait_for("status", lambda e: predicate(e["status"]), timeout, what)["status"]

    def wait_panel(self, panel="HEADLESS-1", timeout=10.0, **fields):
        """The first new status in which `panel` is known (with `fields`, e.g. shown="left-up")."""
        def has(status):
            return any(p["name"] == panel and all(p.get(k) == v for k, v in fields.items()) for p in status["panels"])
        return self.wait_status(has, timeout, "%s with %s in a status" % (panel, fields))

    def wait_turned(self, orientation, panel="HEADLESS-1", timeout=10.0, **fields):
        """`panel` turned to `orientation` (the plugin committed it; the daemon's compositor applied it)."""
        return self.wait("turned", timeout, panel=panel, orientation=orientation, **fields)

    def arrived(self):
        """Every event that has arrived so far, in order, without waiting and without taking any
        from a later wait."""
        with self.lines.q.mutex:
            pending = [item[1] for item in self.lines.q.queue if item is not None]
        return [e for e in map(self._parse, self.lines.seen + pending) if e]

    def seen(self, name):
        """Every event called `name` that has arrived so far (as `arrived`)."""
        return [e for e in self.arrived() if e.get("event") == name]

    def close(self):
        if self.socket is not None:
            self._reading.set()
            self._wake.send(b"x")
            self.lines.ended.wait(timeout=10)
            self.socket.close()
            self._wake.close()
            self._woken.close()
            self.socket = None
            os.unlink(self.path)


class Transition:
    """A transition-ended event in the host's seconds (monotonic, as its frame records)."""

    def __init__(self, event):
        self.event = event
        self.kind = event["transition"]
        self.panel = event["panel"]
        self.frames = event["frames"]
        self.began = event["began_at"] / 1e6
        self.revealed = None if event["revealed_at"] is None else event["revealed_at"] / 1e6
        self.ended = event["ended_at"] / 1e6
        self.set_up_ms = event["set_up_us"] / 1e3
        self.turning_copy_ms = None if event["turning_copy_us"] is None else event["turning_copy_us"] / 1e3
        self.gave_way = event["gave_way"]
        # How a rotation's old frame was read for turning (memory, renderer, unread; None: no
        # rotation, or never read), and whether it faded out unturned instead of turning.
        self.old_frame = event["old_frame"]
        self.faded_unturned = event["faded_unturned"]


def wait_transition(events, timeout=10.0, predicate=lambda t: True, what="a transition's end"):
    """The next transition that ended (for which predicate(Transition) is true)."""
    return Transition(events.wait_for("transition-ended", lambda e: predicate(Transition(e)), timeout, what))


def logged(events):
    """The log lines among the events that have arrived so far (in their place: a line logged
    before an event awaited is here once that event is), without taking any from a later wait.
    Only for a test of a sentence's wording, marked `wording` (harness/tiers.py): every other
    test decides on typed events (test_suite_rules.py holds the suite to it)."""
    return [e["line"] for e in events.seen("log")]


def log_tail(events, count=8):
    """The last log lines, to put in a failure's message (never to decide on)."""
    return [e["line"] for e in events.seen("log")][-count:]
