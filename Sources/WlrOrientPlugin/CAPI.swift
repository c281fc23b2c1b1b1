import CWlrGlue
import OrientService
import OrientSystem

// The C entry points of include/wlr-orient.h. Each is a thin shell: NULL-safe, no throwing,
// no force unwraps; the work happens in Plugin.

@_cdecl("wlr_orient_create")
public func wlr_orient_create(_ host: UnsafePointer<wlr_orient_host>?) -> UnsafeMutablePointer<wlr_orient>? {
    // Our lines go to the compositor's log, which keeps debug lines at its own verbosity.
    Log.showDebug = true
    let log = CompositorLog()
    Log.write = { level, message in log.write(level, message) }
    guard let host, let plugin = Plugin(host: host.pointee, log: log) else { return nil }
    // The plugin lives until wlr_orient_destroy: the C struct holds the retained reference.
    let impl = Unmanaged.passRetained(plugin).toOpaque()
    glue_orient_set_impl(plugin.orient, impl)
    plugin.attach()
    return plugin.orient
}

@_cdecl("wlr_orient_destroy")
public func wlr_orient_destroy(_ orient: UnsafeMutablePointer<wlr_orient>?) {
    guard let orient, let impl = glue_orient_impl(orient) else { return }
    let plugin = Unmanaged<Plugin>.fromOpaque(impl)
    plugin.takeUnretainedValue().destroy()
    plugin.release()
}

@_cdecl("wlr_orient_render_output")
public func wlr_orient_render_output(_ orient: UnsafeMutablePointer<wlr_orient>?, _ output: OpaquePointer?) {
    guard let orient, let output, let impl = glue_orient_impl(orient) else { return }
    Plugin.owner(impl)?.renderOutput(output, state: nil)
}

@_cdecl("wlr_orient_render_output_state")
public func wlr_orient_render_output_state(_ orient: UnsafeMutablePointer<wlr_orient>?, _ output: OpaquePointer?,
                                           _ state: OpaquePointer?) {
    guard let orient, let output, let state, let impl = glue_orient_impl(orient) else { return }
    Plugin.owner(impl)?.renderOutput(output, state: state)
}

@_cdecl("wlr_orient_prepare_output_state")
public func wlr_orient_prepare_output_state(_ orient: UnsafeMutablePointer<wlr_orient>?, _ output: OpaquePointer?,
                                            _ state: OpaquePointer?) {
    guard let orient, let output, let state, let impl = glue_orient_impl(orient) else { return }
    Plugin.owner(impl)?.prepareOutput(output, state: state)
}

@_cdecl("wlr_orient_set_front")
public func wlr_orient_set_front(_ orient: UnsafeMutablePointer<wlr_orient>?, _ output: OpaquePointer?,
                                 _ toplevel: OpaquePointer?) {
    guard let orient, let output, let impl = glue_orient_impl(orient) else { return }
    Unmanaged<Plugin>.fromOpaque(impl).takeUnretainedValue().setFront(output: output, toplevel: toplevel)
}
