/// The suggestion's target as pixels: a round dark button with a white arrow pointing up for the
/// person holding the device (the way the screen would turn to), premultiplied ARGB, row by row.
/// Opaque inside the circle (a host fades it as a whole), transparent outside.
public enum SuggestionIcon {
    /// The button's colour (and, with a pointer resting on it, a lighter one): opaque, so that it
    /// reads the same over any picture (and a test can find it in the panel's pixels).
    public static let fill: (r: UInt32, g: UInt32, b: UInt32) = (40, 40, 40)
    public static let hoveredFill: (r: UInt32, g: UInt32, b: UInt32) = (72, 72, 72)

    /// `side` × `side` pixels, the arrow turned `counterClockwiseQuarterTurns` (as seen on the panel).
    public static func pixels(side: Int, counterClockwiseQuarterTurns turns: Int, hovered: Bool = false) -> [UInt32] {
        let colour = hovered ? hoveredFill : fill
        var out = [UInt32](repeating: 0, count: side * side)
        let samples = [0.25, 0.75]
        for y in 0..<side {
            for x in 0..<side {
                var inCircle = 0, onArrow = 0
                for sy in samples {
                    for sx in samples {
                        // Unit coordinates, centred, y down; turned back to the upright drawing.
                        var u = (Double(x) + sx) / Double(side) - 0.5, v = (Double(y) + sy) / Double(side) - 0.5
                        for _ in 0..<(((turns % 4) + 4) % 4) { (u, v) = (-v, u) }
                        guard u * u + v * v <= 0.49 * 0.49 else { continue }
                        inCircle += 1
                        if arrow(u, v) { onArrow += 1 }
                    }
                }
                guard inCircle > 0 else { continue }
                // Coverage in quarters: the circle's edge and the arrow's are smoothed.
                let alpha = UInt32(inCircle * 255 / 4)
                func channel(_ c: UInt32) -> UInt32 {
                    let mixed = (c * UInt32(4 - onArrow) + 255 * UInt32(onArrow)) / 4
                    return mixed * alpha / 255
                }
                out[y * side + x] = alpha << 24 | channel(colour.r) << 16 | channel(colour.g) << 8 | channel(colour.b)
            }
        }
        return out
    }

    /// The upright arrow: a head whose tip is near the top, over a shaft.
    private static func arrow(_ u: Double, _ v: Double) -> Bool {
        let tip = -0.32, base = -0.04, halfWidth = 0.2
        if v >= tip, v <= base, abs(u) <= halfWidth * (v - tip) / (base - tip) { return true }
        return abs(u) <= 0.06 && v > base - 0.02 && v <= 0.30
    }
}
