/// How a compositor learns that a panel turned. Most re-arrange their windows when any commit
/// changes an output's transform (sway up to 1.9, labwc, cage, phoc, wayfire on an apply; a host of
/// the C API on `output_transformed`): the plugin turns the panel itself. sway 1.10 and later
/// re-arrange only when they apply an output configuration of their own, which a backend asks for
/// with the output's `request_state` event (wlroots 0.17 on): there the plugin asks, and sway
/// applies the transform with a frame of its own (which the plugin draws the held picture into) and
/// lays its windows out anew. Asking labwc or cage would make them commit the transform alone (they
/// commit the requested state as it is): on DRM, a wait for the next vblank.
public enum HostRelayout {
    /// Whether the compositor, by the name its process has, is asked to apply a turn itself.
    public static func asksCompositor(named name: String) -> Bool {
        name == "sway"
    }
}
