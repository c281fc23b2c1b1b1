import OrientSensor

// The sensor helper as a program of its own, for the plugin: its pages are its own in a
// compositor's session (nothing else there maps this file), so it carries only what reading the
// sensor needs, not the CLI's argument parser, TOML, Foundation and the daemon. (The daemon
// starts itself by this name instead: its helper shares the daemon's pages.)
SensorFeedProgram.main(Array(CommandLine.arguments.dropFirst()))
