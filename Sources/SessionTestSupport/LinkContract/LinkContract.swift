import SessionCore
import SessionService
import SessionTransport
import Testing

/// One check of the link contract (``SessionTransport/SessionLink``), runnable against any
/// ``LinkContractWorld``; ``cases`` lists them all.
///
/// ```swift
/// @Test(arguments: LinkContract.cases)
/// func contract(_ check: LinkContract) throws {
///   try check.run(in: MyLinkWorld())
/// }
/// ```
///
/// Failures are recorded with Swift Testing (`#expect`, `#require`) inside the case, under the
/// test that ran it; the case's ``name`` is its argument's description.
///
/// A value; `Sendable`. The world a case runs in is used on the caller's domain.
public struct LinkContract: Sendable, CustomStringConvertible, CustomTestStringConvertible {
  /// The case's name, for example `"messagesKeepTheirOrderAndEveryMemberSeesOneSequence"`.
  public let name: String
  /// What the case checks, in a sentence.
  public let summary: String
  private let body: @Sendable (any LinkContractWorld) throws -> Void

  private init(
    _ name: String, _ summary: String,
    _ body: @escaping @Sendable (any LinkContractWorld) throws -> Void
  ) {
    self.name = name
    self.summary = summary
    self.body = body
  }

  /// The name.
  public var description: String { name }

  /// The name, as Swift Testing shows the argument.
  public var testDescription: String { name }

  /// Runs the case in `world`, then shuts the world down (also when the case throws).
  ///
  /// - Parameter world: A fresh world; the case uses it up.
  /// - Throws: What the case threw: a failed `#require`, or the world's error.
  public func run(in world: some LinkContractWorld) throws {
    defer { world.shutdown() }
    try body(world)
  }

  /// Every case, in a fixed order.
  public static let cases: [LinkContract] = [
    LinkContract(
      "joiningDeliversASnapshotThatIncludesMyself",
      "a join answers `.joined` with the session's snapshot, whose only participant is the joiner",
      joiningDeliversASnapshotThatIncludesMyself),
    LinkContract(
      "aCommandBecomesEventsForEveryMember",
      "one member's command reaches every member, the sender included, as a numbered event",
      aCommandBecomesEventsForEveryMember),
    LinkContract(
      "messagesKeepTheirOrderAndEveryMemberSeesOneSequence",
      "60 commands sent in one turn arrive in order, and every member sees one gap-free "
        + "numbering with the same events",
      messagesKeepTheirOrderAndEveryMemberSeesOneSequence),
    LinkContract(
      "aRefusedCommandIsAnsweredOnlyToItsSender",
      "a refusal reaches its sender alone, and changes nothing for the others",
      aRefusedCommandIsAnsweredOnlyToItsSender),
    LinkContract(
      "closingTellsTheHostOnceAndClosingTwiceIsHarmless",
      "`close()` reaches the host once however often it is called, and the link delivers "
        + "nothing after it, not even `.closed`",
      closingTellsTheHostOnceAndClosingTwiceIsHarmless),
    LinkContract(
      "closingFromTheHandlerStopsDeliveryAtOnce",
      "a handler that closes its link hears nothing more, even of messages that arrived with "
        + "the one it was handling",
      closingFromTheHandlerStopsDeliveryAtOnce),
    LinkContract(
      "closingLetsGoOfTheHandlerAtOnce",
      "`close()` releases the handler, and what only it held, before it returns",
      closingLetsGoOfTheHandlerAtOnce),
    LinkContract(
      "theHostClosingAConnectionReachesItsLinkOnce",
      "a connection the host closes (a resume superseding it) ends its link with one "
        + "`.closed(.closedByPeer)`, the host hears of the close once, and the new link works",
      theHostClosingAConnectionReachesItsLinkOnce),
    LinkContract(
      "heartbeatsKeepALinkOpenAsTimePasses",
      "heartbeats are answered, and a link that sends them outlives the host's heartbeat "
        + "timeout as the world's clock moves",
      heartbeatsKeepALinkOpenAsTimePasses),
  ]

  /// The case with this name.
  ///
  /// - Parameter name: A case's ``name``.
  /// - Returns: The case, or `nil` when none has that name.
  public static func named(_ name: String) -> LinkContract? {
    cases.first { $0.name == name }
  }

  // MARK: Credentials

  /// The fixture the cases set up with: the development credentials, tokens and contexts.
  public static let fixture = SessionFixture()
  /// The service configuration the cases assume: the fixture's credentials, and the defaults
  /// otherwise (a heartbeat timeout of 15 s, which `heartbeatsKeepALinkOpenAsTimePasses`
  /// needs to be longer than 5 s).
  public static var serviceConfiguration: ServiceConfiguration {
    fixture.serviceConfiguration()
  }
}

