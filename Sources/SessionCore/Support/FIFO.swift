// Public SPI and `@inlinable` rather than `package`: a `package` type's bodies are not
// serialized for other modules, even `@_alwaysEmitIntoClient` ones, and the SDK then called the
// unspecialized generic code on its path for every delivery (about 30 instructions and four
// value-witness calls per pop; callgrind). See Docs/Performance.md.

/// A first-in, first-out queue: O(1) amortised ``append(_:)`` and ``popFirst()``.
///
/// An array and the index of its first unread element. Popping moves the index on; popping the
/// last element empties the array and keeps its capacity, so a queue that drains to empty (as
/// a pump's does after each piece of work) reuses one buffer for ever. A queue that never
/// drains is compacted once more than 1,024 elements and more than half of it were read, so
/// its memory stays proportional to what waits, and each element is moved at most once per
/// compaction that it survives.
///
/// For the queues that a reentrant caller fills while it works: ``SessionStore``'s events sent
/// during a reduction and the SDK engine's work submitted while it pumps.
///
/// For the package's own modules only (`@_spi(Package) import SessionCore`).
///
/// > Important: A value; it has no isolation of its own and lives in the isolation domain of
/// > whatever stores it. Not `Sendable`.
@_spi(Package) public struct FIFO<Element> {
  @usableFromInline var elements: [Element] = []
  @usableFromInline var head = 0

  /// An empty queue.
  @inlinable public init() {}

  /// Whether nothing waits.
  @inlinable public var isEmpty: Bool { head == elements.count }

  /// How many elements wait.
  @inlinable public var count: Int { elements.count - head }

  /// Adds `element` at the back.
  ///
  /// - Parameter element: The element to queue.
  @inlinable public mutating func append(_ element: Element) {
    elements.append(element)
  }

  /// Removes and returns the element at the front, or `nil` when empty.
  ///
  /// - Returns: The oldest element still waiting, or `nil` when the queue is empty.
  @inlinable public mutating func popFirst() -> Element? {
    guard head < elements.count else { return nil }
    let element = elements[head]
    head += 1
    if head == elements.count {
      elements.removeAll(keepingCapacity: true)
      head = 0
    } else if head > 1_024, head * 2 > elements.count {
      elements.removeFirst(head)
      head = 0
    }
    return element
  }
}
