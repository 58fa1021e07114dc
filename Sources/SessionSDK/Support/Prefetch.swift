internal import CPrefetch

/// Starts bringing the cache line at `address` closer and returns at once; a hint that never
/// faults (see `UserHandles.prefetch(_:)`, Decision 0009).
@inline(__always)
func prefetchStorage(_ address: UnsafeRawPointer) {
  session_prefetch(address)
}
