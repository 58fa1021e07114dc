import SessionTransport

/// Builds a ``Scenario`` in Swift, step by step, on the same model a scenario file decodes to:
/// a builder-made scenario and the file that says the same thing are equal values.
///
/// Every step returns a new builder with one more thing said, so a builder can be kept half
/// made and finished two ways:
///
/// ```swift
/// let classroom = ScenarioBuilder("classroom", duration: .seconds(60))
///   .session("Algebra101")
///   .peer("teacher", role: .host)
///   .group("student-{i}", count: 30, join: .between(.seconds(1), .seconds(4)))
///   .at(.seconds(5), "teacher", .startShare)
///   .behaviour("student-*", chatPerMinute: 1)
///   .fault(at: .seconds(20), .kill, peers: "teacher", for: .seconds(30))
///   .expect(at: .seconds(10), host: "teacher", rosterCount: 31)
///   .build()
/// ```
///
/// The builder checks nothing itself: ``validated()`` (or ``ScenarioLoader/validate(_:)``)
/// applies the same rules as a loaded file.
///
/// > Important: A value; `Sendable`. Usable on any thread.
public struct ScenarioBuilder: Sendable, Hashable {
  /// The scenario said so far.
  public private(set) var scenario: Scenario

  /// Starts a scenario with no peers, whose session is named like the scenario.
  ///
  /// - Parameters:
  ///   - name: The scenario's name, for reports.
  ///   - duration: How long the scripted part runs.
  public init(_ name: String, duration: SimDuration) {
    scenario = Scenario(
      name: name, duration: duration, session: SessionSpec(name: name), peers: [])
  }

  /// Starts from an existing scenario (a loaded file, say) to change it.
  ///
  /// - Parameter scenario: The scenario.
  public init(_ scenario: Scenario) { self.scenario = scenario }

  /// The scenario, as said; not validated.
  ///
  /// - Returns: The scenario.
  public func build() -> Scenario { scenario }

  /// The scenario, checked by the rules a scenario file must keep.
  ///
  /// - Returns: The scenario.
  /// - Throws: ``ScenarioError`` naming the first field that breaks a rule.
  public func validated() throws -> Scenario {
    try ScenarioLoader.validate(scenario)
    return scenario
  }

  private func with(_ change: (inout Scenario) -> Void) -> ScenarioBuilder {
    var copy = self
    change(&copy.scenario)
    return copy
  }

  // MARK: The run

  /// Says what the scenario exercises.
  ///
  /// - Parameter text: The description, for reports.
  /// - Returns: The builder with it.
  public func description(_ text: String) -> ScenarioBuilder {
    with { $0.description = text }
  }

  /// Sets the seed a run uses when none is given.
  ///
  /// - Parameter seed: The seed.
  /// - Returns: The builder with it.
  public func seed(_ seed: UInt64) -> ScenarioBuilder { with { $0.seed = seed } }

  /// Names the session everyone joins.
  ///
  /// - Parameters:
  ///   - name: The session name (the tokens' `tpc`).
  ///   - password: The session's password, if it has one.
  /// - Returns: The builder with it.
  public func session(_ name: String, password: String? = nil) -> ScenarioBuilder {
    with { $0.session = SessionSpec(name: name, password: password) }
  }

  /// Sets the service's timeouts and limit; what is left `nil` keeps the service's default.
  ///
  /// - Parameters:
  ///   - heartbeatTimeout: Silence after which the service closes a connection.
  ///   - reconnectGrace: How long a dropped member keeps its place.
  ///   - maxUsers: Members per session.
  /// - Returns: The builder with it.
  public func service(
    heartbeatTimeout: SimDuration? = nil, reconnectGrace: SimDuration? = nil,
    maxUsers: Int? = nil
  ) -> ScenarioBuilder {
    with {
      $0.service = ServiceSpec(
        heartbeatTimeout: heartbeatTimeout, reconnectGrace: reconnectGrace, maxUsers: maxUsers)
    }
  }

  /// Sets the network every peer starts with.
  ///
  /// - Parameter network: The links, per direction.
  /// - Returns: The builder with it.
  public func network(_ network: NetworkSpec) -> ScenarioBuilder {
    with { $0.network = network }
  }

  // MARK: Peers

