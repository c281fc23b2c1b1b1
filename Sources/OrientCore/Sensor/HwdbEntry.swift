/// An entry of systemd's sensor hwdb (`hwdb.d/60-sensor.hwdb`) for one model: the match udev
/// looks the accelerometer up by, its mount matrix, and a comment naming the model, in the
/// format upstream takes:
///
///     # LENOVO 81SS
///     sensor:modalias:acpi:BOSC0200*:dmi:*:svnLENOVO:pn81SS:*
///      ACCEL_MOUNT_MATRIX=0, -1, 0; 1, 0, 0; 0, 0, 1
///
/// udev's `60-sensor.rules` looks up `sensor:modalias:<the modalias of the sensor's bus
/// device (usb, i2c or platform)>:<the DMI modalias>`, with the IIO device's `label` before
/// `modalias:` when it has one (`sensor:accel-display:modalias:…`; a ChromeOS EC's accelerometers
/// by their location). The match keeps the bus device's own ID (an ACPI one's first) and
/// the machine's vendor and product (`svn`, `pn`, as the DMI modalias escapes them), and lets the
/// rest vary (firmware versions, the board's revision).
public struct HwdbEntry: Sendable, Hashable {
    public var match: String
    public var comment: String
    public var matrix: MountMatrix

    /// The facts the kernel gives, as read: the bus device's `modalias`, `/sys/class/dmi/id/modalias`,
    /// and the DMI `sys_vendor` and `product_name` (for the comment). Nil when a part is missing.
    public init?(busModalias: String, dmiModalias: String, label: String? = nil, vendor: String?, product: String?,
                 matrix: MountMatrix) {
        let bus = busModalias.trimmingWhitespace()
        let dmi = dmiModalias.trimmingWhitespace()
        guard let device = Self.devicePattern(String(bus)) else { return nil }
        let fields = dmi.split(separator: ":").map(String.init)
        guard fields.first == "dmi", let svn = fields.first(where: { $0.hasPrefix("svn") }), svn.count > 3,
              let pn = fields.first(where: { $0.hasPrefix("pn") }), pn.count > 2 else { return nil }
        let labelled = label.map { String($0.trimmingWhitespace()) }.flatMap { $0.isEmpty ? nil : "\($0):" } ?? ""
        match = "sensor:\(labelled)modalias:\(device):dmi:*:\(svn):\(pn):*"
        let named = [vendor, product].compactMap { $0.map { String($0.trimmingWhitespace()) } }.filter { !$0.isEmpty }
        comment = named.isEmpty ? "\(svn.dropFirst(3)) \(pn.dropFirst(2))" : named.joined(separator: " ")
        self.matrix = matrix
    }

    /// What 60-sensor.rules puts before `modalias:`, from the IIO device's sysfs `label`, `name`
    /// and `location` (as the rules read them, udev's own ACCEL_LOCATION aside): its label, else a
    /// ChromeOS EC accelerometer's place (`accel-base`, `accel-display` for the lid), else none.
    public static func ruleLabel(label: String?, name: String?, location: String?) -> String? {
        if let label, !label.isEmpty { return label }
        guard name == "cros-ec-accel" || name == "cros-ec-accel-legacy" else { return nil }
        switch location {
        case "base": return "accel-base"
        case "lid": return "accel-display"
        default: return nil
        }
    }

    /// The bus device's part of the match: an ACPI device by its first ID (`acpi:BOSC0200:BOSC0200:`
    /// → `acpi:BOSC0200*`), any other by its whole modalias, as udev writes it into the key
    /// (`udev_replace_chars` with the rule's `"/ $%?,"`: a character other than those, letters,
    /// digits and `#+-.:=@_` becomes `_`; a device tree's `T(null)` reads `T_null_`).
    static func devicePattern(_ modalias: String) -> String? {
        let kept = Set("#+-.:=@_/ $%?,")
        let cleaned = String(modalias.map { ($0.isASCII && ($0.isLetter || $0.isNumber)) || kept.contains($0) ? $0 : "_" })
        let parts = cleaned.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        if parts[0] == "acpi" { return "acpi:\(parts[1])*" }
        return cleaned + "*"
    }

    /// As the hwdb file has it: the comment, the match, the property indented by one space.
    public var text: String {
        "# \(comment)\n\(match)\n ACCEL_MOUNT_MATRIX=\(matrix)"
    }

    /// A hwdb file's text with this entry in it, at the end. An older record for the same match goes
    /// (with the comments just above it); where other matches share that record, only the match
    /// line goes, and their properties stay theirs.
    public func merged(into text: String) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        if let at = lines.firstIndex(of: match) {
            // The record's head: the match and comment lines together, up to its properties.
            func head(_ line: String) -> Bool { !line.isEmpty && !line.hasPrefix(" ") }
            var first = at, end = at + 1
            while first > 0, head(lines[first - 1]) { first -= 1 }
            while end < lines.count, head(lines[end]) { end += 1 }
            if lines[first..<end].filter({ !$0.hasPrefix("#") }).count > 1 {
                lines.remove(at: at)
            } else {
                while end < lines.count, lines[end].hasPrefix(" ") { end += 1 }
                lines.removeSubrange(first..<end)
                // The blank line that separated it goes with it.
                if first < lines.count, lines[first].isEmpty, first == 0 || lines[first - 1].isEmpty { lines.remove(at: first) }
            }
            while let last = lines.last, last.isEmpty { lines.removeLast() }
        }
        if !lines.isEmpty { lines.append("") }
        return (lines + self.text.split(separator: "\n").map(String.init)).joined(separator: "\n") + "\n"
    }
}
