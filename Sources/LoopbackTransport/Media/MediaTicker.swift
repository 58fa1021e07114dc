/// One repeating libuv timer that ticks every media link of a loop with the same interval: a
/// run with hundreds of links costs one timer, not hundreds.
///
/// Made when the first link of its interval starts, closed when the last one closes. Each tick
/// reads the clock once and hands the same time to every link, in the order they started
/// (a link that closes meanwhile swaps the last one into its place).
///
/// > Important: Loop-confined; kept in the loop's local state.
final class MediaTicker {
  let loop: EventLoop
  /// Milliseconds between ticks.
  let interval: UInt64
  private let timer: UVTimer
  private(set) var links: [LoopbackMediaLink] = []

  private init(loop: EventLoop, interval: UInt64) throws(UVError) {
    self.loop = loop
    self.interval = interval
    timer = try UVTimer(loop: loop)
  }

  /// The loop's ticker for `interval` ms, made on first use.
  static func shared(on loop: EventLoop, interval: UInt64) throws(UVError) -> MediaTicker {
    if let ticker = loop.local.mediaTickers[interval] { return ticker }
    let ticker = try MediaTicker(loop: loop, interval: interval)
    loop.local.mediaTickers[interval] = ticker
    return ticker
  }

  /// Starts ticking a link until ``unregister(_:)``.
  func register(_ link: LoopbackMediaLink) {
    guard link.tickerIndex < 0 else { return }
    link.tickerIndex = links.count
    links.append(link)
    if links.count == 1 {
      timer.schedule(afterMilliseconds: interval, repeatingEvery: interval) { [self] in tick() }
    }
  }

  /// Stops ticking a link. O(1). Harmless for a link that isn't registered.
  func unregister(_ link: LoopbackMediaLink) {
    let index = link.tickerIndex
    guard index >= 0, index < links.count, links[index] === link else { return }
    let last = links.removeLast()
    if index < links.count {
      links[index] = last
      last.tickerIndex = index
    }
    link.tickerIndex = -1
    if links.isEmpty {
      // The timer's callback retains this ticker: cancelling it breaks the cycle; the ticker
      // stays in the loop's table for the next link.
      timer.cancel()
    }
  }

  /// Closes every link still registered, as the loop shuts down: each link and this ticker
  /// hold each other until the link closes, and the link holds its handler and the loop.
  func closeLinks() {
    // A copy: each close unregisters its link.
    let current = links
    for link in current { link.close() }
  }

  private func tick() {
    let now = LoopbackMediaClock.now()
    // A copy: a link's handler may close links (this one or others) or start new ones.
    let current = links
    for link in current { link.tick(now: now) }
  }
}

/// Loop-confined.
@available(*, unavailable)
extension MediaTicker: Sendable {}
