import CIIO
import CUdev
import Glibc
import OrientCore
import OrientSystem

// Every call into libiio and libudev, in one file, each turning C's conventions (NULL, negative
// errno) into a typed error (OrientSystem's). Nothing here decides anything.

/// A failed libiio, libudev or system call: the system layer's typed error.
public typealias SensorError = SystemError

extension SystemError {
    /// The device is gone (unplugged, driver unbound, sysfs node removed).
    public var isDeviceGone: Bool { [ENODEV, ENOENT, ENXIO, EIO].contains(errno) }

    /// There is no /sys/bus/iio at all: no IIO driver is loaded, so no accelerometer either.
    public var meansNoIIODevices: Bool { operation == "iio_create_local_context" && errno == ENOENT }
}

/// A libiio context: the set of IIO devices visible now.
final class IIOContext {
    let pointer: OpaquePointer

    init() throws {
        guard let p = iio_create_local_context() else {
            throw SensorError(operation: "iio_create_local_context", errno: Glibc.errno)
        }
        pointer = p
    }

    deinit { iio_context_destroy(pointer) }

    var devices: [IIODevice] {
        (0..<iio_context_get_devices_count(pointer)).compactMap { i in
            iio_context_get_device(pointer, i).map { IIODevice(pointer: $0) }
        }
    }
}

/// One IIO device (not owned: lives as long as its context).
struct IIODevice {
    /// The text libiio wrote into `buffer`, up to its terminating NUL.
    static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    let pointer: OpaquePointer

    var id: String { iio_device_get_id(pointer).map { String(cString: $0) } ?? "" }
    var name: String { iio_device_get_name(pointer).map { String(cString: $0) } ?? "" }
    var label: String? { iio_device_get_label(pointer).map { String(cString: $0) } }

    func channel(_ id: String, output: Bool = false) -> IIOChannel? {
        iio_device_find_channel(pointer, id, output).map { IIOChannel(pointer: $0) }
    }

    func attribute(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 256)
        let n = iio_device_attr_read(pointer, name, &buffer, buffer.count)
        return n > 0 ? Self.text(buffer) : nil
    }

    /// A device attribute read as a number (nil when missing or not one).
    func number(_ name: String) -> Double? {
        attribute(name).flatMap { try? RawReading.parse($0).get() }
    }

    func writeAttribute(_ name: String, _ value: Double) throws {
        let r = iio_device_attr_write_double(pointer, name, value)
        if r < 0 { throw SensorError(operation: "write \(id)/\(name)", errno: -r) }
    }

    /// True when the device can stream samples through a buffer (it has a trigger or is triggerless-buffered).
    var hasTrigger: Bool {
        var trigger: OpaquePointer?
        return iio_device_get_trigger(pointer, &trigger) == 0 && trigger != nil
    }

    func setKernelBuffers(_ count: UInt32) { _ = iio_device_set_kernel_buffers_count(pointer, count) }
}

/// One IIO channel (not owned).
struct IIOChannel {
    let pointer: OpaquePointer

    /// Its id (`accel_x`).
    var id: String { iio_channel_get_id(pointer).map { String(cString: $0) } ?? "" }

    /// A channel attribute's text (`raw`, `scale`, `offset`, `mount_matrix`…).
    func attribute(_ name: String) throws -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        let n = iio_channel_attr_read(pointer, name, &buffer, buffer.count)
        if n < 0 { throw SensorError(operation: "read \(name)", errno: Int32(-n)) }
        return IIODevice.text(buffer)
    }

    /// The sysfs file name of a channel attribute (`in_accel_x_raw`).
    func attributeFilename(_ name: String) -> String? {
        iio_channel_attr_get_filename(pointer, name).map { String(cString: $0) }
    }

    /// A channel attribute read as a number (nil when missing or not one).
    func number(_ name: String) -> Double? {
        (try? attribute(name)).flatMap { try? RawReading.parse($0).get() }
    }

    func hasAttribute(_ name: String) -> Bool {
        iio_channel_find_attr(pointer, name) != nil
    }

    func writeAttribute(_ name: String, _ value: Double) throws {
        let r = iio_channel_attr_write_double(pointer, name, value)
        if r < 0 { throw SensorError(operation: "write \(name)", errno: -r) }
    }

    var isScanElement: Bool { iio_channel_is_scan_element(pointer) }
    func enable() { iio_channel_enable(pointer) }
    func disable() { iio_channel_disable(pointer) }

    /// Bits of the scan element (for saturation) and whether it is signed.
    var format: (bits: UInt32, signed: Bool) {
        guard let f = iio_channel_get_data_format(pointer) else { return (16, true) }
        return (f.pointee.bits, f.pointee.is_signed)
    }

    /// Converts the channel's sample at `source` (raw bytes from a buffer) to a host integer.
    func convert(_ source: UnsafeRawPointer) -> Int64 {
        var value: Int64 = 0
        iio_channel_convert(pointer, &value, source)
        let f = format
        if f.signed && f.bits < 64 {
            // iio_channel_convert sign-extends into the destination's width only up to `bits`.
            let shift = 64 - Int64(f.bits)
            value = (value << shift) >> shift
        }
        return value
    }
}

