import CLibUV

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// The handle lifecycle every libuv handle in this module follows:
//
// 1. The handle is heap-allocated and zero-filled (`allocateZeroed(uv_xxx_t.self)`): libuv never
//    writes `data`, and callbacks and `closeOrphanHandle` read it to tell an owner from none.
// 2. If `uv_xxx_init` fails, the memory is freed at once: libuv never saw the handle.
// 3. After a successful init the handle's `data` field holds `Unmanaged.passRetained(owner)`, so
//    the Swift owner lives at least as long as libuv may call back into it.
// 4. Only the close callback releases that reference and frees the memory. `close()` checks
//    `uv_is_closing` (or the owner's own state), so calling it twice is harmless.
// 5. A handle that failed after init but before it got an owner (for example a bind error) is an
//    orphan: it is closed with `closeOrphanHandle`, whose callback only frees the memory.
//
// Requests (`uv_write_t`, `uv_connect_t`) follow the same rule: heap-allocated, `data` retains the
// owner from submission until the request's callback, which releases it and frees the request.

/// An object that owns one or more libuv handles whose `data` field retains it.
///
/// > Important: Conformers are loop-confined; every method is called on the loop thread.
protocol LoopHandleOwner: AnyObject {
  /// Closes `handle` because the loop is shutting down. Must tolerate a handle that is already
  /// closing.
  func closeForShutdown(_ handle: UnsafeMutablePointer<uv_handle_t>)
}

/// Allocates one zero-filled libuv struct (handle, request or loop); free it with `deallocate()`.
func allocateZeroed<Struct>(_ type: Struct.Type) -> UnsafeMutablePointer<Struct> {
  let pointer = UnsafeMutablePointer<Struct>.allocate(capacity: 1)
  // `memset` rather than `initializeMemory(as: UInt8.self, …)`, which would rebind the memory.
  memset(pointer, 0, MemoryLayout<Struct>.size)
  return pointer
}

/// Views a typed libuv handle (`uv_tcp_t`, `uv_timer_t`, …) as the `uv_handle_t` it begins with.
///
/// The result is only handed to libuv functions; Swift code never reads `pointee` through it.
@inline(__always)
func uvHandle<Handle>(_ handle: UnsafeMutablePointer<Handle>) -> UnsafeMutablePointer<uv_handle_t> {
  UnsafeMutablePointer<uv_handle_t>(OpaquePointer(handle))
}

/// Views a typed libuv stream (`uv_tcp_t`) as the `uv_stream_t` it begins with.
@inline(__always)
func uvStream<Handle>(_ handle: UnsafeMutablePointer<Handle>) -> UnsafeMutablePointer<uv_stream_t> {
  UnsafeMutablePointer<uv_stream_t>(OpaquePointer(handle))
}

/// Stores a retained reference to `owner` in the handle's `data` field (step 3 above).
@inline(__always)
func retainOwner(_ owner: AnyObject, in handle: UnsafeMutablePointer<uv_handle_t>) {
  uv_handle_set_data(handle, Unmanaged.passRetained(owner).toOpaque())
}

/// The owner a handle's `data` field refers to, without changing its retain count.
///
/// `Owner` must be the type that was stored with ``retainOwner(_:in:)``; returns `nil` for an
/// orphan (no owner yet).
@inline(__always)
func handleOwner<Owner: AnyObject>(
  _ handle: UnsafeMutablePointer<uv_handle_t>?, as type: Owner.Type
) -> Owner? {
  guard let data = uv_handle_get_data(handle) else { return nil }
  return Unmanaged<Owner>.fromOpaque(data).takeUnretainedValue()
}

/// Clears the handle's `data` field and frees its memory; then balances ``retainOwner(_:in:)``.
///
/// Call only from a close callback: libuv is done with the handle. The owner is released last so
/// that it outlives the memory it refers to.
func freeClosedHandle(_ handle: UnsafeMutablePointer<uv_handle_t>) {
  let data = uv_handle_get_data(handle)
  uv_handle_set_data(handle, nil)
  UnsafeMutableRawPointer(handle).deallocate()
  if let data { Unmanaged<AnyObject>.fromOpaque(data).release() }
}

/// Closes a handle that never got an owner; its close callback only frees the memory.
func closeOrphanHandle(_ handle: UnsafeMutablePointer<uv_handle_t>) {
  precondition(uv_handle_get_data(handle) == nil, "an orphan handle has no owner")
  uv_close(handle) { handle in
    guard let handle else { return }
    UnsafeMutableRawPointer(handle).deallocate()
  }
}

/// The number of handles registered with `loop`, closing ones included (libuv's internal handles
/// excluded), counted with `uv_walk`.
func countHandles(_ loop: UnsafeMutablePointer<uv_loop_t>) -> Int {
  var count = 0
  withUnsafeMutablePointer(to: &count) { counter in
    uv_walk(
      loop,
      { _, argument in
        argument?.assumingMemoryBound(to: Int.self).pointee += 1
      },
      counter
    )
  }
  return count
}
