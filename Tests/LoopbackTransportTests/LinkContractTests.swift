import LoopbackTransport
import SessionCore
import SessionService
import SessionTransport
import Testing

/// The link contract, run against the in-process link and the loopback link alike.
@Suite("Link contract")
struct LinkContractTests {
  @Test(arguments: LinkKind.allCases)
  func joiningDeliversASnapshotThatIncludesMyself(kind: LinkKind) throws {
    let world = try ContractWorld(kind)
    let ada = try world.join("Ada", role: .host)
    let snapshot = try #require(
      ada.messages.compactMap { if case .joined(let snapshot, _) = $0 { snapshot } else { nil } }
        .first)
    #expect(snapshot.sessionName == "Room")
    #expect(snapshot.participants.map(\.name) == ["Ada"])
    #expect(snapshot.participants.first?.id == snapshot.myself)
    world.shutdown()
  }

  @Test(arguments: LinkKind.allCases)
  func aCommandBecomesEventsForEveryMember(kind: LinkKind) throws {
    let world = try ContractWorld(kind)
    let ada = try world.join("Ada", role: .host)
    let alan = try world.join("Alan")
    let adaID = try #require(ada.user)
    try ada.send([.command(1, .startVideo)])
    let expected = SessionEvent.videoStatusChanged(user: adaID, isOn: true)
    for member in [ada, alan] {
      #expect(waitUntil { member.numberedEvents.contains { $0.1 == expected } })
    }
    world.shutdown()
  }

  @Test(arguments: LinkKind.allCases)
  func messagesKeepTheirOrderAndEveryMemberSeesOneSequence(kind: LinkKind) throws {
    let world = try ContractWorld(kind)
    let ada = try world.join("Ada", role: .host)
    let alan = try world.join("Alan")
    let adaID = try #require(ada.user)
    // 60 commands in one loop turn: toggles and numbered chat messages, interleaved.
    var commands: [ClientMessage] = []
    for index in 0..<30 {
      commands.append(.command(CommandID(2 * index + 1), index % 2 == 0 ? .startVideo : .stopVideo))
      commands.append(
        .command(CommandID(2 * index + 2), .sendChat(receiver: nil, content: "m\(index)")))
    }
    try ada.send(commands)
    let lastChat = "m29"
    for member in [ada, alan] {
      #expect(
        waitUntil {
          member.numberedEvents.contains {
            if case .chatMessageReceived(let message) = $0.1 {
              message.content == lastChat
            } else {
              false
            }
          }
        })
    }
    let adaEvents = ada.numberedEvents.filter { $0.0 > 0 }
    let alanEvents = alan.numberedEvents
    // Alan joined later, so he saw a suffix of Ada's numbering; both are gap-free.
    let tail = adaEvents.suffix(alanEvents.count)
    #expect(tail.map(\.0) == alanEvents.map(\.0))
    #expect(tail.map(\.1) == alanEvents.map(\.1))
    #expect(zip(alanEvents, alanEvents.dropFirst()).allSatisfy { $0.0 + 1 == $1.0 })
    let observed = alanEvents.compactMap { _, event -> String? in
      switch event {
      case .videoStatusChanged(let user, let isOn) where user == adaID: isOn ? "on" : "off"
      case .chatMessageReceived(let message): message.content
      default: nil
      }
    }
    let sent = (0..<30).flatMap { [$0 % 2 == 0 ? "on" : "off", "m\($0)"] }
    #expect(observed == sent)
    world.shutdown()
  }

  @Test(arguments: LinkKind.allCases)
  func aRefusedCommandIsAnsweredOnlyToItsSender(kind: LinkKind) throws {
    let world = try ContractWorld(kind)
    let ada = try world.join("Ada", role: .host)
    let alan = try world.join("Alan")
    try alan.send([.command(7, .lockShare(true))])  // a participant may not lock sharing
    #expect(
      alan.waitForMessage { $0 == .commandFailed(7, .sessionNoRights) } != nil)
    // A later accepted command is a barrier: once Ada sees its event, she has seen everything
    // sent to her before it.
    try alan.send([.command(8, .startVideo)])
    let alanID = try #require(alan.user)
    #expect(
      waitUntil {
        ada.numberedEvents.contains { $0.1 == .videoStatusChanged(user: alanID, isOn: true) }
      })
    #expect(!ada.messages.contains { if case .commandFailed = $0 { true } else { false } })
    #expect(
      !ada.numberedEvents.contains { if case .shareSettingChanged = $0.1 { true } else { false } })
    world.shutdown()
  }

  @Test(arguments: LinkKind.allCases)
  func closingTellsTheHostOnceAndClosingTwiceIsHarmless(kind: LinkKind) throws {
    let world = try ContractWorld(kind)
    let ada = try world.join("Ada", role: .host)
    let alan = try world.join("Alan")
    try alan.close(times: 2)
    #expect(waitUntil { world.closedConnections.contains(alan.connection) })
    let deliveredBeforeClose = alan.events.count
    // A barrier: Ada's command and its event after the close.
    try ada.send([.command(1, .startVideo)])
    let adaID = try #require(ada.user)
    #expect(
      waitUntil {
        ada.numberedEvents.contains { $0.1 == .videoStatusChanged(user: adaID, isOn: true) }
      })
    try alan.close()
    #expect(world.closedConnections == [alan.connection])
    // The closed link delivered nothing after the close, not even `.closed`.
    #expect(alan.events.count == deliveredBeforeClose)
    #expect(!alan.events.values.contains { if case .closed = $0 { true } else { false } })
    world.shutdown()
  }

  @Test(arguments: LinkKind.allCases)
  func closingFromTheHandlerStopsDeliveryAtOnce(kind: LinkKind) throws {
    let world = try ContractWorld(kind)
    let ada = try world.join("Ada", role: .host)
    let heard = Recorder<SessionEvent>()
    _ = try world.join("Alan") { link, event in
      guard case .message(.events(let batch)) = event else { return }
      for event in batch.events { heard.append(event) }
      if batch.events.contains(where: { if case .videoStatusChanged = $0 { true } else { false } })
      {
        link.close()
      }
    }
    // Twenty toggles in one loop turn: they reach Alan together, most in one read.
    try ada.send((1...20).map { .command(CommandID($0), $0 % 2 == 1 ? .startVideo : .stopVideo) })
    let adaID = try #require(ada.user)
    #expect(
      waitUntil {
        ada.numberedEvents.contains { $0.1 == .videoStatusChanged(user: adaID, isOn: false) }
          && world.closedConnections.count == 1
      })
    // Nothing after the toggle that closed the link.
    let toggles = heard.values.filter { if case .videoStatusChanged = $0 { true } else { false } }
    #expect(toggles == [.videoStatusChanged(user: adaID, isOn: true)])
    world.shutdown()
  }

  @Test(arguments: LinkKind.allCases)
  func closingLetsGoOfTheHandlerAtOnce(kind: LinkKind) throws {
    let world = try ContractWorld(kind)
    _ = try world.join("Ada", role: .host)
    var canary: Canary? = Canary()
    let watch = WeakCanary(canary!)
    let alan = try world.join("Alan") { [canary] _, _ in _ = canary }
    canary = nil
    #expect(waitUntil { world.closedConnections.isEmpty && watch.isAlive })
    // In the same loop turn as the close: the handler, and what only it held, are gone.
    let released = try world.loop.sync {
      alan.value.close()
      return !watch.isAlive
    }
    #expect(released, "the closed link kept its handler")
    world.shutdown()
  }
}

/// An object only a handler holds.
private final class Canary: Sendable {}

/// Watches a ``Canary`` without keeping it.
///
/// `@unchecked Sendable`: the weak reference is set once, in `init`, and only read after.
private final class WeakCanary: @unchecked Sendable {
  private weak var object: Canary?

  init(_ object: Canary) { self.object = object }

  var isAlive: Bool { object != nil }
}
