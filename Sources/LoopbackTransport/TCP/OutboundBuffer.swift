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
  @inline(__always)
  func appendFrame(length: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) {
    let needed = count + 4 + length
    if needed > capacity { grow(to: needed) }
    base.storeBytes(of: UInt32(length).bigEndian, toByteOffset: count, as: UInt32.self)
    write(UnsafeMutableRawBufferPointer(start: base + count + 4, count: length))
    count = needed
  }

  /// Appends raw bytes (no frame header).
  func appendBytes(_ bytes: UnsafeRawBufferPointer) {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
    let needed = count + bytes.count
    if needed > capacity { grow(to: needed) }
    (base + count).copyMemory(from: source, byteCount: bytes.count)
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

/// The buffer a connection appends this turn's frames to, held through an unmanaged strong
/// reference so that an append borrows it without a retain and release: a fan-out appends a
/// frame to each of a thousand connections per message.
///
/// Owns its buffer: ``take()`` gives the reference back, and a slot dropped while holding one
/// releases it. Not copyable, so the reference it owns is never owned twice.
///
/// > Important: Loop-confined, owned by one ``TCPConnection``.
struct OutgoingSlot: ~Copyable {
  private var reference: Unmanaged<OutboundBuffer>?

  init() {}

  deinit {
    reference?.release()
  }

  /// Whether no buffer is held.
  var isEmpty: Bool { reference == nil }

  /// The bytes held, 0 when empty.
  var count: Int { reference?._withUnsafeGuaranteedRef { $0.count } ?? 0 }

  /// Holds `buffer`; the slot must be empty.
  mutating func hold(_ buffer: OutboundBuffer) {
    precondition(reference == nil, "an outgoing buffer replaced without being taken")
    reference = .passRetained(buffer)
  }

  /// Gives the buffer back (and the reference the slot held), leaving the slot empty.
  mutating func take() -> OutboundBuffer? {
    defer { reference = nil }
    return reference?.takeRetainedValue()
  }

  /// Appends a frame to the buffer held, if any.
  ///
  /// - Returns: Whether a buffer was held (the frame was appended).
  @inline(__always)
  func appendFrame(length: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) -> Bool {
    guard let reference else { return false }
    // The slot owns a reference until `take()`, which `write` (it fills the bytes it is
    // given) cannot reach.
    reference._withUnsafeGuaranteedRef { $0.appendFrame(length: length, write) }
    return true
  }

  /// Appends raw bytes to the buffer held, if any.
  ///
  /// - Returns: Whether a buffer was held (the bytes were appended).
  func appendBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
    guard let reference else { return false }
    reference._withUnsafeGuaranteedRef { $0.appendBytes(bytes) }
    return true
  }
}
