/// A rectangle in the compositor's layout, in whole logical pixels (wlroots' positions are
/// integers, and an output's logical size is its mode over its scale, truncated).
public struct LayoutRect: Sendable, Hashable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var right: Int { x + width }
    public var bottom: Int { y + height }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// An output's name and its place in the layout.
public struct PlacedOutput: Sendable, Hashable {
    public var name: String
    public var rect: LayoutRect

    public init(_ name: String, _ rect: LayoutRect) {
        self.name = name
        self.rect = rect
    }
}

/// Where the outputs go when a device with several built-in panels turns: the panels are one
/// rigid body. Their layout with the device at `normal` (as the compositor, kanshi or the person
/// laid them out: panel above panel where they are so on the device) turns about the group with
/// the device, as the person sees it: held left edge up (turned 90° clockwise), the panel that was
/// on top is on the right; upside down, below. The group keeps its top-left corner; rectangles
/// that touched still touch and none overlaps, since the turn is exact in whole pixels.
///
/// External outputs keep their place beside the group: one right of its right edge moves with
/// that edge as the group's width changes, one below with its bottom edge; one left of it or above
/// stays. So an external that was adjacent stays adjacent, and none comes to overlap the group.
public struct PanelArrangement: Sendable, Hashable {
    /// The built-in panels with the device at `normal`, in the order given.
    public let atNormal: [PlacedOutput]

    public init(atNormal panels: [PlacedOutput]) {
        atNormal = panels
    }

    /// Learned from the layout as it is with the device at `orientation` (the panels as the
    /// compositor shows them now).
    public init(learning panels: [PlacedOutput], at orientation: Orientation) {
        atNormal = Self.turned(panels, clockwiseQuarterTurns: -orientation.clockwiseQuarterTurns)
    }

    /// The panels with the device at `orientation`: their rectangles, sizes swapped on a quarter turn.
    public func panels(at orientation: Orientation) -> [PlacedOutput] {
        Self.turned(atNormal, clockwiseQuarterTurns: orientation.clockwiseQuarterTurns)
    }

    /// Every output's place once the device turns from `current` to `target`: the panels turned,
    /// and `externals` (their places now, with the panels at `current`) moved with the group's
    /// right and bottom edges.
    public func layout(at target: Orientation, from current: Orientation, externals: [PlacedOutput]) -> [PlacedOutput] {
        let now = Self.bounds(panels(at: current))
        let next = Self.bounds(panels(at: target))
        let moved = externals.map { external -> PlacedOutput in
            guard let now, let next else { return external }
            var rect = external.rect
            if rect.x >= now.right { rect.x += next.width - now.width }
            if rect.y >= now.bottom { rect.y += next.height - now.height }
            return PlacedOutput(external.name, rect)
        }
        return panels(at: target) + moved
    }

    /// The smallest rectangle holding them all; nil for none.
    public static func bounds(_ outputs: [PlacedOutput]) -> LayoutRect? {
        guard let first = outputs.first?.rect else { return nil }
        var x0 = first.x, y0 = first.y, x1 = first.right, y1 = first.bottom
        for output in outputs.dropFirst() {
            x0 = min(x0, output.rect.x)
            y0 = min(y0, output.rect.y)
            x1 = max(x1, output.rect.right)
            y1 = max(y1, output.rect.bottom)
        }
        return LayoutRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Turns the outputs `quarterTurns` clockwise (as the person sees the device turn) within
    /// their bounds, keeping the bounds' top-left corner.
    static func turned(_ outputs: [PlacedOutput], clockwiseQuarterTurns quarterTurns: Int) -> [PlacedOutput] {
        guard let b = bounds(outputs) else { return [] }
        return outputs.map { output in
            let r = output.rect
            // Relative to the group's corner; y grows downwards, as in the compositor's layout.
            let x = r.x - b.x, y = r.y - b.y
            let turned: LayoutRect
            switch ((quarterTurns % 4) + 4) % 4 {
            case 1:   // clockwise: the top edge goes right
                turned = LayoutRect(x: b.height - (y + r.height), y: x, width: r.height, height: r.width)
            case 2:
                turned = LayoutRect(x: b.width - (x + r.width), y: b.height - (y + r.height), width: r.width, height: r.height)
            case 3:   // counter-clockwise: the top edge goes left
                turned = LayoutRect(x: y, y: b.width - (x + r.width), width: r.height, height: r.width)
            default:
                turned = LayoutRect(x: x, y: y, width: r.width, height: r.height)
            }
            return PlacedOutput(output.name, LayoutRect(x: b.x + turned.x, y: b.y + turned.y, width: turned.width, height: turned.height))
        }
    }
}
