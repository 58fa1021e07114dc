/// What a run looked like over time: the data behind `sessionsim run --report` and
/// `sessionsim report`. ``TimelineRecorder`` fills it while a run goes (when
/// ``RunOptions/recordsTimeline`` is set); ``HTMLReport`` draws it.
///
/// Times are milliseconds since the run started (virtual in deterministic mode). Every state
/// a peer shows is a list of ``Segment``s, each holding one value from `from` up to `to`; a
/// time no segment covers had no value worth drawing (out of the session, off, none).
///
/// > Important: A value; `Sendable`.
package struct RunTimeline: Sendable, Hashable, Codable {
  /// One stretch of time with one value.
  package struct Segment: Sendable, Hashable, Codable {
    /// Where it starts, milliseconds since the run started.
    package var from: Int64
    /// Where it ends (exclusive).
    package var to: Int64
    /// The value, in words: `in`, `host`, `manager`, `on`, `muted`, `talking`, `sharing`,
    /// `annotating`, a subsession's name, `spotlighted`, `paused`, `dead`.
    package var value: String

    package init(from: Int64, to: Int64, value: String) {
      self.from = from
      self.to = to
      self.value = value
    }
  }

  /// One row of a peer's swimlane: one kind of state over time.
  package struct Lane: Sendable, Hashable, Codable {
    /// Which state: one of ``Lane/kinds``.
    package var kind: String
    /// Its values over time, in order, not overlapping.
    package var segments: [Segment]

    /// The lane kinds, in the order they are drawn: the process (`paused`, `dead`), in or out
    /// of the session, role, video, audio, share, annotation, subsession, and whether the
    /// peer's video is spotlighted.
    package static let kinds = [
      "life", "session", "role", "video", "audio", "share", "annotation", "subsession",
      "spotlight",
    ]

    package init(kind: String, segments: [Segment]) {
      self.kind = kind
      self.segments = segments
    }
  }

  /// One peer drawn in full.
  package struct Peer: Sendable, Hashable, Codable {
    /// The peer's name in the scenario.
    package var name: String
    /// Its group in the scenario (the peer spec's name or role), for folding.
    package var group: String
    /// Why it is drawn in full when its group is folded (`host`, `watched`, `failed`), if so.
    package var expandedBecause: String?
    /// Its lanes, in ``Lane/kinds`` order; lanes with no segment are left out.
    package var lanes: [Lane]
    /// When each of its callbacks came, and its name (`onUserJoin`), up to a cap per peer.
    package var callbacks: [CallbackMark]

    package init(
      name: String, group: String, expandedBecause: String? = nil, lanes: [Lane],
      callbacks: [CallbackMark] = []
    ) {
      self.name = name
      self.group = group
      self.expandedBecause = expandedBecause
      self.lanes = lanes
      self.callbacks = callbacks
    }
  }

  /// One callback at one peer.
  package struct CallbackMark: Sendable, Hashable, Codable {
    /// When it came.
    package var at: Int64
    /// Its SDK name (`onUserJoin`).
    package var name: String

    package init(at: Int64, name: String) {
      self.at = at
      self.name = name
    }
  }

  /// Peers folded together: how many of them were in each state over time.
  package struct Group: Sendable, Hashable, Codable {
    /// The group's name (the peer spec's).
    package var name: String
    /// How many peers it has, the expanded ones included.
    package var count: Int
    /// Counts over time, one sample per ``RunTimeline/sampleInterval``.
    package var samples: [GroupSample]

    package init(name: String, count: Int, samples: [GroupSample]) {
      self.name = name
      self.count = count
      self.samples = samples
    }
  }

  /// A folded group's counts at one time.
  package struct GroupSample: Sendable, Hashable, Codable {
    package var at: Int64
    /// In the session.
    package var inSession: Int
    /// Video on.
    package var video: Int
    /// Audio unmuted.
    package var audio: Int
    /// Sharing.
    package var sharing: Int
    /// In a subsession.
    package var inSubSession: Int
    /// Paused or dead.
    package var down: Int

    package init(
      at: Int64, inSession: Int, video: Int, audio: Int, sharing: Int, inSubSession: Int,
      down: Int
    ) {
      self.at = at
      self.inSession = inSession
      self.video = video
      self.audio = audio
      self.sharing = sharing
      self.inSubSession = inSubSession
      self.down = down
    }
  }

  /// A fault while it was on.
  package struct FaultBand: Sendable, Hashable, Codable {
    package var from: Int64
    /// Where it ended; the run's end when it never did.
    package var to: Int64
    /// `partition`, `hold`, `loss`, `cap`, `delay`, `kill`, `pause`, `serviceRestart`,
    /// `clockSkew`.
    package var kind: String
    /// A label for people: `partition teacher <-> service`, `cap student-7 down 300 kbit/s`.
    package var label: String
    /// The peers it touched (`service` for the service); empty when all.
    package var peers: [String]

    package init(from: Int64, to: Int64, kind: String, label: String, peers: [String]) {
      self.from = from
      self.to = to
      self.kind = kind
      self.label = label
      self.peers = peers
    }
  }

  /// The roster at one time, as one observer saw it.
  package struct RosterSample: Sendable, Hashable, Codable {
    package var at: Int64
    /// How many members.
    package var size: Int
    /// How many hosts (1 in a healthy session; 0 while none is known).
    package var hosts: Int
    /// How many managers.
    package var managers: Int
    /// The host's name (the scenario's peer name when known, else the user's name).
    package var host: String?

    package init(at: Int64, size: Int, hosts: Int, managers: Int, host: String?) {
      self.at = at
      self.size = size
      self.hosts = hosts
      self.managers = managers
      self.host = host
    }
  }

  /// One observer's roster over time: the service's, or a chosen peer's.
  package struct RosterSeries: Sendable, Hashable, Codable {
    /// `service`, or the peer's name.
    package var observer: String
    /// One sample per ``RunTimeline/sampleInterval`` while the observer could tell (the service
    /// up, the peer in the session).
    package var samples: [RosterSample]

    package init(observer: String, samples: [RosterSample]) {
      self.observer = observer
      self.samples = samples
    }
  }

  /// One peer's media over time.
  package struct PeerMedia: Sendable, Hashable, Codable {
    package var peer: String
    /// What the peer received, one sample per ``RunTimeline/sampleInterval``.
    package var samples: [MediaSample]
    /// Each subscription's bitrate and layer over time.
    package var subscriptions: [Subscription]
    /// The peer's one-way delays over the run.
    package var delay: Histogram?

    package init(
      peer: String, samples: [MediaSample], subscriptions: [Subscription], delay: Histogram?
    ) {
      self.peer = peer
      self.samples = samples
      self.subscriptions = subscriptions
      self.delay = delay
    }
  }

  /// What a peer received in one sample interval.
  package struct MediaSample: Sendable, Hashable, Codable {
    package var at: Int64
    /// Received, kbit/s, over the interval.
    package var receiveKbps: Double
    /// Video and share packets lost over the interval, percent.
    package var lossPercent: Double
    /// Freezes that started in the interval.
    package var freezes: Int
    /// Tracks the service had paused at the end of the interval.
    package var pausedTracks: Int
    /// The network level the peer's SDK reported for itself (0 unknown, 1 bad, 2 normal,
    /// 3 good).
    package var networkLevel: Int
    /// The median one-way delay of the interval's packets, milliseconds, if any came.
    package var delayMs: Double?

    package init(
      at: Int64, receiveKbps: Double, lossPercent: Double, freezes: Int, pausedTracks: Int,
      networkLevel: Int, delayMs: Double?
    ) {
      self.at = at
      self.receiveKbps = receiveKbps
      self.lossPercent = lossPercent
      self.freezes = freezes
      self.pausedTracks = pausedTracks
      self.networkLevel = networkLevel
      self.delayMs = delayMs
    }
  }

  /// One subscription of a peer: a publisher's video, share or audio.
  package struct Subscription: Sendable, Hashable, Codable {
    /// The publisher's name.
    package var publisher: String
    /// `video`, `share` or `audio`.
    package var kind: String
    package var samples: [SubscriptionSample]

    package init(publisher: String, kind: String, samples: [SubscriptionSample]) {
      self.publisher = publisher
      self.kind = kind
      self.samples = samples
    }
  }

  /// A subscription over one sample interval.
  package struct SubscriptionSample: Sendable, Hashable, Codable {
    package var at: Int64
    package var kbps: Double
    /// The simulcast layer arriving (0 lowest), if known.
    package var layer: Int?
    /// Whether the service had paused it.
    package var paused: Bool
    /// Whether it was frozen.
    package var frozen: Bool

    package init(at: Int64, kbps: Double, layer: Int?, paused: Bool, frozen: Bool) {
      self.at = at
      self.kbps = kbps
      self.layer = layer
      self.paused = paused
      self.frozen = frozen
    }
  }

  /// A distribution of milliseconds: buckets and its quantiles.
  package struct Histogram: Sendable, Hashable, Codable {
    /// Each bucket's upper bound in milliseconds and how many values fell in it (above the
    /// previous bucket's bound), in increasing order.
    package var buckets: [Bucket]
    package var count: Int
    package var p50: Double
    package var p99: Double
    package var max: Double

    package struct Bucket: Sendable, Hashable, Codable {
      package var upTo: Double
      package var count: Int

      package init(upTo: Double, count: Int) {
        self.upTo = upTo
        self.count = count
      }
    }

    package init(buckets: [Bucket], count: Int, p50: Double, p99: Double, max: Double) {
      self.buckets = buckets
      self.count = count
      self.p50 = p50
      self.p99 = p99
      self.max = max
    }
  }

  /// A failed check, placed on the timeline.
  package struct FailureMark: Sendable, Hashable, Codable {
    package var at: Int64
    /// `invariants`, `convergence`, `liveness`, `delivery`, `assertion`, `media`.
    package var check: String
    package var peer: String?
    /// What was expected, when the check says it apart.
    package var expected: String?
    /// What was found, when the check says it apart.
    package var actual: String?
    /// The whole detail line.
    package var detail: String

    package init(
      at: Int64, check: String, peer: String?, expected: String?, actual: String?,
      detail: String
    ) {
      self.at = at
      self.check = check
      self.peer = peer
      self.expected = expected
      self.actual = actual
      self.detail = detail
    }
  }

  /// The scenario's name.
  package var scenario: String
  /// `deterministic` or `loopback`.
  package var mode: String
  package var seed: UInt64
  /// Where the scripted part ended (the heal), milliseconds.
  package var scriptedEnd: Int64
  /// Where the run ended, milliseconds.
  package var end: Int64
  /// The sampling period of every sampled series, milliseconds.
  package var sampleInterval: Int64
  /// Whether the run passed.
  package var passed: Bool
  /// The run's summary line (`PASS classroom seed 1 …`).
  package var summary: String
  /// The failures, on the timeline.
  package var failures: [FailureMark]
  /// The command that replays the run.
  package var replayCommand: String
  /// How many peers the run had.
  package var peerCount: Int
  /// Peers drawn in full, in scenario order.
  package var peers: [Peer]
  /// Every group of the scenario with its counts (folded or not).
  package var groups: [Group]
  /// Whether some groups are folded (only their chosen peers are in ``peers``).
  package var folded: Bool
  package var faults: [FaultBand]
  /// The service's roster first, then each chosen peer's.
  package var rosters: [RosterSeries]
  /// Per peer with media, chosen peers only in a folded run.
  package var media: [PeerMedia]
  /// Every peer's one-way media delays over the run.
  package var delay: Histogram?
  /// From the service sending an event to a peer's callback for it, every peer.
  package var callbackLatency: Histogram?
  /// What was still in flight at the end, in words.
  package var inFlight: [String]

  package init(
    scenario: String, mode: String, seed: UInt64, scriptedEnd: Int64, end: Int64,
    sampleInterval: Int64, passed: Bool, summary: String, failures: [FailureMark],
    replayCommand: String, peerCount: Int, peers: [Peer], groups: [Group], folded: Bool,
    faults: [FaultBand], rosters: [RosterSeries], media: [PeerMedia], delay: Histogram?,
    callbackLatency: Histogram?, inFlight: [String]
  ) {
    self.scenario = scenario
    self.mode = mode
    self.seed = seed
    self.scriptedEnd = scriptedEnd
    self.end = end
    self.sampleInterval = sampleInterval
    self.passed = passed
    self.summary = summary
    self.failures = failures
    self.replayCommand = replayCommand
    self.peerCount = peerCount
    self.peers = peers
    self.groups = groups
    self.folded = folded
    self.faults = faults
    self.rosters = rosters
    self.media = media
    self.delay = delay
    self.callbackLatency = callbackLatency
    self.inFlight = inFlight
  }
}

