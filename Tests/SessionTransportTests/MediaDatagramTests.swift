import Foundation
import SessionCore
import SessionTransport
import Testing

/// Draws valid media packets and reports from a seed.
struct ArbitraryMedia {
  var random: SimulationRandom

  init(seed: UInt64) { random = SimulationRandom(seed: seed) }

  mutating func int(in range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

  mutating func stream() -> StreamID {
    let kind = [MediaKind.video, .audio, .share][int(in: 0...2)]
    let layer = kind == .video ? UInt8(int(in: 0...2)) : 0
    return StreamID(
      user: UserID(rawValue: UInt32.random(in: 0...UInt32.max, using: &random)),
      kind: kind, layer: layer)
  }

  mutating func packet() -> MediaPacket {
    let stream = stream()
    return MediaPacket(
      stream: stream,
      sequence: UInt32.random(in: 0...UInt32.max, using: &random),
      frameID: UInt32.random(in: 0...UInt32.max, using: &random),
      isKeyFrame: Bool.random(using: &random),
      sendTime: Int64.random(in: Int64.min...Int64.max, using: &random),
      payloadBytes: UInt16(int(in: 0...MediaPacket.maxPayloadBytes)),
      audioLevel: UInt8(int(in: 0...127)),
      width: UInt16.random(in: 0...UInt16.max, using: &random),
      height: UInt16.random(in: 0...UInt16.max, using: &random),
      framePackets: UInt16.random(in: 1...UInt16.max, using: &random))
  }

  /// A bind, ping or pong with any field values.
  mutating func control() -> MediaDatagram {
    let time = Int64.random(in: Int64.min...Int64.max, using: &random)
    switch int(in: 0...3) {
    case 3:
      return .feedback(
        DownlinkFeedback(
          subscriber: UserID(rawValue: UInt32.random(in: 0...UInt32.max, using: &random)),
          packetsReceived: UInt32.random(in: 0...UInt32.max, using: &random),
          packetsLost: UInt32.random(in: 0...UInt32.max, using: &random),
          receiveRate: UInt32.random(in: 0...UInt32.max, using: &random),
          queueDelay: UInt32.random(in: 0...UInt32.max, using: &random),
          signal: DownlinkFeedback.DelaySignal.allCases[int(in: 0...2)]))
    case 0:
      return .bind(
        MediaBind(
          user: UserID(rawValue: UInt32.random(in: 0...UInt32.max, using: &random)),
          credential: UInt64.random(in: 0...UInt64.max, using: &random)))
    case 1: return .ping(sendTime: time)
    default: return .pong(sendTime: time)
    }
  }

  mutating func report() -> ReceiverReport {
    ReceiverReport(
      subscriber: UserID(rawValue: UInt32.random(in: 0...UInt32.max, using: &random)),
      stream: stream(),
      highestSequence: UInt32.random(in: 0...UInt32.max, using: &random),
      packetsReceived: UInt32.random(in: 0...UInt32.max, using: &random),
      packetsLost: UInt32.random(in: 0...UInt32.max, using: &random),
      jitter: UInt32.random(in: 0...UInt32.max, using: &random),
      lastSendTime: Int64.random(in: Int64.min...Int64.max, using: &random))
  }
}

/// The error decoding `bytes` as a packet throws, or nil if it decoded.
private func packetError(_ bytes: [UInt8]) -> MediaDecodingError? {
  do {
    _ = try MediaPacket.decode(bytes)
    return nil
  } catch {
    return error
  }
}

/// The error decoding `bytes` as a report throws, or nil if it decoded.
private func reportError(_ bytes: [UInt8]) -> MediaDecodingError? {
  do {
    _ = try ReceiverReport.decode(bytes)
    return nil
  } catch {
    return error
  }
}

private let ada = UserID(7)

/// A video key frame's first packet: the documented worked example.
private let example = MediaPacket(
  stream: StreamID(user: ada, kind: .video, layer: 2), sequence: 258, frameID: 16,
  isKeyFrame: true, sendTime: 2_000_000, payloadBytes: 3, audioLevel: 127, width: 1280,
  height: 720, framePackets: 25)

@Suite struct MediaDatagramTests {
  // MARK: Round trips

