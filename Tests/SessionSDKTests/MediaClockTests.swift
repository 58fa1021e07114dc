import Testing

@testable import SessionSDK

@Suite struct MediaClockTests {
  @Test func ticksFallOnTheFloorOfTheirExactTimes() {
    let clock = MediaClock(rate: 30, start: 1_000)
    #expect((0...4).map { clock.time(ofTick: $0) } == [1_000, 34_333, 67_666, 101_000, 134_333])
    #expect(clock.time(ofTick: 30_000) == 1_000_001_000)
    #expect(clock.time(ofTick: .max) == nil)
    #expect(MediaClock(rate: 30, start: .max - 10).time(ofTick: 1) == nil)
  }

  @Test func takingIsInclusiveAndNeverRepeats() {
    var clock = MediaClock(rate: 30, start: 0)
    #expect(clock.take(until: -1).isEmpty)
    #expect(clock.take(until: 0) == 0..<1)
    #expect(clock.take(until: 33_332).isEmpty)
    #expect(clock.take(until: 33_333) == 1..<2)
    #expect(clock.take(until: 100_000) == 2..<4)
    #expect(clock.take(until: 100_000).isEmpty)
    #expect(clock.take(until: 50_000).isEmpty)
  }

  @Test func aLongGapYieldsOneSecondOfTicks() {
    var clock = MediaClock(rate: 50, start: -5_000_000)
    #expect(clock.take(until: 0).count == 50)
    #expect(clock.take(until: .max).count == 50)
    #expect(clock.take(until: .max).isEmpty)
    var far = MediaClock(rate: 60, start: .min)
    #expect(far.take(until: .max).count == 60)
    far.restart(at: 10)
    #expect(far.take(until: 10) == 0..<1)
  }
}
