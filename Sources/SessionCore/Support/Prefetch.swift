internal import CPrefetch

/// Starts bringing the cache line at `address` closer and returns at once. A hint: it reads
/// nothing, never faults and changes no state, whatever the address.
///
/// For the fan-out path, where a thousand replicas in one process wait on memory more than on
/// instructions (Decision 0009): ``UserMap/prefetchValue(forKey:)``, the store's hint built on
/// it, and the SDK's prefetch of its handle lists.
@usableFromInline package func prefetchMemory(at address: UnsafeRawPointer) {
  session_prefetch(address)
}
