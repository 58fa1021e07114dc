import SessionCore
import SessionService
import SessionTestSupport
import SessionTransport

/// The service's media plane alone, sans-IO: `members` members joined, bound and each
/// subscribed to the 180p video of up to 25 others; every publisher's video packets (key
/// frames, so that no subscriber waits) fed through `receiveDatagram` as a transport would.
///
/// The floor does what any relay must per packet and no more: it decodes the header, finds
/// the publisher's subscriber list in a dictionary and emits the same `.forward` output.
///
/// > Important: Confined to the thread that runs the benchmark.
final class ServiceMediaRun {
  /// Milliseconds since 1970 for the service's clock (tokens are checked against it).
  static let now: Int64 = 1_700_000_000_000

  let service: SessionService
  /// Each member's user and media endpoint.
  private(set) var members: [(user: UserID, endpoint: MediaEndpointID)] = []
  /// The datagrams one round feeds in: each publisher's video packet (no audio: the audio
  /// path is not measured here).
  private(set) var datagrams: [(bytes: [UInt8], from: MediaEndpointID)] = []
  /// Each member's media authenticator, by index.
  private(set) var authenticators: [MediaAuthenticator] = []
  /// What the floor forwards each publisher's packets to.
  private(set) var floorFanOut: [UserID: [MediaEndpointID]] = [:]
  /// Copies forwarded since the count was last reset, held apart from `self` so that the
  /// service's outputs count with no unowned-reference check per packet.
  private final class Count { var value = 0 }
  private let copies = Count()

  init(members count: Int, subscriptions: Int = 25) throws {
    let fixture = SessionFixture(sessionName: "Bench")
    service = fixture.makeService { $0.secrets = .derived(seed: 7) }
    var users: [ConnectionID: UserID] = [:]
    var credentials: [ConnectionID: MediaCredential] = [:]
    service.attach { output in
      if case .send(.joined(let snapshot, _), let connection) = output {
        users[connection] = snapshot.myself
      }
      if case .send(.media(.credential(let credential)), let connection) = output {
        credentials[connection] = credential
      }
    }
    var checks: [(bytes: [UInt8], to: MediaEndpointID)] = []
    let copies = self.copies
    service.attachMedia { output in
      if case .forward(_, to: let endpoints) = output { copies.value &+= endpoints.count }
      if case .send(let bytes, let endpoint) = output { checks.append((bytes, endpoint)) }
    }
    // As the loopback server's media plane does: forwards of datagrams in its read buffer go
    // out from that buffer.
    service.attachLentForwards { _, endpoints, _ in copies.value &+= endpoints.count }
    for index in 0..<count {
      let connection = ConnectionID(UInt64(index + 1))
      service.connectionOpened(connection, now: Self.now)
      var request = fixture.joinRequest(forMember: index, now: Self.now)
      request.videoOn = true
      service.receive(.join(request), from: connection, now: Self.now)
      guard let user = users[connection], let credential = credentials[connection] else {
        throw BenchmarkError("peer-\(index) was not admitted")
      }
      let endpoint = MediaEndpointID(UInt64(index + 1))
      let authenticator = MediaAuthenticator(key: credential.key)
      members.append((user, endpoint))
      authenticators.append(authenticator)
      checks.removeAll()
      service.receiveDatagram(
        authenticator.sealed(
          MediaDatagram.bind(MediaBind(user: user, credential: credential.id)).encode()),
        from: endpoint, now: 1_000)
      guard let check = checks.first,
        let body = check.bytes.withUnsafeBytes({ MediaDatagram.body(ofSealed: $0).map(Array.init) }
        ),
        case .check(let nonce)? = try? MediaDatagram.decode(body)
      else { throw BenchmarkError("peer-\(index) got no return-path check") }
      service.receiveDatagram(
        authenticator.sealed(
          MediaDatagram.checkReply(credential: credential.id, nonce: nonce).encode()),
        from: endpoint, now: 1_001)
      for (layer, (width, height, bitrate)) in [
        (UInt16(320), UInt16(180), UInt32(150_000)), (640, 360, 500_000), (1280, 720, 1_500_000),
      ].enumerated() {
        service.receive(
          .media(
            .announce(
              StreamID(user: user, kind: .video, layer: UInt8(layer)), bitrate: bitrate,
              width: width, height: height)), from: connection, now: Self.now)
      }
    }
    // Each member watches the next `subscriptions` members (wrapping), at 180p so that the
    // estimate never moves a layer.
    for (index, member) in members.enumerated() {
      for step in 1...min(subscriptions, count - 1) {
        let publisher = members[(index + step) % count]
        service.receive(
          .media(.subscribe(publisher: publisher.user, kind: .video, maxLines: 180)),
          from: ConnectionID(UInt64(index + 1)), now: Self.now)
        floorFanOut[publisher.user, default: []].append(member.endpoint)
      }
    }
    for member in members {
      let video = MediaPacket(
        stream: StreamID(user: member.user, kind: .video, layer: 0), sequence: 0, frameID: 0,
        isKeyFrame: true, sendTime: 0, payloadBytes: 1_000, audioLevel: 127, width: 320,
        height: 180)
      datagrams.append((authenticators[datagrams.count].sealed(video.encode()), member.endpoint))
    }
  }

  /// Feeds `rounds` rounds of every datagram; returns the copies forwarded.
  func runService(rounds: Int) -> Int {
    copies.value = 0
    var now: Int64 = 2_000_000
    for _ in 0..<rounds {
      now &+= 1_000
      for datagram in datagrams {
        datagram.bytes.withUnsafeBytes { buffer in
          service.receiveDatagram(buffer, from: datagram.from, now: now)
        }
      }
    }
    return copies.value
  }

  /// The floor: the same datagrams, decoded and fanned out from a dictionary.
  func runFloor(rounds: Int, output: (MediaHostOutput) -> Void) -> Int {
    var copies = 0
    for _ in 0..<rounds {
      for datagram in datagrams {
        let decoded = datagram.bytes.withUnsafeBytes { buffer in
          MediaDatagram.body(ofSealed: buffer).flatMap { try? MediaDatagram.decode($0) }
        }
        guard case .packet(let packet) = decoded,
          let endpoints = floorFanOut[packet.stream.user]
        else { continue }
        output(.forward(datagram.bytes, to: endpoints))
        copies &+= endpoints.count
      }
    }
    return copies
  }
}
