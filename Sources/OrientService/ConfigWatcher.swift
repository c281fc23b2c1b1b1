import OrientSystem

/// Notices when the config file is written, replaced, created or removed, and when its directory
/// goes and comes back (a `PathWatch`, on the event loop). Each change of the file, and the
/// directory's return, asks for the config to be read again; the directory's going is logged.
public final class ConfigWatcher {
    private let watch: PathWatch
    private var source: LoopSource?
    private let file: String
    private let changed: () -> Void

    /// nil when inotify cannot be had or the path is not absolute.
    public init?(file: String, loop: OpaquePointer?, changed: @escaping () -> Void) {
        guard let watch = PathWatch(file: file) else { return nil }
        self.watch = watch
        self.file = file
        self.changed = changed
        source = LoopSource.readable(watch.fd, on: loop) { [unowned self] _ in drain() }
    }

    /// Whether the file's directory exists (else the watch waits for it to be made).
    public var directoryExists: Bool { watch.directoryExists }

    private func drain() {
        switch watch.drain() {
        case .unchanged:
            break
        case .file:
            changed()
        case .directoryGone:
            Log.info("config: the directory of \(file) is gone; watching for it to be made again")
            Events.emit(.configDirectory(file: file, present: false))
        case .directoryBack:
            Log.info("config: the directory of \(file) is there again")
            Events.emit(.configDirectory(file: file, present: true))
            changed()
        }
    }

    public func stop() {
        source?.remove()
        source = nil
    }
}
