"""What the benchmarks share: percentiles by nearest rank."""


def percentile(values, p):
    v = sorted(values)
    return v[max(0, min(len(v) - 1, int(round(p / 100.0 * len(v) + 0.5)) - 1))]