/// Attribute files of one sysfs directory (a polled device's `raw` values), held open and re-read
/// with pread(2) at offset 0, as sysfs allows.
///
/// libiio opens, reads and closes a file on every attribute read; at 25 Hz on three axes that
/// would be most of a polled sensor's cost. A held file can go stale where sysfs is faked:
/// umockdev writes an attribute by putting a new file in its place, and a removed fake device's
/// files stay readable (real sysfs keeps a file and answers a removed device's reads with
/// ENODEV). An inotify watch on the directory names the files replaced or removed, for one
/// non-blocking read per reading, where checking each file's link count cost a call per file;
/// without inotify (its per-user limit reached) the link counts are checked instead.
final class SysfsAttributeFiles {
    let directory: String
    let names: [String]
    private var files: [FileDescriptor?]
    /// Entries of `directory` replaced or removed; nil without inotify.
    private let watch: DirectoryWatch?

    init(directory: String, names: [String]) throws {
        self.directory = directory
        self.names = names
        files = Array(repeating: nil, count: names.count)
        // Watch first, then open: a replacement after the open is then always seen.
        watch = DirectoryWatch(directory: directory, names: names)
        for i in files.indices { try reopen(i) }
    }

    deinit {
        for case let file? in files { file.close() }
    }

    var count: Int { files.count }

    /// Call once before reading the set: opens again the files that were replaced. Throws when
    /// the directory went away or a file cannot be opened (the device is gone).
    func refresh() throws {
        guard let watch else {
            for i in files.indices {
                guard case .success(let status) = files[i]?.status(), status.linkCount > 0 else { try reopen(i); continue }
            }
            return
        }
        switch watch.drain() {
        case .unchanged: return
        case .named(let stale):
            for i in files.indices where stale & (1 << UInt64(min(i, 63))) != 0 { try reopen(i) }
        case .directoryGone: throw SensorError(operation: "watch \(directory)", errno: ENODEV)
        }
    }

    /// Reads file `index` from its start into `buffer` and hands the bytes read to `body`.
    func read<R>(_ index: Int, into buffer: UnsafeMutableBufferPointer<UInt8>,
                 _ body: (UnsafeBufferPointer<UInt8>) -> R) throws -> R {
        guard files.indices.contains(index), let file = files[index] else { throw SensorError(operation: "read \(directory)", errno: EBADF) }
        switch file.read(into: UnsafeMutableRawBufferPointer(buffer), atOffset: 0) {
        case .success(let n): return body(UnsafeBufferPointer(rebasing: buffer[..<n]))
        case .failure(let error): throw SensorError(operation: "read \(directory)/\(names[index])", errno: error.errno)
        }
    }

    private func reopen(_ i: Int) throws {
        files[i]?.close()
        files[i] = nil
        let path = "\(directory)/\(names[i])"
        switch FileDescriptor.openForReading(path) {
        case .success(let file): files[i] = file
        case .failure(let error): throw SensorError(operation: "open \(path)", errno: error.errno)
        }
    }
}

/// A capture buffer on a device: samples arrive in batches through a pollable fd.
final class IIOBuffer {
    let pointer: OpaquePointer
    let fd: Int32

    init(device: IIODevice, samples: Int) throws {
        guard let p = iio_device_create_buffer(device.pointer, samples, false) else {
            throw SensorError(operation: "iio_device_create_buffer \(device.id)", errno: Glibc.errno)
        }
        pointer = p
        _ = iio_buffer_set_blocking_mode(p, false)
        let fd = iio_buffer_get_poll_fd(p)
        guard fd >= 0 else {
            iio_buffer_destroy(p)
            throw SensorError(operation: "iio_buffer_get_poll_fd \(device.id)", errno: -fd)
        }
        self.fd = fd
    }