// MARK: The cases

extension LinkContract {
  private static func joiningDeliversASnapshotThatIncludesMyself(
    _ world: any LinkContractWorld
  ) throws {
    let ada = try world.join("Ada", role: .host)
    let snapshot = try #require(ada.log.joined?.snapshot)
    #expect(snapshot.sessionName == "Room")
    #expect(snapshot.participants.map(\.name) == ["Ada"])
    #expect(snapshot.participants.first?.id == snapshot.myself)
  }

  private static func aCommandBecomesEventsForEveryMember(_ world: any LinkContractWorld) throws {
    let ada = try world.join("Ada", role: .host)
    let alan = try world.join("Alan")
    let adaID = try #require(ada.user)
    try ada.send([.command(1, .startVideo)])
    try world.settle()
    let expected = SessionEvent.videoStatusChanged(user: adaID, isOn: true)
    for member in [ada, alan] {
      #expect(member.numberedEvents.contains { $0.event == expected })
    }
  }

  private static func messagesKeepTheirOrderAndEveryMemberSeesOneSequence(
    _ world: any LinkContractWorld
  ) throws {
    let ada = try world.join("Ada", role: .host)
    let alan = try world.join("Alan")
    let adaID = try #require(ada.user)
    // 60 commands in one turn: toggles and numbered chat messages, interleaved.
    var commands: [ClientMessage] = []
    for index in 0..<30 {
      commands.append(.command(CommandID(2 * index + 1), index % 2 == 0 ? .startVideo : .stopVideo))
      commands.append(
        .command(CommandID(2 * index + 2), .sendChat(receiver: nil, content: "m\(index)")))
    }
    try ada.send(commands)
    try world.settle()
    let lastChat = "m29"
    for member in [ada, alan] {
      #expect(
        member.numberedEvents.contains {
          if case .chatMessageReceived(let message) = $0.event {
            message.content == lastChat
          } else {
            false
          }
        })
    }
    let adaEvents = ada.numberedEvents.filter { $0.sequence > 0 }
    let alanEvents = alan.numberedEvents
    // Alan joined later, so he saw a suffix of Ada's numbering; both are gap-free.
    let tail = adaEvents.suffix(alanEvents.count)
    #expect(tail.map(\.sequence) == alanEvents.map(\.sequence))
    #expect(tail.map(\.event) == alanEvents.map(\.event))
    #expect(zip(alanEvents, alanEvents.dropFirst()).allSatisfy { $0.sequence + 1 == $1.sequence })
    let observed = alanEvents.compactMap { _, event -> String? in
      switch event {
      case .videoStatusChanged(let user, let isOn) where user == adaID: isOn ? "on" : "off"
      case .chatMessageReceived(let message): message.content
      default: nil
      }
    }
    let sent = (0..<30).flatMap { [$0 % 2 == 0 ? "on" : "off", "m\($0)"] }
    #expect(observed == sent)
  }

  private static func aRefusedCommandIsAnsweredOnlyToItsSender(
    _ world: any LinkContractWorld
  ) throws {
    let ada = try world.join("Ada", role: .host)
    let alan = try world.join("Alan")
    try alan.send([.command(7, .lockShare(true))])  // a participant may not lock sharing
    try world.settle()
    #expect(alan.messages.contains(.commandFailed(7, .sessionNoRights)))
    // A later accepted command is a barrier: once Ada sees its event, she has seen everything
    // sent to her before it.
    try alan.send([.command(8, .startVideo)])
    try world.settle()
    let alanID = try #require(alan.user)
    #expect(
      ada.numberedEvents.contains { $0.event == .videoStatusChanged(user: alanID, isOn: true) })
    #expect(!ada.messages.contains { if case .commandFailed = $0 { true } else { false } })
    #expect(
      !ada.numberedEvents.contains {
        if case .shareSettingChanged = $0.event { true } else { false }
      })
  }

  private static func closingTellsTheHostOnceAndClosingTwiceIsHarmless(
    _ world: any LinkContractWorld
  ) throws {
    let ada = try world.join("Ada", role: .host)
    let alan = try world.join("Alan")
    try alan.close(times: 2)
    try world.settle()
    #expect(world.closedConnections.contains(alan.connection))
    let deliveredBeforeClose = alan.events.count
    // A barrier: Ada's command and its event after the close.
    try ada.send([.command(1, .startVideo)])
    try world.settle()
    let adaID = try #require(ada.user)
    #expect(
      ada.numberedEvents.contains { $0.event == .videoStatusChanged(user: adaID, isOn: true) })
    try alan.close()
    try world.settle()
    #expect(world.closedConnections == [alan.connection])
    // The closed link delivered nothing after the close, not even `.closed`.
    #expect(alan.events.count == deliveredBeforeClose)
    #expect(!alan.events.contains { if case .closed = $0 { true } else { false } })
  }

  private static func closingFromTheHandlerStopsDeliveryAtOnce(
    _ world: any LinkContractWorld
  ) throws {
    let ada = try world.join("Ada", role: .host)
    let heard = LinkEventLog()
    _ = try world.join("Alan") { event, close in
      guard case .message(.events(let batch)) = event else { return }
      heard.append(event)
      if batch.events.contains(where: { if case .videoStatusChanged = $0 { true } else { false } })
      {
        close()
      }
    }
    // Twenty toggles in one turn: they reach Alan together (over a socket, most in one read).
    try ada.send((1...20).map { .command(CommandID($0), $0 % 2 == 1 ? .startVideo : .stopVideo) })
    try world.settle()
    let adaID = try #require(ada.user)
    #expect(
      ada.numberedEvents.contains { $0.event == .videoStatusChanged(user: adaID, isOn: false) })
    #expect(world.closedConnections.count == 1)
    // Nothing after the toggle that closed the link.
    let toggles = heard.numberedEvents.map(\.event).filter {
      if case .videoStatusChanged = $0 { true } else { false }
    }
    #expect(toggles == [.videoStatusChanged(user: adaID, isOn: true)])
  }

  private static func closingLetsGoOfTheHandlerAtOnce(_ world: any LinkContractWorld) throws {
    _ = try world.join("Ada", role: .host)
    let watch: WeakCanary
    let alan: ContractLink
    do {
      let canary = Canary()
      watch = WeakCanary(canary)
      alan = try world.join("Alan") { [canary] _, _ in _ = canary }
    }
    #expect(world.closedConnections.isEmpty && watch.isAlive)
    // In the same turn as the close: the handler, and what only it held, are gone.
    let id = alan.id
    let released = try world.perform { domain in
      domain.close(id)
      return !watch.isAlive
    }
    #expect(released, "the closed link kept its handler")
  }

  private static func theHostClosingAConnectionReachesItsLinkOnce(
    _ world: any LinkContractWorld
  ) throws {
    let ada = try world.join("Ada", role: .host)
    let joined = try #require(ada.log.joined)
    let lastSequence = ada.numberedEvents.last?.sequence ?? joined.snapshot.sequence
    // Ada resumes on a second link: the host closes the first (`superseded`).
    let second = try world.open()
    try second.send([
      .resume(
        ResumeRequest(
          sessionID: joined.snapshot.sessionID, user: joined.snapshot.myself,
          resumeToken: joined.resumeToken, lastSequence: lastSequence))
    ])
    try world.settle()
    #expect(second.log.joined != nil, "the resume was refused")
    let closes = ada.events.filter { if case .closed = $0 { true } else { false } }
    #expect(closes == [.closed(.closedByPeer)])
    #expect(ada.events.last == .closed(.closedByPeer), "an event after `.closed`")
    #expect(world.closedConnections == [ada.connection])
    // The first link stays quiet; the second carries the member's commands.
    let deliveredToFirst = ada.events.count
    try second.send([.command(1, .startVideo)])
    try world.settle()
    #expect(
      second.numberedEvents.contains {
        $0.event == .videoStatusChanged(user: joined.snapshot.myself, isOn: true)
      })
    #expect(ada.events.count == deliveredToFirst)
  }

  private static func heartbeatsKeepALinkOpenAsTimePasses(_ world: any LinkContractWorld) throws {
    let ada = try world.join("Ada", role: .host)
    // Four steps of 5 s: 20 s in all, past the host's 15 s heartbeat timeout, but never 5 s
    // without a heartbeat.
    for step in 1...4 {
      try world.advance(by: 5_000)
      let answered = ada.log.heartbeats
      try ada.send([.heartbeat])
      try world.settle()
      #expect(ada.log.heartbeats > answered, "heartbeat \(step) was not answered")
    }
    #expect(!ada.log.isClosed, "the link closed: \(ada.events.suffix(1))")
    #expect(world.closedConnections.isEmpty)
    let adaID = try #require(ada.user)
    try ada.send([.command(1, .startVideo)])
    try world.settle()
    #expect(
      ada.numberedEvents.contains { $0.event == .videoStatusChanged(user: adaID, isOn: true) })
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
