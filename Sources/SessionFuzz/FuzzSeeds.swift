import SessionCore
import SessionService
import SessionTransport

/// The generated part of the seed corpora (`sessionfuzz seeds DIR` writes it; `Fuzz/Corpus`
/// holds it with the example traces and scenarios): real encodings of every kind of frame and
/// datagram, tokens good and bad, and bytes for the structured harnesses.
///
/// The same seed always gives the same files.
///
/// > Important: Stateless.
package enum FuzzSeeds {
  /// Seed inputs for a harness, by file name.
  ///
  /// - Parameter harness: The harness.
  /// - Returns: File names and contents; empty for the scenarios, whose seeds are the example
  ///   scenario files.
  package static func seeds(for harness: FuzzHarness) -> [(name: String, bytes: [UInt8])] {
    var random = SimulationRandom(seed: 0x5EED_0000 &+ UInt64(harness.rawValue.utf8.count))
    func randomBytes(_ count: Int) -> [UInt8] {
      (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }
    switch harness {
    case .wire:
      var seeds: [(String, [UInt8])] = []
      for index in 0..<24 {
        var values = FuzzValues(FuzzInput(randomBytes(256)))
        seeds.append(("client-\(index)", WireEncoder.payload(values.clientFrame())))
        seeds.append(("server-\(index)", WireEncoder.payload(values.serverFrame())))
      }
      var stream: [UInt8] = []
      for message in [ClientMessage.heartbeat, .password("pw"), .command(1, .startVideo)] {
        _ = try? WireEncoder.appendFrame(message, to: &stream)
      }
      seeds.append(("stream", stream))
      return seeds
    case .media:
      let stream = StreamID(user: 7, kind: .video, layer: 1)
      let datagrams: [(String, MediaDatagram)] = [
        (
          "packet",
          .packet(
            MediaPacket(
              stream: stream, sequence: 9, frameID: 3, isKeyFrame: true, sendTime: 1_000,
              payloadBytes: 12, width: 640, height: 360, framePackets: 2))
        ),
        (
          "report",
          .report(
            ReceiverReport(
              subscriber: 8, stream: stream, highestSequence: 9, packetsReceived: 100,
              packetsLost: 2, jitter: 300, lastSendTime: 1_000))
        ),
        (
          "feedback",
          .feedback(
            DownlinkFeedback(
              subscriber: 8, packetsReceived: 50, packetsLost: 1, receiveRate: 900_000,
              queueDelay: 2_000, signal: .overusing))
        ),
        ("bind", .bind(MediaBind(user: 7, credential: 0xC0FFEE))),
        ("ping", .ping(sendTime: 123_456)), ("pong", .pong(sendTime: 123_456)),
        ("check", .check(nonce: 42)), ("check-reply", .checkReply(credential: 0xC0FFEE, nonce: 42)),
      ]
      let sealer = MediaAuthenticator(key: MediaFuzz.key, sending: .toService)
      return datagrams.flatMap { name, datagram in
        [(name, datagram.encode()), ("\(name)-sealed", sealer.sealed(datagram.encode()))]
      }
    case .jwt:
      let minter = DevelopmentCredentials.minter
      let good = minter.mint(
        sessionName: "Room", role: .host, issuedAt: TokenFuzz.now - 30, userKey: "alice")
      let expired = minter.mint(
        sessionName: "Room", role: .participant, issuedAt: TokenFuzz.now - 864_000)
      let header = #"{"alg":"HS256","typ":"JWT"}"#
      let payload =
        #"{"app_key":"SessionEngineDevKey","tpc":"Room","role_type":1,"version":1,"#
        + #""iat":1699999970,"exp":1700007170,"user_key":"alice"}"#
      return [
        ("raw-good", [0] + Array(good.utf8)), ("raw-expired", [0] + Array(expired.utf8)),
        ("raw-malformed", [0] + Array("not.a.token".utf8)),
        ("raw-none", [0] + Array("eyJhbGciOiJub25lIn0.e30.".utf8)),
        ("json-good", [1] + Array(header.utf8) + [0] + Array(payload.utf8)),
        ("json-nested", [1] + Array(header.utf8) + [0] + Array(#"{"a":[[[[{"b":null}]]]]}"#.utf8)),
        ("claims-0", [2] + randomBytes(64)), ("claims-1", [2] + randomBytes(64)),
        ("claims-zero", [2] + [UInt8](repeating: 0, count: 64)),
      ]
    case .service, .reducer:
      return [16, 64, 128, 256, 512, 1_024].enumerated().map { index, count in
        ("bytes-\(index)", randomBytes(count))
      }
    case .trace:
      // Every kind of event, written as version 2; the example traces are files too.
      return (0..<4).map { index in
        var values = FuzzValues(FuzzInput(randomBytes(2_048)), users: [1, 2, 3])
        let events = (0..<24).map { number in
          AppliedEvent(
            sequence: UInt64(number + 1), timestamp: Int64(number) * 1_000,
            event: values.event(case: (index * 24 + number) % FuzzValues.eventCaseCount))
        }
        return ("events-\(index)", Array(Trace(events: events).jsonLines().utf8))
      }
    case .scenario:
      return []
    }
  }
}
