import Dispatch
import LoopbackTransport
import SessionCore
import SessionService
import SessionSimulation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `sessionsim serve`: a session service on a loopback port, until SIGINT, SIGTERM or the end
/// of standard input.
@Sendable func runServe(_ arguments: [String]) throws {
  let usage = serveUsage
  let options = try OptionParser(
    arguments,
    options: [
      "--port", "--key", "--secret", "--heartbeat-timeout", "--grace", "--hello-timeout",
      "--max-connections", "--max-pending", "--admission-timeout", "--write-budget",
    ],
    switches: ["--ignore-stdin", "--quiet"], usage: usage)
  let port = try options.integer("--port", default: UInt16(0), in: 0...UInt16.max)
  let key = options.string("--key") ?? DevelopmentCredentials.key
  let secret = options.string("--secret") ?? DevelopmentCredentials.secret
  // Every secret (session ids, resume tokens, media credentials) from the system's CSPRNG:
  // nobody can compute another member's from their own, nor a restarted server's old ones.
  var service = ServiceConfiguration(credentials: [key: secret], secrets: .systemRandom)
  service.heartbeatTimeout = try options.integer(
    "--heartbeat-timeout", default: service.heartbeatTimeout, in: 1...86_400_000)
  service.reconnectGrace = try options.integer(
    "--grace", default: service.reconnectGrace, in: 0...86_400_000)
  // Before the configuration: its default connection cap follows the open-file limit.
  raiseOpenFileLimit()
  let ceiling = LoopbackServerConfiguration.maximumConnections
  let maxConnections = try options.integer("--max-connections", default: ceiling, in: 1...ceiling)
  var configuration = LoopbackServerConfiguration(
    port: port, maxConnections: maxConnections,
    maxPendingConnections: try options.integer(
      "--max-pending",
      default: LoopbackServerConfiguration.defaultMaxPendingConnections(
        maxConnections: maxConnections), in: 1...maxConnections))
  configuration.helloTimeout = try options.integer(
    "--hello-timeout", default: configuration.helloTimeout, in: 1...86_400_000)
  configuration.admissionTimeout = try options.integer(
    "--admission-timeout", default: configuration.admissionTimeout, in: 1...86_400_000)
  configuration.maxQueuedWriteBytesTotal = try options.integer(
    "--write-budget", default: configuration.maxQueuedWriteBytesTotal, in: 1...Int(Int32.max))
  let quiet = options.flag("--quiet")

  let serviceConfiguration = service
  let server: LoopbackServer<SessionService>
  do {
    server = try LoopbackServer(
      configuration: configuration,
      log: { record in
        guard !quiet || record.level >= .notice else { return }
        printLine("log: \(record)")
      },
      makeHost: {
        let service = SessionService(configuration: serviceConfiguration)
        if !quiet {
          // A peer decides how often the service logs about it: a few lines a second each.
          let limiter = LoopbackLogLimiter { record in printLine("service: \(record.message)") }
          service.logHandler = limiter.handler
        }
        return service
      })
  } catch {
    throw CommandFailure("cannot listen on 127.0.0.1:\(port): \(error)")
  }
  printLine("listening on 127.0.0.1:\(server.port)")
  // The media datagrams' port (WireProtocol.md §13): clients bind to it after `joined`.
  if let mediaPort = server.mediaPort { printLine("media: udp 127.0.0.1:\(mediaPort)") }

  let stop = StopSignal()
  stop.watchSignals([SIGINT, SIGTERM])
  if !options.flag("--ignore-stdin") { stop.watchStandardInput() }
  let why = stop.wait()
  printLine("stopping (\(why))")
  // The media plane's counters, so that an operator (or an attacker's test) sees what was
  // dropped and why.
  if let media = try? server.loop.runBlocking({ [server] in server.host.mediaStatistics }) {
    printLine("media: \(media.summary)")
  }
  let report = server.shutdown()
  printLine(
    "stopped: closed \(report.connectionsClosed) connections; "
      + "event loop \(report.isClean ? "closed cleanly" : "did NOT close cleanly")")
  if !report.isClean { throw CommandFailure("the event loop did not close cleanly") }
}

/// Prints a line and flushes, so that a parent reading a pipe sees it at once.
func printLine(_ line: String) {
  print(line)
  fflush(nil)
}

/// Blocks the main thread until a signal arrives or standard input ends.
final class StopSignal: Sendable {
  private let reason = Mutex<String?>(nil)
  private let stopped = DispatchSemaphore(value: 0)

  /// Stops on any of `signals` (their default action is disabled).
  func watchSignals(_ signals: [Int32]) {
    for number in signals {
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      // The handler keeps its source alive for the life of the process.
      source.setEventHandler { [self] in
        withExtendedLifetime(source) { fire(number == SIGINT ? "SIGINT" : "SIGTERM") }
      }
      source.resume()
    }
  }

  /// Stops when standard input reaches its end (the parent closed the pipe, or ^D).
  func watchStandardInput() {
    // A blocking read on a thread of its own for the life of the process.
    DispatchQueue.global().async { [self] in
      var buffer = [UInt8](repeating: 0, count: 4_096)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if count > 0 { continue }
        if count < 0, errno == EINTR { continue }
        break
      }
      fire("end of standard input")
    }
  }

  /// Waits for the first stop; returns why.
  func wait() -> String {
    stopped.wait()
    return reason.withLock { $0 ?? "stopped" }
  }

  private func fire(_ why: String) {
    let first = reason.withLock { reason -> Bool in
      guard reason == nil else { return false }
      reason = why
      return true
    }
    if first { stopped.signal() }
  }
}

/// The arguments `serve` takes.
let serveUsage =
  "serve [--port N] [--key K --secret S] [--heartbeat-timeout MS] [--grace MS] "
  + "[--hello-timeout MS] [--max-connections N] [--max-pending N] [--admission-timeout MS] "
  + "[--write-budget BYTES] [--ignore-stdin] [--quiet]\n"
  + "  prints its TCP port (listening on ...), then its media UDP port (media: udp ...)\n"
  + credentialsHelp