  @Test func packetsRoundTrip() throws {
    var arbitrary = ArbitraryMedia(seed: 0x3ED1A)
    for _ in 0..<2_000 {
      let packet = arbitrary.packet()
      #expect(packet.ruleBroken == nil)
      let bytes = packet.encode()
      #expect(bytes.count == MediaPacket.headerSize + Int(packet.payloadBytes))
      #expect(bytes[MediaPacket.headerSize...].allSatisfy { $0 == 0 })
      #expect(try MediaPacket.decode(bytes) == packet)
      #expect(try MediaDatagram.decode(bytes) == .packet(packet))
      #expect(MediaDatagram.packet(packet).encode() == bytes)
    }
  }

  @Test func reportsRoundTrip() throws {
    var arbitrary = ArbitraryMedia(seed: 0x3E9)
    for _ in 0..<2_000 {
      let report = arbitrary.report()
      let bytes = report.encode()
      #expect(bytes.count == ReceiverReport.datagramSize)
      #expect(try ReceiverReport.decode(bytes) == report)
      #expect(try MediaDatagram.decode(bytes) == .report(report))
      #expect(MediaDatagram.report(report).kind == .report)
    }
  }

  @Test func decodingFromABufferMatchesDecodingAnArray() throws {
    let bytes = example.encode()
    let fromBuffer = try bytes.withUnsafeBytes { buffer in try MediaPacket.decode(buffer) }
    #expect(fromBuffer == example)
  }

  @Test func encodingIntoABufferNeedsRoomForTheWholeDatagram() {
    var buffer = [UInt8](repeating: 0xFF, count: example.datagramSize + 4)
    let written = buffer.withUnsafeMutableBytes { example.encode(into: $0) }
    #expect(written == example.datagramSize)
    #expect(Array(buffer[..<example.datagramSize]) == example.encode())
    #expect(buffer[example.datagramSize...].allSatisfy { $0 == 0xFF })

    var small = [UInt8](repeating: 0xFF, count: example.datagramSize - 1)
    let refused = small.withUnsafeMutableBytes { example.encode(into: $0) }
    #expect(refused == nil)
    #expect(small.allSatisfy { $0 == 0xFF })
  }

  // MARK: The documented bytes

  @Test func workedPacketExample() {
    let expected =
      "02 01  00 00 00 07 01 02  00 00 01 02  00 00 00 10  01 7f  00 00 00 00 00 1e 84 80"
      + "  05 00  02 d0  00 19  00 03  00 00 00"
    #expect(hex(example.encode()) == hex(bytes(expected)))
  }

  @Test func workedReportExample() {
    let report = ReceiverReport(
      subscriber: 9, stream: StreamID(user: ada, kind: .audio), highestSequence: 1_000,
      packetsReceived: 24, packetsLost: 1, jitter: 1_500, lastSendTime: 20_000_000)
    let expected =
      "02 02  00 00 00 09  00 00 00 07 02 00  00 00 03 e8  00 00 00 18  00 00 00 01"
      + "  00 00 05 dc  00 00 00 00 01 31 2d 00"
    #expect(hex(report.encode()) == hex(bytes(expected)))
    #expect(report.lossFraction == 0.04)
    #expect(
      ReceiverReport(
        subscriber: 9, stream: report.stream, highestSequence: 0, packetsReceived: 0,
        packetsLost: 0, jitter: 0, lastSendTime: 0
      ).lossFraction == 0)
  }

  // MARK: Sizes