/// A `--seeds` sweep: one row per seed, and the timeline of each failing seed (up to a few).
///
/// > Important: A value; `Sendable`.
package struct SweepTimeline: Sendable, Hashable, Codable {
  /// One seed's line.
  package struct Row: Sendable, Hashable, Codable {
    package var seed: UInt64
    package var passed: Bool
    /// What the seed drew (its swarm network and fault rates), empty without `--swarm`.
    package var drew: String
    /// The summary line without wall time.
    package var summary: String
    /// The first failure, if any.
    package var firstFailure: String?
    /// The command that replays it.
    package var replayCommand: String

    package init(
      seed: UInt64, passed: Bool, drew: String, summary: String, firstFailure: String?,
      replayCommand: String
    ) {
      self.seed = seed
      self.passed = passed
      self.drew = drew
      self.summary = summary
      self.firstFailure = firstFailure
      self.replayCommand = replayCommand
    }
  }

  package var scenario: String
  package var mode: String
  /// Every seed, failing seeds first, then in seed order.
  package var rows: [Row]
  /// Full timelines: the first failing seeds' (a few), else the first seed's.
  package var runs: [RunTimeline]

  package init(scenario: String, mode: String, rows: [Row], runs: [RunTimeline]) {
    self.scenario = scenario
    self.mode = mode
    self.rows = rows
    self.runs = runs
  }
}
