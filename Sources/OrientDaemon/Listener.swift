/// A listener table for libwayland that lives as long as the program (libwayland keeps the
/// pointer it is given; each table is made once, as a static).
func permanentListener<Table>(_ table: Table) -> UnsafeMutablePointer<Table> {
    let pointer = UnsafeMutablePointer<Table>.allocate(capacity: 1)
    pointer.initialize(to: table)
    return pointer
}
