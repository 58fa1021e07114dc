import SessionCore
import Testing

@testable import LoopbackFaults
@testable import LoopbackTransport

@Suite("Media proxy lane")
struct MediaProxyLaneTests {
  private func lane(_ faults: MediaLaneFaults = MediaLaneFaults(), maxHeldBytes: Int = 1 << 20)
    -> MediaProxyLane
  {
    var lane = MediaProxyLane(random: SimulationRandom(seed: 3), maxHeldBytes: maxHeldBytes)
    lane.faults = faults
    return lane
  }

  private func arrive(_ lane: inout MediaProxyLane, size: Int = 100, at now: Int64)
    -> MediaProxyLane.Arrival
  {
    [UInt8](repeating: 1, count: size).withUnsafeBytes { lane.arrive($0, now: now) }
  }

  @Test func withNoFaultsEveryDatagramGoesAtOnce() {
    var lane = lane()
    for time in [Int64(0), 5, 5, 1_000_000] { #expect(arrive(&lane, at: time) == .forward) }
    #expect(lane.next(now: 10) == .idle && lane.isEmpty)
  }

  @Test func aDelayHoldsEachDatagramItsTimeInOrder() {
    var lane = lane(MediaLaneFaults(delay: 20))
    #expect(arrive(&lane, size: 1, at: 0) == .held)
    #expect(arrive(&lane, size: 2, at: 5_000) == .held)
    #expect(lane.next(now: 19_999) == .wait(until: 20_000))
    #expect(lane.next(now: 20_000) == .send([1]))
    #expect(lane.next(now: 20_000) == .wait(until: 25_000))
    #expect(lane.next(now: 30_000) == .send([1, 1]))
    #expect(lane.next(now: 30_000) == .idle)
  }

  @Test func jitterSpreadsDelaysButNeverReorders() {
    var lane = lane(MediaLaneFaults(delay: 10, jitter: 8))
    var releases: [Int64] = []
    for index in 0..<500 {
      #expect(arrive(&lane, size: 1, at: Int64(index) * 1_000) == .held)
    }
    var now: Int64 = 0
    loop: while true {
      switch lane.next(now: now) {
      case .send: releases.append(now)
      case .wait(let until): now = until
      case .idle: break loop
      }
    }
    #expect(releases.count == 500)
    #expect(releases == releases.sorted())
    let spread = zip(releases, (0..<500).map { Int64($0) * 1_000 }).map { $0 - $1 }
    #expect(spread.allSatisfy { $0 >= 2_000 })
    #expect(Set(spread).count > 10, "the delays vary")
  }

  @Test func partitionsAndLossDrop() {
    var cut = lane(MediaLaneFaults(isPartitioned: true))
    #expect(arrive(&cut, at: 0) == .dropped(.partitioned))
    var lossy = lane(MediaLaneFaults(lossProbability: 1))
    #expect(arrive(&lossy, at: 0) == .dropped(.lost))
    var some = lane(MediaLaneFaults(lossProbability: 0.25))
    let lost = (0..<20_000).count { _ in arrive(&some, at: 0) == .dropped(.lost) }
    #expect(abs(Double(lost) / 20_000 - 0.25) < 0.015)
  }

  /// 80 kbit/s is 10 bytes a millisecond: a 1,000-byte datagram takes 100 ms; a queue of
  /// 3,000 bytes holds three.
  @Test func aBandwidthCapSerialisesAndDropsAtTheTail() {
    var lane = lane(
      MediaLaneFaults(bandwidth: MediaBandwidthCap(bitsPerSecond: 80_000, queueLimitBytes: 3_000)))
    let arrivals = (0..<6).map { _ in arrive(&lane, size: 1_000, at: 0) }
    #expect(arrivals == [.held, .held, .held] + Array(repeating: .dropped(.queueFull), count: 3))
    #expect(lane.next(now: 0) == .wait(until: 100_000))
    #expect(lane.next(now: 100_000) == .send(Array(repeating: 1, count: 1_000)))
    #expect(lane.next(now: 100_000) == .wait(until: 200_000))
    // Half-way through the second, room for one more again.
    #expect(arrive(&lane, size: 1_000, at: 150_000) == .held)
    #expect(arrive(&lane, size: 1_000, at: 150_000) == .dropped(.queueFull))
    _ = lane.next(now: 200_000)
    #expect(lane.next(now: 200_000) == .wait(until: 300_000))
    _ = lane.next(now: 300_000)
    #expect(lane.next(now: 300_000) == .wait(until: 400_000))
    // With a delay too, serialisation comes first.
    var delayed = self.lane(
      MediaLaneFaults(delay: 50, bandwidth: MediaBandwidthCap(bitsPerSecond: 80_000)))
    #expect(arrive(&delayed, size: 1_000, at: 0) == .held)
    #expect(delayed.next(now: 0) == .wait(until: 150_000))
  }

  @Test func holdingIsBoundedAndAKillDiscards() {
    var lane = lane(MediaLaneFaults(delay: 10), maxHeldBytes: 250)
    #expect(arrive(&lane, size: 100, at: 0) == .held)
    #expect(arrive(&lane, size: 100, at: 0) == .held)
    #expect(arrive(&lane, size: 100, at: 0) == .dropped(.overLimit))
    #expect(lane.heldBytes == 200 && lane.heldCount == 2)
    #expect(lane.discard() == 2)
    #expect(lane.isEmpty && lane.heldBytes == 0 && lane.next(now: .max) == .idle)
  }

  @Test func badCapValuesNeverTrap() {
    #expect(MediaBandwidthCap(bitsPerSecond: .nan).effectiveBitsPerSecond == 1)
    #expect(MediaBandwidthCap(bitsPerSecond: -5).effectiveBitsPerSecond == 1)
    #expect(MediaBandwidthCap(bitsPerSecond: .infinity).effectiveBitsPerSecond == 1e12)
    #expect(MediaBandwidthCap(bitsPerSecond: 1).serialisation(bytes: .max) == 3_600_000_000)
    var lane = lane(
      MediaLaneFaults(
        delay: FaultProxy.maximumDelay, jitter: FaultProxy.maximumDelay,
        bandwidth: MediaBandwidthCap(bitsPerSecond: 1, queueLimitBytes: -1)))
    #expect(arrive(&lane, size: 10, at: .max - 10) == .held)
    #expect(arrive(&lane, size: 10, at: .max - 10) == .dropped(.queueFull))
  }
}
