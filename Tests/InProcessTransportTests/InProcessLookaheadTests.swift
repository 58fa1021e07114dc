import InProcessTransport
import SessionCore
import SessionTransport
import Testing

/// A host that broadcasts whatever it is told to, to every open connection.
private final class EchoHost: SessionHost {
  private var output: ((HostOutput) -> Void)?
  private(set) var connections: [ConnectionID] = []

  func attach(output: @escaping (HostOutput) -> Void) { self.output = output }
  func connectionOpened(_ connection: ConnectionID, now: Int64) { connections.append(connection) }
  func receive(_ message: ClientMessage, from connection: ConnectionID, now: Int64) {}
  func connectionClosed(_ connection: ConnectionID, now: Int64) {
    connections.removeAll { $0 == connection }
  }
  func tick(now: Int64) {}

  func broadcast(_ message: ServerMessage, to connections: [ConnectionID]? = nil) {
    output?(.broadcast(message, to: .adHoc(connections ?? self.connections)))
  }
}

/// One member: writes what its link delivers and what its lookahead hears to a shared log.
private final class Member: LinkLookahead {
  let name: String
  let link: any SessionLink
  private let log: Log

  final class Log {
    var lines: [String] = []
  }

  init(_ name: String, network: InProcessNetwork, log: Log, looksAhead: Bool = true) {
    self.name = name
    self.log = log
    link = network.makeLink()
    if looksAhead { (link as? any LookaheadLink)?.setLookahead(self) }
    link.start { [unowned self] event in
      switch event {
      case .message(.heartbeat): self.log.lines.append("\(self.name) got")
      case .message: self.log.lines.append("\(self.name) got other")
      case .closed: self.log.lines.append("\(self.name) closed")
      }
    }
  }

  func linkWillDeliver(_ message: ServerMessage) {
    log.lines.append("\(name) ahead")
  }
}

@Suite("In-process lookahead")
struct InProcessLookaheadTests {
  @Test func eachLinkHearsOfABroadcastJustBeforeTheLinkAheadOfItGetsIt() {
    let host = EchoHost()
    let network = InProcessNetwork(host: host)
    let log = Member.Log()
    let members = ["a", "b", "c"].map { Member($0, network: network, log: log) }
    host.broadcast(.heartbeat)
    _ = network.run()
    #expect(log.lines == ["b ahead", "a got", "c ahead", "b got", "c got"])
    withExtendedLifetime(members) {}
  }

  @Test func aSentMessageAndALinkWithoutLookaheadHearNothingAhead() {
    let host = EchoHost()
    let network = InProcessNetwork(host: host)
    let log = Member.Log()
    let members = [
      Member("a", network: network, log: log),
      Member("b", network: network, log: log, looksAhead: false),
      Member("c", network: network, log: log),
    ]
    host.broadcast(.heartbeat)
    _ = network.run()
    #expect(log.lines == ["a got", "c ahead", "b got", "c got"])
    withExtendedLifetime(members) {}
  }

  @Test func closedAndMissingLinksAreSkippedAndHearNothing() {
    let host = EchoHost()
    let network = InProcessNetwork(host: host)
    let log = Member.Log()
    let members = ["a", "b", "c", "d"].map { Member($0, network: network, log: log) }
    let everyone = host.connections
    members[1].link.close()
    _ = network.run()
    // b's connection is still in the list (a stale fan-out), but its link is gone.
    host.broadcast(.heartbeat, to: everyone + [ConnectionID(999)])
    _ = network.run()
    #expect(log.lines == ["c ahead", "a got", "d ahead", "c got", "d got"])
    withExtendedLifetime(members) {}
  }

  @Test func aLinkThatClosesDropsItsLookahead() {
    let host = EchoHost()
    let network = InProcessNetwork(host: host)
    let log = Member.Log()
    weak var weakMember: Member?
    do {
      let member = Member("a", network: network, log: log)
      weakMember = member
      member.link.close()
      _ = network.run()
    }
    #expect(weakMember == nil, "the closed link no longer holds its lookahead")
  }

  /// A member holds its link and the open link its lookahead, the member: a network dropped
  /// with the link open ends it, so neither outlives the network.
  @Test func aNetworkDroppedWithALinkOpenLetsGoOfItsLookahead() {
    weak var weakMember: Member?
    weak var weakNetwork: InProcessNetwork?
    do {
      let network = InProcessNetwork(host: EchoHost())
      let member = Member("a", network: network, log: Member.Log())
      _ = network.run()
      weakMember = member
      weakNetwork = network
    }
    #expect(weakNetwork == nil)
    #expect(weakMember == nil, "the member and its open link outlived their network")
  }

  @Test func aLinkStartedAfterItsNetworkIsGoneClosesWithAReasonInsteadOfTrapping() {
    var link: (any SessionLink)?
    do {
      let network = InProcessNetwork(host: EchoHost())
      link = network.makeLink()
    }
    var events: [LinkEvent] = []
    link?.start { events.append($0) }
    #expect(events == [.closed(.failed("the in-process network is gone"))])
    link?.send(.heartbeat)
    link?.close()
    #expect(events.count == 1, "nothing arrives after the link closed")
  }

  @Test func aLinkUsedAfterItsNetworkIsGoneSendsAndClosesQuietly() {
    var events: [LinkEvent] = []
    var link: (any SessionLink)?
    do {
      let network = InProcessNetwork(host: EchoHost())
      link = network.makeLink()
      link?.start { events.append($0) }
      _ = network.run()
    }
    link?.send(.heartbeat)
    link?.close()
    link?.start { events.append($0) }
    #expect(events.isEmpty, "a link the network ended as it went gets no event afterwards")
  }
}
