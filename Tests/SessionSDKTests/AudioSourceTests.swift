import SessionCore
import SessionTransport
import Testing

@testable import SessionSDK

private let ada = UserID(7)
private let tenSeconds: Int64 = 10_000_000

@Suite struct AudioSourceTests {
  private func microphone(
    connected: Bool = true, muted: Bool = false, seed: UInt64 = 1, firstSequence: UInt32 = 0
  ) throws -> AudioSource {
    try AudioSource(
      user: ada, connected: connected, muted: muted, seed: seed, start: 0,
      firstSequence: firstSequence)
  }

  @Test func aPacketEveryTwentyMillisecondsAtThirtyTwoKilobits() throws {
    var source = try microphone()
    let packets = drive(to: tenSeconds) { source.packets(until: $0) }
    #expect(packets.count == 500)
    #expect(packets.map(\.sendTime) == (0..<500).map { Int64($0) * 20_000 })
    #expect(packets.map(\.frameID) == (0..<500).map(UInt32.init))
    #expect(packets.allSatisfy { $0.stream == StreamID(user: ada, kind: .audio) })
    #expect(packets.allSatisfy { $0.payloadBytes == 80 && $0.framePackets == 1 })
    #expect(packets.allSatisfy { $0.isKeyFrame && $0.width == 0 && $0.height == 0 })
    #expect(packets.allSatisfy { $0.ruleBroken == nil })
    #expect(bitrate(packets, seconds: 10) == 32_000)
    #expect(consecutive(packets))
  }

  @Test func onlyAConnectedUnmutedMicrophoneSends() throws {
    var muted = try microphone(muted: true)
    #expect(!muted.isSending)
    #expect(drive(to: tenSeconds) { muted.packets(until: $0) }.isEmpty)
    var disconnected = try microphone(connected: false)
    #expect(drive(to: tenSeconds) { disconnected.packets(until: $0) }.isEmpty)
    var both = try microphone(connected: false, muted: true)
    both.setConnected(true, at: 1_000_000)
    #expect(drive(to: tenSeconds) { both.packets(until: $0) }.isEmpty)

    // Connecting starts packets at that moment; muting stops them; unmuting starts them again.
    disconnected.setConnected(true, at: tenSeconds + 5_000)
    #expect(disconnected.isSending)
    let packets = drive(from: tenSeconds + 5_000, to: tenSeconds + 1_005_000) {
      disconnected.packets(until: $0)
    }
    #expect(packets.count == 50)
    #expect(packets.first?.sendTime == tenSeconds + 5_000)
    disconnected.setMuted(true, at: tenSeconds + 1_005_000)
    #expect(disconnected.packets(until: tenSeconds + 3_000_000).isEmpty)
    disconnected.setMuted(false, at: tenSeconds + 4_000_000)
    let after = disconnected.packets(until: tenSeconds + 4_100_000)
    #expect(after.map(\.sendTime) == (0...5).map { tenSeconds + 4_000_000 + Int64($0) * 20_000 })
    // Numbers continue across the gap.
    #expect(after.first?.sequence == 50)
    disconnected.setConnected(false, at: tenSeconds + 4_100_000)
    #expect(disconnected.packets(until: tenSeconds + 9_000_000).isEmpty)
  }

  @Test func packetsDueBeforeAChangeAreStillHandedOut() throws {
    var source = try microphone()
    _ = source.packets(until: 0)
    source.setMuted(true, at: 100_000)  // 20, 40, 60 and 80 ms were due
    #expect(source.packets(until: 200_000).map(\.sendTime) == [20_000, 40_000, 60_000, 80_000])
  }

