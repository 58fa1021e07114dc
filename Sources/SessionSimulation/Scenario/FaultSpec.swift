import SessionTransport

/// A fault at a time. Peers are named by name or `*` pattern; `"service"` names the service's
/// side of a partition.
///
/// A fault with `for` undoes itself after that long (a partition heals, a hold releases, a
/// paused peer resumes, a killed service restarts, an impaired link is restored, a killed
/// peer restarts). Everything still in force when the scripted part ends is undone then, and
/// the liveness phase begins.
///
/// > Important: A value; `Sendable`.
public struct FaultSpec: Sendable, Hashable, Codable {
  /// The faults a scenario can inject.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Cut `groups[0]` from `groups[1]` (one way when `oneWay`).
    case partition
    /// Heal every partition and release every hold.
    case heal
    /// Hold one direction (`direction`) of the peers' links: messages wait, as TCP
    /// retransmits.
    case hold
    /// Release held messages, in order.
    case release
    /// Kill the peers: no goodbye; the service finds out by its heartbeat timeout.
    case kill
    /// Start killed peers again as fresh instances that join anew.
    case restart
    /// Stop the peers' processes past the heartbeat timeout, then `resume`.
    case pause
    /// Resume paused peers.
    case resume
    /// Kill the service (its state is lost); with `for`, it restarts after that long.
    case killService
    /// Start a killed service again, empty.
    case restartService
    /// Move the peers' clocks by `skewMs`.
    case clockSkew
    /// Give the peers' links `network` (over what they had), undone by `restore` or `for`.
    case impair
    /// Give the peers' links back what they had before `impair`.
    case restore
  }

  /// When, after the start.
  public var at: SimDuration
  /// Which fault.
  public var kind: Kind
  /// Who: a name or a `*` pattern (every kind but partition, heal, and the service's).
  public var peers: String?
  /// A partition's two sides, each a list of names or patterns (`"service"` included).
  public var groups: [[String]]?
  /// Whether a partition blocks only `groups[0]` → `groups[1]`.
  public var oneWay: Bool?
  /// Which direction a hold or impairment affects (default both).
  public var direction: LinkDirections?
  /// How long until the fault undoes itself.
  public var duration: SimDuration?
  /// The clock skew, in milliseconds.
  public var skewMilliseconds: Int64?
  /// The impaired link.
  public var network: NetworkSpec?

  /// Makes a fault.
  ///
  /// - Parameters:
  ///   - at: When, after the start.
  ///   - kind: Which fault.
  ///   - peers: Who: a name or a `*` pattern; `nil` for every peer.
  ///   - groups: A partition's two sides, each a list of names or patterns (`"service"`
  ///     included).
  ///   - oneWay: Whether a partition blocks only `groups[0]` → `groups[1]`.
  ///   - direction: Which direction a hold or impairment affects; `nil` for both.
  ///   - duration: How long until the fault undoes itself (the file's `for`); `nil` keeps it
  ///     until the scripted part ends.
  ///   - skewMilliseconds: A clock skew's amount, in milliseconds.
  ///   - network: An impairment's link.
  public init(
    at: SimDuration, _ kind: Kind, peers: String? = nil, groups: [[String]]? = nil,
    oneWay: Bool? = nil, direction: LinkDirections? = nil, for duration: SimDuration? = nil,
    skewMilliseconds: Int64? = nil, network: NetworkSpec? = nil
  ) {
    self.at = at
    self.kind = kind
    self.peers = peers
    self.groups = groups
    self.oneWay = oneWay
    self.direction = direction
    self.duration = duration
    self.skewMilliseconds = skewMilliseconds
    self.network = network
  }

  private enum CodingKeys: String, CodingKey {
    case at, kind, peers, groups, oneWay, direction
    case duration = "for"
    case skewMilliseconds = "skewMs"
    case network
  }
}

