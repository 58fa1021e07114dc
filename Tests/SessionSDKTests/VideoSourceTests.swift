import SessionCore
import SessionTransport
import Testing

@testable import SessionSDK

private let ada = UserID(7)
private let tenSeconds: Int64 = 10_000_000

@Suite struct VideoSourceTests {
  private func camera(
    width: Int = 1_280, height: Int = 720, frameRate: Int = 30, seed: UInt64 = 1,
    firstSequence: UInt32 = 0
  ) throws -> VideoSource {
    try VideoSource(
      user: ada, width: width, height: height, frameRate: frameRate, seed: seed, start: 0,
      firstSequence: firstSequence)
  }

  // MARK: Layers

  @Test func aCameraSendsThreeLayersByDefault() throws {
    let source = try camera()
    #expect(source.layers == [.p180, .p360, .p720])
    #expect(source.frameRate == 30)
    #expect(
      source.streams == (0...2).map { StreamID(user: ada, kind: .video, layer: $0) })
    #expect(source.isOn)
    #expect(try camera(width: 1_920, height: 1_080).layers == SimulcastLayer.defaults)
  }

  @Test func aSmallerCameraSendsFewerLayers() throws {
    #expect(try camera(width: 640, height: 480).layers == [.p180, .p360])
    #expect(try camera(width: 640, height: 360).layers == [.p180, .p360])
    #expect(try camera(width: 639, height: 360).layers == [.p180])
    #expect(try camera(width: 320, height: 180).layers == [.p180])
    // Below the lowest layer: one layer at the camera's size, its bitrate scaled by pixels.
    #expect(
      try camera(width: 160, height: 90).layers == [
        SimulcastLayer(width: 160, height: 90, bitrate: 37_500)
      ])
    #expect(
      try camera(width: 1, height: 1).layers == [
        SimulcastLayer(width: 1, height: 1, bitrate: 1_000)
      ])
    var small = try camera(width: 160, height: 90)
    let packets = drive(to: tenSeconds) { small.packets(until: $0) }
    #expect(Set(packets.map(\.stream.layer)) == [0])
    #expect(packets.allSatisfy { $0.width == 160 && $0.height == 90 })
  }

  @Test func badConfigurationsAreRefused() throws {
    for rate in [0, -1, 61, Int.max, Int.min] {
      #expect(throws: MediaSourceError.invalidFrameRate(rate)) { try camera(frameRate: rate) }
    }
    #expect(try camera(frameRate: 1).frameRate == 1)
    #expect(try camera(frameRate: 60).frameRate == 60)
    for (width, height) in [(0, 720), (1_280, 0), (4_097, 720), (Int.max, Int.min)] {
      #expect(throws: MediaSourceError.invalidResolution(width: width, height: height)) {
        try camera(width: width, height: height)
      }
    }
    #expect(try camera(width: 4_096, height: 4_096).layers.count == 3)
    let ladders: [[SimulcastLayer]: MediaSourceError] = [
      []: .invalidLayers(count: 0),
      [.p180, .p360, .p720, .p720]: .invalidLayers(count: 4),
      [.p360, .p180]: .invalidLayers(count: 2),
      [.p180, .p180]: .invalidLayers(count: 2),
      [SimulcastLayer(width: 320, height: 180, bitrate: 999)]: .invalidBitrate(999),
      [SimulcastLayer(width: 320, height: 180, bitrate: .max)]: .invalidBitrate(.max),
      [SimulcastLayer(width: 0, height: 180, bitrate: 1_000)]:
        .invalidResolution(width: 0, height: 180),
    ]
    for (ladder, error) in ladders {
      #expect(throws: error) {
        try VideoSource(user: ada, ladder: ladder, seed: 1, start: 0)
      }
      #expect(!error.description.isEmpty)
    }
    let one = [SimulcastLayer(width: 320, height: 180, bitrate: 50_000_000)]
    #expect(try VideoSource(user: ada, ladder: one, seed: 1, start: 0).layers == one)
  }

  // MARK: Frames, sizes and bitrates

  @Test(arguments: [UInt64(1), 2, 3])
  func tenSecondsOfEveryLayerKeepTheRateAndTheBitrate(seed: UInt64) throws {
    var source = try camera(seed: seed)
    let packets = drive(to: tenSeconds) { source.packets(until: $0) }
    let streams = byStream(packets)
    #expect(streams.count == 3)
    for (index, layer) in source.layers.enumerated() {
      let stream = try #require(streams[StreamID(user: ada, kind: .video, layer: UInt8(index))])
      let layerFrames = frames(stream)
      #expect(layerFrames.count == 300)
      #expect(layerFrames.map { $0[0].frameID } == (0..<300).map(UInt32.init))
      for (number, frame) in layerFrames.enumerated() {
        // Frames at the frame interval, never drifting.
        #expect(frame.allSatisfy { $0.sendTime == Int64(number) * 1_000_000 / 30 })
        #expect(frame.allSatisfy { Int($0.framePackets) == frame.count })
        #expect(frame.allSatisfy { $0.isKeyFrame == frame[0].isKeyFrame })
        #expect(frame.allSatisfy { $0.payloadBytes <= 1_200 && $0.payloadBytes > 0 })
        // Split as evenly as possible into the fewest packets.
        let sizes = frame.map(\.payloadBytes)
        let bytes = sizes.reduce(0) { $0 + Int($1) }
        #expect(frame.count == (bytes + 1_199) / 1_200)
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
      }
      #expect(stream.allSatisfy { Int($0.width) == layer.width && Int($0.height) == layer.height })
      #expect(stream.allSatisfy { $0.audioLevel == 127 && $0.ruleBroken == nil })
      let rate = bitrate(stream, seconds: 10)
      #expect(within(rate, 0.10, of: Double(layer.bitrate)), "layer \(index): \(rate) bps")
      // The packet count is the one the nominal sizes give, within 10%.
      let delta = Double(layer.bitrate) / 8 / 30 * 60 / 64
      let nominal =
        Double(5 * Int((5 * delta / 1_200).rounded(.up)))
        + Double(295 * Int((delta / 1_200).rounded(.up)))
      #expect(within(Double(stream.count), 0.10, of: nominal), "layer \(index): \(stream.count)")
    }
  }

  @Test func framesVaryWithinTenPercentOfTheirNominalSize() throws {
    var source = try camera()
    let packets = drive(to: tenSeconds) { source.packets(until: $0) }
    let top = try #require(byStream(packets)[StreamID(user: ada, kind: .video, layer: 2)])
    let sizes = frames(top).map { frame in
      (frame[0].isKeyFrame, Double(frame.reduce(0) { $0 + Int($1.payloadBytes) }))
    }
    let delta = 1_500_000.0 / 8 / 30 * 60 / 64
    for (isKey, size) in sizes {
      let nominal = isKey ? 5 * delta : delta
      #expect(within(size, 0.1001, of: nominal), "\(isKey) \(size)")
    }
    #expect(Set(sizes.map(\.1)).count > 100)
  }

  @Test func keyFramesComeEveryTwoSeconds() throws {
    var source = try camera()
    let packets = drive(to: tenSeconds) { source.packets(until: $0) }
    for stream in byStream(packets).values {
      let keys = frames(stream).filter { $0[0].isKeyFrame }.map { $0[0].sendTime }
      #expect(keys == [0, 2_000_000, 4_000_000, 6_000_000, 8_000_000])
    }
  }

  @Test func aKeyFrameOnDemandComesNextAndKeepsTheAverage() throws {
    var source = try camera()
    var packets = drive(to: 500_000) { source.packets(until: $0) }
    source.requestKeyFrame(layer: 1)
    packets += drive(from: 500_000, to: 3_000_000) { source.packets(until: $0) }
    source.requestKeyFrame()
    source.requestKeyFrame()  // a second request before the frame adds nothing
    packets += drive(from: 3_000_000, to: tenSeconds) { source.packets(until: $0) }

    let streams = byStream(packets)
    let middle = frames(try #require(streams[StreamID(user: ada, kind: .video, layer: 1)]))
    let middleKeys = middle.filter { $0[0].isKeyFrame }.map { $0[0].sendTime }
    // 0; asked at 0.5 s, sent with the next frame (0.5 s); then every 2 s after it, and after
    // the next request (3.0 s).
    #expect(middleKeys == [0, 500_000, 2_500_000, 3_000_000, 5_000_000, 7_000_000, 9_000_000])
    let low = frames(try #require(streams[StreamID(user: ada, kind: .video, layer: 0)]))
    let lowKeys = low.filter { $0[0].isKeyFrame }.map { $0[0].sendTime }
    #expect(lowKeys == [0, 2_000_000, 3_000_000, 5_000_000, 7_000_000, 9_000_000])
    for (index, layer) in source.layers.enumerated() {
      let stream = try #require(streams[StreamID(user: ada, kind: .video, layer: UInt8(index))])
      let rate = bitrate(stream, seconds: 10)
      #expect(within(rate, 0.10, of: Double(layer.bitrate)), "layer \(index): \(rate)")
    }
  }

  @Test func sequenceNumbersAreConsecutivePerStreamAndWrap() throws {
    var source = try camera(firstSequence: .max - 20)
    let packets = drive(to: 2_000_000) { source.packets(until: $0) }
    for stream in byStream(packets).values {
      #expect(stream.first?.sequence == UInt32.max - 20)
      #expect(consecutive(stream))
      #expect(stream.contains { $0.sequence == 0 })
    }
  }

  @Test func theSameSeedSendsTheSamePackets() throws {
    var first = try camera(seed: 42)
    var second = try camera(seed: 42)
    var other = try camera(seed: 43)
    let a = drive(to: 3_000_000) { first.packets(until: $0) }
    // Polled differently: the packets do not depend on when the source is asked.
    let b = drive(to: 3_000_000, step: 77_777) { second.packets(until: $0) }
    let c = drive(to: 3_000_000) { other.packets(until: $0) }
    #expect(a == b + second.packets(until: 2_999_999))
    #expect(a.map(\.payloadBytes) != c.map(\.payloadBytes))
  }

  // MARK: On and off, and time

  @Test func aCameraTurnedOffSendsNothingAndStartsAgainWithAKeyFrame() throws {
    var source = try camera()
    let packets = drive(to: 1_000_000) { source.packets(until: $0) }
    source.setOn(false, at: 1_000_000)
    #expect(!source.isOn)
    // Frames due before it turned off were handed out; the one due at that moment is not.
    #expect(source.packets(until: 1_900_000).isEmpty)
    var late = try camera()
    _ = late.packets(until: 900_000)
    late.setOn(false, at: 1_000_000)
    #expect(Set(late.packets(until: 1_900_000).map(\.sendTime)) == [933_333, 966_666])
    source.setOn(false, at: 1_950_000)  // already off: nothing changes
    source.setOn(true, at: 2_010_000)
    let again = drive(from: 2_010_000, to: 3_000_000) { source.packets(until: $0) }
    #expect(again.first?.sendTime == 2_010_000)
    #expect(frames(again.filter { $0.stream.layer == 0 }).first?.first?.isKeyFrame == true)
    for stream in byStream(packets + again).values {
      #expect(consecutive(stream))
      #expect(!stream.contains { $0.sendTime >= 1_000_000 && $0.sendTime < 2_010_000 })
    }
  }

  @Test func aLateCallMakesUpOneSecondAtMostAndTimeNeverRunsBack() throws {
    var source = try camera()
    _ = source.packets(until: 0)
    let late = source.packets(until: 100_000_000)
    let times = Set(late.map(\.sendTime))
    #expect(times.count == 30)
    #expect(times.allSatisfy { $0 > 99_000_000 && $0 <= 100_000_000 })
    #expect(source.packets(until: 50_000_000).isEmpty)
    let end = source.packets(until: .max)
    #expect(Set(end.map(\.sendTime)).count == 30)
    #expect(source.packets(until: .max).isEmpty)
    for stream in byStream(late + end).values { #expect(consecutive(stream)) }
  }

  @Test func everyPacketSurvivesTheCodec() throws {
    var source = try camera()
    for packet in drive(to: 2_000_000, { source.packets(until: $0) }) {
      #expect(try MediaPacket.decode(packet.encode()) == packet)
    }
  }
}