  /// Adds one peer.
  ///
  /// - Parameters:
  ///   - name: The peer's name, which is also its user name; unique, no `*`.
  ///   - role: The token's role (default participant).
  ///   - join: When it joins by itself (default at the start); `nil`: only when an action
  ///     joins it.
  ///   - video: Whether the camera is on at join.
  ///   - audio: Whether audio connects at join.
  ///   - muted: Whether the microphone starts muted.
  ///   - token: The token it joins with (default a valid one).
  ///   - password: The password it offers.
  ///   - network: Its link, over the scenario's network.
  ///   - clockSkewMilliseconds: How far its clock runs ahead (negative: behind).
  ///   - media: What its synthetic media sends and watches (a media plane for the run).
  /// - Returns: The builder with it.
  public func peer(
    _ name: String, role: PeerSpec.Role = .participant, join: SimDuration? = .zero,
    video: Bool = false, audio: Bool = true, muted: Bool = true, token: TokenSpec = .valid,
    password: String? = nil, network: NetworkSpec? = nil, clockSkewMilliseconds: Int64? = nil,
    media: PeerMediaSpec? = nil
  ) -> ScenarioBuilder {
    peers(
      PeerSpec(
        name: name, role: role, join: join.map(SimDurationRange.exactly), video: video,
        audio: audio, muted: muted, token: token, password: password, network: network,
        clockSkewMilliseconds: clockSkewMilliseconds, media: media))
  }

  /// Adds a counted group of peers named by a pattern: `"student-{i}"` stands for
  /// `student-1` … `student-30`.
  ///
  /// - Parameters:
  ///   - pattern: The names, with `{i}` for 1 … `count`.
  ///   - count: How many.
  ///   - role: The tokens' role (default participant).
  ///   - join: When they join: one time, or spread evenly over a range (the first at its
  ///     start, the last at its end); `nil`: only when an action joins them.
  ///   - video: Whether cameras are on at join.
  ///   - audio: Whether audio connects at join.
  ///   - muted: Whether microphones start muted.
  ///   - token: The token they join with.
  ///   - password: The password they offer.
  ///   - network: Their links, over the scenario's network.
  ///   - clockSkewMilliseconds: How far their clocks run ahead (negative: behind).
  ///   - media: What their synthetic media sends and watches.
  /// - Returns: The builder with them.
  public func group(
    _ pattern: String, count: Int, role: PeerSpec.Role = .participant,
    join: SimDurationRange? = .exactly(.zero), video: Bool = false, audio: Bool = true,
    muted: Bool = true, token: TokenSpec = .valid, password: String? = nil,
    network: NetworkSpec? = nil, clockSkewMilliseconds: Int64? = nil,
    media: PeerMediaSpec? = nil
  ) -> ScenarioBuilder {
    peers(
      PeerSpec(
        name: pattern, count: count, role: role, join: join, video: video, audio: audio,
        muted: muted, token: token, password: password, network: network,
        clockSkewMilliseconds: clockSkewMilliseconds, media: media))
  }

  /// Adds peer entries as they are.
  ///
  /// - Parameter specs: The entries.
  /// - Returns: The builder with them.
  public func peers(_ specs: PeerSpec...) -> ScenarioBuilder {
    with { $0.peers += specs }
  }

  // MARK: Actions and behaviour

  /// Scripts an SDK operation at a time.
  ///
  /// - Parameters:
  ///   - time: When, after the start.
  ///   - peer: Who acts: a name or a `*` pattern.
  ///   - operation: What they do (the file's `do`).
  ///   - target: The user it is about, by peer name.
  ///   - text: Chat content, a new name, a clear type or a chat privilege.
  ///   - value: A flag: lock or unlock, enable or disable, talking or silent.
  /// - Returns: The builder with it.
  public func at(
    _ time: SimDuration, _ peer: String, _ operation: ActionSpec.Operation,
    target: String? = nil, text: String? = nil, value: Bool? = nil
  ) -> ScenarioBuilder {
    actions(
      ActionSpec(at: time, peer: peer, operation, target: target, text: text, value: value))
  }

  /// Adds scripted actions as they are.
  ///
  /// - Parameter specs: The actions.
  /// - Returns: The builder with them.
  public func actions(_ specs: ActionSpec...) -> ScenarioBuilder {
    with { $0.actions += specs }
  }

