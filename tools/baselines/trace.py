"""Reader for wlr-orient-trace v1 files, shared by the peer baselines here.

Format (see Tests/Fixtures/traces/public/README.md): comment lines start with
"#"; "# scale: S" and "# mount-matrix: a, b, c; d, e, f; g, h, i" are read
from them (identity when the matrix is missing); the "t,x,y,z" header is
skipped; every other line is "t,x,y,z" with t in seconds and x, y, z raw
integer counts as read from in_accel_{x,y,z}_raw, before the mount matrix
and the scale.  Device frame value = scale * (M . raw) in m/s^2, the
gravity direction (upright normal ~ (0, -9.81, 0)).

Standard library only.  The baselines load this file by path (it shares its
name with the standard library's `trace` module, so it is not imported by
name).
"""
import hashlib
import os

IDENTITY = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))


class Trace:
    """scale: float; matrix: 3 rows of 3 floats; samples: [(t, x, y, z)]
    with t in seconds (float) and x, y, z raw integer counts."""

    def __init__(self, path, scale, matrix, samples):
        self.path = path
        self.scale = scale
        self.matrix = matrix
        self.samples = samples


def _parse_matrix(text):
    rows = [r for r in text.split(";")]
    m = tuple(tuple(float(v) for v in r.split(",")) for r in rows)
    if len(m) != 3 or any(len(r) != 3 for r in m):
        raise ValueError("mount-matrix needs 3 rows of 3 numbers: %r" % text)
    return m


def read(path):
    scale = 1.0
    matrix = IDENTITY
    samples = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            s = line.strip()
            if not s:
                continue
            if s.startswith("#"):
                body = s[1:].strip()
                key, sep, val = body.partition(":")
                if not sep:
                    continue
                key = key.strip().lower()
                if key == "scale":
                    scale = float(val)
                elif key == "mount-matrix":
                    matrix = _parse_matrix(val)
                continue
            cols = [c.strip() for c in s.split(",")]
            if cols[0].lower() == "t":
                continue  # column header
            if len(cols) != 4:
                raise ValueError("%s:%d: expected t,x,y,z" % (path, n))
            samples.append((float(cols[0]), int(cols[1]), int(cols[2]), int(cols[3])))
    return Trace(path, scale, matrix, samples)


def mount(matrix, x, y, z):
    """M . (x, y, z), M given by rows as in sysfs mount_matrix."""
    return (matrix[0][0] * x + matrix[0][1] * y + matrix[0][2] * z,
            matrix[1][0] * x + matrix[1][1] * y + matrix[1][2] * z,
            matrix[2][0] * x + matrix[2][1] * y + matrix[2][2] * z)


def phase(path, period):
    """A fixed pseudo-random offset in [0, period) for this trace, from the
    SHA-256 of its file name (not its directory), so runs are reproducible."""
    digest = hashlib.sha256(os.path.basename(path).encode("utf-8")).digest()
    return period * (int.from_bytes(digest[:8], "big") / 2.0 ** 64)


def emit(out, t, orientation):
    out.write('{"t": %.6f, "orientation": "%s"}\n' % (t, orientation))
