/// A property a harness checks that did not hold: a bug in the code under test (or in the
/// harness), reported with what was seen.
///
/// > Important: A value; `Sendable`.
package struct FuzzFailure: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, for people.
  package var message: String

  /// A failure.
  ///
  /// - Parameter message: What went wrong.
  package init(_ message: String) {
    self.message = message
  }

  package var description: String { message }
}

/// Throws a ``FuzzFailure`` unless `condition` holds.
///
/// - Parameters:
///   - condition: The property.
///   - message: What is wrong when it does not hold; only built then.
/// - Throws: ``FuzzFailure`` with `message`.
@inline(__always)
package func require(
  _ condition: Bool, _ message: @autoclosure () -> String
) throws(FuzzFailure) {
  if !condition { throw FuzzFailure(message()) }
}

/// The fuzz harnesses, by name: each takes any bytes, must never trap on them, and checks
/// properties of what the code under test made of them.
///
/// The same functions run under libFuzzer (`scripts/fuzz`, the `sessionfuzz` executable built
/// with `-sanitize=fuzzer,address`) and in the normal test suite, which replays every checked-in
/// input of `Fuzz/Corpus/<name>/` and `Fuzz/Regressions/<name>/` through them
/// (`FuzzCorpusTests`). `Docs/Reliability.md`, "Fuzzing", says what each one feeds and checks.
///
/// > Important: A value; `Sendable`. ``run(_:)`` keeps no state between calls; each call
/// > builds what it fuzzes (a service, a state) and drops it, on the calling thread.
package enum FuzzHarness: String, CaseIterable, Sendable {
  /// The wire decoder: client and server frames, a stream of frames and fragments, and a
  /// round trip of structured frames.
  case wire
  /// The media datagram decoder and the datagram tags.
  case media
  /// The trace reader, versions 1 and 2.
  case trace
  /// The scenario reader and validator.
  case scenario
  /// The session-token (JWT) verifier.
  case jwt
  /// A `SessionService` fed structured messages and datagrams from many connections.
  case service
  /// The reducer fed arbitrary event sequences.
  case reducer

  /// Runs the harness on one input.
  ///
  /// - Parameter bytes: The input; read only during the call.
  /// - Throws: ``FuzzFailure`` when a checked property does not hold. A trap (a crash) is a
  ///   failure too, which the fuzzer catches.
  package func run(_ bytes: UnsafeRawBufferPointer) throws(FuzzFailure) {
    switch self {
    case .wire: try WireFuzz.run(bytes)
    case .media: try MediaFuzz.run(bytes)
    case .trace: try TraceFuzz.run(bytes)
    case .scenario: try ScenarioFuzz.run(bytes)
    case .jwt: try TokenFuzz.run(bytes)
    case .service: try ServiceFuzz.run(bytes)
    case .reducer: try ReducerFuzz.run(bytes)
    }
  }

  /// Runs the harness on one input held in an array.
  ///
  /// - Parameter bytes: The input.
  /// - Throws: ``FuzzFailure`` when a checked property does not hold.
  package func run(_ bytes: [UInt8]) throws(FuzzFailure) {
    var failure: FuzzFailure?
    bytes.withUnsafeBytes { buffer in
      do throws(FuzzFailure) {
        try run(buffer)
      } catch {
        failure = error
      }
    }
    if let failure { throw failure }
  }
}
