import SessionCore
import SessionTestSupport
import SessionTransport
import Testing

@testable import SessionService

/// SplitMix64's output function, and its inverse: what a member who knows one raw output
/// (its own token) needs to compute every later one.
private enum SplitMixInversion {
  static let golden: UInt64 = 0x9E37_79B9_7F4A_7C15

  static func mix(_ state: UInt64) -> UInt64 {
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// The inverse of `x ^ (x >> shift)`.
  static func unshift(_ value: UInt64, _ shift: UInt64) -> UInt64 {
    var result = value
    var step = shift
    while step < 64 {
      result = value ^ (result >> shift)
      step += shift
    }
    return value ^ (result >> shift)
  }

  /// The multiplicative inverse mod 2^64 of an odd number (Newton's iteration).
  static func inverse(_ odd: UInt64) -> UInt64 {
    var x = odd
    for _ in 0..<6 { x = x &* (2 &- odd &* x) }
    return x
  }

  /// The generator state that produced `output`.
  static func state(producing output: UInt64) -> UInt64 {
    var z = unshift(output, 31)
    z = z &* inverse(0x94D0_49BB_1331_11EB)
    z = unshift(z, 27)
    z = z &* inverse(0xBF58_476D_1CE4_E5B9)
    return unshift(z, 30)
  }

  /// The next `count` outputs of a SplitMix64 generator after the one that gave `output`.
  static func predictions(after output: UInt64, count: Int) -> Set<UInt64> {
    var state = state(producing: output)
    var outputs = Set<UInt64>()
    for _ in 0..<count {
      state &+= golden
      outputs.insert(mix(state))
    }
    return outputs
  }
}

/// A naive service's generator, the kind the inversion attack breaks: plain SplitMix64 (the
/// step `SimulationRandom` seeds itself with), whose every output gives its state away. The
/// library's one seeded generator, `SimulationRandom`, is xoshiro256** and is never used for
/// secrets either.
private struct NaiveSplitMix64 {
  var state: UInt64
  mutating func next() -> UInt64 { SimulationRandom.splitMix(&state) }
}

/// No member can take over another (N1, N6, N7 and the media plane's N2, N3, N8): secrets are
/// unpredictable, tokens bounded, wrong resumes cut off, media authenticated and checked.
@Suite struct SecurityTests {
  // MARK: N1: secrets

  @Test func theInversionAttackWorksOnASeededGeneratorSoTheNextTestMeansSomething() {
    var generator = NaiveSplitMix64(state: 0x5E55_10E0)
    let mine = generator.next()
    let theirs = generator.next()
    #expect(SplitMixInversion.predictions(after: mine, count: 4).contains(theirs))
  }

  @Test func knowingOnesOwnTokensGivesNothingAboutAnyoneElses() throws {
    for secrets in [ServiceSecrets.systemRandom, .derived(seed: 0x5E55_10E0)] {
      let harness = ServiceHarness { $0.secrets = secrets }
      let mallory = try harness.join("Mallory")
      let victims = try (0..<20).map { try harness.join("Victim \($0)") }
      let own = try #require(harness.clients[mallory]?.resumeToken)
      // Mallory resumes once too, to learn a token of the second kind.
      let resumed = harness.resume(mallory)
      let ownResumed = try #require(harness.clients[resumed]?.resumeToken)
      var predicted = SplitMixInversion.predictions(after: own, count: 1_000)
      predicted.formUnion(SplitMixInversion.predictions(after: ownResumed, count: 1_000))
      for victim in victims {
        let token = try #require(harness.clients[victim]?.resumeToken)
        #expect(!predicted.contains(token), "\(secrets): a victim's token was predicted")
        // And a guessed resume with a predicted token takes nobody's place.
        let attempt = harness.resume(victim, resumeToken: predicted.first)
        #expect(harness.messages(to: attempt).contains(.left(.networkError)))
      }
      let sessionID = try #require(harness.clients[mallory]?.sessionID)
      #expect(sessionID.hasPrefix("S1-") && sessionID.count == 11)
    }
  }

  @Test func twoServicesWithTheSameConfigurationIssueDifferentSecrets() throws {
    let first = ServiceHarness()
    let second = ServiceHarness()
    let a = try first.join("Ada")
    let b = try second.join("Ada")
    #expect(first.clients[a]?.resumeToken != second.clients[b]?.resumeToken)
    #expect(first.clients[a]?.sessionID != second.clients[b]?.sessionID)
  }

