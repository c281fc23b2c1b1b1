import OrientCore
import Testing

/// Which protocol the daemon's shield takes its picture with.
@Suite struct ShieldCaptureTests {
    @Test func theStandardCaptureIsPreferredWhereItIsWhole() {
        let both = ShieldCapture.imageCopyGlobals.union([ShieldCapture.screencopyGlobal])
        #expect(ShieldCapture.chosen(offered: both) == .imageCopy)
        #expect(ShieldCapture.chosen(offered: ShieldCapture.imageCopyGlobals) == .imageCopy)
    }

    @Test func screencopyServesWhereTheStandardOneIsMissingOrHalf() {
        #expect(ShieldCapture.chosen(offered: [ShieldCapture.screencopyGlobal]) == .screencopy)
        // The copy manager without output sources cannot name the panel.
        #expect(ShieldCapture.chosen(offered: ["ext_image_copy_capture_manager_v1", ShieldCapture.screencopyGlobal]) == .screencopy)
        #expect(ShieldCapture.chosen(offered: ["ext_image_copy_capture_manager_v1"]) == nil)
        #expect(ShieldCapture.chosen(offered: ["ext_output_image_capture_source_manager_v1"]) == nil)
        #expect(ShieldCapture.chosen(offered: []) == nil)
    }

    @Test func eachIsNamedAsItsProtocolFile() {
        #expect(ShieldCapture.imageCopy.rawValue == "ext-image-copy-capture-v1")
        #expect(ShieldCapture.screencopy.rawValue == "wlr-screencopy-unstable-v1")
    }
}
