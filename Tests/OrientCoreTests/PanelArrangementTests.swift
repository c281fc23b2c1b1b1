import Testing
@testable import OrientCore

/// Two and three built-in panels turning as one body: the places worked out by hand for a
/// Zenbook Duo-like pair, then every arrangement of two and three panels at scales 1–2 in all four
/// orientations against what a rigid turn must keep.
struct PanelArrangementTests {
    static func rect(_ x: Int, _ y: Int, _ w: Int, _ h: Int) -> LayoutRect { LayoutRect(x: x, y: y, width: w, height: h) }

    /// Two 1280×800 panels stacked, eDP-1 on top, and a 1920×1080 monitor right of them.
    static let duo = PanelArrangement(atNormal: [PlacedOutput("eDP-1", rect(0, 0, 1280, 800)), PlacedOutput("eDP-2", rect(0, 800, 1280, 800))])
    static let monitor = PlacedOutput("HDMI-A-1", rect(1280, 0, 1920, 1080))

    @Test func theStackedPairTurnsAsTheDeviceDoes() {
        let expected: [Orientation: [PlacedOutput]] = [
            .normal: [PlacedOutput("eDP-1", Self.rect(0, 0, 1280, 800)), PlacedOutput("eDP-2", Self.rect(0, 800, 1280, 800)),
                      PlacedOutput("HDMI-A-1", Self.rect(1280, 0, 1920, 1080))],
            // Turned clockwise: the top panel is on the right, the monitor right of both.
            .leftUp: [PlacedOutput("eDP-1", Self.rect(800, 0, 800, 1280)), PlacedOutput("eDP-2", Self.rect(0, 0, 800, 1280)),
                      PlacedOutput("HDMI-A-1", Self.rect(1600, 0, 1920, 1080))],
            .bottomUp: [PlacedOutput("eDP-1", Self.rect(0, 800, 1280, 800)), PlacedOutput("eDP-2", Self.rect(0, 0, 1280, 800)),
                        PlacedOutput("HDMI-A-1", Self.rect(1280, 0, 1920, 1080))],
            .rightUp: [PlacedOutput("eDP-1", Self.rect(0, 0, 800, 1280)), PlacedOutput("eDP-2", Self.rect(800, 0, 800, 1280)),
                       PlacedOutput("HDMI-A-1", Self.rect(1600, 0, 1920, 1080))],
        ]
        for from in Orientation.allCases {
            // The monitor where it is with the panels at `from`.
            let monitorNow = Self.duo.layout(at: from, from: .normal, externals: [Self.monitor]).last!
            for to in Orientation.allCases {
                #expect(Self.duo.layout(at: to, from: from, externals: [monitorNow]) == expected[to], "\(from) → \(to)")
            }
        }
    }

    @Test func anArrangementLearnedAtAnyOrientationIsTheSame() {
        for o in Orientation.allCases {
            #expect(PanelArrangement(learning: Self.duo.panels(at: o), at: o) == Self.duo, "\(o)")
        }
    }

    /// A panel's logical size at a scale, as wlroots truncates it.
    static func logical(_ pixels: (Int, Int), _ scale: Double) -> (Int, Int) {
        (Int(Double(pixels.0) / scale), Int(Double(pixels.1) / scale))
    }

    static let modes = [(1280, 800), (2880, 1800), (1920, 1200), (2560, 1600)]
    static let scales = [1, 1.25, 1.5, 1.75, 2]

    /// `b` placed against `a` on each side, at its start, centred, at its end and half past it.
    static func pairs() -> [[PlacedOutput]] {
        var all: [[PlacedOutput]] = []
        for (ma, mb) in [(modes[0], modes[0]), (modes[1], modes[1]), (modes[1], modes[2]), (modes[3], modes[0])] {
            for (sa, sb) in [(1.0, 1.0), (1.5, 1.5), (2, 1.25), (1.75, 1), (1.25, 2)] {
                let (aw, ah) = logical(ma, sa), (bw, bh) = logical(mb, sb)
                let a = rect(0, 0, aw, ah)
                for offset in [0, (aw - bw) / 2, aw - bw, aw / 2] {
                    all.append([PlacedOutput("A", a), PlacedOutput("B", rect(offset, ah, bw, bh))])   // below
                    all.append([PlacedOutput("A", a), PlacedOutput("B", rect(offset, -bh, bw, bh))])  // above
                }
                for offset in [0, (ah - bh) / 2, ah - bh, ah / 2] {
                    all.append([PlacedOutput("A", a), PlacedOutput("B", rect(aw, offset, bw, bh))])   // right
                    all.append([PlacedOutput("A", a), PlacedOutput("B", rect(-bw, offset, bw, bh))])  // left
                }
            }
        }
        return all
    }

    /// Three in a row, in a column, and in each L (the third against the second's free side).
    static func triples() -> [[PlacedOutput]] {
        var all: [[PlacedOutput]] = []
        for scale in scales {
            let (w, h) = logical(modes[1], scale)
            all.append([PlacedOutput("A", rect(0, 0, w, h)), PlacedOutput("B", rect(w, 0, w, h)), PlacedOutput("C", rect(2 * w, 0, w, h))])
            all.append([PlacedOutput("A", rect(0, 0, w, h)), PlacedOutput("B", rect(0, h, w, h)), PlacedOutput("C", rect(0, 2 * h, w, h))])
            all.append([PlacedOutput("A", rect(0, 0, w, h)), PlacedOutput("B", rect(0, h, w, h)), PlacedOutput("C", rect(w, h, w, h))])
            all.append([PlacedOutput("A", rect(0, 0, w, h)), PlacedOutput("B", rect(w, 0, w, h)), PlacedOutput("C", rect(w, h, w, h))])
            let (sw, sh) = logical(modes[0], 1)
            all.append([PlacedOutput("A", rect(10, 20, w, h)), PlacedOutput("B", rect(10, 20 + h, sw, sh)), PlacedOutput("C", rect(10 + sw, 20 + h, sh, sw))])
        }
        return all
    }

