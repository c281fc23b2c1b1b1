/// Where a mount matrix came from, first found wins (issue #4):
/// the config's override, udev's `ACCEL_MOUNT_MATRIX` (systemd's hwdb quirks), the driver's
/// sysfs `mount_matrix`/`in_accel_mount_matrix`, else the identity.
public enum MountMatrixSource: String, Sendable, Hashable {
    case config
    case udev
    case sysfs
    case identity
}

public enum MountMatrixChoice {
    /// Picks the matrix; an unparsable one is reported with its source and skipped.
    public static func resolve(config: MountMatrix?, udev: String?, sysfs: String?)
        -> (matrix: MountMatrix, source: MountMatrixSource, warnings: [String])
    {
        if let config { return (config, .config, []) }
        var warnings: [String] = []
        for (text, source) in [(udev, MountMatrixSource.udev), (sysfs, .sysfs)] {
            guard let text else { continue }
            let trimmed = String(text.trimmingWhitespace())
            if trimmed.isEmpty { continue }
            if let m = MountMatrix(parsing: trimmed) { return (m, source, warnings) }
            let what = source == .udev ? "udev ACCEL_MOUNT_MATRIX" : "sysfs mount_matrix"
            warnings.append("ignoring \(what) \"\(trimmed)\": not three rows of three numbers")
        }
        return (.identity, .identity, warnings)
    }
}
