// swift-tools-version: 6.1
import PackageDescription

/// The wlroots the plugin is built against, by its pkg-config name: `wlroots` (0.15) or
/// `wlroots-0.18`, `-0.19`, `-0.20`. scripts/build-plugin.sh finds the one installed, or is told
/// (`WLR_ORIENT_WLROOTS`). Only the glue's C (Sources/CWlrGlue) reads its headers.
let wlroots = Context.environment["WLR_ORIENT_WLROOTS"].flatMap { $0.isEmpty ? nil : $0 } ?? "wlroots"

/// The modules linked into the plugin leave out _StringProcessing (regular expressions and the
/// string searches built on them), which Swift imports into every module unless told not to: with
/// the standard library linked into the plugin, it and _RegexParser were 0.8 MB of the plugin's
/// code, kept whole by their conformances, and part of what the plugin adds to a compositor's
/// memory.
let withoutStringProcessing: [SwiftSetting] = [.unsafeFlags(["-Xfrontend", "-disable-implicit-string-processing-module-import"])]

/// What the CLI's modules see of a module is what they import themselves: TOMLKit imports all of
/// Foundation, and without this its String and FileManager extensions (which bring ICU's 40 MB
/// along) were silently in reach of every file that imports FoundationEssentials.
let ownImportsOnly: [SwiftSetting] = [.enableUpcomingFeature("MemberImportVisibility")]

/// The Swift packages used, at the exact versions tested (Package.resolved stays untracked: the
/// local package mirror's commit ids differ from upstream's). With `WLR_ORIENT_VENDORED` set, from
/// vendor/ instead, where scripts/vendor-dependencies.sh copies them: a build without network, as
/// Debian's build machines make it.
let vendored = Context.environment["WLR_ORIENT_VENDORED"].map { !$0.isEmpty } ?? false
func dependency(_ url: String, exact version: Version) -> Package.Dependency {
    let name = String(url.split(separator: "/").last!)
    return vendored ? .package(path: "vendor/" + name) : .package(url: url, exact: version)
}

