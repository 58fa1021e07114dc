import SessionCore
import SessionTransport
import Testing

@testable import LoopbackTransport

// The machines are mutated outside `#expect` (the macro can't take a mutating call).

@Suite("Server connection state machine")
struct ServerConnectionStateMachineTests {
  let drain: UInt64 = 100

  @Test func aSupportedHelloIsAcknowledgedAndTheHostLearnsOfTheConnection() {
    var machine = ServerConnectionStateMachine(now: 0, helloTimeout: 50)
    #expect(!machine.hostKnows)
    let hello = machine.frameArrived(
      .hello(WireHello()), supported: 1...1, now: 10, drainTimeout: drain)
    #expect(hello == .acknowledge(WireHelloAck(version: 1)))
    #expect(machine.hostKnows && machine.isReady)
    let message = machine.frameArrived(
      .message(.heartbeat), supported: 1...1, now: 11, drainTimeout: drain)
    #expect(message == .deliver(.heartbeat))
    let notifyHost = machine.connectionClosed()
    #expect(notifyHost)
  }

  @Test func anUnsupportedVersionIsRefusedWithWrongVersion() {
    var machine = ServerConnectionStateMachine(now: 0, helloTimeout: 50)
    let action = machine.frameArrived(
      .hello(WireHello(version: 7)), supported: 1...1, now: 1, drainTimeout: drain)
    guard case .reject(let goodbye, .protocolError) = action else {
      Issue.record("\(action)")
      return
    }
    #expect(goodbye.reason == .wrongVersion)
    #expect(!machine.hostKnows)
    let notifyHost = machine.connectionClosed()
    #expect(!notifyHost)
  }

  @Test func aMessageBeforeTheHelloAndASecondHelloAreMalformed() {
    var first = ServerConnectionStateMachine(now: 0, helloTimeout: 50)
    let early = first.frameArrived(
      .message(.heartbeat), supported: 1...1, now: 1, drainTimeout: drain)
    guard case .reject(let goodbye, _) = early else {
      Issue.record("a message before the hello was accepted: \(early)")
      return
    }
    #expect(goodbye.reason == .malformed)

    var second = ServerConnectionStateMachine(now: 0, helloTimeout: 50)
    _ = second.frameArrived(.hello(WireHello()), supported: 1...1, now: 1, drainTimeout: drain)
    let again = second.frameArrived(
      .hello(WireHello()), supported: 1...1, now: 2, drainTimeout: drain)
    guard case .reject(let secondGoodbye, _) = again else {
      Issue.record("a second hello was accepted: \(again)")
      return
    }
    #expect(secondGoodbye.reason == .malformed)
    // The host knew the connection, so it hears of its close; later frames are ignored.
    #expect(second.hostKnows)
    let later = second.frameArrived(
      .message(.heartbeat), supported: 1...1, now: 3, drainTimeout: drain)
    #expect(later == .ignore)
    let notifyHost = second.connectionClosed()
    #expect(notifyHost)
  }

  @Test func aSilentConnectionGetsIdleTimeoutAtItsDeadlineThenIsCutAfterTheDrain() {
    var machine = ServerConnectionStateMachine(now: 1_000, helloTimeout: 50)
    let early = machine.checkDeadline(now: 1_049, helloTimeout: 50, drainTimeout: drain)
    #expect(early == .none)
    let due = machine.checkDeadline(now: 1_050, helloTimeout: 50, drainTimeout: drain)
    guard case .reject(let goodbye, .idleTimeout) = due else {
      Issue.record("no idle timeout at the deadline: \(due)")
      return
    }
    #expect(goodbye.reason == .idleTimeout)
    let flushing = machine.checkDeadline(now: 1_149, helloTimeout: 50, drainTimeout: drain)
    #expect(flushing == .none)
    let overdue = machine.checkDeadline(now: 1_150, helloTimeout: 50, drainTimeout: drain)
    #expect(overdue == .cut)
  }

  @Test func decodeErrorsMapToMalformedOrTooLarge() {
    var machine = ServerConnectionStateMachine(now: 0, helloTimeout: 50)
    let malformed = machine.decodeFailed(
      WireError(.unknownMessageType, offset: 0, detail: "x"), now: 1, drainTimeout: drain)
    guard case .reject(let goodbye, .protocolError(let text)) = malformed else {
      Issue.record("\(malformed)")
      return
    }
    #expect(goodbye.reason == .malformed)
    #expect(text.contains("unknownMessageType"))

    var large = ServerConnectionStateMachine(now: 0, helloTimeout: 50)
    let tooLarge = large.decodeFailed(
      WireError(.frameTooLarge, offset: 0, detail: "x"), now: 1, drainTimeout: drain)
    guard case .reject(let big, .frameTooLarge) = tooLarge else {
      Issue.record("\(tooLarge)")
      return
    }
    #expect(big.reason == .tooLarge)
  }

