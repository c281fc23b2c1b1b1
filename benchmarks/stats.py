"""What the benchmarks share: percentiles by nearest rank, and each step's latency."""


def percentile(values, p):
    v = sorted(values)
    return v[max(0, min(len(v) - 1, int(round(p / 100.0 * len(v) + 0.5)) - 1))]


def step_latencies(steps, events):
    """steps: (time, target) of each stimulus; events: (time, value) of what answered. A step's
    latency (ms) is to the first event with its target before the next step; returns the
    latencies and how many steps had none."""
    out, missed = [], 0
    for i, (t, target) in enumerate(steps):
        end = steps[i + 1][0] if i + 1 < len(steps) else float("inf")
        hit = next((te for te, value in events if t <= te < end and value == target), None)
        if hit is None:
            missed += 1
        else:
            out.append((hit - t) * 1000)
    return out, missed
