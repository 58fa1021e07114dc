#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A growable, manually allocated byte buffer of encoded frames waiting to be written.
///
/// Its memory never moves while libuv writes from it: a buffer handed to `uv_write` is not
/// appended to again until the write callback gave it back.
///
/// > Important: Loop-confined, owned by one ``TCPConnection``.
final class OutboundBuffer {
  private(set) var base: UnsafeMutableRawPointer
  private(set) var capacity: Int
  /// Bytes written so far.
  private(set) var count = 0

  init(capacity: Int) {
    let capacity = max(capacity, 64)
    guard let base = malloc(capacity) else { fatalError("out of memory (\(capacity) bytes)") }
    self.base = base
    self.capacity = capacity
  }

  deinit {
    free(base)
  }

  /// Forgets the contents, keeping the memory.
  func reset() {
    count = 0
  }

  /// Appends a frame header for a `length`-byte payload, then lets `write` fill the payload.
  ///
  /// - Parameters:
  ///   - length: The payload length; at most `UInt32.max`.
  ///   - write: Must initialize every byte of the buffer it gets.
  func appendFrame(length: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) {
    let needed = count + 4 + length
    if needed > capacity { grow(to: needed) }
    base.storeBytes(of: UInt32(length).bigEndian, toByteOffset: count, as: UInt32.self)
    write(UnsafeMutableRawBufferPointer(start: base + count + 4, count: length))
    count = needed
  }

  private func grow(to needed: Int) {
    let newCapacity = max(needed, capacity * 2)
    guard let grown = realloc(base, newCapacity) else {
      fatalError("out of memory (\(newCapacity) bytes)")
    }
    base = grown
    capacity = newCapacity
  }
}
