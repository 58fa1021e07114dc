import Foundation

/// What a run found: the verdict, each failed expectation, figures, and the line that replays
/// it.
///
/// > Important: A value; `Sendable`.
public struct RunReport: Sendable, Hashable, Codable {
  /// One expectation that did not hold.
  public struct Failure: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Which expectation: `invariants`, `convergence`, `liveness`, `delivery`, `assertion`, or
    /// `fault` (the world could not apply one).
    public var check: String
    /// The peer it showed on, if one.
    public var peer: String?
    /// Virtual (or real) milliseconds after the start.
    public var at: Int64
    /// The peer's newest service sequence number then, when a peer is named.
    public var sequence: UInt64?
    /// What broke: expected against actual, with the sequence numbers where they apply.
    public var detail: String

    /// A short description, for logs and reports.
    public var description: String {
      "\(check) at \(SimDuration.ms(at))\(peer.map { " on \($0)" } ?? "")"
        + "\(sequence.map { " (sequence \($0))" } ?? ""): \(detail)"
    }
  }

  /// The scenario's name.
  public var scenario: String
  /// `deterministic` or `loopback`.
  public var mode: String
  /// The seed.
  public var seed: UInt64
  /// Whether every expectation held.
  public var passed: Bool { failures.isEmpty }
  /// What did not hold, first failure first.
  public var failures: [Failure]
  /// How many peers the run had.
  public var peers: Int
  /// Milliseconds of run time (virtual in deterministic mode).
  public var simulatedMilliseconds: Int64
  /// Wall-clock seconds the run took.
  public var wallSeconds: Double
  /// Callbacks delivered to all peers.
  public var callbacks: Int
  /// SDK operations performed, and refused by the SDK or service.
  public var actions: Int
  /// Operations the SDK refused at once (an error code other than success).
  public var refusedActions: Int
  /// Refusals by operation (`startAnnotation`: 3).
  public var refusedByOperation: [String: Int]
  /// Joins that ended in an error, by the SDK error the peer got: refused by the service
  /// (`Errors_Session_Join_Failed` when a session is full, a bad token's 15xx) or failed to
  /// reach it; a peer that retries counts once per failure.
  public var refusedJoins: [String: Int] = [:]
  /// Operations skipped because the peer was out, dead or paused.
  public var skippedActions: Int
  /// Faults injected.
  public var faults: Int
  /// What the run went without because the mode has none: `media` when the scenario asks for
  /// media and the mode has no media plane. A fault the mode cannot inject is no note: loading
  /// for the mode refuses it (``ScenarioLoader/validate(_:for:)``), and a world that still
  /// cannot apply one fails the run (a `fault` failure).
  public var unsupportedFaults: [String]
  /// When every replica had converged after the heal, milliseconds after the heal.
  public var convergedAfterHeal: Int64?
  /// What was still in flight at the end.
  public var inFlight: [String]
  /// The digest of the run's trace (FNV-1a 64 over its lines); empty when the run kept no
  /// trace.
  public var traceDigest: String
  /// The command that replays this run.
  public var replayCommand: String
  /// What the media did, when the run had a media plane.
  public var media: MediaSummary?

  /// One summary line: `PASS classroom seed 1: 32 peers, 60s, 1,234 callbacks, 0.8 s`.
  public var summaryLine: String { summaryLine(includingWallTime: true) }

  /// The summary line, with or without its wall time (which differs from run to run while the
  /// rest is a function of the scenario and seed).
  ///
  /// - Parameter includingWallTime: Whether to end with `, 0.80 s wall`.
  /// - Returns: The line.
  public func summaryLine(includingWallTime: Bool) -> String {
    let verdict = passed ? "PASS" : "FAIL"
    var line =
      "\(verdict) \(scenario) seed \(seed) [\(mode)]: \(peers) peers, "
      + "\(SimDuration.ms(simulatedMilliseconds)) simulated, \(callbacks) callbacks, "
      + "\(actions) actions (\(refusedActions) refused, \(skippedActions) skipped), "
      + "\(faults) faults"
    let joinsRefused = refusedJoins.values.reduce(0, +)
    if joinsRefused > 0 {
      let reasons = refusedJoins.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
      line += ", \(joinsRefused) joins failed (\(reasons.joined(separator: ", ")))"
    }
    if let converged = convergedAfterHeal {
      line += ", converged \(SimDuration.ms(converged)) after heal"
    }
    if includingWallTime { line += ", \(String(format: "%.2f", wallSeconds)) s wall" }
    return line
  }
}
