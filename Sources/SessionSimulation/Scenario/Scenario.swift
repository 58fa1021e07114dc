/// A whole simulation run, as a scenario file says it: the session, the peers, what they do,
/// the network they do it over, the faults, and what must hold.
///
/// Scenario files are JSON (see `Docs/Scenarios.md`); ``ScenarioBuilder`` makes the same value
/// in Swift. One scenario and one seed reproduce a deterministic run exactly.
///
/// > Important: A value; `Sendable`.
public struct Scenario: Sendable, Hashable, Codable {
  /// The scenario's name, for reports.
  public var name: String
  /// What the scenario exercises, for reports.
  public var description: String?
  /// The seed a run uses when none is given on the command line.
  public var seed: UInt64?
  /// How long the scripted part runs: behaviours and random faults stop here; then every fault
  /// heals and the liveness phase begins.
  public var duration: SimDuration
  /// The session everyone joins.
  public var session: SessionSpec
  /// The service's timeouts.
  public var service: ServiceSpec?
  /// The network every peer starts with, per direction.
  public var network: NetworkSpec?
  /// The peers, single or in counted groups.
  public var peers: [PeerSpec]
  /// Scripted SDK operations at times.
  public var actions: [ActionSpec]
  /// Random behaviour by rates.
  public var behaviours: [BehaviourSpec]
  /// Faults at times.
  public var faults: [FaultSpec]
  /// Faults as random processes.
  public var randomFaults: [RandomFaultSpec]
  /// Swarm ranges: with `--swarm`, each seed draws its own network and fault rates from them.
  public var swarm: SwarmSpec?
  /// What must hold.
  public var expect: Expectations

  /// Makes a scenario; ``ScenarioBuilder`` is the friendlier way.
  ///
  /// - Parameters:
  ///   - name: The scenario's name.
  ///   - description: What the scenario is for, in a sentence.
  ///   - seed: The seed runs use unless told another; `nil` for the run's default.
  ///   - duration: How long the scripted part runs.
  ///   - session: The session.
  ///   - service: The service's timeouts; `nil` for its defaults.
  ///   - network: The network every peer starts with; `nil` for an ideal one.
  ///   - peers: The peers.
  ///   - actions: Scripted SDK operations at times.
  ///   - behaviours: Random behaviour by rates.
  ///   - faults: Faults at times.
  ///   - randomFaults: Faults as random processes.
  ///   - swarm: Swarm ranges for `--swarm`; `nil` for none.
  ///   - expect: What must hold.
  public init(
    name: String, description: String? = nil, seed: UInt64? = nil, duration: SimDuration,
    session: SessionSpec, service: ServiceSpec? = nil, network: NetworkSpec? = nil,
    peers: [PeerSpec], actions: [ActionSpec] = [], behaviours: [BehaviourSpec] = [],
    faults: [FaultSpec] = [], randomFaults: [RandomFaultSpec] = [], swarm: SwarmSpec? = nil,
    expect: Expectations = Expectations()
  ) {
    self.name = name
    self.description = description
    self.seed = seed
    self.duration = duration
    self.session = session
    self.service = service
    self.network = network
    self.peers = peers
    self.actions = actions
    self.behaviours = behaviours
    self.faults = faults
    self.randomFaults = randomFaults
    self.swarm = swarm
    self.expect = expect
  }

  private enum CodingKeys: String, CodingKey {
    case name, description, seed, duration, session, service, network, peers, actions
    case behaviours, faults, randomFaults, swarm, expect
  }

  /// Decodes the value from a scenario file.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when the file does not say a valid value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    description = try container.decodeIfPresent(String.self, forKey: .description)
    seed = try container.decodeIfPresent(UInt64.self, forKey: .seed)
    duration = try container.decode(SimDuration.self, forKey: .duration)
    session = try container.decode(SessionSpec.self, forKey: .session)
    service = try container.decodeIfPresent(ServiceSpec.self, forKey: .service)
    network = try container.decodeIfPresent(NetworkSpec.self, forKey: .network)
    peers = try container.decode([PeerSpec].self, forKey: .peers)
    actions = try container.decodeIfPresent([ActionSpec].self, forKey: .actions) ?? []
    behaviours = try container.decodeIfPresent([BehaviourSpec].self, forKey: .behaviours) ?? []
    faults = try container.decodeIfPresent([FaultSpec].self, forKey: .faults) ?? []
    randomFaults =
      try container.decodeIfPresent([RandomFaultSpec].self, forKey: .randomFaults) ?? []
    swarm = try container.decodeIfPresent(SwarmSpec.self, forKey: .swarm)
    expect = try container.decodeIfPresent(Expectations.self, forKey: .expect) ?? Expectations()
  }
}

/// The session of a scenario.
public struct SessionSpec: Sendable, Hashable, Codable {
  /// The session name (the token's `tpc`).
  public var name: String
  /// The session password, if it has one.
  public var password: String?

  /// Makes a session spec.
  ///
  /// - Parameters:
  ///   - name: The session name.
  ///   - password: The password, if any.
  public init(name: String, password: String? = nil) {
    self.name = name
    self.password = password
  }
}

/// The service's timeouts; what is left out keeps the service's default.
public struct ServiceSpec: Sendable, Hashable, Codable {
  /// Silence after which the service closes a connection (default 15 s).
  public var heartbeatTimeout: SimDuration?
  /// How long a dropped member keeps its place (default 10 s; 0 removes at once).
  public var reconnectGrace: SimDuration?
  /// Members per session (default 1,000).
  public var maxUsers: Int?

  /// Makes a service spec.
  ///
  /// - Parameters:
  ///   - heartbeatTimeout: Silence after which the service closes a connection; `nil` for 15 s.
  ///   - reconnectGrace: How long a dropped member keeps its place; `nil` for 10 s.
  ///   - maxUsers: Members per session; `nil` for 1,000.
  public init(
    heartbeatTimeout: SimDuration? = nil, reconnectGrace: SimDuration? = nil, maxUsers: Int? = nil
  ) {
    self.heartbeatTimeout = heartbeatTimeout
    self.reconnectGrace = reconnectGrace
    self.maxUsers = maxUsers
  }
}
