/// Where a mount matrix came from, first found wins: the config's override, udev's
/// `ACCEL_MOUNT_MATRIX` (systemd's hwdb quirks), the driver's own in sysfs
/// (`in_accel_mount_matrix`, `in_mount_matrix`, `mount_matrix`), else the identity.
public enum MountMatrixSource: String, Sendable, Hashable {
    case config
    case udev
    case sysfs
    case identity
}

public enum MountMatrixChoice {
    /// Picks the matrix; one that cannot be read, or cannot be a mount, is reported with its
    /// source and why, and skipped.
    public static func resolve(config: MountMatrix?, udev: String?, sysfs: String?, sysfsName: String = "mount_matrix")
        -> (matrix: MountMatrix, source: MountMatrixSource, warnings: [String])
    {
        if let config { return (config, .config, []) }
        var warnings: [String] = []
        for (text, source) in [(udev, MountMatrixSource.udev), (sysfs, .sysfs)] {
            guard let text else { continue }
            let trimmed = String(text.trimmingWhitespace())
            if trimmed.isEmpty { continue }
            let what = source == .udev ? "udev ACCEL_MOUNT_MATRIX" : "sysfs \(sysfsName)"
            switch MountMatrix.parse(trimmed) {
            case .success(let m): return (m, source, warnings)
            case .failure(let problem):
                if let repaired = MountMatrix.repairedForItsThirdRow(trimmed) {
                    warnings.append("\(what) \"\(trimmed)\" cannot be a mount for its third row only (\(problem)): "
                                    + "using \"\(repaired)\", its first two rows (which say how the device is held, "
                                    + "as iio-sensor-proxy reads them) with a third made from them")
                    return (repaired, source, warnings)
                }
                warnings.append("ignoring \(what) \"\(trimmed)\": \(problem)")
            }
        }
        return (.identity, .identity, warnings)
    }
}
