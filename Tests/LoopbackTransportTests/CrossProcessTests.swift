import Foundation
import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTransport
import Testing

/// One session spanning two processes: the built `sessionsim` runs as a child, either as the
/// server or as a group of scripted peers.
@Suite("Across processes")
struct CrossProcessTests {
  /// One development key and secret: a token from `sessionsim token` with no key options
  /// admits to a `sessionsim serve` started with none, and `--help` of each names them.
  @Test func theDefaultTokenJoinsTheDefaultServer() throws {
    let executable = try ChildProcess.requireSessionsim()
    let minting = try ChildProcess(executable, ["token", "--session", "Room"])
    #expect(minting.waitForExit() == 0, "\(minting.output)")
    let token = try #require(minting.output.last { $0.split(separator: ".").count == 3 })
    let server = try ChildProcess(executable, ["serve", "--port", "0"])
    let line = try #require(
      server.waitForLine(startingWith: "listening on 127.0.0.1:"), "\(server.output)")
    let port = try #require(UInt16(line.split(separator: ":").last ?? ""))

    let harness = try LoopbackHarness(externalPort: port)
    let ada = try harness.makePeer("Ada")
    try ada.join(session: "Room", token: token)
    #expect(ada.waitFor(.onSessionJoin), "\(ada.callbacks.values)")
    #expect(try ada.run { $0.leaveSession(false) } == .success)
    server.closeInput()
    #expect(server.waitForExit() == 0, "\(server.output)")
    harness.shutdown()

