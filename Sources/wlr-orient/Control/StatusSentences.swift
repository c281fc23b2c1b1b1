import OrientCore
import OrientSystem

/// The status in words for people: `status` without --json, and `watch`'s lines.
extension ControllerStatus {
    /// Sentences for people (`status` without --json).
    var sentences: [String] {
        var lines: [String] = []
        let heldElsewhere = panels.contains { $0.setBy != nil }
        lines.append(lock.map { "Locked to \($0)." } ?? (heldElsewhere ? "Not locked." : "Not locked: the screen follows the device."))
        if let felt { lines.append("The device is held \(felt.rawValue).") } else { lines.append("How the device is held is not known yet.") }
        if !rotating {
            lines.append("Not in tablet mode: the panel stays upright until the tablet-mode switch is on.")
        }
        if panels.isEmpty { lines.append("No built-in panel is connected.") }
        for p in panels {
            let setter = p.setBy.map { ", set by \($0.who) (kept until the device turns)" } ?? ""
            lines.append("\(p.name) (a \(p.shape.rawValue) panel) shows \(p.shown.rawValue)\(setter); allowed now: \(Self.words(p.allowed)).")
            if let other = p.otherRotator {
                // The controller's clock is the system's monotonic one, as this process's.
                let since = Int(max(0, monotonicSeconds() - other.since))
                lines.append("\(p.name) is turned with the device by \(other.named) as well (for \(since) s), so wlr-orient leaves it to that one"
                             + " (stop the other, such as rot8 or iio-hyprland, or in Phosh turn its orientation lock on, to have"
                             + " wlr-orient's lock and rules there; wlr-orient turns it again once a device turn goes unanswered).")
            }
        }
        if let f = front {
            let app = f.appID.isEmpty ? "an app without app_id" : f.appID
            let supported = "\(f.givenAs) (\(Self.words(f.orientations)))"
            var line = "In front: \(app), "
            switch f.orientationsSource {
            case .client: line += "which says it supports \(supported)"
            case .rule(let match): line += "which supports \(supported) by the [[app]] rule \"\(match)\""
            case .desktopFile(let path): line += "which supports \(supported) by its desktop file \(path)"
            case .none: line += "which supports every orientation"
            }
            line += f.input ? "; it takes orientation as input, so the screen stays put." : "."
            lines.append(line)
            if f.outputUnknown {
                lines.append("The compositor does not say which output \(app)'s window is on: it is taken to be on every panel.")
            }
        } else {
            lines.append("No app in front has a say.")
        }
        if let why = touchesUnseen { lines.append(why.prefix(1).uppercased() + why.dropFirst() + ".") }
        if let w = waiting {
            lines.append(w.touching ? "Held \(w.felt.rawValue), the screen waits: a finger or pen is on the panel."
                                    : "Held \(w.felt.rawValue), the screen waits a moment after a touch before it turns.")
        }
        if let s = suggestion {
            lines.append("Offered: a turn to \(s.orientation.rawValue) on \(s.panel) (tap the target in its corner, or run `wlr-orient suggestion accept`).")
        } else if !suggestionsEnabled, lock != nil {
            lines.append("No turn is offered while locked ([suggestion] enabled = false).")
        }
        lines.append(sensor.sentence)
        return lines
    }

    /// One line per change, for `watch` without --json.
    var summary: String {
        let shown = panels.map { p in
            "\(p.name) \(p.shown.rawValue)\(p.setBy.map { " (set by \($0.who))" } ?? "")\(p.otherRotator.map { ", left to \($0.process ?? $0.by.who)" } ?? "")"
        }.joined(separator: ", ")
        var parts = [shown.isEmpty ? "no panel" : shown, "lock \(lock?.description ?? "none")", "held \(felt?.rawValue ?? "unknown")"]
        if let f = front {
            parts.append("front \(f.appID.isEmpty ? "?" : f.appID) (\(f.givenAs), \(f.orientationsSource.kind)\(f.outputUnknown ? ", output unknown" : ""))")
        }
        if !rotating { parts.append("laptop mode") }
        if let w = waiting { parts.append("waiting for a touch to end (held \(w.felt.rawValue))") }
        if let s = suggestion { parts.append("offered \(s.orientation.rawValue)") }
        return parts.joined(separator: "; ")
    }

    private static func words(_ mask: OrientationMask) -> String {
        mask.orientations.map(\.rawValue).joined(separator: ", ")
    }
}

extension SensorStatus {
    /// What the accelerometer is doing, in one sentence.
    var sentence: String {
        switch state {
        case .released:
            return "The accelerometer is released (nothing can rotate)."
        case .looking:
            return "The accelerometer is wanted; none is open yet."
        case .lost:
            return "No accelerometer is read: \(why ?? "none was found")."
        case .reading:
            let how: String
            switch mode {
            case .hysteresis: how = "through its buffer, with hysteresis"
            case .motionEvents: how = "when its motion events say it moved"
            case .buffer: how = "through its buffer"
            case .polled, nil: how = "from its raw values, on a schedule"
            }
            var line = "The accelerometer \(device ?? "") is read \(how)"
            if let why { line += " (\(why))" }
            if let slow = slowReading {
                line += "; it is slow: \((slow * 10).rounded() / 10) s from one reading to the next"
            }
            if let age = lastReportAge { line += "; it last reported \((age * 10).rounded() / 10) s ago" }
            return line + "."
        }
    }
}
