import SessionCore
import SessionTransport
import Testing

@testable import SessionSDK

private let tom = UserID(3)
private let tenSeconds: Int64 = 10_000_000

@Suite struct ShareSourceTests {
  @Test func aShareSendsFiveFramesASecondAtEightHundredKilobits() throws {
    var source = try ShareSource(user: tom, seed: 1, start: 0)
    #expect(source.frameRate == 5 && source.layer == ShareSource.defaultLayer)
    #expect(source.stream == StreamID(user: tom, kind: .share))
    let packets = drive(to: tenSeconds) { source.packets(until: $0) }
    let shareFrames = frames(packets)
    #expect(shareFrames.count == 50)
    #expect(shareFrames.map { $0[0].sendTime } == (0..<50).map { Int64($0) * 200_000 })
    #expect(packets.allSatisfy { $0.stream == source.stream && $0.ruleBroken == nil })
    #expect(packets.allSatisfy { $0.width == 1_280 && $0.height == 720 })
    #expect(within(bitrate(packets, seconds: 10), 0.10, of: 800_000))
    let keys = shareFrames.filter { $0[0].isKeyFrame }.map { $0[0].sendTime }
    #expect(keys == [0, 2_000_000, 4_000_000, 6_000_000, 8_000_000])
    #expect(consecutive(packets))
  }

  @Test func aPausedShareSendsNothingAndResumesWithAKeyFrame() throws {
    var source = try ShareSource(user: tom, seed: 1, start: 0)
    _ = drive(to: 1_000_000) { source.packets(until: $0) }
    source.setPaused(true, at: 1_000_000)
    #expect(source.isPaused)
    let paused = drive(from: 1_000_000, to: 5_000_000) { source.packets(until: $0) }
    #expect(paused.isEmpty)
    source.setPaused(true, at: 5_000_000)
    source.setPaused(false, at: 5_050_000)
    #expect(!source.isPaused)
    let resumed = drive(from: 5_050_000, to: 6_000_000) { source.packets(until: $0) }
    let resumedFrames = frames(resumed)
    #expect(
      resumedFrames.map { $0[0].sendTime } == [
        5_050_000, 5_250_000, 5_450_000, 5_650_000, 5_850_000,
      ])
    #expect(resumedFrames.map { $0[0].isKeyFrame } == [true, false, false, false, false])
    #expect(consecutive(paused + resumed))
  }

  @Test func aKeyFrameOnDemand() throws {
    var source = try ShareSource(user: tom, seed: 1, start: 0)
    _ = source.packets(until: 300_000)
    source.requestKeyFrame()
    let next = frames(source.packets(until: 600_000))
    #expect(next.map { $0[0].isKeyFrame } == [true, false])
  }

  @Test func badConfigurationsAreRefused() throws {
    #expect(throws: MediaSourceError.invalidFrameRate(0)) {
      try ShareSource(user: tom, frameRate: 0, seed: 1, start: 0)
    }
    #expect(throws: MediaSourceError.invalidBitrate(0)) {
      try ShareSource(
        user: tom, layer: SimulcastLayer(width: 1_280, height: 720, bitrate: 0), seed: 1,
        start: 0)
    }
    #expect(throws: MediaSourceError.invalidResolution(width: 1_280, height: 99_999)) {
      try ShareSource(
        user: tom, layer: SimulcastLayer(width: 1_280, height: 99_999, bitrate: 800_000),
        seed: 1, start: 0)
    }
    let big = SimulcastLayer(width: 4_096, height: 4_096, bitrate: 50_000_000)
    var source = try ShareSource(user: tom, layer: big, frameRate: 1, seed: 1, start: 0)
    let packets = source.packets(until: 0)
    // A 50 Mbps key frame at 1 fps: about 10 MB, in packets of 1,200 bytes.
    #expect(packets.count > 7_000 && packets.allSatisfy { $0.ruleBroken == nil })
  }
}