  @Test(arguments: [UInt64(1), 2, 3, 4])
  func theModelTalksAThirdOfTheTimeInSpurtsOfOneAndAHalfSeconds(seed: UInt64) throws {
    var source = try microphone(seed: seed)
    let thirtyMinutes: Int64 = 1_800_000_000
    let packets =
      drive(to: thirtyMinutes, step: 500_000) { source.packets(until: $0) }
      + source.packets(until: thirtyMinutes - 1)
    #expect(packets.count == 90_000)
    let talking = packets.map { AudioSource.talkingLevels.contains($0.audioLevel) }
    #expect(
      packets.allSatisfy {
        AudioSource.talkingLevels.contains($0.audioLevel)
          || AudioSource.silentLevels.contains($0.audioLevel)
      })
    let fraction = Double(talking.filter { $0 }.count) / Double(talking.count)
    #expect(abs(fraction - 1.0 / 3) < 0.06, "talking \(fraction)")
    // Runs of one state, in packets of 20 ms.
    var runs: [Bool: [Int]] = [:]
    var length = 1
    for (previous, next) in zip(talking, talking.dropFirst()) {
      if previous == next {
        length += 1
      } else {
        runs[previous, default: []].append(length)
        length = 1
      }
    }
    let spurt = Double(runs[true, default: []].reduce(0, +)) / Double(runs[true]?.count ?? 1)
    let silence = Double(runs[false, default: []].reduce(0, +)) / Double(runs[false]?.count ?? 1)
    #expect(within(spurt * 20_000, 0.2, of: 1_500_000), "spurt \(spurt * 20) ms")
    #expect(within(silence * 20_000, 0.2, of: 3_000_000), "silence \(silence * 20) ms")
  }

  @Test func talkingCanBeDrivenExplicitly() throws {
    var source = try microphone()
    source.setTalking(true, at: 0)
    #expect(source.talking == true && source.isTalking)
    let loud = drive(to: tenSeconds) { source.packets(until: $0) }
    #expect(loud.allSatisfy { AudioSource.talkingLevels.contains($0.audioLevel) })
    #expect(Set(loud.map(\.audioLevel)).count > 10)
    source.setTalking(false, at: tenSeconds)
    let quiet = drive(from: tenSeconds, to: 2 * tenSeconds) { source.packets(until: $0) }
    #expect(!source.isTalking)
    // From the change on, the packet due at it included, every packet is silent.
    #expect(quiet.count == 500)
    #expect(quiet.allSatisfy { AudioSource.silentLevels.contains($0.audioLevel) })
    source.setTalking(nil, at: 2 * tenSeconds)
    #expect(source.talking == nil)
    let modelled = drive(from: 2 * tenSeconds, to: 20 * tenSeconds, step: 100_000) {
      source.packets(until: $0)
    }
    #expect(modelled.contains { AudioSource.talkingLevels.contains($0.audioLevel) })
    #expect(modelled.contains { AudioSource.silentLevels.contains($0.audioLevel) })
  }

  @Test func theTalkingModelIsSetByItsMeans() throws {
    var chatty = try AudioSource(
      user: ada, meanSpurt: 3_600_000_000, meanSilence: 20_000, seed: 5, start: 0)
    let packets = drive(to: tenSeconds) { chatty.packets(until: $0) }
    let talking = packets.filter { AudioSource.talkingLevels.contains($0.audioLevel) }
    #expect(talking.count > 490)
    for mean in [Int64(0), -1, 19_999, 3_600_000_001, .max, .min] {
      #expect(throws: MediaSourceError.invalidTalkDuration(mean)) {
        try AudioSource(user: ada, meanSpurt: mean, seed: 1, start: 0)
      }
      #expect(throws: MediaSourceError.invalidTalkDuration(mean)) {
        try AudioSource(user: ada, meanSilence: mean, seed: 1, start: 0)
      }
    }
  }

  @Test func theSameSeedSendsTheSamePackets() throws {
    var first = try microphone(seed: 9)
    var second = try microphone(seed: 9)
    var other = try microphone(seed: 10)
    let a = drive(to: tenSeconds) { first.packets(until: $0) }
    let b = drive(to: tenSeconds, step: 333_333) { second.packets(until: $0) }
    let c = drive(to: tenSeconds) { other.packets(until: $0) }
    #expect(a == b + second.packets(until: tenSeconds - 1))
    #expect(a.map(\.audioLevel) != c.map(\.audioLevel))
  }

  @Test func sequenceNumbersWrapAndALateCallMakesUpOneSecond() throws {
    var source = try microphone(firstSequence: UInt32.max - 3)
    let packets = drive(to: 200_000) { source.packets(until: $0) }
    let top = UInt32.max
    let expected: [UInt32] = [top - 3, top - 2, top - 1, top, 0, 1]
    #expect(Array(packets.map(\.sequence).prefix(6)) == expected)
    #expect(consecutive(packets))
    let late = source.packets(until: 1_000_000_000)
    #expect(late.count == 50)
    #expect(source.packets(until: .max).count == 50)
    #expect(source.packets(until: 0).isEmpty)
  }
}