  /// Adds random behaviour for a set of peers, by rates per minute of each peer; a rate left
  /// `nil` is not drawn.
  ///
  /// - Parameters:
  ///   - peers: Who: a name or a `*` pattern.
  ///   - leavePerMinute: Leaving, each followed by a rejoin after `rejoinAfter`.
  ///   - rejoinAfter: How long a peer stays out (default 5 s).
  ///   - videoTogglePerMinute: Camera flips.
  ///   - audioTogglePerMinute: Audio connect/disconnect flips.
  ///   - mutePerMinute: Mute flips.
  ///   - chatPerMinute: Chat messages to everyone.
  ///   - sharePerMinute: Share start/stop flips.
  ///   - annotatePerMinute: Annotation start/stop flips.
  ///   - renamePerMinute: Renames.
  ///   - talkPerMinute: Talking spurts, each `talkFor` long.
  ///   - talkFor: A spurt's length (default 2 s).
  /// - Returns: The builder with it.
  public func behaviour(
    _ peers: String, leavePerMinute: Double? = nil, rejoinAfter: SimDurationRange? = nil,
    videoTogglePerMinute: Double? = nil, audioTogglePerMinute: Double? = nil,
    mutePerMinute: Double? = nil, chatPerMinute: Double? = nil, sharePerMinute: Double? = nil,
    annotatePerMinute: Double? = nil, renamePerMinute: Double? = nil,
    talkPerMinute: Double? = nil, talkFor: SimDurationRange? = nil
  ) -> ScenarioBuilder {
    behaviours(
      BehaviourSpec(
        peers: peers, leavePerMinute: leavePerMinute, rejoinAfter: rejoinAfter,
        videoTogglePerMinute: videoTogglePerMinute, audioTogglePerMinute: audioTogglePerMinute,
        mutePerMinute: mutePerMinute, chatPerMinute: chatPerMinute,
        sharePerMinute: sharePerMinute, annotatePerMinute: annotatePerMinute,
        renamePerMinute: renamePerMinute, talkPerMinute: talkPerMinute, talkFor: talkFor))
  }

  /// Adds behaviours as they are.
  ///
  /// - Parameter specs: The behaviours.
  /// - Returns: The builder with them.
  public func behaviours(_ specs: BehaviourSpec...) -> ScenarioBuilder {
    with { $0.behaviours += specs }
  }

  // MARK: Faults

  /// Injects a fault at a time.
  ///
  /// - Parameters:
  ///   - time: When, after the start.
  ///   - kind: Which fault.
  ///   - peers: Whom: a name or a `*` pattern (every peer when `nil`).
  ///   - groups: A partition's two sides (names, patterns, or `"service"`).
  ///   - oneWay: Whether a partition blocks only the first side's sending.
  ///   - direction: Which way a hold or impairment acts (default both).
  ///   - duration: How long until the fault undoes itself (the file's `for`).
  ///   - skewMilliseconds: A clock skew's amount.
  ///   - network: An impairment's link.
  /// - Returns: The builder with it.
  public func fault(
    at time: SimDuration, _ kind: FaultSpec.Kind, peers: String? = nil,
    groups: [[String]]? = nil, oneWay: Bool? = nil, direction: LinkDirections? = nil,
    for duration: SimDuration? = nil, skewMilliseconds: Int64? = nil,
    network: NetworkSpec? = nil
  ) -> ScenarioBuilder {
    faults(
      FaultSpec(
        at: time, kind, peers: peers, groups: groups, oneWay: oneWay, direction: direction,
        for: duration, skewMilliseconds: skewMilliseconds, network: network))
  }

  /// Cuts one side from the other at a time.
  ///
  /// - Parameters:
  ///   - time: When, after the start.
  ///   - side: Names or patterns on one side.
  ///   - other: The other side (default the service).
  ///   - oneWay: Whether only `side`'s sending is blocked.
  ///   - duration: How long until it heals by itself.
  /// - Returns: The builder with it.
  public func partition(
    at time: SimDuration, _ side: [String], from other: [String] = ["service"],
    oneWay: Bool? = nil, for duration: SimDuration? = nil
  ) -> ScenarioBuilder {
    fault(at: time, .partition, groups: [side, other], oneWay: oneWay, for: duration)
  }

  /// Adds faults as they are.
  ///
  /// - Parameter specs: The faults.
  /// - Returns: The builder with them.
  public func faults(_ specs: FaultSpec...) -> ScenarioBuilder {
    with { $0.faults += specs }
  }