    static func overlap(_ a: LayoutRect, _ b: LayoutRect) -> Bool {
        a.x < b.right && b.x < a.right && a.y < b.bottom && b.y < a.bottom
    }

    /// They share a stretch of edge (not a corner alone).
    static func touch(_ a: LayoutRect, _ b: LayoutRect) -> Bool {
        let sideBySide = (a.right == b.x || b.right == a.x) && min(a.bottom, b.bottom) > max(a.y, b.y)
        let stacked = (a.bottom == b.y || b.bottom == a.y) && min(a.right, b.right) > max(a.x, b.x)
        return sideBySide || stacked
    }

    @Test(arguments: Orientation.allCases)
    func everyArrangementTurnsRigidlyWithNoOverlapNoGap(orientation: Orientation) {
        let arrangements = Self.pairs() + Self.triples()
        #expect(arrangements.count > 150)
        for panels in arrangements {
            let arrangement = PanelArrangement(atNormal: panels)
            let turned = arrangement.panels(at: orientation)
            let quarter = orientation.clockwiseQuarterTurns % 2 == 1
            // The group keeps its corner; each panel its size, swapped on a quarter turn.
            let (b0, b1) = (PanelArrangement.bounds(panels)!, PanelArrangement.bounds(turned)!)
            #expect(b1.x == b0.x && b1.y == b0.y)
            for (before, after) in zip(panels, turned) {
                #expect(after.name == before.name)
                #expect((after.rect.width, after.rect.height) == (quarter ? (before.rect.height, before.rect.width) : (before.rect.width, before.rect.height)))
            }
            for i in panels.indices {
                for j in panels.indices where j > i {
                    let (a, b) = (panels[i].rect, panels[j].rect), (ta, tb) = (turned[i].rect, turned[j].rect)
                    #expect(!Self.overlap(ta, tb), "\(panels) at \(orientation): \(turned)")
                    #expect(Self.touch(ta, tb) == Self.touch(a, b), "\(panels) at \(orientation): \(turned)")
                    // A rigid turn as the person sees it: the step between two panels' centres
                    // (doubled, to stay in whole pixels) turns with the device.
                    let d = (b.x * 2 + b.width - a.x * 2 - a.width, b.y * 2 + b.height - a.y * 2 - a.height)
                    let td = (tb.x * 2 + tb.width - ta.x * 2 - ta.width, tb.y * 2 + tb.height - ta.y * 2 - ta.height)
                    let want: (Int, Int)
                    switch orientation {
                    case .normal: want = d
                    case .leftUp: want = (-d.1, d.0)
                    case .bottomUp: want = (-d.0, -d.1)
                    case .rightUp: want = (d.1, -d.0)
                    }
                    #expect(td == want, "\(panels) at \(orientation)")
                }
            }
            #expect(PanelArrangement(learning: turned, at: orientation) == arrangement)
        }
    }

    @Test func externalsOnEverySideStayBesideTheGroupAndNeverOverlapIt() {
        let panels = Self.duo.atNormal
        let externals = [PlacedOutput("right", Self.rect(1280, 400, 1920, 1080)), PlacedOutput("below", Self.rect(200, 1600, 1024, 768)),
                         PlacedOutput("left", Self.rect(-1920, 0, 1920, 1080)), PlacedOutput("above", Self.rect(0, -1080, 1920, 1080)),
                         PlacedOutput("beyond", Self.rect(3200, 400, 800, 600))]   // right of "right"
        for to in Orientation.allCases {
            let layout = Self.duo.layout(at: to, from: .normal, externals: externals)
            let group = PanelArrangement.bounds(Array(layout.prefix(panels.count)))!
            let placed = Dictionary(uniqueKeysWithValues: layout.map { ($0.name, $0.rect) })
            for name in ["right", "below", "left", "above", "beyond"] {
                #expect(!Self.overlap(placed[name]!, group), "\(name) at \(to)")
            }
            #expect(placed["right"]!.x == group.right && placed["below"]!.y == group.bottom, "\(to)")
            #expect(placed["left"]!.right == group.x && placed["above"]!.bottom == group.y, "\(to)")
            #expect(placed["beyond"]!.x == placed["right"]!.right, "what was beside the external stays beside it")
            #expect(Self.touch(placed["right"]!, group) && Self.touch(placed["left"]!, group) && Self.touch(placed["above"]!, group), "\(to)")
        }
    }

    @Test func oneOrNoPanelStaysWhereItIs() {
        let one = PanelArrangement(atNormal: [PlacedOutput("eDP-1", Self.rect(100, 50, 1280, 800))])
        #expect(one.panels(at: .leftUp) == [PlacedOutput("eDP-1", Self.rect(100, 50, 800, 1280))])
        #expect(PanelArrangement(atNormal: []).layout(at: .leftUp, from: .normal, externals: [Self.monitor]) == [Self.monitor])
    }
}