    deinit { iio_buffer_destroy(pointer) }

    /// Reads what is there without blocking; returns the bytes read (0: nothing yet).
    func refill() throws -> Int {
        let n = iio_buffer_refill(pointer)
        if n == -Int(EAGAIN) { return 0 }
        if n < 0 { throw SensorError(operation: "iio_buffer_refill", errno: Int32(-n)) }
        return n
    }

    /// The samples of the last refill: for each, the start of `channel`'s data.
    func forEachSample(_ channels: [IIOChannel], _ body: ([UnsafeRawPointer]) -> Void) {
        let step = iio_buffer_step(pointer)
        guard step > 0, let end = iio_buffer_end(pointer) else { return }
        let starts = channels.compactMap { iio_buffer_first(pointer, $0.pointer) }
        guard starts.count == channels.count else { return }
        var offset = 0
        while starts[0] + offset < end {
            body(starts.map { UnsafeRawPointer($0 + offset) })
            offset += step
        }
    }
}

/// A device's motion events: the fd that IIO_GET_EVENT_FD_IOCTL on its /dev node gives, readable
/// with one 16-byte `struct iio_event_data` per event. The events named are enabled while this
/// exists (libiio has no call for events: this is the kernel's interface, as it is).
final class MotionEventSource {
    /// `_IOR('i', 0x90, int)` of <linux/iio/events.h>.
    static let getEventFD: UInt = 0x8004_6990
    static let recordSize = 16

    let fd: Int32
    private let enabled: [String]
    private let records = UnsafeMutableRawBufferPointer.allocate(byteCount: 16 * MotionEventSource.recordSize, alignment: 8)

    /// - Parameter files: names in the device's `events/` directory to enable (write 1 to).
    ///   Nothing is written unless the event fd was had: a device has one at a time (EBUSY
    ///   for a second), and the program that holds it depends on its events staying on.
    init(deviceID: String, enable files: [String]) throws {
        let directory = "/sys/bus/iio/devices/\(deviceID)/events"
        let node: FileDescriptor
        switch FileDescriptor.openForReading("/dev/\(deviceID)") {
        case .success(let opened): node = opened
        case .failure(let error): throw SensorError(operation: "open /dev/\(deviceID)", errno: error.errno)
        }
        var eventFD: Int32 = -1
        // The kernel's own request, with no wrapper to go through: the one libc call left here.
        let r = ioctl(node.rawValue, Self.getEventFD, &eventFD)
        let code = Glibc.errno
        node.close()   // the event fd lives on its own
        guard r >= 0, eventFD >= 0 else {
            throw SensorError(operation: "IIO_GET_EVENT_FD_IOCTL on /dev/\(deviceID)", errno: r < 0 ? code : EBADF)
        }
        var enabled: [String] = []
        do {
            for file in files {
                try writeSysfsText("\(directory)/\(file)", "1")
                enabled.append("\(directory)/\(file)")
            }
        } catch {
            for path in enabled { try? writeSysfsText(path, "0") }
            FileDescriptor(rawValue: eventFD).close()
            throw error
        }
        _ = FileDescriptor(rawValue: eventFD).setNonBlocking()
        fd = eventFD
        self.enabled = enabled
    }

    deinit {
        FileDescriptor(rawValue: fd).close()
        for path in enabled { try? writeSysfsText(path, "0") }
        records.deallocate()
    }

    /// Reads every queued event; returns how many there were (0: none). Throws when the source
    /// has ended (the device went away).
    func drain() throws -> Int {
        var count = 0
        while true {
            switch FileDescriptor(rawValue: fd).read(into: records) {
            case .success(0): throw SensorError(operation: "read motion events", errno: ENODEV)
            case .success(let n): count += n / Self.recordSize
            case .failure(let error) where error.wouldBlock: return count
            case .failure(let error): throw SensorError(operation: "read motion events", errno: error.errno)
            }
        }
    }
}

/// udev properties of an IIO device (how systemd's hwdb quirks arrive).
public enum Udev {
    public static func properties(ofIIODevice id: String, _ names: [String]) -> [String: String] {
        guard let udev = udev_new() else { return [:] }
        defer { udev_unref(udev) }
        guard let device = udev_device_new_from_subsystem_sysname(udev, "iio", id) else { return [:] }
        defer { udev_device_unref(device) }
        var out: [String: String] = [:]
        for name in names {
            if let v = udev_device_get_property_value(device, name) { out[name] = String(cString: v) }
        }
        return out
    }
}