  /// Adds a fault as a random process.
  ///
  /// - Parameters:
  ///   - kind: Which fault.
  ///   - peers: Whom it may hit: a name or a `*` pattern (every peer when `nil`).
  ///   - perMinute: The mean number per minute.
  ///   - duration: How long each lasts (default 1 to 5 s).
  ///   - network: An impairment's link.
  ///   - start: When the process starts (default 0).
  ///   - end: When it stops (default the end of the scripted part).
  /// - Returns: The builder with it.
  public func randomFault(
    _ kind: RandomFaultSpec.Kind, peers: String? = nil, perMinute: Double,
    duration: SimDurationRange? = nil, network: NetworkSpec? = nil, start: SimDuration? = nil,
    end: SimDuration? = nil
  ) -> ScenarioBuilder {
    with {
      $0.randomFaults.append(
        RandomFaultSpec(
          kind, peers: peers, perMinute: perMinute, duration: duration, network: network,
          start: start, end: end))
    }
  }

  /// Sets the swarm ranges a seed draws its own network and fault rates from.
  ///
  /// - Parameter swarm: The ranges.
  /// - Returns: The builder with them.
  public func swarm(_ swarm: SwarmSpec) -> ScenarioBuilder { with { $0.swarm = swarm } }

  // MARK: Expectations

  /// Sets the run-wide expectations; what is left `nil` keeps what was said before (at first,
  /// every check on and a liveness window of 20 s).
  ///
  /// - Parameters:
  ///   - invariants: Whether every replica's state keeps the reducer's invariants.
  ///   - convergence: Whether every live peer must hold the service's state at the end.
  ///   - liveness: How long after the heal the replicas have to converge.
  ///   - delivery: Whether the callback delivery properties are checked.
  ///   - media: What the media must show at the end.
  /// - Returns: The builder with them.
  public func expect(
    invariants: Bool? = nil, convergence: Bool? = nil, liveness: SimDuration? = nil,
    delivery: Bool? = nil, media: MediaExpectations? = nil
  ) -> ScenarioBuilder {
    with {
      if let media { $0.expect.media = media }
      if let invariants { $0.expect.invariants = invariants }
      if let convergence { $0.expect.convergence = convergence }
      if let liveness { $0.expect.liveness = liveness }
      if let delivery { $0.expect.delivery = delivery }
    }
  }

  /// Adds an assertion at a time on the replicas of the selected live peers: each stated
  /// field must hold on each (users by peer name).
  ///
  /// - Parameters:
  ///   - time: When, after the start.
  ///   - peers: Whose replicas: a name or a `*` pattern (every live peer when `nil`).
  ///   - inSession: Whether the peer is in the session.
  ///   - host: Who the host is.
  ///   - managers: The managers, in any order.
  ///   - rosterCount: How many users the roster holds.
  ///   - sees: Users the roster holds.
  ///   - doesNotSee: Users the roster does not hold.
  ///   - sharing: Users who are sharing.
  ///   - videoOn: Users whose video is on.
  ///   - shareLocked: Whether the share is locked.
  /// - Returns: The builder with it.
  public func expect(
    at time: SimDuration, peers: String? = nil, inSession: Bool? = nil, host: String? = nil,
    managers: [String]? = nil, rosterCount: Int? = nil, sees: [String]? = nil,
    doesNotSee: [String]? = nil, sharing: [String]? = nil, videoOn: [String]? = nil,
    shareLocked: Bool? = nil
  ) -> ScenarioBuilder {
    with {
      $0.expect.assertions.append(
        AssertionSpec(
          at: time, peers: peers, inSession: inSession, host: host, managers: managers,
          rosterCount: rosterCount, sees: sees, doesNotSee: doesNotSee, sharing: sharing,
          videoOn: videoOn, shareLocked: shareLocked))
    }
  }
}

extension SimDurationRange {
  /// Spans spread from `from` to `to`: a group's joins, a drawn length.
  ///
  /// - Parameters:
  ///   - from: The shortest span (or the first join).
  ///   - to: The longest span (or the last join); raised to `from` when shorter.
  /// - Returns: The range.
  public static func between(_ from: SimDuration, _ to: SimDuration) -> SimDurationRange {
    SimDurationRange(from: from, to: to)
  }
}