  @Test func derivedSecretsRepeatForTheSameSeedAndDifferForAnother() throws {
    func secrets(_ seed: UInt64) throws -> [UInt64?] {
      let harness = ServiceHarness { $0.secrets = .derived(seed: seed) }
      var tokens: [UInt64?] = []
      for index in 0..<3 {
        let connection = try harness.join("P\(index)")
        tokens.append(harness.clients[connection]?.resumeToken)
      }
      #expect(!tokens.contains(nil))
      return tokens
    }
    #expect(try secrets(1) == secrets(1))
    #expect(try secrets(1) != secrets(2))
    #expect(ServiceSecrets.derived(seed: 1).restarted(1) != .derived(seed: 1))
    #expect("\(ServiceSecrets.derived(seed: 1))" == "derived")
  }

  // MARK: N6: one token cannot fill a session

  @Test func oneTokenHoldsAtMostItsShareOfASessionAndAnHonestJoinerStillGetsIn() throws {
    let harness = ServiceHarness {
      $0.maxMembersPerToken = 5
      $0.limits.maxUsers = 8
    }
    let shared = harness.token()
    var holders: [ConnectionID] = []
    for index in 0..<12 {
      let connection = harness.connect()
      let mark = harness.mark
      harness.send(.join(harness.joinRequest("Bot \(index)", token: shared)), on: connection)
      let replies = harness.messages(to: connection, since: mark)
      if replies.contains(where: { if case .joined = $0 { true } else { false } }) {
        holders.append(connection)
      } else {
        #expect(replies == [.joinRefused(.sessionJoinFailed)])
      }
    }
    #expect(holders.count == 5)
    #expect(harness.logLines.contains { $0.contains("already hold this token") })
    // An honest joiner with its own token gets in.
    harness.advance(by: 1_000)
    _ = try harness.join("Honest")
    // A holder leaving frees a place for the token.
    harness.command(.leave(end: false), on: holders[0])
    let again = harness.connect()
    let mark = harness.mark
    harness.send(.join(harness.joinRequest("Bot again", token: shared)), on: again)
    #expect(
      harness.messages(to: again, since: mark).contains {
        if case .joined = $0 { true } else { false }
      })
  }

  @Test func noLimitPerTokenWhenTheConfigurationSaysNone() throws {
    let harness = ServiceHarness { $0.maxMembersPerToken = 0 }
    let shared = harness.token()
    for index in 0..<60 {
      let connection = harness.connect()
      harness.send(.join(harness.joinRequest("P\(index)", token: shared)), on: connection)
    }
    #expect(harness.service.mediaCredentials.count == 60)
  }

  // MARK: N7: resume guessing

  /// A resume of `client`'s membership with `token`.
  private func resume(of client: ServiceHarness.Client, token: UInt64) -> ClientMessage {
    .resume(
      ResumeRequest(
        sessionID: client.sessionID ?? "", user: client.user ?? 0, resumeToken: token,
        lastSequence: 0))
  }

  @Test func wrongResumesAreAnsweredThenTheConnectionIsClosedWithOneLogLineEach() throws {
    let harness = ServiceHarness()
    let ada = try harness.join("Ada")
    let guesser = harness.connect()
    let client = try #require(harness.clients[ada])
    let logBefore = harness.logLines.filter { $0.contains("resume") }.count
    for guess in 0..<20 { harness.send(resume(of: client, token: UInt64(guess)), on: guesser) }
    let replies = harness.messages(to: guesser)
    #expect(replies == Array(repeating: .left(.networkError), count: 4))
    #expect(harness.clients[guesser]?.isOpen == false)
    // One line for the first wrong resume and one for the close; what the harness sends on
    // the closed connection afterwards never reaches the service's resume path.
    #expect(harness.logLines.filter { $0.contains("resume") }.count - logBefore == 2)
    // Ada is untouched, and her own resume works.
    let resumed = harness.resume(ada)
    #expect(
      harness.messages(to: resumed).contains { if case .joined = $0 { true } else { false } })
  }

  @Test func aFewWrongResumesLeaveTheConnectionOpenForARightOne() throws {
    let harness = ServiceHarness()
    let ada = try harness.join("Ada")
    harness.close(ada)
    let client = try #require(harness.clients[ada])
    let connection = harness.connect()
    for guess in 0..<3 { harness.send(resume(of: client, token: UInt64(guess)), on: connection) }
    harness.send(resume(of: client, token: client.resumeToken ?? 0), on: connection)
    #expect(harness.clients[connection]?.isOpen == true)
    #expect(
      harness.messages(to: connection).contains { if case .joined = $0 { true } else { false } })
  }
}
