import SessionCore
import SessionService
import SessionTestSupport
import SessionTransport
import Testing

/// A ``ServiceHarness`` with the service's media plane attached: members with endpoints,
/// datagrams in, the media outputs recorded.
///
/// Media times are µs (`mediaNow`); signalling times stay the harness's milliseconds.
///
/// > Important: Not `Sendable`; each test makes its own.
final class MediaWorld {
  /// A member: its signalling connection, user id and media endpoint.
  struct Peer {
    var connection: ConnectionID
    var user: UserID
    var endpoint: MediaEndpointID
  }

  /// The simulcast layers every publisher announces: 180p, 360p, 720p.
  static let simulcast: [(width: UInt16, height: UInt16, bitrate: UInt32)] = [
    (320, 180, 150_000), (640, 360, 500_000), (1280, 720, 1_500_000),
  ]

  let harness: ServiceHarness
  var service: SessionService { harness.service }
  /// Every media output that sends, in order (``pins`` has the others).
  private(set) var outputs: [MediaHostOutput] = []
  /// Every ``MediaHostOutput/endpointBound(_:)`` and ``MediaHostOutput/endpointReleased(_:)``.
  private(set) var pins: [MediaHostOutput] = []
  private var authenticators: [MediaCredential: MediaAuthenticator] = [:]
  private var credentials: [ConnectionID: MediaCredential] = [:]
  /// The media clock, µs.
  var mediaNow: Int64 = 1_000_000
  private var nextEndpoint: UInt64 = 100
  private var sequences: [StreamID: UInt32] = [:]

  init(configure: (inout ServiceConfiguration) -> Void = { _ in }) {
    harness = ServiceHarness(configure: configure)
    harness.service.attachMedia { [unowned self] output in
      switch output {
      case .endpointBound, .endpointReleased: pins.append(output)
      default: outputs.append(output)
      }
    }
  }

  /// A new endpoint number.
  func newEndpoint() -> MediaEndpointID {
    nextEndpoint += 1
    return MediaEndpointID(nextEndpoint)
  }

  /// Joins a member and binds a new endpoint to it with its resume token.
  func join(
    _ name: String, session: String = "Room", videoOn: Bool = true, muteAudio: Bool = false,
    bind: Bool = true
  ) throws -> Peer {
    let connection = try harness.join(
      name, session: session, muteAudio: muteAudio, videoOn: videoOn)
    let peer = Peer(
      connection: connection, user: harness.user(connection), endpoint: newEndpoint())
    if bind {
      #expect(self.bind(peer) == [.bound], "\(name) not bound")
    }
    return peer
  }

  /// The peer's current resume token, as its client holds it.
  func token(_ peer: Peer) -> UInt64 { harness.clients[peer.connection]?.resumeToken ?? 0 }

  /// The media credential the peer's connection last heard.
  func credential(_ peer: Peer) -> MediaCredential {
    if let known = credentials[peer.connection] { return known }
    for message in harness.messages(to: peer.connection, since: 0).reversed() {
      if case .media(.credential(let credential)) = message {
        credentials[peer.connection] = credential
        return credential
      }
    }
    // A connection that never joined (a refused resume): a credential no member has.
    return MediaCredential(id: 0, key: [])
  }

  /// The authenticator of a credential's key.
  func authenticator(_ credential: MediaCredential) -> MediaAuthenticator {
    if let known = authenticators[credential] { return known }
    let made = MediaAuthenticator(key: credential.key)
    authenticators[credential] = made
    return made
  }

  /// Bytes (any, well-formed or not) tagged under the peer's key, as its client would send
  /// them.
  func sealed(_ bytes: [UInt8], as peer: Peer) -> [UInt8] {
    authenticator(credential(peer)).sealed(bytes)
  }

  /// A datagram's bytes tagged under `credential`'s key.
  func sealed(_ datagram: MediaDatagram, by credential: MediaCredential) -> [UInt8] {
    authenticator(credential).sealed(datagram.encode())
  }

  /// Binds `endpoint` (the peer's own by default) with `credential` (the peer's by default):
  /// the bind, then the reply to the check it brings, as a client does. Returns the notices
  /// the peer got.
  @discardableResult
  func bind(
    _ peer: Peer, from endpoint: MediaEndpointID? = nil, credential: MediaCredential? = nil
  ) -> [MediaNotice] {
    let mark = harness.mark
    let endpoint = endpoint ?? peer.endpoint
    let credential = credential ?? self.credential(peer)
    let outputs = receive(
      sealed(.bind(MediaBind(user: peer.user, credential: credential.id)), by: credential),
      from: endpoint)
    for case .send(let bytes, let to) in outputs where to == endpoint {
      guard case .check(let nonce)? = Self.decodeSealed(bytes) else { continue }
      receive(
        sealed(.checkReply(credential: credential.id, nonce: nonce), by: credential),
        from: endpoint)
    }
    return notices(to: peer, since: mark)
  }