let package = Package(
    name: "wlr-orient",
    products: [
        .executable(name: "wlr-orient", targets: ["wlr-orient"]),
        .executable(name: "wlr-orient-sensor-feed", targets: ["wlr-orient-sensor-feed"]),
        .library(name: "OrientCore", targets: ["OrientCore"]),
        // The plugin compositors load; scripts/build-plugin.sh installs it as libwlr-orient.so.
        .library(name: "wlr-orient-plugin", type: .dynamic, targets: ["WlrOrientPlugin"]),
    ],
    dependencies: [
        dependency("https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        dependency("https://github.com/LebJe/TOMLKit", exact: "0.6.0"),
        dependency("https://github.com/x-sheep/swift-property-based", exact: "2.0.1"),
    ],
    targets: [
        // Every decision lives here: pure Swift, no C module, tested without wlroots.
        .target(name: "OrientCore", swiftSettings: withoutStringProcessing),
        // Reading config.toml and state.toml (TOMLKit): the CLI only. The plugin gets
        // both from the CLI (`wlr-orient plugin-inputs`), so no TOML parser runs in a compositor.
        .target(
            name: "OrientConfig",
            dependencies: ["OrientCore", "OrientSystem", .product(name: "TOMLKit", package: "TOMLKit")],
            swiftSettings: ownImportsOnly
        ),
        // System libraries from Debian, imported as they are.
        .systemLibrary(name: "CIIO", pkgConfig: "libiio", providers: [.apt(["libiio-dev"])]),
        .systemLibrary(name: "CUdev", pkgConfig: "libudev", providers: [.apt(["libudev-dev"])]),
        // The shell's system layer, without Foundation or Wayland: the clock, typed errors, files,
        // processes, Unix sockets and their addresses, inotify watches, epoll sets.
        .target(name: "OrientSystem", dependencies: ["CSystem", "CLinux"], swiftSettings: withoutStringProcessing),
        // The C calls of the system layer that Swift cannot make itself (_GNU_SOURCE, variadic).
        .target(name: "CSystem"),
        // Linux headers that the Glibc module lacks (epoll).
        .systemLibrary(name: "CLinux"),
        // The sensor layer: libiio accelerometers and udev properties, sampled on the caller's loop.
        .target(
            name: "OrientSensor",
            dependencies: ["OrientCore", "OrientJSON", "OrientSystem", "CIIO", "CUdev"],
            swiftSettings: withoutStringProcessing
        ),
        .systemLibrary(name: "CWlroots", pkgConfig: wlroots, providers: [.apt(["libwlroots-dev"])]),
        // json-c (as sway's IPC uses it): the plugin reads the control socket's JSON lines with it.
        .systemLibrary(name: "CJSONC", pkgConfig: "json-c", providers: [.apt(["libjson-c-dev"])]),
        // Sources on libwayland-server's event loop, which the plugin and the daemon share (it runs
        // in any process; no wlroots).
        .target(name: "CEventLoop", linkerSettings: [.linkedLibrary("wayland-server")]),
        // What the plugin and the daemon both run on an event loop: its sources (LoopSource, the
        // one trampoline into Swift), the sensor, the control socket, the config reloader and
        // watcher, the state saver, the log.
        // Reading a line of JSON into the core's `JSON` (json-c): the control socket's requests and
        // answers, and the sensor helper's reports and the requests it takes.
        .target(name: "OrientJSON", dependencies: ["OrientCore", "CJSONC"], swiftSettings: withoutStringProcessing),
        .target(name: "OrientService", dependencies: ["OrientCore", "OrientJSON", "OrientSystem", "CEventLoop"],
                swiftSettings: withoutStringProcessing),
        // The plugin's one boundary with wlroots (include/orient_wlr.h, the same for every
        // release; what differs between releases is in its C files), plus the public header.
        .target(name: "CWlrGlue", dependencies: ["CWlroots", "CPixels"]),
        // Pixels on the CPU (the old frame of a transition scaled down, turned, faded): no window
        // system, so that the plugin and the daemon's shield draw alike.
        .target(name: "CPixels"),
        // The plugin: the wlroots bridge behind the C API of include/wlr-orient.h.
        .target(
            name: "WlrOrientPlugin",
            dependencies: ["OrientCore", "OrientService", "OrientSystem", "CEventLoop", "CWlrGlue"],
            swiftSettings: withoutStringProcessing,
            // A Swift image cannot be unloaded (the runtime keeps pointers into its metadata, and its
            // globals live until exit): dlclose() leaves it loaded (DF_1_NODELETE).
            linkerSettings: [.unsafeFlags(["-Xlinker", "-z", "-Xlinker", "nodelete"])]
        ),
        // libwayland-client and the client side of wlr-output-management and foreign-toplevel
        // (generated from protocol/wlr/ at build time): what the daemon speaks.
        .target(name: "CWaylandClient", linkerSettings: [.linkedLibrary("wayland-client")]),
        // The evdev ioctls for following a tablet-mode switch (the daemon; read only).
        .target(name: "CEvdev"),
        // `wlr-orient daemon`: the controller beside compositors that load no plugin.
        .target(
            name: "OrientDaemon",
            dependencies: ["OrientCore", "OrientService", "OrientSystem", "CEventLoop", "CWaylandClient", "CEvdev", "CUdev", "CPixels"]
        ),
        // GLib from Debian, for its key-file parser.
        .systemLibrary(name: "CGLib", pkgConfig: "glib-2.0", providers: [.apt(["libglib2.0-dev"])]),
        // Reading the .desktop files that declare orientations (for the plugin, through the CLI).
        .target(name: "OrientDesktop", dependencies: ["OrientCore", "OrientConfig", "OrientSystem", "CGLib"],
                swiftSettings: ownImportsOnly),
        // The command-line tool: argument parsing and printing only. Started as
        // `wlr-orient-daemon` it is the daemon (OrientDaemon.DaemonProgram), and as
        // `wlr-orient-sensor-feed` the daemon's sensor in a process of its own
        // (OrientSensor.SensorFeedProgram; the plugin's is the lean program above).
        .executableTarget(
            name: "wlr-orient",
            dependencies: [
                "OrientCore",
                "OrientConfig",
                "OrientJSON",
                "OrientSensor",
                "OrientService",
                "OrientSystem",
                "OrientDesktop",
                "OrientDaemon",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: ownImportsOnly
        ),
        // The sensor helper the plugin starts, as a lean program of its own (see its main.swift).
        .executableTarget(name: "wlr-orient-sensor-feed", dependencies: ["OrientSensor"], swiftSettings: withoutStringProcessing),
        // Benchmarks: the detector's cost per sample (scripts/bench.sh runs it in release).
        .executableTarget(name: "orient-bench", dependencies: ["OrientCore"]),
        // Benchmarks: wakeups of an idle session (benchmarks/wakeups.py runs it under umockdev).
        .executableTarget(name: "sensor-bench", dependencies: ["OrientCore", "OrientSensor", "OrientSystem"]),
        // What the test targets share (the repository's root, scratch directories, running a program).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // One test target per module with logic. The core's: its decisions, driven directly.
        .testTarget(
            name: "OrientCoreTests",
            dependencies: ["OrientCore", "TestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        // Reading config.toml and state.toml, and the parser shield it runs behind.
        .testTarget(
            name: "OrientConfigTests",
            dependencies: ["OrientCore", "OrientConfig", "OrientSystem", "TestSupport",
                           .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "OrientDesktopTests", dependencies: ["OrientCore", "OrientDesktop", "TestSupport"]),
        // The system layer against the real kernel: processes, sockets, inotify, forked trials.
        .testTarget(name: "OrientSystemTests", dependencies: ["OrientSystem", "TestSupport"]),
        // The control server, the config reloader and the state saver on a real event loop.
        .testTarget(name: "OrientServiceTests", dependencies: ["OrientCore", "OrientJSON", "OrientService", "OrientSystem", "CEventLoop", "TestSupport"]),
        // The CLI as a user runs it (the program built beside the tests), and the trace corpus.
        .testTarget(name: "WlrOrientCLITests", dependencies: ["TestSupport"]),
    ]
)