  @Test func everyDatagramShorterThanTheHeaderIsTruncated() throws {
    let bytes = example.encode()
    #expect(packetError([]) == .truncated(count: 0, needed: 2))
    #expect(packetError([2]) == .truncated(count: 1, needed: 2))
    for length in 2..<MediaPacket.headerSize {
      let error = try #require(packetError(Array(bytes[..<length])))
      #expect(error == .truncated(count: length, needed: MediaPacket.headerSize))
    }
    let report = ReceiverReport(
      subscriber: 1, stream: StreamID(user: 2, kind: .share), highestSequence: 1,
      packetsReceived: 1, packetsLost: 0, jitter: 0, lastSendTime: 0
    ).encode()
    for length in 2..<ReceiverReport.datagramSize {
      #expect(
        reportError(Array(report[..<length]))
          == .truncated(count: length, needed: ReceiverReport.datagramSize))
    }
    #expect(reportError(report + [0]) == .tooLong(count: 37, maximum: 36))
    #expect(reportError(report) == nil)
  }

  @Test func theLargestPayloadIsAllowedAndOneMoreByteIsNot() {
    var packet = example
    packet.payloadBytes = UInt16(MediaPacket.maxPayloadBytes)
    #expect(packet.ruleBroken == nil)
    #expect(packet.encode().count == MediaDatagram.maxSize)
    #expect(packetError(packet.encode()) == nil)

    packet.payloadBytes += 1
    let tooLong = MediaDecodingError.tooLong(
      count: MediaDatagram.maxSize + 1, maximum: MediaDatagram.maxSize)
    #expect(packet.ruleBroken == tooLong)
    #expect(packetError(packet.encode()) == tooLong)
    packet.payloadBytes = .max
    #expect(packetError(packet.encode())?.reason == .tooLong)
    #expect(packetError([UInt8](repeating: 0, count: 70_000))?.reason == .wrongVersion)
    #expect(packetError([2, 1] + [UInt8](repeating: 0, count: 70_000))?.reason == .tooLong)
  }

  @Test func aPayloadLengthMustMatchTheBytesAfterTheHeader() {
    let bytes = example.encode()
    #expect(packetError(bytes + [0]) == .lengthMismatch(declared: 3, actual: 4))
    #expect(packetError(Array(bytes.dropLast())) == .lengthMismatch(declared: 3, actual: 2))
    #expect(
      packetError(Array(bytes[..<MediaPacket.headerSize]))
        == .lengthMismatch(declared: 3, actual: 0))
    #expect(packetError(bytes) == nil)
    // The payload's bytes are not read: a relay forwards datagrams without touching them.
    var nonZero = bytes
    nonZero[MediaPacket.headerSize] = 0xAB
    #expect(packetError(nonZero) == nil)
  }

  // MARK: Version, type and fields

  @Test func onlyVersion2IsAccepted() {
    for version in [UInt8(0), 1, 3, 0xFF] {
      var bytes = example.encode()
      bytes[0] = version
      #expect(packetError(bytes) == .wrongVersion(version))
      #expect(packetError([version]) == .wrongVersion(version))
      var report = ReceiverReport(
        subscriber: 1, stream: StreamID(user: 2, kind: .audio), highestSequence: 0,
        packetsReceived: 0, packetsLost: 0, jitter: 0, lastSendTime: 0
      ).encode()
      report[0] = version
      #expect(reportError(report) == .wrongVersion(version))
    }
    #expect(packetError(example.encode()) == nil)
  }

  @Test func eachDecoderTakesOnlyItsType() throws {
    let packet = example.encode()
    let report = ReceiverReport(
      subscriber: 1, stream: StreamID(user: 2, kind: .audio), highestSequence: 0,
      packetsReceived: 0, packetsLost: 0, jitter: 0, lastSendTime: 0
    ).encode()
    #expect(packetError(report) == .wrongType(2))
    #expect(reportError(packet) == .wrongType(1))
    for type in [UInt8(0), 3, 4, 5, 6, 7, 8, 9, 0x81, 0xFF] {
      var bytes = packet
      bytes[1] = type
      #expect(packetError(bytes) == .wrongType(type))
      #expect(reportError(bytes) == .wrongType(type))
      if !(3...8).contains(type) {
        #expect(throws: MediaDecodingError.wrongType(type)) { try MediaDatagram.decode(bytes) }
      }
    }
    #expect(try MediaDatagram.decode(packet).kind == .packet)
    #expect(try MediaDatagram.decode(report).kind == .report)
  }

  @Test func kindsOutsideOneToThreeAreRefused() {
    for kind in UInt8(0)...255 {
      var bytes = example.encode()
      bytes[6] = kind
      bytes[7] = 0
      switch kind {
      case 1...3: #expect(packetError(bytes) == nil, "kind \(kind)")
      default: #expect(packetError(bytes) == .badKind(kind))
      }
      var report = ReceiverReport(
        subscriber: 1, stream: StreamID(user: 2, kind: .audio), highestSequence: 0,
        packetsReceived: 0, packetsLost: 0, jitter: 0, lastSendTime: 0
      ).encode()
      report[10] = kind
      #expect((reportError(report) == nil) == (1...3).contains(kind))
    }
  }

  @Test func videoHasThreeLayersAndAudioAndShareOne() {
    for kind in [MediaKind.video, .audio, .share] {
      for layer in UInt8(0)...4 {
        var packet = example
        packet.stream = StreamID(user: ada, kind: kind, layer: layer)
        let allowed = kind == .video ? layer < 3 : layer == 0
        #expect(packet.stream.hasValidLayer == allowed)
        let expected = allowed ? nil : MediaDecodingError.badLayer(kind: kind, layer: layer)
        #expect(packet.ruleBroken == expected)
        #expect(packetError(packet.encode()) == expected, "\(kind) layer \(layer)")
        let report = ReceiverReport(
          subscriber: 1, stream: packet.stream, highestSequence: 0, packetsReceived: 0,
          packetsLost: 0, jitter: 0, lastSendTime: 0)
        #expect(reportError(report.encode()) == expected)
      }
    }
  }

  @Test func onlyTheKeyFrameFlagIsDefined() {
    for flags in UInt8(0)...255 {
      var bytes = example.encode()
      bytes[16] = flags
      if flags <= 1 {
        #expect((try? MediaPacket.decode(bytes))?.isKeyFrame == (flags == 1))
      } else {
        #expect(packetError(bytes) == .badFlags(flags))
      }
    }
  }

  @Test func audioLevelsStopAt127() {
    var packet = example
    packet.audioLevel = 127
    #expect(packetError(packet.encode()) == nil)
    packet.audioLevel = 0
    #expect(packetError(packet.encode()) == nil)
    for level in UInt8(128)...255 {
      packet.audioLevel = level
      #expect(packet.ruleBroken == .badAudioLevel(level))
      #expect(packetError(packet.encode()) == .badAudioLevel(level))
    }
  }

  @Test func aFrameHasAtLeastOnePacket() {
    var packet = example
    packet.framePackets = 0
    #expect(packet.ruleBroken == .badFramePackets(0))
    #expect(packetError(packet.encode()) == .badFramePackets(0))
    packet.framePackets = 1
    #expect(packetError(packet.encode()) == nil)
    packet.framePackets = .max
    #expect(packetError(packet.encode()) == nil)
  }

  @Test func everyRefusalHasASentenceAndAReason() {
    let errors: [MediaDecodingError] = [
      .truncated(count: 3, needed: 34), .tooLong(count: 2_000, maximum: 1_234),
      .wrongVersion(2), .wrongType(9), .badKind(0), .badLayer(kind: .audio, layer: 1),
      .badFlags(0x80), .badAudioLevel(200), .badFramePackets(0),
      .lengthMismatch(declared: 3, actual: 4),
    ]
    #expect(Set(errors.map(\.reason)) == Set(MediaDecodingError.Reason.allCases))
    for error in errors {
      #expect(!error.description.isEmpty)
    }
    #expect(MediaDecodingError.badFlags(0x80).description == "flags 0x80 set a reserved bit")
  }

  // MARK: Stream ids

  @Test func streamsOrderByUserThenKindThenLayer() throws {
    let streams = [
      StreamID(user: 2, kind: .audio), StreamID(user: 1, kind: .share),
      StreamID(user: 1, kind: .video, layer: 2), StreamID(user: 1, kind: .video, layer: 0),
      StreamID(user: 1, kind: .audio),
    ]
    #expect(
      streams.sorted() == [
        StreamID(user: 1, kind: .video, layer: 0), StreamID(user: 1, kind: .video, layer: 2),
        StreamID(user: 1, kind: .audio), StreamID(user: 1, kind: .share),
        StreamID(user: 2, kind: .audio),
      ])
    #expect(!(streams[0] < streams[0]))
    let data = try JSONEncoder().encode(streams)
    #expect(try JSONDecoder().decode([StreamID].self, from: data) == streams)
  }
}
