"""What the integration tests are built on, apart from the tests themselves: the reference host
and Debian's compositors started for real (compositor, debian_compositors), the fake
accelerometer and kernel (fakeiio), the plugin's and the daemon's events (events), and programs a
test runs in a process of its own (udev_hotplug, quiet_removal)."""
