import CSystem

/// The code and constants a long-lived process ran once, to start, and never again.
///
/// A process that maps a file alone (the plugin's sensor helper: nothing else in a session maps
/// its program, or libiio's XML and ICU chain) keeps every page it ever touched there, and the
/// kernel maps 64 KB around each such page besides. Finding the accelerometer (libiio's scan and
/// its XML, udev, the standard library's start) touches far more than reading it does, so most of
/// what such a process holds is pages it will not run again.
public enum StartupPages {
    /// Asks the kernel to reclaim the read-only pages of the program and of every library it has
    /// loaded that this process alone maps; a page another process maps too stays where it is.
    /// What runs afterwards comes back from the page cache (or the file) at its first use.
    /// Writable segments are left alone: their changed pages would go to swap. Returns the bytes
    /// it asked about; nothing fails (a kernel before 5.4 refuses, and the pages simply stay).
    @discardableResult
    public static func release() -> Int {
        Int(glue_release_readonly_pages())
    }
}