  @Test func hostAndServerClosesHappenOnce() {
    var machine = ServerConnectionStateMachine(now: 0, helloTimeout: 50)
    let beforeHello = machine.hostRequestedClose(now: 1, drainTimeout: drain)
    #expect(!beforeHello)
    _ = machine.frameArrived(.hello(WireHello()), supported: 1...1, now: 1, drainTimeout: drain)
    let first = machine.hostRequestedClose(now: 2, drainTimeout: drain)
    let second = machine.hostRequestedClose(now: 3, drainTimeout: drain)
    let server = machine.serverCloses(now: 3, drainTimeout: drain)
    #expect(first && !second && !server)
    let notifyHost = machine.connectionClosed()
    #expect(notifyHost)
  }
}

@Suite("Client link state machine")
struct ClientLinkStateMachineTests {
  @Test func messagesWaitForTheAcknowledgementAndFlushInOrder() {
    var machine = ClientLinkStateMachine()
    let beforeStart = machine.send(.heartbeat)
    let started = machine.start()
    let startedAgain = machine.start()
    let first = machine.send(.password("a"))
    let second = machine.send(.password("b"))
    #expect(beforeStart == .queued && first == .queued && second == .queued)
    #expect(started && !startedAgain)
    let ack = machine.frameArrived(.helloAck(WireHelloAck(version: 1)), version: 1)
    #expect(ack == .flush([.heartbeat, .password("a"), .password("b")]))
    #expect(machine.isReady)
    let afterAck = machine.send(.heartbeat)
    #expect(afterAck == .write)
    let message = machine.frameArrived(.message(.heartbeat), version: 1)
    #expect(message == .deliver(.heartbeat))
  }

  @Test func protocolBreachesFailTheLink() {
    var early = ClientLinkStateMachine()
    _ = early.start()
    let beforeAck = early.frameArrived(.message(.heartbeat), version: 1)
    guard case .reject(let goodbye) = beforeAck else {
      Issue.record("a message before the ack was accepted: \(beforeAck)")
      return
    }
    #expect(goodbye.reason == .malformed)
    let dropped = early.send(.heartbeat)
    #expect(dropped == .drop)
    let reported = early.connectionClosed(.local)
    #expect(reported == .failed("protocol error: a message before the hello acknowledgement"))

    var twice = ClientLinkStateMachine()
    _ = twice.start()
    _ = twice.frameArrived(.helloAck(WireHelloAck()), version: 1)
    let secondAck = twice.frameArrived(.helloAck(WireHelloAck()), version: 1)
    guard case .reject = secondAck else {
      Issue.record("a second ack was accepted: \(secondAck)")
      return
    }

    var wrong = ClientLinkStateMachine()
    _ = wrong.start()
    let otherVersion = wrong.frameArrived(.helloAck(WireHelloAck(version: 2)), version: 1)
    guard case .reject = otherVersion else {
      Issue.record("an ack of another version was accepted: \(otherVersion)")
      return
    }
  }

  @Test(arguments: WireGoodbye.Reason.allCases)
  func aGoodbyeClosesTheLinkWithItsReason(reason: WireGoodbye.Reason) {
    var machine = ClientLinkStateMachine()
    _ = machine.start()
    _ = machine.frameArrived(.helloAck(WireHelloAck()), version: 1)
    let goodbye = machine.frameArrived(
      .goodbye(WireGoodbye(reason: reason, text: "because")), version: 1)
    #expect(goodbye == .close)
    let reported = machine.connectionClosed(.peerClosed)
    if reason == .shuttingDown {
      #expect(reported == .closedByPeer)
    } else {
      #expect(reported == .failed("the server said goodbye (\(reason)): because"))
    }
  }

  @Test func theOwnersCloseIsNeverReported() {
    var machine = ClientLinkStateMachine()
    _ = machine.start()
    let first = machine.ownerClosed()
    let second = machine.ownerClosed()
    #expect(first && !second)
    #expect(machine.isClosedByOwner)
    let reported = machine.connectionClosed(.peerClosed)
    #expect(reported == nil)

    var idle = ClientLinkStateMachine()
    let closedUnstarted = idle.ownerClosed()
    #expect(!closedUnstarted)  // never started: no connection to close
  }

  @Test func timeoutsSeversAndTCPClosesMapToLinkCloseReasons() {
    var silent = ClientLinkStateMachine()
    _ = silent.start()
    let timedOut = silent.heartbeatTimedOut()
    let timedOutAgain = silent.heartbeatTimedOut()
    #expect(timedOut && !timedOutAgain)
    let silentReason = silent.connectionClosed(.idleTimeout)
    #expect(silentReason == .failed("heartbeat timeout"))

    var severed = ClientLinkStateMachine()
    _ = severed.start()
    let cut = severed.sever()
    #expect(cut)
    let severedReason = severed.connectionClosed(.local)
    #expect(severedReason == .failed("severed"))

    var dropped = ClientLinkStateMachine()
    _ = dropped.start()
    let droppedReason = dropped.connectionClosed(.peerClosed)
    #expect(droppedReason == .closedByPeer)
    #expect(ClientLinkStateMachine.reason(for: .peerClosed) == .closedByPeer)
    #expect(
      ClientLinkStateMachine.reason(for: .writeQueueOverflow) == .failed("write queue overflow"))
  }
}
