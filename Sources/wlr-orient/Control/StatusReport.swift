/// The status the plugin reports (`ControllerStatus.json`), as the CLI reads it back.
struct StatusReport: Decodable, Equatable {
    struct Panel: Decodable, Equatable {
        var name: String
        var shape: String
        var shown: String
        var transform: Int
        var allowed: [String]
    }

    struct Front: Decodable, Equatable {
        var appId: String
        var orientations: [String]
        var givenAs: String
        var source: String
        var rule: String?
        var file: String?
        var input: Bool
        var inputSource: String
    }

    var lock: String?
    var felt: String?
    var rotateWhen: String
    var tabletMode: Bool?
    var rotating: Bool
    var sensor: String
    var panels: [Panel]
    var front: Front?
}

extension StatusReport {
    /// Sentences for people (`status` without --json).
    var sentences: [String] {
        var lines: [String] = []
        lines.append(lock.map { "Locked to \($0)." } ?? "Not locked: the screen follows the device.")
        if let felt { lines.append("The device is held \(felt).") } else { lines.append("How the device is held is not known yet.") }
        if !rotating {
            lines.append("Not in tablet mode: the panel stays upright until the tablet-mode switch is on.")
        }
        if panels.isEmpty { lines.append("No built-in panel is connected.") }
        for p in panels {
            lines.append("\(p.name) (a \(p.shape) panel) shows \(p.shown); allowed now: \(p.allowed.joined(separator: ", ")).")
        }
        if let f = front {
            let app = f.appId.isEmpty ? "an app without app_id" : f.appId
            var line = "In front: \(app), "
            switch f.source {
            case "client": line += "which says it supports \(f.givenAs) (\(f.orientations.joined(separator: ", ")))"
            case "rule": line += "which supports \(f.givenAs) (\(f.orientations.joined(separator: ", "))) by the [[app]] rule \"\(f.rule ?? "")\""
            case "desktop-file": line += "which supports \(f.givenAs) (\(f.orientations.joined(separator: ", "))) by its desktop file \(f.file ?? "")"
            default: line += "which supports every orientation"
            }
            line += f.input ? "; it takes orientation as input, so the screen stays put." : "."
            lines.append(line)
        } else {
            lines.append("No app in front has a say.")
        }
        lines.append(sensor == "running" ? "The accelerometer is in use." : "The accelerometer is released (nothing can rotate).")
        return lines
    }

    /// One line per change, for `watch` without --json.
    var summary: String {
        let shown = panels.map { "\($0.name) \($0.shown)" }.joined(separator: ", ")
        var parts = [shown.isEmpty ? "no panel" : shown, "lock \(lock ?? "none")", "held \(felt ?? "unknown")"]
        if let f = front { parts.append("front \(f.appId.isEmpty ? "?" : f.appId) (\(f.givenAs), \(f.source))") }
        if !rotating { parts.append("laptop mode") }
        return parts.joined(separator: "; ")
    }
}
