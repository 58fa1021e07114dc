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
/// Small buffers come from `malloc`; from ``mappedThreshold`` on, a buffer is its own
/// anonymous `mmap`, so that freeing it gives the memory back to the system at once, and
/// growing it leaves no freed block behind to fragment the heap. (With `malloc` alone, a
/// hundred peers that stopped reading left the server's resident memory at twice what their
/// queues held, and there it stayed after they were cut.)
///
/// > Important: Loop-confined, owned by one ``TCPConnection``.
final class OutboundBuffer {
  /// The capacity from which a buffer is mapped rather than allocated: 128 KiB.
  static let mappedThreshold = 128 << 10

  private(set) var base: UnsafeMutableRawPointer
  private(set) var capacity: Int
  /// Bytes written so far.
  private(set) var count = 0
  /// Whether `base` is a mapping of `capacity` bytes (else a `malloc` block).
  private var isMapped = false

  init(capacity: Int) {
    let capacity = max(capacity, 64)
    if capacity >= Self.mappedThreshold {
      let size = Self.pageRounded(capacity)
      base = Self.map(size)
      self.capacity = size
      isMapped = true
    } else {
      guard let base = malloc(capacity) else { fatalError("out of memory (\(capacity) bytes)") }
      self.base = base
      self.capacity = capacity
    }
  }

  deinit {
    if isMapped {
      munmap(base, capacity)
    } else {
      free(base)
    }
  }

  private static func pageRounded(_ size: Int) -> Int {
    (size + 4_095) & ~4_095
  }

  private static func map(_ size: Int) -> UnsafeMutableRawPointer {
    let pointer = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
    guard let pointer, pointer != UnsafeMutableRawPointer(bitPattern: -1) else {
      fatalError("out of memory (mmap of \(size) bytes)")
    }
    return pointer
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
  /// - Returns: How many bytes the buffer's capacity grew by (0 mostly).
  @inline(__always) @discardableResult
  func appendFrame(length: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) -> Int {
    let needed = count + 4 + length
    let growth = needed > capacity ? grow(to: needed) : 0
    base.storeBytes(of: UInt32(length).bigEndian, toByteOffset: count, as: UInt32.self)
    write(UnsafeMutableRawBufferPointer(start: base + count + 4, count: length))
    count = needed
    return growth
  }

  /// Appends raw bytes (no frame header).
  ///
  /// - Returns: How many bytes the buffer's capacity grew by.
  @discardableResult
  func appendBytes(_ bytes: UnsafeRawBufferPointer) -> Int {
    guard let source = bytes.baseAddress, !bytes.isEmpty else { return 0 }
    let needed = count + bytes.count
    let growth = needed > capacity ? grow(to: needed) : 0
    (base + count).copyMemory(from: source, byteCount: bytes.count)
    count = needed
    return growth
  }

  /// Grows to hold `needed` bytes; returns by how much the capacity grew.
  private func grow(to needed: Int) -> Int {
    var newCapacity = max(needed, capacity * 2)
    if newCapacity >= Self.mappedThreshold {
      newCapacity = Self.pageRounded(newCapacity)
      let grown = Self.map(newCapacity)
      grown.copyMemory(from: base, byteCount: count)
      if isMapped {
        munmap(base, capacity)
      } else {
        free(base)
      }
      base = grown
      isMapped = true
    } else {
      guard let grown = realloc(base, newCapacity) else {
        fatalError("out of memory (\(newCapacity) bytes)")
      }
      base = grown
    }
    let growth = newCapacity - capacity
    capacity = newCapacity
    return growth
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
  /// - Returns: `nil` if no buffer was held; otherwise how much the buffer's capacity grew.
  @inline(__always)
  func appendFrame(length: Int, _ write: (UnsafeMutableRawBufferPointer) -> Void) -> Int? {
    guard let reference else { return nil }
    // The slot owns a reference until `take()`, which `write` (it fills the bytes it is
    // given) cannot reach.
    return reference._withUnsafeGuaranteedRef { $0.appendFrame(length: length, write) }
  }

  /// Appends raw bytes to the buffer held, if any.
  ///
  /// - Returns: `nil` if no buffer was held; otherwise how much the buffer's capacity grew.
  func appendBytes(_ bytes: UnsafeRawBufferPointer) -> Int? {
    guard let reference else { return nil }
    return reference._withUnsafeGuaranteedRef { $0.appendBytes(bytes) }
  }
}
