import SessionCore
import SessionService
import SessionSimulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `sessionsim peer` was asked to do.
struct PeerOptions: Sendable {
  /// The peers' behaviour.
  enum Script: String, Sendable, CaseIterable {
    /// Seed 000: join, toggle video and audio, chat a little.
    case quickstart
    /// Seed 002: a teacher (the first peer) locks sharing, makes a manager, shares; students
    /// annotate, chat and toggle video.
    case classroom
    /// Peers (all but the first) leave and rejoin over and over.
    case churn
  }

  static let usage =
    "peer --port N --session NAME [--count K] [--script quickstart|classroom|churn] "
    + "[--role host|participant] [--seconds T] [--host 127.0.0.1] [--key K --secret S] "
    + "[--name PREFIX] [--heartbeat MS] [--end]\n" + credentialsHelp

  var host: String
  var port: UInt16
  var session: String
  var count: Int
  var script: Script
  /// The first peer's token role; the others are participants.
  var role: TokenRole
  var seconds: Double
  var key: String
  var secret: String
  var namePrefix: String
  /// Whether the first peer ends the session (`leaveSession(true)`) when done.
  var endSession: Bool
  /// Milliseconds of silence before a link sends a heartbeat; the link gives up after three
  /// times as long without hearing the server.
  var heartbeat: UInt64

  init(_ arguments: [String]) throws {
    let parser = try OptionParser(
      arguments,
      options: [
        "--host", "--port", "--session", "--count", "--script", "--role", "--seconds", "--key",
        "--secret", "--name", "--heartbeat",
      ],
      switches: ["--end"], usage: Self.usage)
    guard parser.string("--port") != nil else {
      throw CommandFailure("--port is required; usage: \(Self.usage)", status: 2)
    }
    guard let session = parser.string("--session"), !session.isEmpty else {
      throw CommandFailure("--session is required; usage: \(Self.usage)", status: 2)
    }
    host = parser.string("--host") ?? "127.0.0.1"
    port = try parser.integer("--port", default: UInt16(0), in: 1...UInt16.max)
    self.session = session
    count = try parser.integer("--count", default: 1, in: 1...2_000)
    let scriptName = parser.string("--script") ?? Script.quickstart.rawValue
    guard let script = Script(rawValue: scriptName) else {
      throw CommandFailure("unknown script \(scriptName); usage: \(Self.usage)", status: 2)
    }
    self.script = script
    switch parser.string("--role") ?? "participant" {
    case "host": role = .host
    case "participant": role = .participant
    case let other:
      throw CommandFailure("--role must be host or participant, not \(other)", status: 2)
    }
    seconds = try parser.seconds("--seconds", default: 2)
    key = parser.string("--key") ?? DevelopmentCredentials.key
    secret = parser.string("--secret") ?? DevelopmentCredentials.secret
    namePrefix = parser.string("--name") ?? "peer\(getpid())"
    endSession = parser.flag("--end")
    heartbeat = try parser.integer("--heartbeat", default: UInt64(5_000), in: 10...600_000)
  }
}
