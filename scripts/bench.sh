#!/usr/bin/env bash
# Benchmarks, printed as named numbers (name=value) a script can read.
#   bash scripts/bench.sh
# 1-2. detection on every corpus (the public synthetic traces, real arm sweeps, real walking, our
#    edge cases, a fresh validation set), ours beside our reimplementations of Android's judge and
#    iio-sensor-proxy (tools/baselines), and the detector's CPU per sample (benchmarks/detection.py);
# 3. the live sensor: wakeups of an idle session, and latency and CPU beside Debian's
#    iio-sensor-proxy on the same fake device (about two minutes);
# 4. the plugin, the daemon and the control socket (latency, memory, cost per frame);
# 5. hostile input: a client flooding our protocol, and five minutes of the fuzz campaign.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh bench
bash scripts/generate-protocols.sh   # Wayland protocol glue from its XML (not committed)

swift build -c release 2>&1 | tail -n 1
bin=$(swift build -c release --show-bin-path)

echo "== detection on every corpus (public, real sweeps, real walking, edge, validation), ours beside Android's judge and iio-sensor-proxy (tools/baselines), and the detector's CPU per sample"
swift build -c release --product orient-bench 2>&1 | tail -n 1
python3 benchmarks/detection.py --bin "$bin/wlr-orient" --bench "$bin/orient-bench"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
python3 tools/synth-traces.py --out "$out/validation" --seed 3 --count 20 >/dev/null

echo "== sensor: wakeups of an idle session (umockdev device), default settings"
/usr/bin/python3 benchmarks/wakeups.py 10
echo "== sensor: the same for a HID sensor hub with hysteresis, which sends nothing while still (60 s)"
/usr/bin/python3 benchmarks/wakeups.py 60 --device hysteresis

echo "== sensor: a polled device's idle schedule, latency against readings per second over the corpus (the data its defaults were chosen from)"
WLR_ORIENT_BIN="$bin/wlr-orient" /usr/bin/python3 benchmarks/idle_schedule.py --traces Tests/Fixtures/traces/public --traces "$out/validation"

echo "== sensor: a device refusing its raw values (EBUSY) for 20 s, three times: lines said, the helper's CPU, the first turn after"
/usr/bin/python3 benchmarks/busy_device.py --rounds 3 --busy-seconds 20

echo "== sensor: step changes, ours beside iio-sensor-proxy + monitor-sensor on one umockdev device"
WLR_ORIENT_BIN="$bin/wlr-orient" /usr/bin/python3 benchmarks/sensor_vs_iio_sensor_proxy.py --steps 60

echo "== plugin: sample to first frame with the new transform, over 100 rotations; resident memory it adds"
bash scripts/build-plugin.sh release >/dev/null
/usr/bin/python3 benchmarks/rotation_latency.py --rotations 100
echo "== the floor under that memory: the least a plugin of this stack adds (libiio from C, the Swift runtime, both), beside the plugin"
/usr/bin/python3 benchmarks/memory_floor.py --plugin build/libwlr-orient.so

echo "== a device quiet when still (hysteresis): step to transform applied over 40 steps and idle wakeups over 60 s, plugin and daemon"
WLR_ORIENT_BIN="$bin/wlr-orient" /usr/bin/python3 benchmarks/quiet_device.py --steps 40 --idle-seconds 60

echo "== plugin in Debian's sway 1.7 under wlr-orient run: sample to first frame with the new transform"
/usr/bin/python3 benchmarks/rotation_latency_sway.py --rotations 40

echo "== control: how soon wlr-orient watch --json prints a lock and a turn (limit 50 ms)"
WLR_ORIENT_BIN="$bin/wlr-orient" /usr/bin/python3 benchmarks/watch_latency.py --changes 200 --turns 40

echo "== config: a file written 100 times a second for 10 s (reads spaced 250 ms apart), its CPU"
WLR_ORIENT_BIN="$bin/wlr-orient" /usr/bin/python3 benchmarks/config_writes.py

echo "== events: the host's refreshes while the tests' events reader reads, and while it reads nothing for 2 s"
WLR_ORIENT_BIN="$bin/wlr-orient" /usr/bin/python3 benchmarks/events_backpressure.py --seconds 2

echo "== the offered turn: decision to the first frame showing its target; refreshes while targets appear, fade and are tapped; wakeups and memory locked and still, offers on and off"
WLR_ORIENT_BIN="$bin/wlr-orient" /usr/bin/python3 benchmarks/suggestion.py --rounds 20 --idle-seconds 10

echo "== the touch hold on the public traces: turns held back, how much later, turns dropped (a scrolling person, a resting finger)"
WLR_ORIENT_BIN="$bin/wlr-orient" /usr/bin/python3 benchmarks/touch_hold_traces.py --traces Tests/Fixtures/traces/public

echo "== transitions: ms per frame each kind adds on pixman (the plugin's own CPU and the renderer's apart), beside memcpy of three frames (same run)"
/usr/bin/python3 benchmarks/transition_cost.py --turns 20 --plugin build/libwlr-orient.so

echo "== daemon on a polled device: step to transform applied over 40 steps beside rot8's model (500 ms polling) and iio-sensor-proxy; idle wakeups over the still minute after; memory"
WLR_ORIENT_BIN="$bin/wlr-orient" /usr/bin/python3 benchmarks/daemon_vs_polling.py --steps 40

echo "== daemon in phoc 0.24 at 1920x1200 and 2560x1600: step to transform applied with the shield (rotate, crossfade) beside the cut; CPU per frame; frames missed over 20 turns (the daemon's and the compositor's apart); the same at a quarter of a core"
WLR_ORIENT_BIN="$bin/wlr-orient" /usr/bin/python3 benchmarks/daemon_shield.py --turns 20

echo "== daemon beside the reference host at 2560x1600: frames neither the old picture nor the new layout over 100 quarter turns, on time and 30 ms late"
WLR_ORIENT_BIN="$bin/wlr-orient" /usr/bin/python3 benchmarks/daemon_frames.py --turns 100 --size 2560x1600

echo "== one client holding thousands of wlr-orient objects: each request at 8,000 (limit 20 us), the stall when 16,000 go (limit 50 ms)"
/usr/bin/python3 benchmarks/protocol_flood.py --requests 40000

echo "== the fuzz campaign, five minutes: crashes, hangs, and the compositor's longest stall (limit 100 ms)"
/usr/bin/python3 benchmarks/fuzz.py --seconds 300

echo "== the wlroots releases tested in roots whose sway is built with them (support-matrix.toml): the reference host's latency, memory and transition cost, and their sway's latency"
bash scripts/bench-roots.sh