/// udev's announcements of IIO devices (the "udev" netlink source: after udevd has processed
/// them, so their properties are in place). Non-blocking; its fd goes on the caller's loop.
final class UdevMonitor {
    private let udev: OpaquePointer
    private let monitor: OpaquePointer
    let fd: Int32

    init() throws {
        guard let udev = udev_new() else { throw SensorError(operation: "udev_new", errno: Glibc.errno) }
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            let code = Glibc.errno
            udev_unref(udev)
            throw SensorError(operation: "udev_monitor_new_from_netlink", errno: code)
        }
        self.udev = udev
        self.monitor = monitor
        let filtered = udev_monitor_filter_add_match_subsystem_devtype(monitor, "iio", nil)
        let enabled = filtered >= 0 ? udev_monitor_enable_receiving(monitor) : filtered
        fd = udev_monitor_get_fd(monitor)
        // Thrown with every property set, deinit releases the monitor and udev.
        guard enabled >= 0, fd >= 0 else {
            throw SensorError(operation: "udev_monitor_enable_receiving", errno: enabled < 0 ? -enabled : EBADF)
        }
        _ = FileDescriptor(rawValue: fd).setNonBlocking()
    }

    /// Reads every pending announcement: what happened (`add`, `remove`…) to which IIO device.
    func receive() -> [(action: String, name: String)] {
        var announced: [(action: String, name: String)] = []
        while let device = udev_monitor_receive_device(monitor) {
            if let action = udev_device_get_action(device), let name = udev_device_get_sysname(device) {
                announced.append((String(cString: action), String(cString: name)))
            }
            udev_device_unref(device)
        }
        return announced
    }

    deinit {
        udev_monitor_unref(monitor)
        udev_unref(udev)
    }
}

/// What opening a device wrote (a rate, a hysteresis, its buffer's set-up) and what each was
/// before: written back when the device is released, and kept meanwhile in the device's journal
/// (`DeviceJournal`), so that a reader killed before it could write them back leaves them for the
/// next one.
struct AttributeRestore {
    let device: String
    /// Whether the journal is this reader's to keep (not while another reader of ours holds the
    /// device and keeps its own).
    let journaled: Bool
    private(set) var entries: [(path: String, value: String)] = []

    init(device: String, journaled: Bool = true) {
        self.device = device
        self.journaled = journaled
    }

    var directory: String { "/sys/bus/iio/devices/\(device)" }

    /// Notes a device attribute's value before it is written (`before`: as read).
    mutating func note(_ name: String, _ before: String?) {
        note(path: "\(directory)/\(name)", before)
    }

    /// Notes a channel attribute's value before it is written.
    mutating func note(_ channel: IIOChannel, _ name: String, _ before: String?) {
        guard let file = channel.attributeFilename(name) else { return }
        note(path: "\(directory)/\(file)", before)
    }

    /// Notes a file's value before it is written; the journal holds it before the write happens.
    mutating func note(path: String, _ before: String?) {
        guard let value = Self.value(before), !entries.contains(where: { $0.path == path }) else { return }
        entries.append((path, value))
        if journaled { DeviceJournal.record(device, entries) }
    }

    /// An attribute's text without its line end; nil when there is none to write back.
    static func value(_ text: String?) -> String? {
        guard let line = text?.split(whereSeparator: { $0 == "\n" || $0 == "\0" }).first, !line.isEmpty else { return nil }
        return String(line)
    }

    /// Forgets those noted since `count` entries without writing them back (another program now
    /// depends on them as they are).
    mutating func forget(since count: Int) {
        guard count < entries.count else { return }
        entries.removeSubrange(count...)
        keepJournal()
    }

    private func keepJournal() {
        guard journaled else { return }
        if entries.isEmpty { DeviceJournal.clear(device) } else { DeviceJournal.record(device, entries) }
    }

    /// Writes back those noted since `count` entries (the last written first), and forgets them.
    mutating func writeBack(since count: Int = 0) {
        guard count < entries.count else { return }
        for (path, value) in entries[count...].reversed() where readSmallFile(path).flatMap(Self.value) != value {
            // With its line end, as the kernel gives an attribute back (and parses it).
            try? writeSysfsText(path, value + "\n")
        }
        entries.removeSubrange(count...)
        keepJournal()
    }
}

