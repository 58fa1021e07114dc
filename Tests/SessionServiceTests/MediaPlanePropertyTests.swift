import SessionCore
import SessionTransport
import Testing

@testable import SessionService

/// Random members in two sessions sending random media requests and datagrams, garbage
/// included, with joins, leaves, drops, resumes and status changes between: nothing traps, and
/// the media plane stays consistent with membership after every step.
private final class MediaFuzzer {
  let world: MediaWorld
  var random: SimulationRandom
  /// Peers by slot; a slot may hold a peer that left (its messages are then refused).
  var peers: [MediaWorld.Peer?]
  var steps: [String] = []
  var breaches: [String] = []

  init(seed: UInt64) {
    random = SimulationRandom(seed: seed)
    world = MediaWorld { configuration in
      configuration.limits.maxUsers = 8
      configuration.secrets = .derived(seed: seed)
      configuration.media.maxVideoSubscriptions = 3
    }
    peers = Array(repeating: nil, count: 10)
  }

  func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
  func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
  func one<T>(of values: [T]) -> T { values[int(0...values.count - 1)] }

  var service: SessionService { world.service }

  /// A user id: usually one in use, sometimes any.
  func someUser() -> UserID {
    if chance(80), let peer = peers.compactMap({ $0 }).randomElement(using: &random) {
      return peer.user
    }
    return UserID(
      rawValue: chance(50) ? UInt32(int(0...12)) : UInt32.random(in: 0...UInt32.max, using: &random)
    )
  }

  func someKind() -> MediaKind { one(of: [.video, .audio, .share]) }

  func someStream(of user: UserID) -> StreamID {
    let kind = someKind()
    let layer: UInt8 =
      chance(5) ? UInt8(int(0...255)) : kind == .video ? UInt8(int(0...2)) : 0
    return StreamID(user: chance(85) ? user : someUser(), kind: kind, layer: layer)
  }

