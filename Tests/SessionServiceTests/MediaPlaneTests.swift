import SessionCore
import SessionTestSupport
import SessionTransport
import Testing

@testable import SessionService

/// The service's media plane: binding, anti-spoofing, forwarding, requests and notices.
@Suite struct MediaPlaneTests {
  // MARK: Binding

  @Test func anAuthenticBindIsCheckedOnItsReturnPathBeforeAnythingIsSentThere() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada", bind: false)
    let bob = try world.join("Bob", bind: false)
    let mark = world.harness.mark
    let credential = world.credential(ada)
    let outputs = world.receive(
      world.sealed(.bind(MediaBind(user: ada.user, credential: credential.id)), by: credential),
      from: ada.endpoint)
    // A check to the address the bind came from, and nothing bound yet.
    guard case .send(let bytes, let to)? = outputs.first, outputs.count == 1,
      case .check(let nonce)? = MediaWorld.decodeSealed(bytes)
    else {
      Issue.record("no check: \(outputs)")
      return
    }
    #expect(to == ada.endpoint)
    #expect(world.authenticator(credential).isAuthentic(bytes))
    #expect(world.notices(to: ada, since: mark).isEmpty)
    #expect(world.service.boundMediaEndpointCount == 0)
    // The echo from that address binds it.
    world.receive(
      world.sealed(.checkReply(credential: credential.id, nonce: nonce), by: credential),
      from: ada.endpoint)
    #expect(world.notices(to: ada, since: mark) == [.bound])
    #expect(world.notices(to: bob, since: mark).isEmpty)
    #expect(world.statistics.bindsAccepted == 1)
    #expect(world.statistics.checksSent == 1)
    #expect(world.service.boundMediaEndpointCount == 1)
    #expect(world.pins == [.endpointBound(ada.endpoint)])
  }

  @Test func everyBindFromTheBoundAddressIsAnsweredSoARetryAfterALostAnswerIsToo() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let mark = world.harness.mark
    let credential = world.credential(ada)
    for _ in 0..<3 {
      let outputs = world.receive(
        .bind(MediaBind(user: ada.user, credential: credential.id)), from: ada)
      #expect(outputs.isEmpty)  // no check: the address is proven already
    }
    #expect(world.notices(to: ada, since: mark) == [.bound, .bound, .bound])
    #expect(world.service.boundMediaEndpointCount == 1)
  }

  @Test func bindsWithAWrongCredentialUserOrTagAreDroppedAndCounted() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada", bind: false)
    let bob = try world.join("Bob", bind: false)
    let mark = world.harness.mark
    let mine = world.credential(ada)
    let theirs = world.credential(bob)
    let forged = MediaCredential(id: mine.id, key: [UInt8](repeating: 7, count: 32))
    // Unknown credential id; another member's id under my key; my id under a made-up key;
    // the right credential naming another user.
    world.receive(
      world.sealed(.bind(MediaBind(user: ada.user, credential: mine.id &+ 1)), by: mine),
      from: ada.endpoint)
    world.receive(
      world.sealed(.bind(MediaBind(user: bob.user, credential: theirs.id)), by: mine),
      from: ada.endpoint)
    world.receive(
      world.sealed(.bind(MediaBind(user: ada.user, credential: mine.id)), by: forged),
      from: ada.endpoint)
    world.receive(
      world.sealed(.bind(MediaBind(user: bob.user, credential: mine.id)), by: mine),
      from: ada.endpoint)
    #expect(world.notices(to: ada, since: mark).isEmpty)
    #expect(world.notices(to: bob, since: mark).isEmpty)
    #expect(world.statistics.dropped.badBind == 2)
    #expect(world.statistics.dropped.unauthenticated == 2)
    #expect(world.statistics.checksSent == 0)
    #expect(world.service.boundMediaEndpointCount == 0)
    // And the right one still binds.
    #expect(world.bind(ada) == [.bound])
  }

  @Test func aCheckReplyWithAWrongNonceOrFromAnotherAddressBindsNothing() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada", bind: false)
    let credential = world.credential(ada)
    let outputs = world.receive(
      world.sealed(.bind(MediaBind(user: ada.user, credential: credential.id)), by: credential),
      from: ada.endpoint)
    guard case .send(let bytes, _)? = outputs.first,
      case .check(let nonce)? = MediaWorld.decodeSealed(bytes)
    else {
      Issue.record("no check")
      return
    }
    let mark = world.harness.mark
    world.receive(
      world.sealed(.checkReply(credential: credential.id, nonce: nonce &+ 1), by: credential),
      from: ada.endpoint)
    world.receive(
      world.sealed(.checkReply(credential: credential.id, nonce: nonce), by: credential),
      from: world.newEndpoint())
    #expect(world.statistics.dropped.badCheck == 2)
    #expect(world.notices(to: ada, since: mark).isEmpty)
    #expect(world.service.boundMediaEndpointCount == 0)
    // A nonce is good once.
    world.receive(
      world.sealed(.checkReply(credential: credential.id, nonce: nonce), by: credential),
      from: ada.endpoint)
    #expect(world.notices(to: ada, since: mark) == [.bound])
    world.receive(
      world.sealed(.checkReply(credential: credential.id, nonce: nonce), by: credential),
      from: ada.endpoint)
    #expect(world.statistics.dropped.badCheck == 3)
  }

  @Test func aFloodOfBadBindsKeepsNoStateAndCostsNoCheck() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let endpoints = world.service.boundMediaEndpointCount
    let checks = world.statistics.checksSent
    var random = SimulationRandom(seed: 0xB1ED)
    for number in 0..<10_000 {
      var bind = MediaBind(
        user: UserID(rawValue: UInt32(truncatingIfNeeded: random.next())),
        credential: random.next()
      ).encode()
      for _ in 0..<MediaDatagram.trailerSize {
        bind.append(UInt8(truncatingIfNeeded: random.next()))
      }
      world.receive(bind, from: MediaEndpointID(UInt64(10_000 + number)))
    }
    #expect(world.statistics.dropped.badBind == 10_000)
    #expect(world.statistics.checksSent == checks)
    #expect(world.service.boundMediaEndpointCount == endpoints)
    #expect(world.service.mediaCredentials.count == 1)
    #expect(world.service.mediaEndpoints.count == 1)
    #expect(world.send(.audio, of: ada).isEmpty)  // still bound, nobody else to hear
  }

  @Test func aResumeKeepsTheBindingAndResendsTheCredential() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    world.announceSimulcast(ada)
    world.subscribeAndFlow(bob, to: ada)
    let old = world.token(bob)
    let credential = world.credential(bob)
    let resumed = world.harness.resume(bob.connection)
    let new = world.harness.clients[resumed]?.resumeToken
    #expect(new != nil && new != old)
    let bobAgain = MediaWorld.Peer(connection: resumed, user: bob.user, endpoint: bob.endpoint)
    #expect(world.credential(bobAgain) == credential)
    // The resume kept the member, its endpoint and its subscription.
    #expect(MediaWorld.recipients(world.send(.video, layer: 2, of: ada)) == [bob.endpoint])
    // A bind from a new address moves delivery there, after its check.
    let moved = MediaWorld.Peer(connection: resumed, user: bob.user, endpoint: world.newEndpoint())
    #expect(world.bind(moved) == [.bound])
    #expect(MediaWorld.recipients(world.send(.video, layer: 2, of: ada)) == [moved.endpoint])
    // The old token no longer resumes.
    let again = world.harness.resume(bob.connection, resumeToken: old)
    #expect(world.harness.messages(to: again).contains(.left(.networkError)))
  }

  @Test func rebindingMovesDeliveryToTheNewEndpoint() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    var bob = try world.join("Bob")
    world.announceSimulcast(ada)
    world.subscribeAndFlow(bob, to: ada)
    let oldEndpoint = bob.endpoint
    bob.endpoint = world.newEndpoint()
    world.bind(bob)
    #expect(MediaWorld.recipients(world.send(.video, layer: 2, of: ada)) == [bob.endpoint])
    // The old endpoint is bound to nobody now, and the transport may evict it.
    let ping = world.sealed(.ping(sendTime: 1), by: world.credential(bob))
    #expect(world.receive(ping, from: oldEndpoint).isEmpty)
    #expect(world.statistics.dropped.unbound == 1)
    #expect(world.service.boundMediaEndpointCount == 2)
    #expect(world.pins.contains(.endpointReleased(oldEndpoint)))
  }

  @Test func anAddressProvenByAnotherMemberStopsCarryingTheFirstWhoIsTold() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    let cy = try world.join("Cy")
    world.announceSimulcast(ada)
    world.subscribeAndFlow(cy, to: ada)
    let mark = world.harness.mark
    // Bob proves Ada's address his (a reused port): Ada hears she lost it, and her packets
    // from it (under her key) no longer pass.
    #expect(world.bind(bob, from: ada.endpoint) == [.bound])
    #expect(world.notices(to: ada, since: mark) == [.unbound(.replaced)])
    #expect(world.send(.video, layer: 2, of: ada).isEmpty)
    #expect(world.statistics.dropped.unauthenticated == 1)
    #expect(world.service.boundMediaEndpointCount == 2)
    // Ada binds a new address and is heard again.
    let adaAgain = MediaWorld.Peer(
      connection: ada.connection, user: ada.user, endpoint: world.newEndpoint())
    world.bind(adaAgain)
    #expect(MediaWorld.recipients(world.send(.video, layer: 2, of: adaAgain)) == [cy.endpoint])
  }

  // MARK: Ping

  @Test func aPingFromABoundEndpointIsAnsweredAtOnceWithItsTime() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    for time in [Int64.min, -1, 0, 123_456, .max] {
      let outputs = world.receive(.ping(sendTime: time), from: ada)
      guard case .send(let bytes, let to)? = outputs.first, outputs.count == 1 else {
        Issue.record("not one pong: \(outputs)")
        continue
      }
      #expect(to == ada.endpoint)
      #expect(MediaWorld.decodeSealed(bytes) == .pong(sendTime: time))
      #expect(world.authenticator(world.credential(ada)).isAuthentic(bytes))
    }
    #expect(world.statistics.pongsSent == 5)
  }

  @Test func pingsFromUnboundEndpointsAndPongsAreDropped() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    #expect(
      world.receive(
        world.sealed(.ping(sendTime: 5), by: world.credential(ada)), from: world.newEndpoint()
      )
      .isEmpty)
    #expect(world.receive(.pong(sendTime: 5), from: ada).isEmpty)
    #expect(world.statistics.dropped.unbound == 1)
    #expect(world.statistics.dropped.unexpected == 1)
    #expect(world.statistics.pongsSent == 0)
  }

  // MARK: Forwarding

  @Test func packetsGoUnchangedOnlyToSubscribersInOneOutput() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    let cy = try world.join("Cy")
    let dee = try world.join("Dee")
    world.announceSimulcast(ada)
    world.request(.subscribe(publisher: ada.user, kind: .video, maxLines: 0), by: bob)
    world.request(.subscribe(publisher: ada.user, kind: .video, maxLines: 0), by: dee)
    let bytes = world.sealed(
      world.packet(StreamID(user: ada.user, kind: .video, layer: 2)).encode(), as: ada)
    let outputs = world.receive(bytes, from: ada.endpoint)
    #expect(outputs == [.forward(bytes, to: [bob.endpoint, dee.endpoint])])
    #expect(!MediaWorld.recipients(outputs).contains(cy.endpoint))
    #expect(world.statistics.packetsForwarded == 2)
    #expect(world.statistics.bytesForwarded == UInt64(2 * bytes.count))
    // Another layer reaches nobody; the unchosen layers count as routed all the same.
    #expect(world.send(.video, layer: 0, of: ada).isEmpty)
    #expect(world.statistics.packetsRouted == 2)
  }

  @Test func aSubscriberWithNoBoundEndpointIsSkipped() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    let cy = try world.join("Cy", bind: false)
    world.announceSimulcast(ada)
    world.request(.subscribe(publisher: ada.user, kind: .video, maxLines: 0), by: bob)
    world.request(.subscribe(publisher: ada.user, kind: .video, maxLines: 0), by: cy)
    #expect(MediaWorld.recipients(world.send(.video, layer: 2, of: ada)) == [bob.endpoint])
  }

  @Test func unsubscribingStopsDelivery() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    world.announceSimulcast(ada)
    world.subscribeAndFlow(bob, to: ada)
    #expect(world.request(.unsubscribe(publisher: ada.user, kind: .video), by: bob).isEmpty)
    #expect(world.send(.video, layer: 2, of: ada).isEmpty)
    #expect(world.router?.subscription(of: bob.user, to: ada.user, kind: .video) == nil)
  }

  @Test func theLineLimitPicksTheLargestResolutionWithin() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    let cases: [(UInt16, MediaRouter.Resolution)] = [
      (0, .auto), (1, .p90), (90, .p90), (179, .p90), (180, .p180), (500, .p360), (720, .p720),
      (1079, .p720), (1080, .p1080), (.max, .p1080),
    ]
    for (lines, resolution) in cases {
      world.request(.subscribe(publisher: ada.user, kind: .video, maxLines: lines), by: bob)
      #expect(
        world.router?.subscription(of: bob.user, to: ada.user, kind: .video)?.resolution
          == resolution, "\(lines) lines")
    }
  }

  @Test func leavingRemovesTheMemberItsSubscriptionsAndItsEndpoint() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    world.announceSimulcast(ada)
    world.announceSimulcast(bob)
    world.subscribeAndFlow(bob, to: ada)
    world.subscribeAndFlow(ada, to: bob)
    world.harness.command(.leave(end: false), on: bob.connection)
    #expect(world.router?.isMember(bob.user) == false)
    #expect(world.router?.videoSubscriptionCount(of: ada.user) == 0)
    #expect(world.send(.video, layer: 2, of: ada).isEmpty)
    #expect(world.send(.video, layer: 2, of: bob).isEmpty)
    #expect(world.statistics.dropped.unbound == 1)
    #expect(world.service.boundMediaEndpointCount == 1)
    // Its credential binds nothing any more.
    world.bind(bob)
    #expect(world.statistics.dropped.badBind == 1)
  }

  @Test func aKickedMemberLeavesTheMediaPlane() throws {
    let world = MediaWorld()
    let host = try world.harness.join("Hal", role: .host)
    let ada = try world.join("Ada")
    world.harness.command(.removeUser(ada.user), on: host)
    #expect(world.router?.isMember(ada.user) == false)
    #expect(world.send(.audio, of: ada).isEmpty)
    #expect(world.statistics.dropped.unbound == 1)
  }

  @Test func anEndedSessionUnbindsEveryone() throws {
    let world = MediaWorld()
    let host = try world.harness.join("Hal", role: .host)
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    world.harness.command(.leave(end: true), on: host)
    #expect(world.router == nil)
    #expect(world.service.boundMediaEndpointCount == 0)
    #expect(world.service.mediaCredentials.isEmpty)
    world.send(.audio, of: ada)
    world.bind(bob)
    #expect(world.statistics.dropped.unbound == 1)
    #expect(world.statistics.dropped.badBind == 1)
  }

  @Test func aMemberWaitingForAResumeKeepsItsPlaceUntilTheGraceEnds() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    world.announceSimulcast(ada)
    world.subscribeAndFlow(bob, to: ada)
    world.harness.close(bob.connection)
    #expect(MediaWorld.recipients(world.send(.video, layer: 2, of: ada)) == [bob.endpoint])
    world.harness.advance(by: world.service.configuration.reconnectGrace)
    #expect(world.router?.isMember(bob.user) == false)
    #expect(world.send(.video, layer: 2, of: ada).isEmpty)
  }

  // MARK: Refusals of packets

  @Test func spoofedUnboundAndMalformedDatagramsAreDroppedAndOthersUnaffected() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    let cy = try world.join("Cy")
    world.announceSimulcast(ada)
    world.subscribeAndFlow(bob, to: ada)
    let good = world.packet(StreamID(user: ada.user, kind: .video, layer: 2)).encode()
    // Cy sends a packet of Ada's stream, under Cy's own key: spoofed.
    #expect(world.receive(world.sealed(good, as: cy), from: cy.endpoint).isEmpty)
    // An unbound endpoint sends Ada's packet.
    #expect(world.receive(world.sealed(good, as: ada), from: world.newEndpoint()).isEmpty)
    // Truncated, oversized, garbage, wrong version, all under Ada's key.
    for bytes in [Array(good.prefix(20)), good + [UInt8](repeating: 0, count: 1_300)] {
      #expect(world.receive(world.sealed(bytes, as: ada), from: ada.endpoint).isEmpty)
    }
    #expect(world.receive(world.sealed([0xFF, 0x00, 0x13], as: ada), from: ada.endpoint).isEmpty)
    #expect(world.receive(world.sealed([], as: ada), from: ada.endpoint).isEmpty)
    var wrongVersion = good
    wrongVersion[0] = 9
    #expect(world.receive(world.sealed(wrongVersion, as: ada), from: ada.endpoint).isEmpty)
    // And Ada's good packet with a wrong tag.
    #expect(world.receive(good + Array(repeating: 1, count: 24), from: ada.endpoint).isEmpty)
    #expect(world.statistics.dropped.unauthenticated == 1)
    let dropped = world.statistics.dropped
    #expect(dropped.spoofed == 1)
    #expect(dropped.unbound == 1)
    #expect(dropped.malformed == 5)
    #expect(world.statistics.malformedReasons[.truncated] == 2)
    #expect(world.statistics.malformedReasons[.tooLong] == 1)
    #expect(world.statistics.malformedReasons[.wrongVersion] == 2)
    // The relay goes on.
    #expect(MediaWorld.recipients(world.send(.video, layer: 2, of: ada)) == [bob.endpoint])
  }

  @Test func videoIsForwardedOnlyWhileTheCameraIsOnAndIsWithdrawnWhenItGoesOff() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    world.announceSimulcast(ada)
    world.subscribeAndFlow(bob, to: ada)
    world.harness.command(.stopVideo, on: ada.connection)
    #expect(world.send(.video, layer: 2, of: ada).isEmpty)
    #expect(world.statistics.dropped.notSending == 1)
    // The service withdrew the layers: the subscription waits for new ones.
    let waiting = world.router?.subscription(of: bob.user, to: ada.user, kind: .video)
    #expect(waiting?.targetLayer == nil)
    // Announcing while the camera is off is ignored.
    world.announceSimulcast(ada)
    #expect(world.statistics.requestsIgnored == 3)
    world.harness.command(.startVideo, on: ada.connection)
    // On again, but no layer announced: the router refuses the stale layer.
    #expect(world.send(.video, layer: 2, of: ada).isEmpty)
    #expect(world.statistics.dropped.unknownStream == 1)
    world.announceSimulcast(ada)
    #expect(MediaWorld.recipients(world.send(.video, layer: 2, of: ada)) == [bob.endpoint])
  }

  @Test func audioIsForwardedOnlyWhileConnectedAndUnmuted() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada", muteAudio: true)
    let bob = try world.join("Bob")
    #expect(world.send(.audio, of: ada, level: 10).isEmpty)
    #expect(world.statistics.dropped.notSending == 1)
    world.harness.command(.unmuteAudio(user: ada.user), on: ada.connection)
    #expect(MediaWorld.recipients(world.send(.audio, of: ada, level: 10)) == [bob.endpoint])
    world.harness.command(.muteAudio(user: ada.user), on: ada.connection)
    #expect(world.send(.audio, of: ada, level: 10).isEmpty)
    world.harness.command(.unmuteAudio(user: ada.user), on: ada.connection)
    world.harness.command(.stopAudio, on: ada.connection)
    #expect(world.send(.audio, of: ada, level: 10).isEmpty)
    #expect(world.statistics.dropped.notSending == 3)
  }

  @Test func shareIsForwardedOnlyWhileSharingUnpausedAndIsWithdrawnAtTheEnd() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    let share = StreamID(user: ada.user, kind: .share)
    // Not sharing: the announcement is ignored and packets dropped.
    world.request(.announce(share, bitrate: 800_000, width: 1920, height: 1080), by: ada)
    #expect(world.statistics.requestsIgnored == 1)
    #expect(world.send(.share, of: ada).isEmpty)
    world.harness.command(.startShare(kind: .view), on: ada.connection)
    world.request(.announce(share, bitrate: 800_000, width: 1920, height: 1080), by: ada)
    world.request(.subscribe(publisher: ada.user, kind: .share, maxLines: 0), by: bob)
    #expect(MediaWorld.recipients(world.send(.share, of: ada)) == [bob.endpoint])
    world.harness.command(.pauseShare, on: ada.connection)
    #expect(world.send(.share, of: ada).isEmpty)
    world.harness.command(.resumeShare, on: ada.connection)
    #expect(MediaWorld.recipients(world.send(.share, of: ada)) == [bob.endpoint])
    world.harness.command(.stopShare, on: ada.connection)
    #expect(world.send(.share, of: ada).isEmpty)
    #expect(world.statistics.dropped.notSending == 3)
    // A new share needs a new announcement: the old one was withdrawn.
    world.harness.command(.startShare(kind: .view), on: ada.connection)
    #expect(world.send(.share, of: ada).isEmpty)
    #expect(world.statistics.dropped.unknownStream == 1)
  }

  @Test func extremeFieldValuesPassWithoutTrapping() throws {
    // The clock jumps from Int64.min to Int64.max: consent would lapse, which is not what
    // this test looks at.
    let world = MediaWorld { $0.mediaConsentTimeout = 0 }
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    world.request(
      .announce(
        StreamID(user: ada.user, kind: .video, layer: 2), bitrate: .max, width: .max,
        height: .max), by: ada)
    world.request(.subscribe(publisher: ada.user, kind: .video, maxLines: .max), by: bob)
    for (sequence, time) in [(UInt32.max, Int64.min), (0, .max), (1, 0)] {
      let packet = MediaPacket(
        stream: StreamID(user: ada.user, kind: .video, layer: 2), sequence: sequence,
        frameID: sequence, isKeyFrame: true, sendTime: time,
        payloadBytes: UInt16(MediaPacket.maxPayloadBytes), width: .max, height: .max,
        framePackets: .max)
      world.mediaNow = time
      #expect(MediaWorld.recipients(world.receive(.packet(packet), from: ada)) == [bob.endpoint])
    }
    world.mediaNow = .max
    let report = ReceiverReport(
      subscriber: bob.user, stream: StreamID(user: ada.user, kind: .video, layer: 2),
      highestSequence: .max, packetsReceived: .max, packetsLost: .max, jitter: .max,
      lastSendTime: .min)
    world.receive(.report(report), from: bob)
    #expect(world.statistics.reportsApplied == 1)
  }

  // MARK: Requests

  @Test func announcementsOfOthersStreamsOrOutOfRangeLayersAreIgnored() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    // Bob announces and withdraws Ada's stream.
    world.request(
      .announce(StreamID(user: ada.user, kind: .video, layer: 0), bitrate: 1, width: 1, height: 1),
      by: bob)
    world.request(.withdraw(StreamID(user: ada.user, kind: .video, layer: 0)), by: bob)
    // A layer the wire would refuse, reaching the service in process.
    world.request(
      .announce(StreamID(user: ada.user, kind: .video, layer: 7), bitrate: 1, width: 1, height: 1),
      by: ada)
    world.request(.withdraw(StreamID(user: ada.user, kind: .share, layer: 3)), by: ada)
    #expect(world.statistics.requestsIgnored == 4)
    #expect(world.send(.video, of: ada).isEmpty)
    #expect(world.statistics.dropped.unknownStream == 1)
    // Ada's own announcement is accepted.
    world.request(
      .announce(StreamID(user: ada.user, kind: .video, layer: 0), bitrate: 1, width: 1, height: 1),
      by: ada)
    world.request(.subscribe(publisher: ada.user, kind: .video, maxLines: 0), by: bob)
    #expect(MediaWorld.recipients(world.send(.video, of: ada)) == [bob.endpoint])
    #expect(world.statistics.requestsIgnored == 4)
  }

  @Test func requestsFromConnectionsInNoSessionAreIgnored() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let stranger = world.harness.connect()
    let mark = world.harness.mark
    world.harness.send(
      .media(.subscribe(publisher: ada.user, kind: .video, maxLines: 0)), on: stranger)
    world.harness.send(.media(.withdraw(StreamID(user: ada.user, kind: .audio))), on: stranger)
    #expect(world.harness.records(since: mark).isEmpty)
    #expect(world.statistics.requestsIgnored == 2)
  }

  @Test func subscriptionsPastTheLimitAreRefusedWithExceededLimit() throws {
    let world = MediaWorld { $0.limits.maxUsers = 40 }
    let viewer = try world.join("Viewer")
    var publishers: [MediaWorld.Peer] = []
    for index in 0..<26 { publishers.append(try world.join("P\(index)", bind: false)) }
    for publisher in publishers.prefix(25) {
      #expect(
        world.request(
          .subscribe(publisher: publisher.user, kind: .video, maxLines: 360), by: viewer
        ).isEmpty)
    }
    let last = publishers[25]
    #expect(
      world.request(.subscribe(publisher: last.user, kind: .video, maxLines: 360), by: viewer)
        == [.subscribeRefused(publisher: last.user, kind: .video, reason: .exceededLimit)])
    // Subscribing again to one already held only changes its limit.
    #expect(
      world.request(
        .subscribe(publisher: publishers[0].user, kind: .video, maxLines: 0), by: viewer
      ).isEmpty)
    // One fewer, and the 26th fits.
    world.request(.unsubscribe(publisher: publishers[0].user, kind: .video), by: viewer)
    #expect(
      world.request(.subscribe(publisher: last.user, kind: .video, maxLines: 360), by: viewer)
        .isEmpty)
    #expect(world.statistics.subscribeRefusals == 1)
  }

  @Test func aSecondShareIsRefusedWithOneShare() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    let cy = try world.join("Cy")
    #expect(
      world.request(.subscribe(publisher: ada.user, kind: .share, maxLines: 0), by: cy).isEmpty)
    #expect(
      world.request(.subscribe(publisher: bob.user, kind: .share, maxLines: 0), by: cy)
        == [.subscribeRefused(publisher: bob.user, kind: .share, reason: .oneShare)])
    // The same share again is fine; after unsubscribing, the other one is too.
    #expect(
      world.request(.subscribe(publisher: ada.user, kind: .share, maxLines: 720), by: cy).isEmpty)
    world.request(.unsubscribe(publisher: ada.user, kind: .share), by: cy)
    #expect(
      world.request(.subscribe(publisher: bob.user, kind: .share, maxLines: 0), by: cy).isEmpty)
  }

  @Test func ownUnknownAndAudioSubscriptionsAreRefusedAsInvalid() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    let other = try world.join("Olga", session: "Other")
    let refusals: [(UserID, MediaKind)] = [
      (ada.user, .video),  // own
      (ada.user, .share),  // own
      (UserID(99), .video),  // unknown
      (bob.user, .audio),  // audio needs none
    ]
    for (publisher, kind) in refusals {
      #expect(
        world.request(.subscribe(publisher: publisher, kind: kind, maxLines: 0), by: ada)
          == [.subscribeRefused(publisher: publisher, kind: kind, reason: .invalid)],
        "\(publisher) \(kind)")
    }
    // Olga, in another session, cannot reach Room's members: Bob's id is nobody in hers.
    #expect(
      world.request(.subscribe(publisher: bob.user, kind: .video, maxLines: 0), by: other)
        == [.subscribeRefused(publisher: bob.user, kind: .video, reason: .invalid)])
    #expect(
      world.request(.subscribe(publisher: bob.user, kind: .video, maxLines: 0), by: ada).isEmpty)
  }

  @Test func aKeyFrameRequestReachesThePublisher() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    world.announceSimulcast(ada)
    world.request(.subscribe(publisher: ada.user, kind: .video, maxLines: 0), by: bob)
    let mark = world.harness.mark
    // A delta frame of the layer Bob waits for: nothing forwarded, a key frame asked for.
    #expect(world.send(.video, layer: 2, of: ada, key: false).isEmpty)
    let wanted = StreamID(user: ada.user, kind: .video, layer: 2)
    #expect(world.notices(to: ada, since: mark) == [.keyFrameRequested(wanted)])
    #expect(world.notices(to: bob, since: mark).isEmpty)
    #expect(world.statistics.keyFrameRequests == 1)
    // The key frame flows; nothing more is asked.
    #expect(MediaWorld.recipients(world.send(.video, layer: 2, of: ada)) == [bob.endpoint])
    #expect(world.notices(to: ada, since: mark).count == 1)
  }

  // MARK: Reports and estimates

  /// Bob's feedback on his downlink.
  private static func feedback(
    _ bob: MediaWorld.Peer, lost: UInt32 = 0, rate: UInt32 = 1_000_000, queue: UInt32 = 0,
    signal: DownlinkFeedback.DelaySignal = .normal
  ) -> MediaDatagram {
    .feedback(
      DownlinkFeedback(
        subscriber: bob.user, packetsReceived: 100 - lost, packetsLost: lost, receiveRate: rate,
        queueDelay: queue, signal: signal))
  }

  @Test func feedbackMovesTheEstimateAndMovesOverATenthAreNoticed() throws {
    let world = MediaWorld()
    let (_, bob) = try world.publisherAndViewer()
    let mark = world.harness.mark
    world.receive(Self.feedback(bob), from: bob)
    #expect(world.notices(to: bob, since: mark) == [.downlinkEstimate(4_000_000)])
    // No loss for a second: the estimate holds at its ceiling; no new notice.
    world.mediaNow += 1_000_000
    world.receive(Self.feedback(bob), from: bob)
    #expect(world.notices(to: bob, since: mark).count == 1)
    // Half lost behind a queue (200 ms): cut by a quarter from what flows (the 1.5 Mbit/s top
    // layer, below the estimate), noticed.
    world.mediaNow += 1_000_000
    world.receive(Self.feedback(bob, lost: 50, queue: 200_000), from: bob)
    #expect(
      world.notices(to: bob, since: mark) == [
        .downlinkEstimate(4_000_000), .downlinkEstimate(1_125_000),
      ])
    // 15% lost behind the queue: cut by 7.5%, under a tenth: not noticed.
    world.mediaNow += 1_000_000
    world.receive(Self.feedback(bob, lost: 15, queue: 200_000), from: bob)
    #expect(world.notices(to: bob, since: mark).count == 2)
    #expect(world.statistics.feedbackApplied == 4)
    #expect(world.statistics.estimateNotices == 2)
  }

  @Test func overuseConfirmedByTheNextFeedbackCutsToWhatArrives() throws {
    let world = MediaWorld()
    let (_, bob) = try world.publisherAndViewer()
    world.receive(Self.feedback(bob), from: bob)
    let mark = world.harness.mark
    // One reading of overuse, or one under the 100 ms bound, cuts nothing.
    world.mediaNow += 150_000
    world.receive(Self.feedback(bob, rate: 400_000, queue: 60_000, signal: .overusing), from: bob)
    world.mediaNow += 150_000
    world.receive(Self.feedback(bob, rate: 400_000, queue: 120_000, signal: .overusing), from: bob)
    #expect(world.notices(to: bob, since: mark).isEmpty)
    // The queue still there and longer 150 ms on: cut to 85% of what arrives.
    world.mediaNow += 150_000
    world.receive(Self.feedback(bob, rate: 400_000, queue: 180_000, signal: .overusing), from: bob)
    #expect(world.notices(to: bob, since: mark) == [.downlinkEstimate(340_000)])
  }

  @Test func aMemberWaitingForAResumeHearsItsEstimateAfterItsNextFeedback() throws {
    let world = MediaWorld()
    _ = try world.join("Ada")
    let bob = try world.join("Bob")
    world.harness.close(bob.connection)
    world.receive(Self.feedback(bob), from: bob)
    #expect(world.statistics.feedbackApplied == 1)
    #expect(world.statistics.estimateNotices == 0)
    let resumed = world.harness.resume(bob.connection)
    let mark = world.harness.mark
    world.mediaNow += 500_000
    world.receive(Self.feedback(bob), from: bob)
    let bobAgain = MediaWorld.Peer(connection: resumed, user: bob.user, endpoint: bob.endpoint)
    #expect(world.notices(to: bobAgain, since: mark) == [.downlinkEstimate(4_000_000)])
  }

  @Test func feedbackFromTheWrongEndpointOrBackInTimeIsDropped() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    let feedback = Self.feedback(bob, lost: 100)
    let mark = world.harness.mark
    world.receive(feedback, from: ada)  // names Bob, sent from Ada's endpoint
    world.receive(world.sealed(feedback.encode(), as: bob), from: world.newEndpoint())
    #expect(world.statistics.dropped.spoofed == 1)
    #expect(world.statistics.dropped.unbound == 1)
    world.receive(feedback, from: bob)
    world.mediaNow -= 1
    world.receive(feedback, from: bob)
    #expect(world.statistics.dropped.badReport == 1)
    #expect(world.statistics.feedbackApplied == 1)
    #expect(world.notices(to: ada, since: mark).isEmpty)
  }

  @Test func reportsAreCheckedAndCountedAndMoveNoEstimate() throws {
    let world = MediaWorld()
    let (ada, bob) = try world.publisherAndViewer()
    func report(_ stream: StreamID, lost: UInt32) -> MediaDatagram {
      .report(
        ReceiverReport(
          subscriber: bob.user, stream: stream, highestSequence: .max, packetsReceived: 0,
          packetsLost: lost, jitter: .max, lastSendTime: .min))
    }
    let mark = world.harness.mark
    // A report on a stream Bob watches, however absurd its figures: counted, nothing moves.
    world.receive(report(StreamID(user: ada.user, kind: .video, layer: 2), lost: .max), from: bob)
    #expect(world.statistics.reportsApplied == 1)
    // A stream Bob does not watch (Ada's share, Ada's audio, his own video): refused.
    for stream in [
      StreamID(user: ada.user, kind: .share), StreamID(user: ada.user, kind: .audio),
      StreamID(user: bob.user, kind: .video, layer: 0),
    ] {
      world.receive(report(stream, lost: 1), from: bob)
    }
    #expect(world.statistics.dropped.badReport == 3)
    #expect(world.statistics.reportsApplied == 1)
    #expect(world.notices(to: bob, since: mark).isEmpty)
    #expect(world.service.mediaRouter(ofSession: "Room")?.estimate(of: bob.user) == 4_000_000)
  }

  @Test func aFloodOfPingsAndFeedbackIsThrottledAndCostsOthersNothing() throws {
    let world = MediaWorld()
    let (ada, bob) = try world.publisherAndViewer()
    let mark = world.harness.mark
    // 500 pings and 500 feedbacks claiming total loss in one second.
    for index in 0..<1_000 {
      world.mediaNow += 1_000
      world.receive(
        index.isMultiple(of: 2) ? .ping(sendTime: 1) : Self.feedback(bob, lost: 100), from: bob)
    }
    let limit = UInt64(SessionService.maxControlPerSecond)
    #expect(world.statistics.dropped.throttled == 1_000 - limit)
    #expect(world.statistics.pongsSent + world.statistics.feedbackApplied == limit)
    // Ada's stream still reaches Bob, and Ada heard nothing of it.
    #expect(MediaWorld.recipients(world.send(.video, layer: 2, of: ada)) == [bob.endpoint])
    #expect(world.notices(to: ada, since: mark).isEmpty)
    // The next second, Bob is heard again.
    world.mediaNow += 1_000_000
    world.receive(.ping(sendTime: 2), from: bob)
    #expect(world.statistics.dropped.throttled == 1_000 - limit)
  }

  // MARK: Audio

  @Test func theLoudestThreeTalkersReachEachMember() throws {
    let world = MediaWorld()
    var talkers: [MediaWorld.Peer] = []
    for name in ["Ann", "Ben", "Cal", "Dot"] { talkers.append(try world.join(name)) }
    let listener = try world.join("Lee")
    let levels: [UInt8] = [10, 20, 30, 40]  // Ann loudest
    var last: [UserID: [MediaEndpointID]] = [:]
    for _ in 0..<20 {
      world.mediaNow += 20_000
      for (talker, level) in zip(talkers, levels) {
        last[talker.user] = MediaWorld.recipients(world.send(.audio, of: talker, level: level))
      }
    }
    let everyone = talkers.map(\.endpoint) + [listener.endpoint]
    for talker in talkers.prefix(3) {
      #expect(Set(last[talker.user] ?? []) == Set(everyone).subtracting([talker.endpoint]))
    }
    // The fourth reaches only the three loudest, who do not hear themselves.
    #expect(Set(last[talkers[3].user] ?? []) == Set(talkers.prefix(3).map(\.endpoint)))
    #expect(world.router?.loudestSpeakers == talkers.prefix(3).map(\.user))
  }

  // MARK: The lent-buffer path

  @Test func theLentBufferPathActsAsTheArrayPath() throws {
    let world = MediaWorld()
    let ada = try world.join("Ada")
    let bob = try world.join("Bob")
    world.announceSimulcast(ada)
    world.subscribeAndFlow(bob, to: ada)
    let bytes = world.packet(StreamID(user: ada.user, kind: .video, layer: 2)).encode()
    let array = world.receive(bytes, from: ada.endpoint)
    var lent: [MediaHostOutput] = []
    world.service.attachMedia { lent.append($0) }
    bytes.withUnsafeBytes {
      world.service.receiveDatagram($0, from: ada.endpoint, now: world.mediaNow)
    }
    [UInt8(1)].withUnsafeBytes {
      world.service.receiveDatagram($0, from: ada.endpoint, now: world.mediaNow)
    }
    #expect(lent == array)
    #expect(world.statistics.dropped.malformed == 1)
  }
}
