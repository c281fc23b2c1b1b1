"""The plugin's and the daemon's events (OrientEvent in OrientCore): one JSON object a message
on the Unix datagram socket that WLR_ORIENT_EVENTS names. Tests wait on these, typed, instead of
on the log's sentences (the log is for people; its wording is free)."""
import json
import os
import socket

from .fakeiio import Lines


class Events:
    def __init__(self, directory, name="events"):
        """Binds the socket in `directory` (anyone may send to it: a host run as another user does)
        and starts reading it; `env` is what to add to a program's environment."""
        self.path = os.path.join(directory, name + ".sock")
        self.socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.socket.bind(self.path)
        os.chmod(self.path, 0o666)
        # Room for a burst (a debug log line a frame): a message that finds the queue full is dropped.
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
        self.lines = Lines(self._messages())
        self.env = {"WLR_ORIENT_EVENTS": self.path}

    def _messages(self):
        reader = self.socket
        while True:
            try:
                message = reader.recv(1 << 20)
            except OSError:
                return
            if not message:   # shut down (close): no sender sends an empty message
                return
            yield message.decode(errors="replace")

    @staticmethod
    def _parse(line):
        try:
            event = json.loads(line)
        except ValueError:
            return None
        return event if isinstance(event, dict) else None

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
            self.socket.shutdown(socket.SHUT_RDWR)
            self.socket.close()
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


def wait_transition(events, timeout=10.0, predicate=lambda t: True, what="a transition's end"):
    """The next transition that ended (for which predicate(Transition) is true)."""
    return Transition(events.wait_for("transition-ended", lambda e: predicate(Transition(e)), timeout, what))


def logged(events):
    """The log lines among the events that have arrived so far (in their place: a line logged
    before an event awaited is here once that event is), without taking any from a later wait."""
    return [e["line"] for e in events.seen("log")]
