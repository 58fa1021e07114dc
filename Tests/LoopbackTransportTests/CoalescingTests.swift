import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Testing

/// `LoopbackServerConfiguration.coalescesEventBatches`: a turn's event broadcasts to the same
/// receivers leave as one batch, and nothing else changes.
@Suite("Coalesced event batches")
struct CoalescingTests {
  @Test func mergedBatchesKeepEveryConnectionsOrderIncludingRefusalsBetweenThem() throws {
    let world = try ContractWorld(
      .loopback, server: LoopbackServerConfiguration(coalescesEventBatches: true))
    let ada = try world.join("Ada", role: .host)
    let alan = try world.join("Alan")
    let adaID = try #require(ada.user)
    let framesBefore = try #require(try world.loopbackServer?.statistics().framesSent)

    // One loop turn: toggles and chats, with a refused command (Alan may not lock) in between.
    var commands: [ClientMessage] = []
    for index in 0..<40 {
      commands.append(.command(CommandID(index + 1), index % 2 == 0 ? .startVideo : .stopVideo))
      commands.append(
        .command(CommandID(100 + index), .sendChat(receiver: nil, content: "m\(index)")))
    }
    try ada.send(Array(commands[..<40]))
    try alan.send([.command(7, .lockShare(true)), .command(8, .startVideo)])
    try ada.send(Array(commands[40...]))

    let alanID = try #require(alan.user)
    for member in [ada, alan] {
      #expect(
        waitUntil {
          member.numberedEvents.contains {
            if case .chatMessageReceived(let message) = $0.1 {
              message.content == "m39"
            } else {
              false
            }
          }
            && member.numberedEvents.contains {
              $0.1 == .videoStatusChanged(user: alanID, isOn: true)
            }
        })
    }
    // Both members saw one gap-free numbering and the same events in the same order.
    let adaEvents = ada.numberedEvents.suffix(alan.numberedEvents.count)
    #expect(adaEvents.map(\.0) == alan.numberedEvents.map(\.0))
    #expect(adaEvents.map(\.1) == alan.numberedEvents.map(\.1))
    #expect(zip(adaEvents, adaEvents.dropFirst()).allSatisfy { $0.0 + 1 == $1.0 })
    let adaOrder = ada.numberedEvents.compactMap { _, event -> String? in
      switch event {
      case .videoStatusChanged(let user, let isOn) where user == adaID: isOn ? "on" : "off"
      case .chatMessageReceived(let message): message.content
      default: nil
      }
    }
    let sent = (0..<40).flatMap { [$0 % 2 == 0 ? "on" : "off", "m\($0)"] }
    #expect(adaOrder == sent)
    // Alan's refusal reached Alan alone, before the event of his next command.
    let alanMessages = alan.messages
    let refusal = try #require(alanMessages.firstIndex(of: .commandFailed(7, .sessionNoRights)))
    let ownVideo = try #require(
      alanMessages.firstIndex {
        guard case .events(let batch) = $0 else { return false }
        return batch.events.contains(.videoStatusChanged(user: alanID, isOn: true))
      })
    #expect(refusal < ownVideo)
    #expect(!ada.messages.contains { if case .commandFailed = $0 { true } else { false } })
    // Fewer frames than events: 81 events to each of 2 members, merged.
    let frames = try #require(try world.loopbackServer?.statistics().framesSent) - framesBefore
    #expect(frames < 2 * 81, "\(frames) frames for 162 deliveries")
    world.shutdown()
  }

  @Test func sdkReplicasConvergeWithCoalescedBatches() throws {
    let harness = try LoopbackHarness(
      server: LoopbackServerConfiguration(coalescesEventBatches: true))
    let grace = try harness.join("Grace", role: .host)
    var peers = [grace]
    for index in 1...8 { peers.append(try harness.join("Student \(index)")) }
    for peer in peers {
      try peer.run { sdk in
        for _ in 0..<5 {
          sdk.getVideoHelper().startVideo()
          sdk.getVideoHelper().stopVideo()
        }
        sdk.getVideoHelper().startVideo()
        _ = sdk.getChatHelper().SendChatToAll("hello")
      }
    }
    let graceID = try #require(try grace.myID())
    #expect(peers[8].waitFor(.onUserVideoStatusChanged([graceID]), count: 11))
    #expect(
      try waitUntil {
        try harness.serviceFacts()?.participants.values.allSatisfy(\.isVideoOn) == true
      })
    try harness.waitForConvergence(peers)
    harness.shutdown()
  }
}