    for command in ["token", "serve", "peer"] {
      let help = try ChildProcess(executable, [command, "--help"])
      _ = help.waitForExit()
      let text = help.output.joined(separator: "\n")
      #expect(text.contains(DevelopmentCredentials.key), "\(command) --help: \(text)")
      #expect(text.contains(DevelopmentCredentials.secret), "\(command) --help: \(text)")
    }
  }

  @Test func peersInThisProcessShareASessionServedByAChildProcess() throws {
    let executable = try ChildProcess.requireSessionsim()
    let server = try ChildProcess(
      executable,
      ["serve", "--port", "0", "--key", LoopbackHarness.appKey, "--secret", LoopbackHarness.secret])
    let line = try #require(
      server.waitForLine(startingWith: "listening on 127.0.0.1:"), "\(server.output)")
    let port = try #require(UInt16(line.split(separator: ":").last ?? ""))

    let harness = try LoopbackHarness(externalPort: port)
    let ada = try harness.join("Ada", role: .host, videoOn: true)
    let alan = try harness.join("Alan")
    let grace = try harness.join("Grace")
    let everyone = [ada, alan, grace]
    let (adaID, alanID) = (try #require(try ada.myID()), try #require(try alan.myID()))
    try alan.run { _ = $0.getVideoHelper().startVideo() }
    #expect(grace.waitFor(.onUserVideoStatusChanged([alanID])))
    try ada.run { _ = $0.getVideoHelper().stopVideo() }
    #expect(grace.waitFor(.onUserVideoStatusChanged([adaID])))
    let facts = try #require(try harness.waitForAgreement(everyone))
    #expect(facts.participants.count == 3)
    #expect(facts.hostID == adaID)
    #expect(facts.participants[alanID]?.isVideoOn == true)
    #expect(facts.participants[adaID]?.isVideoOn == false)

    #expect(try alan.run { $0.leaveSession(true) } == .success)
    #expect(ada.waitFor(.onUserLeave([alanID])))
    try harness.waitForAgreement([ada, grace])

    // Closing the server's standard input stops it: the remaining peers lose the session.
    server.closeInput()
    #expect(server.waitForExit() == 0, "\(server.output)")
    #expect(server.output.contains { $0.hasPrefix("stopped:") })
    #expect(ada.waitFor(.onSessionLeave(.networkError)))
    #expect(grace.waitFor(.onSessionLeave(.networkError)))
    harness.shutdown()
  }

  /// N4: a `sessionsim serve` at `ulimit -n 128` and 150 connections that never present a
  /// token (half silent, half saying hello and then heartbeats) lock nobody out: the default
  /// caps follow the open-file limit, the oldest idle connections are evicted, the listener
  /// never runs out of descriptors, and honest clients join.
  @Test func idleConnectionsBeyondTheOpenFileLimitLockNobodyOut() throws {
    let executable = try ChildProcess.requireSessionsim()
    let command =
      "ulimit -n 128 && exec '\(executable.path)' serve --port 0 --key "
      + "\(LoopbackHarness.appKey) --secret \(LoopbackHarness.secret)"
    let server = try ChildProcess(URL(fileURLWithPath: "/bin/sh"), ["-c", command])
    let line = try #require(
      server.waitForLine(startingWith: "listening on 127.0.0.1:"), "\(server.output)")
    let port = try #require(UInt16(line.split(separator: ":").last ?? ""))

    var idle: [RawClient] = []
    for index in 0..<150 {
      let raw = try RawClient(port: port)
      if index.isMultiple(of: 2) {
        try raw.write(RawWire.hello() + RawWire.bytes(.message(.heartbeat)))
      }
      idle.append(raw)
    }
    // The honest clients come after the burst has been taken in (150 − 48 pending evicted):
    // a connect in the middle of it, while the evicted connections still hold their
    // descriptors, can meet a full descriptor table (Docs/LoopbackTransport.md, "Resource
    // limits"). On a loaded machine some of the burst reaches its 15 s idle timeout before it
    // would be evicted: either way its descriptor is free again.
    #expect(
      waitUntil(timeoutSeconds: 60) {
        server.output.count { $0.contains("evicted") || $0.contains("idle timeout") } >= 100
      },
      "\(server.output.suffix(5))")
    let harness = try LoopbackHarness(externalPort: port)
    let ada = try harness.join("Ada", role: .host)
    let bob = try harness.join("Bob")
    #expect(try harness.waitForAgreement([ada, bob])?.participants.count == 2)
    // The oldest idle connection was evicted with a goodbye saying why.
    let evicted = idle[0].readUntilClosed()
    #expect(evicted.closed)
    let goodbye = RawWire.goodbye(in: RawWire.serverFrames(in: evicted.bytes))
    #expect(goodbye?.text.contains("evicted") == true, "\(String(describing: goodbye))")
    #expect(
      !server.output.contains { $0.contains("accepting a connection failed") },
      "\(server.output.filter { $0.contains("accepting") })")

    for raw in idle { raw.close() }
    server.closeInput()
    #expect(server.waitForExit() == 0, "\(server.output.suffix(5))")
    harness.shutdown()
  }

  @Test(arguments: ["quickstart", "classroom", "churn"])
  func aChildProcessOfScriptedPeersConvergesWithPeersHere(script: String) throws {
    let executable = try ChildProcess.requireSessionsim()
    let harness = try LoopbackHarness()
    let ada = try harness.join("Ada", role: script == "classroom" ? .participant : .host)
    let child = try ChildProcess(
      executable,
      [
        "peer", "--port", "\(harness.port)", "--session", "Room", "--count", "6", "--script",
        script, "--role", "host", "--seconds", "1", "--name", "child", "--key",
        LoopbackHarness.appKey, "--secret", LoopbackHarness.secret,
      ])
    #expect(child.waitForLine(startingWith: "joined 6 peers") != nil, "\(child.output)")
    try harness.waitForConvergence([ada])
    #expect(child.waitForExit() == 0, "\(child.output)")
    #expect(child.output.contains { $0.hasPrefix("converged: yes") }, "\(child.output)")
    // The child's peers left; Ada saw all six come and go, and agrees with the service.
    #expect(ada.waitFor { if case .onUserLeave(let users) = $0 { !users.isEmpty } else { false } })
    #expect(try waitUntil { try harness.serviceFacts()?.participants.count == 1 })
    try harness.waitForConvergence([ada])
    harness.shutdown()
  }
}
