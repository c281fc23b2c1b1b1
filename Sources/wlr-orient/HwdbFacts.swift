import OrientCore
import OrientSystem

/// The facts of an hwdb entry, from sysfs: the modalias of the bus device the accelerometer sits
/// on (as udev's 60-sensor.rules looks it up) and the machine's DMI.
extension HwdbEntry {
    /// The buses udev's 60-sensor.rules looks a sensor up on.
    static let buses: Set<String> = ["usb", "i2c", "platform"]

    static func forDevice(_ id: String, matrix: MountMatrix) -> HwdbEntry? {
        guard let bus = busModalias(id), let dmi = readSmallFile("/sys/class/dmi/id/modalias") else { return nil }
        return HwdbEntry(busModalias: bus, dmiModalias: dmi, label: label(id), vendor: readSmallFile("/sys/class/dmi/id/sys_vendor"),
                         product: readSmallFile("/sys/class/dmi/id/product_name"), matrix: matrix)
    }

    /// Why `forDevice` found none, in words.
    static func whyNot(_ id: String) -> String {
        if busModalias(id) == nil { return "\(id) sits on no usb, i2c or platform device with a modalias" }
        if readSmallFile("/sys/class/dmi/id/modalias") == nil { return "the machine has no DMI data (/sys/class/dmi/id/modalias)" }
        return "its DMI data names no vendor and product"
    }

    /// The sysfs facts `HwdbEntry.ruleLabel` decides by, as 60-sensor.rules reads them (not the
    /// candidate's location, which udev's ACCEL_LOCATION may have set).
    static func label(_ id: String) -> String? {
        let directory = "/sys/bus/iio/devices/\(id)"
        func read(_ name: String) -> String? {
            readSmallFile("\(directory)/\(name)").map { String($0.prefix { $0 != "\n" }) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        return HwdbEntry.ruleLabel(label: read("label"), name: read("name"), location: read("location"))
    }

    /// The modalias of the nearest device above the accelerometer on one of `buses`.
    static func busModalias(_ id: String) -> String? {
        guard var path = resolvedPath("/sys/bus/iio/devices/\(id)") else { return nil }
        while let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            path = String(path[..<slash])
            guard let subsystem = linkTarget("\(path)/subsystem")?.split(separator: "/").last.map(String.init) else { continue }
            if buses.contains(subsystem), let modalias = readSmallFile("\(path)/modalias") {
                return String(modalias.prefix { $0 != "\n" })
            }
        }
        return nil
    }
}