  func step() {
    if chance(10) {
      world.mediaNow &+= Int64(int(0...400_000))
      if chance(20) { world.harness.advance(by: Int64(int(0...11_000))) }
    }
    let slot = int(0...peers.count - 1)
    guard let peer = peers[slot] else {
      join(slot)
      return
    }
    switch int(0...99) {
    case 0..<3: join(slot)
    case 3..<5:
      world.harness.command(.leave(end: chance(20)), on: peer.connection)
      steps.append("\(slot) leaves")
    case 5..<7:
      world.harness.close(peer.connection)
      steps.append("\(slot) drops")
    case 7..<10:
      let resumed = world.harness.resume(
        peer.connection, resumeToken: chance(80) ? nil : random.next())
      peers[slot] = MediaWorld.Peer(connection: resumed, user: peer.user, endpoint: peer.endpoint)
      steps.append("\(slot) resumes")
    case 10..<16:
      let credential =
        chance(70)
        ? world.credential(peer)
        : MediaCredential(
          id: chance(50) ? world.credential(peer).id : random.next(),
          key: (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) })
      let endpoint = chance(70) ? peer.endpoint : world.newEndpoint()
      var claimant = peer
      claimant.user = chance(90) ? peer.user : someUser()
      world.bind(claimant, from: endpoint, credential: credential)
      peers[slot]?.endpoint = endpoint
      steps.append("\(slot) binds")
    case 16..<24:
      let command = one(of: [
        SessionCommand.startVideo, .stopVideo, .muteAudio(user: peer.user),
        .unmuteAudio(user: peer.user), .startAudio, .stopAudio, .startShare(kind: .view),
        .pauseShare, .resumeShare, .stopShare,
      ])
      world.harness.command(command, on: peer.connection)
      steps.append("\(slot) \(command.name)")
    case 24..<40:
      let request: MediaRequest
      switch int(0...3) {
      case 0:
        request = .subscribe(
          publisher: someUser(), kind: someKind(),
          maxLines: chance(20) ? .max : UInt16(int(0...1_200)))
      case 1: request = .unsubscribe(publisher: someUser(), kind: someKind())
      case 2:
        request = .announce(
          someStream(of: peer.user), bitrate: chance(10) ? .max : UInt32(int(0...3_000_000)),
          width: UInt16.random(in: 0...UInt16.max, using: &random),
          height: UInt16.random(in: 0...UInt16.max, using: &random))
      default: request = .withdraw(someStream(of: peer.user))
      }
      world.request(request, by: peer)
      steps.append("\(slot) \(request)")
    case 40..<80:
      let stream = someStream(of: peer.user)
      var packet = world.packet(stream, key: chance(40), level: UInt8(int(0...127)))
      if chance(5) { packet.sequence = .max }
      if chance(5) { packet.sendTime = one(of: [.min, .max]) }
      var bytes = packet.encode()
      if chance(10) { mutate(&bytes) }
      if chance(90) { bytes = world.authenticator(world.credential(peer)).sealed(bytes) }
      check(
        world.receive(bytes, from: chance(90) ? peer.endpoint : world.newEndpoint()), from: peer)
      steps.append("\(slot) packet \(stream)")
    case 80..<88:
      let report = ReceiverReport(
        subscriber: chance(90) ? peer.user : someUser(), stream: someStream(of: someUser()),
        highestSequence: UInt32.random(in: 0...UInt32.max, using: &random),
        packetsReceived: chance(10) ? .max : UInt32(int(0...100)),
        packetsLost: chance(10) ? .max : UInt32(int(0...100)), jitter: .max,
        lastSendTime: .min)
      if chance(5) { world.mediaNow &-= 1_000 }
      world.receive(.report(report), from: peer)
      steps.append("\(slot) report")
    case 88..<92:
      let outputs = world.receive(
        .ping(sendTime: Int64.random(in: .min ... .max, using: &random)), from: peer)
      if outputs.count > 1 { breaches.append("a ping caused \(outputs.count) outputs") }
      steps.append("\(slot) ping")
    default:
      let count = int(0...1_400)
      var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &random) }
      if count > 1, chance(50) {
        bytes[0] = chance(80) ? MediaDatagram.version : 1
        bytes[1] = UInt8(int(0...8))
        if chance(50) { bytes = world.authenticator(world.credential(peer)).sealed(bytes) }
      }
      check(
        world.receive(bytes, from: chance(50) ? peer.endpoint : world.newEndpoint()), from: peer)
      steps.append("\(slot) garbage of \(count)")
    }
  }

  func join(_ slot: Int) {
    let session = chance(70) ? "Room" : "Lab"
    do {
      peers[slot] = try world.join(
        "P\(slot)", session: session, videoOn: chance(50), muteAudio: chance(30),
        bind: chance(80))
      steps.append("\(slot) joins \(session)")
    } catch {
      steps.append("\(slot) join refused")
    }
  }

  func mutate(_ bytes: inout [UInt8]) {
    switch int(0...3) {
    case 0 where !bytes.isEmpty: bytes[int(0...bytes.count - 1)] = UInt8(int(0...255))
    case 1: bytes.removeLast(int(0...bytes.count))
    case 2: bytes += [UInt8](repeating: 0, count: int(1...1_300))
    default: bytes[1] = UInt8(int(0...9))
    }
  }

  /// A forward goes only to endpoints bound to members of the sender's session, never back to
  /// the sender.
  func check(_ outputs: [MediaHostOutput], from peer: MediaWorld.Peer) {
    for output in outputs {
      let endpoints: [MediaEndpointID]
      switch output {
      case .forward(_, let list): endpoints = list
      case .forwardNumbered(_, let list, let sequences):
        endpoints = list
        if sequences.count != list.count { breaches.append("a sequence per endpoint missing") }
      default: continue
      }
      if endpoints.isEmpty { breaches.append("a forward to nobody") }
      for endpoint in endpoints {
        guard let binding = service.mediaEndpoints[endpoint] else {
          breaches.append("forwarded to unbound \(endpoint)")
          continue
        }
        if binding.user == peer.user,
          service.mediaEndpoints[peer.endpoint]?.session === binding.session
        {
          breaches.append("forwarded back to its sender")
        }
      }
    }
  }

  /// The invariants: the router's members are the session's, every binding and token points at
  /// a live member that points back, and every datagram was handled or dropped exactly once.
  func consistencyProblems() -> [String] {
    var problems: [String] = []
    var members = 0
    for (key, session) in service.sessions {
      let router = session.media.router
      members += session.members.count
      if router.memberCount != session.members.count {
        problems.append(
          "\(key): router has \(router.memberCount), session \(session.members.count)")
      }
      for (user, member) in session.members {
        if !router.isMember(user) { problems.append("\(key): \(user) not in the router") }
        if let identity = member.media,
          service.mediaCredentials[identity.credential.id] !== identity
        {
          problems.append("\(key): \(user)'s credential binds nothing")
        }
        if let endpoint = session.media.member(user)?.endpoint {
          let binding = service.mediaEndpoints[endpoint]
          if binding?.session !== session || binding?.user != user {
            problems.append("\(key): \(user)'s \(endpoint) is not bound to it")
          }
        }
        if router.videoSubscriptionCount(of: user) > 3 {
          problems.append("\(key): \(user) holds more than 3 video subscriptions")
        }
      }
    }
    if service.mediaCredentials.count != members {
      problems.append("\(service.mediaCredentials.count) credentials for \(members) members")
    }
    for (endpoint, binding) in service.mediaEndpoints.pairs {
      if service.sessions[binding.session.key] !== binding.session {
        problems.append("\(endpoint) is bound into an ended session")
      }
      if binding.session.media.member(binding.user)?.endpoint != endpoint {
        problems.append("\(endpoint) is bound to \(binding.user), who has another")
      }
    }
    let statistics = service.mediaStatistics
    let handled =
      statistics.packetsRouted &+ statistics.bindsAccepted &+ statistics.pongsSent
      &+ statistics.reportsApplied &+ statistics.checksSent
    if handled &+ statistics.dropped.total != statistics.datagramsReceived {
      problems.append(
        "\(statistics.datagramsReceived) datagrams, \(handled) handled, \(statistics.dropped.total) dropped"
      )
    }
    return problems
  }
}

@Suite struct MediaPlanePropertyTests {
  @Test(arguments: 0..<12)
  func randomMediaTrafficNeverTrapsAndKeepsTheRouterConsistent(_ seed: Int) {
    let fuzzer = MediaFuzzer(seed: 0x3ED1_A000 + UInt64(seed))
    for _ in 0..<1_500 {
      fuzzer.step()
      let problems = fuzzer.consistencyProblems() + fuzzer.breaches
      if !problems.isEmpty {
        Issue.record("after \(fuzzer.steps.suffix(8)): \(problems)")
        return
      }
    }
    let statistics = fuzzer.service.mediaStatistics
    // The mix reaches the interesting paths.
    #expect(statistics.packetsForwarded > 0)
    #expect(statistics.dropped.malformed > 0)
    #expect(statistics.dropped.spoofed > 0)
    #expect(statistics.dropped.notSending > 0)
    #expect(statistics.bindsAccepted > 0)
    #expect(statistics.dropped.badBind > 0)
    #expect(fuzzer.world.harness.convergenceProblems().isEmpty)
  }
}
