internal import CPrefetch

/// Starts bringing the cache line at `address` closer and returns at once. A hint: it reads
/// nothing, never faults and changes no state, whatever the address.
///
/// For the fan-out path, where a thousand replicas in one process wait on memory more than on
/// instructions (Decision 0009): the engine prefetches what the next delivery will touch, at
/// the addresses SessionCore's store and `UserMap` hand out. SessionCore itself depends on no C
/// target; the hint is issued here.
@inline(__always)
func prefetchMemory(at address: UnsafeRawPointer) {
  session_prefetch(address)
}
