import SessionCore
import SessionTransport

extension MediaRouter {
  /// The fan-outs by publisher and kind: in an array, found through a map by user id for each
  /// kind, so that the packet path finds its fan-out with no hashing and routes it where it
  /// lies (``routeToEndpoints(_:_:now:requestInterval:totals:)``, no accessor coroutine).
  struct FanOuts: Sendable {
    /// The fan-outs (a removal moves the last one into the gap).
    private var storage: [FanOut] = []
    /// The key of each fan-out in ``storage``.
    private var storedKeys: [FanOutKey] = []
    /// The place in ``storage`` of each publisher's video fan-out.
    private var video = UserMap<Int>()
    /// The place in ``storage`` of each publisher's share fan-out.
    private var share = UserMap<Int>()

    /// The place of `key`'s fan-out in ``storage``, if any (audio has none).
    @inline(__always)
    private func place(of key: FanOutKey) -> Int? {
      switch key.kind {
      case .video: video[key.publisher]
      case .share: share[key.publisher]
      case .audio: nil
      }
    }

    /// The fan-out of `key`, if any; a change through the subscript moves the fan-out out of
    /// the array and back (no copy of its storage), and setting `nil` removes it.
    subscript(key: FanOutKey) -> FanOut? {
      get { place(of: key).map { storage[$0] } }
      _modify {
        if let place = place(of: key) {
          var taken = FanOut(layerCount: 0)
          swap(&taken, &storage[place])
          var value = Optional(consume taken)
          yield &value
          if let value { storage[place] = value } else { remove(at: place) }
        } else {
          var value: FanOut? = nil
          yield &value
          if let value { insert(value, for: key) }
        }
      }
    }

    /// The fan-out of `key`, made from `makeDefault` first if there is none.
    subscript(key: FanOutKey, default makeDefault: @autoclosure () -> FanOut) -> FanOut {
      get { self[key] ?? makeDefault() }
      _modify {
        if let place = place(of: key) ?? insert(makeDefault(), for: key) {
          yield &storage[place]
        } else {
          // Audio: nothing subscribes to it, and a write here is dropped.
          var scratch = makeDefault()
          yield &scratch
        }
      }
    }

    /// Routes `packet` through `key`'s fan-out in place, as
    /// ``FanOut/routeToEndpoints(_:now:requestInterval:totals:)``; `nil` when there is none.
    @inline(__always)
    mutating func routeToEndpoints(
      _ key: FanOutKey, _ packet: MediaPacket, now: Int64, requestInterval: Int64,
      totals: inout RouterTotals
    ) -> (endpoints: [MediaEndpointID], wantsKeyFrame: Bool)? {
      guard let place = place(of: key) else { return nil }
      return storage[place].routeToEndpoints(
        packet, now: now, requestInterval: requestInterval, totals: &totals)
    }

    /// Removes and returns the fan-out of `key`.
    mutating func removeValue(forKey key: FanOutKey) -> FanOut? {
      guard let place = place(of: key) else { return nil }
      let fanOut = storage[place]
      remove(at: place)
      return fanOut
    }

    /// Every key with a fan-out, in the order they were made (a removal moves the last one
    /// into the gap).
    var keys: [FanOutKey] { storedKeys }

    /// Stores a new fan-out for `key`; returns its place (`nil` for audio, which has none).
    @discardableResult
    private mutating func insert(_ fanOut: FanOut, for key: FanOutKey) -> Int? {
      let place = storage.count
      switch key.kind {
      case .video: video[key.publisher] = place
      case .share: share[key.publisher] = place
      // Nothing subscribes to audio (subscribe refuses it): nothing is stored.
      case .audio: return nil
      }
      storage.append(fanOut)
      storedKeys.append(key)
      return place
    }

    private mutating func remove(at place: Int) {
      let key = storedKeys[place]
      switch key.kind {
      case .video: video[key.publisher] = nil
      case .share: share[key.publisher] = nil
      case .audio: break
      }
      let last = storage.count - 1
      if place != last {
        storage.swapAt(place, last)
        storedKeys.swapAt(place, last)
        let moved = storedKeys[place]
        switch moved.kind {
        case .video: video[moved.publisher] = place
        case .share: share[moved.publisher] = place
        case .audio: break
        }
      }
      storage.removeLast()
      storedKeys.removeLast()
    }
  }
}