  /// A datagram the service sent, without its tag.
  static func decodeSealed(_ bytes: [UInt8]) -> MediaDatagram? {
    bytes.withUnsafeBytes { sealed in
      MediaDatagram.body(ofSealed: sealed).flatMap { try? MediaDatagram.decode($0) }
    }
  }

  /// Feeds a datagram from `endpoint` and returns the media outputs it caused.
  @discardableResult
  func receive(_ bytes: [UInt8], from endpoint: MediaEndpointID) -> [MediaHostOutput] {
    let start = outputs.count
    service.receiveDatagram(bytes, from: endpoint, now: mediaNow)
    return Array(outputs[start...])
  }

  /// Feeds a datagram from the peer's endpoint, tagged under the peer's key.
  @discardableResult
  func receive(_ datagram: MediaDatagram, from peer: Peer) -> [MediaHostOutput] {
    receive(sealed(datagram, by: credential(peer)), from: peer.endpoint)
  }

  /// Sends a media request on the peer's connection and returns the media notices it got.
  @discardableResult
  func request(_ request: MediaRequest, by peer: Peer) -> [MediaNotice] {
    let mark = harness.mark
    harness.send(.media(request), on: peer.connection)
    return notices(to: peer, since: mark)
  }

  /// Media notices sent to the peer's connection since `mark`.
  func notices(to peer: Peer, since mark: Int) -> [MediaNotice] {
    harness.messages(to: peer.connection, since: mark).compactMap { message in
      if case .media(let notice) = message { notice } else { nil }
    }
  }

  /// Announces the three simulcast layers of the peer's video.
  func announceSimulcast(_ peer: Peer) {
    for (layer, description) in Self.simulcast.enumerated() {
      request(
        .announce(
          StreamID(user: peer.user, kind: .video, layer: UInt8(layer)),
          bitrate: description.bitrate, width: description.width, height: description.height),
        by: peer)
    }
  }

  /// The next packet of a stream (sequence numbers count per stream).
  func packet(
    _ stream: StreamID, key: Bool = true, level: UInt8 = 127, payload: UInt16 = 100
  ) -> MediaPacket {
    let sequence = sequences[stream, default: 0]
    sequences[stream] = sequence &+ 1
    return MediaPacket(
      stream: stream, sequence: sequence, frameID: sequence, isKeyFrame: key,
      sendTime: mediaNow, payloadBytes: payload, audioLevel: stream.kind == .audio ? level : 127,
      width: stream.kind == .audio ? 0 : 1280, height: stream.kind == .audio ? 0 : 720)
  }

  /// Sends the next packet of the peer's stream from its endpoint; returns the outputs.
  @discardableResult
  func send(
    _ kind: MediaKind, layer: UInt8 = 0, of peer: Peer, key: Bool = true, level: UInt8 = 127
  ) -> [MediaHostOutput] {
    let stream = StreamID(user: peer.user, kind: kind, layer: layer)
    return receive(.packet(packet(stream, key: key, level: level)), from: peer)
  }

  /// The endpoints the outputs forwarded to, in order.
  static func recipients(_ outputs: [MediaHostOutput]) -> [MediaEndpointID] {
    outputs.flatMap { output -> [MediaEndpointID] in
      switch output {
      case .forward(_, let endpoints), .forwardNumbered(_, let endpoints, _): endpoints
      default: []
      }
    }
  }

  /// Subscribes `subscriber` to `publisher`'s video with no line limit and lets a key frame of
  /// the top layer through; expects it forwarded.
  func subscribeAndFlow(_ subscriber: Peer, to publisher: Peer) {
    #expect(
      request(.subscribe(publisher: publisher.user, kind: .video, maxLines: 0), by: subscriber)
        .isEmpty)
    let reached = Self.recipients(send(.video, layer: 2, of: publisher))
    #expect(reached.contains(subscriber.endpoint))
  }

  /// A publisher (Pat, simulcast announced) and a viewer (Vi) watching its top layer.
  func publisherAndViewer() throws -> (publisher: Peer, viewer: Peer) {
    let publisher = try join("Pat")
    let viewer = try join("Vi")
    announceSimulcast(publisher)
    subscribeAndFlow(viewer, to: publisher)
    return (publisher, viewer)
  }

  var statistics: MediaPlaneStatistics { service.mediaStatistics }
  var router: MediaRouter? { service.mediaRouter(ofSession: "Room") }
}
