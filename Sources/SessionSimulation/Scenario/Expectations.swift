/// What must hold in a run.
///
/// > Important: A value; `Sendable`.
public struct Expectations: Sendable, Hashable, Codable {
  /// Every replica's (and the service's) state keeps the reducer's invariants after every
  /// event (default true).
  public var invariants: Bool
  /// At the end, every live peer in the session holds the service's state, and the service
  /// lists exactly the peers in the session (default true).
  public var convergence: Bool
  /// After the last fault heals, every live replica converges within this long (default 20 s;
  /// it must exceed the heartbeat timeout plus the reconnect grace when peers die).
  public var liveness: SimDuration
  /// The delivery properties: no duplicate or missing `onUserJoin`/`onUserLeave`, no chat
  /// message lost or duplicated, every peer's callbacks well formed (default true).
  public var delivery: Bool
  /// Checks at times.
  public var assertions: [AssertionSpec]
  /// What the media must show at the end (`expect.media`), if anything.
  public var media: MediaExpectations?

  /// Makes expectations.
  ///
  /// - Parameters:
  ///   - invariants: Whether every replica's state keeps the reducer's invariants; `true` by
  ///     default.
  ///   - convergence: Whether every live peer must hold the service's state at the end; `true`
  ///     by default.
  ///   - liveness: How long after the last fault heals the replicas have to converge; 20 s by
  ///     default.
  ///   - delivery: Whether the callback delivery properties are checked; `true` by default.
  ///   - assertions: Checks at times; none by default.
  ///   - media: What the media must show at the end; `nil` (the default) for nothing.
  public init(
    invariants: Bool = true, convergence: Bool = true, liveness: SimDuration = .seconds(20),
    delivery: Bool = true, assertions: [AssertionSpec] = [], media: MediaExpectations? = nil
  ) {
    self.invariants = invariants
    self.convergence = convergence
    self.liveness = liveness
    self.delivery = delivery
    self.assertions = assertions
    self.media = media
  }

  private enum CodingKeys: String, CodingKey {
    case invariants, convergence, liveness, delivery, assertions, media
  }

  /// Decodes the value from a scenario file.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when the file does not say a valid value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    invariants = try container.decodeIfPresent(Bool.self, forKey: .invariants) ?? true
    convergence = try container.decodeIfPresent(Bool.self, forKey: .convergence) ?? true
    liveness = try container.decodeIfPresent(SimDuration.self, forKey: .liveness) ?? .seconds(20)
    delivery = try container.decodeIfPresent(Bool.self, forKey: .delivery) ?? true
    assertions = try container.decodeIfPresent([AssertionSpec].self, forKey: .assertions) ?? []
    media = try container.decodeIfPresent(MediaExpectations.self, forKey: .media)
  }
}

/// A check at a time, on every selected live peer's replica (users by peer name): "at 20 s
/// every peer sees the teacher as host".
///
/// Each stated field must hold; a peer that is not in the session fails every field but
/// `inSession: false`.
///
/// > Important: A value; `Sendable`.
public struct AssertionSpec: Sendable, Hashable, Codable {
  /// When, after the start.
  public var at: SimDuration
  /// Whose replicas: a name or a `*` pattern (default every live peer).
  public var peers: String?
  /// Whether the peer is in the session.
  public var inSession: Bool?
  /// Who the host is, by peer name.
  public var host: String?
  /// The managers, by peer name, in any order.
  public var managers: [String]?
  /// How many users the roster holds.
  public var rosterCount: Int?
  /// Users the roster must hold, by peer name.
  public var sees: [String]?
  /// Users the roster must not hold, by peer name.
  public var doesNotSee: [String]?
  /// Users who must be sharing, by peer name.
  public var sharing: [String]?
  /// Users whose video must be on, by peer name.
  public var videoOn: [String]?
  /// Whether the share is locked.
  public var shareLocked: Bool?
  /// The fewest command-channel commands the peer must have received by then (in its current
  /// life).
  public var commandsReceived: Int?
  /// Whose video is spotlighted, by peer name, in order.
  public var spotlighted: [String]?
  /// The subsessions' status: `none`, `committed`, `withdrawn`, `started` or `stopped`.
  public var subSessions: String?
  /// Where the peer is: a subsession's name, or `main`.
  public var inSubSession: String?
  /// The fewest subsession broadcasts the peer must have received by then (in its current
  /// life).
  public var broadcastsReceived: Int?
  /// The cloud recording's status: `none`, `start`, `pause` or `stop`.
  public var recording: String?
  /// Who agreed to be recorded, by peer name, in any order.
  public var recordAgreed: [String]?

  /// Makes an assertion.
  ///
  /// - Parameters:
  ///   - at: When, after the start.
  ///   - peers: Whose replicas: a name or a `*` pattern; `nil` for every live peer.
  ///   - inSession: Whether the peer is in the session.
  ///   - host: Who the host is, by peer name.
  ///   - managers: The managers, by peer name, in any order.
  ///   - rosterCount: How many users the roster holds.
  ///   - sees: Users the roster must hold, by peer name.
  ///   - doesNotSee: Users the roster must not hold, by peer name.
  ///   - sharing: Users who must be sharing, by peer name.
  ///   - videoOn: Users whose video must be on, by peer name.
  ///   - shareLocked: Whether the share is locked.
  ///   - commandsReceived: The fewest command-channel commands received by then.
  ///   - spotlighted: Whose video is spotlighted, by peer name, in order.
  ///   - subSessions: The subsessions' status by name (`started` …).
  ///   - inSubSession: Where the peer is: a subsession's name, or `main`.
  ///   - broadcastsReceived: The fewest subsession broadcasts received by then.
  ///   - recording: The cloud recording's status by name (`start` …).
  ///   - recordAgreed: Who agreed to be recorded, by peer name.
  public init(
    at: SimDuration, peers: String? = nil, inSession: Bool? = nil, host: String? = nil,
    managers: [String]? = nil, rosterCount: Int? = nil, sees: [String]? = nil,
    doesNotSee: [String]? = nil, sharing: [String]? = nil, videoOn: [String]? = nil,
    shareLocked: Bool? = nil, commandsReceived: Int? = nil, spotlighted: [String]? = nil,
    subSessions: String? = nil, inSubSession: String? = nil, broadcastsReceived: Int? = nil,
    recording: String? = nil, recordAgreed: [String]? = nil
  ) {
    self.at = at
    self.peers = peers
    self.inSession = inSession
    self.host = host
    self.managers = managers
    self.rosterCount = rosterCount
    self.sees = sees
    self.doesNotSee = doesNotSee
    self.sharing = sharing
    self.videoOn = videoOn
    self.shareLocked = shareLocked
    self.commandsReceived = commandsReceived
    self.spotlighted = spotlighted
    self.subSessions = subSessions
    self.inSubSession = inSubSession
    self.broadcastsReceived = broadcastsReceived
    self.recording = recording
    self.recordAgreed = recordAgreed
  }
}