/// A device's journal in the user's runtime directory (`wlr-orient-restore-<id>`): the process
/// that holds the device, and each attribute it changed with the value it found there. Any of
/// our processes can be killed at any moment (our own liveness check does it with SIGKILL, so do
/// the OOM killer and a power cut); the values to restore must not live only in its memory. The
/// next reader of ours finds the journal of a process that is gone, and writes them back first.
enum DeviceJournal {
    static func path(_ id: String) -> String? {
        guard let runtime = environmentValue("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return nil }
        return "\(runtime)/wlr-orient-restore-\(id)"
    }

    /// This process, as the journal names it: its pid and when it started (a pid alone may be
    /// another process's by the time the journal is read).
    static var owner: String { "\(processID) \(startTimeOfProcess(processID) ?? "?")" }

    static func record(_ id: String, _ entries: [(path: String, value: String)]) {
        guard let path = path(id) else { return }
        let text = "owner \(owner)\n" + entries.map { "\($0.path)\t\($0.value)\n" }.joined()
        _ = writeFileAtomically(path, Array(text.utf8), mode: 0o600)
    }

    static func clear(_ id: String) {
        if let path = path(id) { removeFile(path) }
    }

    /// Writes back what a reader of ours that is gone left changed on the device (its buffer
    /// switched off first, if it was left on), and removes its journal. Returns the attributes
    /// written back (empty: nothing to do), and whether another reader of ours holds the device
    /// now (its journal is left to it).
    static func recover(_ id: String) -> (restored: [String], heldByAnother: Bool) {
        guard let path = path(id), let text = readSmallFile(path, limit: 65536) else { return ([], false) }
        var lines = text.split(separator: "\n").map(String.init)
        guard let first = lines.first, first.hasPrefix("owner ") else {
            removeFile(path)
            return ([], false)
        }
        lines.removeFirst()
        let fields = first.dropFirst("owner ".count).split(separator: " ")
        // A killed process may linger as a zombie until its parent (or init) reaps it: dead all the same.
        if fields.count == 2, let pid = Int32(fields[0]), pid != processID, String(fields[1]) == startTimeOfProcess(pid) ?? "",
           let state = stateOfProcess(pid), state != "Z", state != "X" {
            return ([], true)   // its reader runs: the device is as it wants it
        }
        let directory = "/sys/bus/iio/devices/\(id)"
        if readSmallFile("\(directory)/buffer/enable").flatMap(AttributeRestore.value) == "1", BufferMark.isOurs(id) {
            try? writeSysfsText("\(directory)/buffer/enable", "0")
            BufferMark.remove(id)
        }
        var restored: [String] = []
        for line in lines.reversed() {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            // Only the device's own attributes: the journal is the user's file, not a licence to
            // write anywhere.
            guard parts.count == 2, parts[0].hasPrefix(directory + "/"), !parts[0].split(separator: "/").contains("..") else { continue }
            if readSmallFile(parts[0]).flatMap(AttributeRestore.value) != parts[1] {
                let name = String(parts[0].dropFirst(directory.count + 1))
                do {
                    try writeSysfsText(parts[0], parts[1] + "\n")
                    restored.append(name)
                } catch {
                    restored.append("\(name) (not: \(error))")
                }
            }
        }
        removeFile(path)
        return (restored, false)
    }
}

/// Other programs that read accelerometers, as far as they can be seen from here.
enum OtherReaders {
    /// Whether iio-sensor-proxy runs (any user may read a process's name in /proc).
    static func iioSensorProxyRuns() -> Bool {
        directoryEntries("/proc").contains { entry in
            entry.first?.isNumber == true && readSmallFile("/proc/\(entry)/comm")?.hasPrefix("iio-sensor-prox") == true
        }
    }
}

/// The mark a reader of ours leaves in the user's runtime directory while it holds a device's
/// buffer: a buffer found on with the mark there, and its node free, was left on by one that was
/// killed before it could switch it off (a session's own, not another program's).
enum BufferMark {
    private static func path(_ id: String) -> String? {
        guard let runtime = environmentValue("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return nil }
        return "\(runtime)/wlr-orient-buffer-\(id)"
    }

    static func set(_ id: String) {
        if let path = path(id) { _ = writeFileAtomically(path, Array("\(id)\n".utf8)) }
    }

    static func remove(_ id: String) {
        if let path = path(id) { removeFile(path) }
    }

    static func isOurs(_ id: String) -> Bool {
        guard let path = path(id) else { return false }
        return readSmallFile(path) != nil
    }
}