/// A fault as a random process: at `perMinute` on average (Poisson), from `start` until `end`
/// (default: the whole scripted part), each time on one peer drawn from `peers`, lasting a
/// span drawn from `duration`.
///
/// > Important: A value; `Sendable`.
public struct RandomFaultSpec: Sendable, Hashable, Codable {
  /// The faults a random process can inject.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The drawn peer is cut from the service, both ways.
    case partition
    /// The drawn peer's link is held one way (drawn too).
    case hold
    /// The drawn peer is killed and restarts after the duration.
    case kill
    /// The drawn peer is paused for the duration.
    case pause
    /// The service is killed and restarts after the duration.
    case killService
    /// The drawn peer's link gets `network` for the duration.
    case impair
  }

  /// Which fault.
  public var kind: Kind
  /// Whom it may hit: a name or a `*` pattern (default every peer).
  public var peers: String?
  /// The mean number per minute.
  public var perMinute: Double
  /// How long each lasts (default 1–5 s).
  public var duration: SimDurationRange?
  /// The impaired link (impair only).
  public var network: NetworkSpec?
  /// When the process starts (default 0).
  public var start: SimDuration?
  /// When it stops (default: the end of the scripted part).
  public var end: SimDuration?

  /// Makes a random fault process.
  ///
  /// - Parameters:
  ///   - kind: Which fault.
  ///   - peers: Whom it may hit: a name or a `*` pattern; `nil` for every peer.
  ///   - perMinute: The mean number per minute.
  ///   - duration: How long each lasts; `nil` for 1 to 5 s.
  ///   - network: An impairment's link.
  ///   - start: When the process starts; `nil` for 0.
  ///   - end: When it stops; `nil` for the end of the scripted part.
  public init(
    _ kind: Kind, peers: String? = nil, perMinute: Double, duration: SimDurationRange? = nil,
    network: NetworkSpec? = nil, start: SimDuration? = nil, end: SimDuration? = nil
  ) {
    self.kind = kind
    self.peers = peers
    self.perMinute = perMinute
    self.duration = duration
    self.network = network
    self.start = start
    self.end = end
  }
}

/// Swarm testing: with `--swarm`, each seed draws its own rates within these ranges (as
/// TigerBeetle's VOPR does), so that many seeds cover many mixes of faults.
///
/// Each range is `[low, high]`; a seed draws uniformly in it. What is drawn adds to the
/// scenario's own network and faults.
///
/// > Important: A value; `Sendable`.
public struct SwarmSpec: Sendable, Hashable, Codable {
  /// Loss probability for every link.
  public var loss: [Double]?
  /// Mean extra one-way delay in milliseconds (exponential).
  public var delayMilliseconds: [Double]?
  /// Jitter in milliseconds.
  public var jitterMilliseconds: [Double]?
  /// Partitions of one peer per minute.
  public var partitionsPerMinute: [Double]?
  /// Holds per minute.
  public var holdsPerMinute: [Double]?
  /// Peer kills (with restart) per minute.
  public var killsPerMinute: [Double]?
  /// Pauses per minute.
  public var pausesPerMinute: [Double]?
  /// Service kills (with restart) per minute.
  public var serviceKillsPerMinute: [Double]?
  /// How long each drawn fault lasts.
  public var faultDuration: SimDurationRange?

  /// Makes swarm ranges.
  ///
  /// - Parameters:
  ///   - loss: The range of every link's loss probability; `nil` leaves the scenario's.
  ///   - delayMilliseconds: The range of the mean extra one-way delay, in milliseconds; `nil`
  ///     leaves the scenario's.
  ///   - jitterMilliseconds: The range of the jitter, in milliseconds; `nil` leaves the
  ///     scenario's.
  ///   - partitionsPerMinute: The range of partitions of one peer per minute; `nil` draws none.
  ///   - holdsPerMinute: The range of holds per minute; `nil` draws none.
  ///   - killsPerMinute: The range of peer kills (with restart) per minute; `nil` draws none.
  ///   - pausesPerMinute: The range of pauses per minute; `nil` draws none.
  ///   - serviceKillsPerMinute: The range of service kills (with restart) per minute; `nil`
  ///     draws none.
  ///   - faultDuration: How long each drawn fault lasts; `nil` for 1 to 10 s.
  public init(
    loss: [Double]? = nil, delayMilliseconds: [Double]? = nil,
    jitterMilliseconds: [Double]? = nil, partitionsPerMinute: [Double]? = nil,
    holdsPerMinute: [Double]? = nil, killsPerMinute: [Double]? = nil,
    pausesPerMinute: [Double]? = nil, serviceKillsPerMinute: [Double]? = nil,
    faultDuration: SimDurationRange? = nil
  ) {
    self.loss = loss
    self.delayMilliseconds = delayMilliseconds
    self.jitterMilliseconds = jitterMilliseconds
    self.partitionsPerMinute = partitionsPerMinute
    self.holdsPerMinute = holdsPerMinute
    self.killsPerMinute = killsPerMinute
    self.pausesPerMinute = pausesPerMinute
    self.serviceKillsPerMinute = serviceKillsPerMinute
    self.faultDuration = faultDuration
  }

  private enum CodingKeys: String, CodingKey {
    case loss
    case delayMilliseconds = "delayMs"
    case jitterMilliseconds = "jitterMs"
    case partitionsPerMinute, holdsPerMinute, killsPerMinute, pausesPerMinute
    case serviceKillsPerMinute, faultDuration
  }
}
