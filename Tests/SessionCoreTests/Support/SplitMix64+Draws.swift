import SessionCore

extension SimulationRandom {
  /// A number in `0..<bound`.
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// True with probability `percent` / 100.
  mutating func chance(_ percent: Int) -> Bool { below(100) < percent }

  /// A random element; `nil` for an empty collection.
  mutating func pick<C: RandomAccessCollection>(_ collection: C) -> C.Element? {
    guard !collection.isEmpty else { return nil }
    return collection[collection.index(collection.startIndex, offsetBy: below(collection.count))]
  }
}
