import Foundation
import SessionCore
import SessionSDK
import SessionTransport

/// Fills a ``RunTimeline`` while a run goes: every peer's state sampled at a fixed period
/// into segments, callback marks, fault bands as the runner injects them, the rosters, the
/// media each peer received, and callback latency.
///
/// Reading only: sampling reads replicas and media figures and changes nothing, so a run
/// records the same trace with a recorder as without.
///
/// > Important: Owned by its runner and confined to the world's domain, like the peers it
/// > reads.
final class TimelineRecorder {
  /// The most callback marks kept per peer.
  static let callbackMarkLimit = 400
  /// At most this many peers run unfolded; past it, a few per group are drawn in full.
  static let unfoldedPeerLimit = 60
  /// Peers drawn in full per group in a folded run (besides hosts, the watched peer and
  /// peers that failed a check).
  static let expandedPerGroup = 3
  /// Peers whose every subscription is drawn (the rest show their totals): each costs a
  /// strip per subscription, 25 in a classroom.
  static let subscriptionDetailLimit = 6

  /// The sampling period, milliseconds.
  let interval: Int64
  private var lanes: [[LaneBuilder]] = []
  private var marks: [[RunTimeline.CallbackMark]] = []
  private var markCounts: [Int] = []
  private var groupNames: [String] = []
  private var groupOfPeer: [Int] = []
  private var groupSamples: [[RunTimeline.GroupSample]] = []
  private var faults: [RunTimeline.FaultBand] = []
  /// Open bands by a key naming what ends them (`hold student-3 uplink`), as indices.
  private var openFaults: [String: [Int]] = [:]
  private var rosterObservers: [String] = ["service"]
  private var rosters: [[RunTimeline.RosterSample]] = [[]]
  private var media: [Int: MediaRecord] = [:]
  private(set) var latency = DelayHistogram()
  private var lastSequence: [UInt64] = []
  /// Peers that were host at some sample: always drawn in full.
  private var everHost: Set<Int> = []

  /// A recorder for a run of this length.
  ///
  /// - Parameter length: How long the run is expected to last, milliseconds (the scripted
  ///   part, the liveness phase and the media's settling).
  init(length: Int64) {
    interval = Self.interval(forLength: length)
  }

  /// A period from 100 ms up that gives at most about 1,000 samples.
  static func interval(forLength length: Int64) -> Int64 {
    let steps: [Int64] = [100, 200, 250, 500, 1_000, 2_000, 5_000, 10_000, 30_000, 60_000]
    let wanted = max(1, length / 1_000)
    return steps.first { $0 >= wanted } ?? 60_000
  }

  /// Makes room for the run's peers, in run order.
  ///
  /// - Parameters:
  ///   - peers: Every peer, by index.
  ///   - watch: The watched peer, whose roster is recorded too.
  func setUp(peers: [SimulatedPeer], watch: String?) {
    lanes = peers.map { _ in RunTimeline.Lane.kinds.map { LaneBuilder(kind: $0) } }
    marks = Array(repeating: [], count: peers.count)
    markCounts = Array(repeating: 0, count: peers.count)
    lastSequence = Array(repeating: 0, count: peers.count)
    for peer in peers {
      let group = peer.spec.name
      if let index = groupNames.firstIndex(of: group) {
        groupOfPeer.append(index)
      } else {
        groupOfPeer.append(groupNames.count)
        groupNames.append(group)
      }
    }
    groupSamples = Array(repeating: [], count: groupNames.count)
    // The roster as the first peer (often the host) and the watched peer see it.
    for name in [peers.first?.name, watch].compactMap({ $0 })
    where !rosterObservers.contains(name) {
      rosterObservers.append(name)
      rosters.append([])
    }
  }

  // MARK: As the run goes

  /// Notes one callback at a peer, and its latency from the service's send when the world
  /// noted that.
  func noteCallback(
    _ callback: VideoSDKCallback, of peer: SimulatedPeer, at now: Int64,
    sentAt: (UInt64) -> Int64?
  ) {
    let index = peer.index
    markCounts[index] += 1
    if marks[index].count < Self.callbackMarkLimit {
      marks[index].append(RunTimeline.CallbackMark(at: now, name: callback.name))
    }
    let sequence = peer.sdk.lastServiceSequence
    if sequence != lastSequence[index] {
      lastSequence[index] = sequence
      if sequence > 0, let sent = sentAt(sequence), sent <= now {
        latency.record((now - sent) * 1_000)
      }
    }
  }

  /// Opens a fault band.
  ///
  /// - Parameters:
  ///   - kind: The band's kind (see ``RunTimeline/FaultBand/kind``).
  ///   - label: Its label.
  ///   - peers: Whom it touches.
  ///   - now: When it starts.
  ///   - until: When it ends, if known now.
  ///   - key: What closes it, when it ends later (``closeFaults(_:at:)``).
  func openFault(
    _ kind: String, _ label: String, peers: [String], at now: Int64, until: Int64?,
    key: String?
  ) {
    faults.append(
      RunTimeline.FaultBand(from: now, to: until ?? -1, kind: kind, label: label, peers: peers))
    if until == nil, let key { openFaults[key, default: []].append(faults.count - 1) }
  }

  /// Closes the open bands a key names.
  func closeFaults(_ key: String, at now: Int64) {
    for index in openFaults.removeValue(forKey: key) ?? [] where faults[index].to < 0 {
      faults[index].to = now
    }
  }

  /// Closes every open band whose key starts with `prefix` (a heal ends every partition).
  func closeFaults(prefix: String, at now: Int64) {
    for key in openFaults.keys where key.hasPrefix(prefix) { closeFaults(key, at: now) }
  }

  /// Samples every peer, the rosters and the media, at `now`.
  func sample(
    peers: [SimulatedPeer], service: SessionState?, names: [UserID: String], at now: Int64
  ) {
    var counts = groupNames.map { _ in
      RunTimeline.GroupSample(
        at: now, inSession: 0, video: 0, audio: 0, sharing: 0, inSubSession: 0, down: 0)
    }
    for peer in peers {
      let values = Self.values(of: peer)
      for (kind, value) in values.enumerated() {
        lanes[peer.index][kind].set(value, at: now)
      }
      let group = groupOfPeer[peer.index]
      if values[0] != nil { counts[group].down += 1 }
      if values[1] == "in" { counts[group].inSession += 1 }
      if values[2] == "host" { everHost.insert(peer.index) }
      if values[3] != nil { counts[group].video += 1 }
      if values[4] != nil { counts[group].audio += 1 }
      if values[5] == "sharing" { counts[group].sharing += 1 }
      if values[7] != nil { counts[group].inSubSession += 1 }
      if peer.mediaStartedAt != nil || media[peer.index] != nil {
        media[peer.index, default: MediaRecord()].sample(peer, names: names, at: now)
      }
    }
    for (group, sample) in counts.enumerated() { groupSamples[group].append(sample) }
    if let service {
      rosters[0].append(Self.roster(service, names: names, at: now))
    }
    for (place, observer) in rosterObservers.enumerated().dropFirst() {
      guard let peer = peers.first(where: { $0.name == observer }), peer.canAct,
        peer.isInSession
      else { continue }
      rosters[place].append(Self.roster(peer.sdk.store.current, names: names, at: now))
    }
  }

  /// A peer's value in each lane, in ``RunTimeline/Lane/kinds`` order; `nil` for none.
  static func values(of peer: SimulatedPeer) -> [String?] {
    var values = [String?](repeating: nil, count: RunTimeline.Lane.kinds.count)
    switch peer.life {
    case .dead:
      values[0] = "dead"
      return values
    case .paused: values[0] = "paused"
    case .alive: break
    }
    let state = peer.sdk.store.current
    switch state.phase {
    case .inSession: values[1] = "in"
    case .joining: values[1] = "joining"
    case .leaving: values[1] = "leaving"
    default: return values
    }
    guard let me = state.myselfID, let myself = state.participants[me] else { return values }
    switch myself.role {
    case .host: values[2] = "host"
    case .manager: values[2] = "manager"
    default: break
    }
    if myself.isVideoOn { values[3] = "on" }
    if myself.audio.type != .none, !myself.audio.isMuted {
      values[4] = peer.isTalking ? "talking" : "unmuted"
    }
    switch myself.shareStatus {
    case .started, .resumed: values[5] = "sharing"
    case .paused: values[5] = "paused"
    default: break
    }
    if state.shares.values.contains(where: { $0.annotators.contains(me) }) {
      values[6] = "annotating"
    }
    if let room = state.subSessions.rooms[me] {
      values[7] = state.subSessions.list.first { $0.id == room }?.name ?? room
    }
    if state.spotlighted.contains(me) { values[8] = "spotlighted" }
    return values
  }

  private static func roster(
    _ state: SessionState, names: [UserID: String], at now: Int64
  ) -> RunTimeline.RosterSample {
    var hosts = 0
    var managers = 0
    for participant in state.participants.values {
      if participant.role == .host { hosts += 1 }
      if participant.role == .manager { managers += 1 }
    }
    let host = state.hostID.map { names[$0] ?? state.participants[$0]?.name ?? "user \($0)" }
    return RunTimeline.RosterSample(
      at: now, size: state.participants.count, hosts: hosts, managers: managers, host: host)
  }

  // MARK: The end

  /// The timeline, once the run ended.
  ///
  /// - Parameters:
  ///   - report: The run's report.
  ///   - peers: Every peer, by index.
  ///   - scriptedEnd: Where the scripted part ended.
  ///   - watch: The watched peer.
  /// - Returns: The timeline.
  func finish(
    report: RunReport, peers: [SimulatedPeer], scriptedEnd: Int64, watch: String?
  ) -> RunTimeline {
    let end = report.simulatedMilliseconds
    for index in faults.indices where faults[index].to < 0 || faults[index].to > end {
      faults[index].to = end
    }
    let failed = Set(report.failures.compactMap(\.peer))
    let folded = peers.count > Self.unfoldedPeerLimit
    var drawn: [RunTimeline.Peer] = []
    var shownPerGroup = [Int](repeating: 0, count: groupNames.count)
    for peer in peers {
      let group = groupOfPeer[peer.index]
      var reason: String?
      if folded {
        if everHost.contains(peer.index) {
          reason = "host"
        } else if peer.name == watch {
          reason = "watched"
        } else if failed.contains(peer.name) {
          reason = "failed a check"
        } else if shownPerGroup[group] < Self.expandedPerGroup {
          reason = "first of its group"
        } else {
          continue
        }
        shownPerGroup[group] += 1
      }
      let lanes = self.lanes[peer.index].compactMap { $0.lane(until: end) }
      drawn.append(
        RunTimeline.Peer(
          name: peer.name, group: groupNames[group], expandedBecause: reason, lanes: lanes,
          callbacks: marks[peer.index]))
    }
    let shown = Set(drawn.map(\.name))
    let groups = groupNames.enumerated().map { index, name in
      RunTimeline.Group(
        name: name, count: groupOfPeer.count { $0 == index }, samples: groupSamples[index])
    }
    var allDelays = DelayHistogram()
    var mediaRows: [RunTimeline.PeerMedia] = []
    let detailed = Self.detailedMedia(
      peers.filter { shown.contains($0.name) && media[$0.index] != nil }.map(\.name),
      failed: failed, faults: faults, watch: watch)
    for peer in peers {
      guard let record = media[peer.index] else { continue }
      allDelays.merge(record.delays)
      guard shown.contains(peer.name) else { continue }
      var row = record.timeline(peer: peer.name)
      if !detailed.contains(peer.name) { row.subscriptions = [] }
      mediaRows.append(row)
    }
    let rosterSeries = zip(rosterObservers, rosters).map {
      RunTimeline.RosterSeries(observer: $0, samples: $1)
    }
    return RunTimeline(
      scenario: report.scenario, mode: report.mode, seed: report.seed, scriptedEnd: scriptedEnd,
      end: end, sampleInterval: interval, passed: report.passed,
      summary: report.summaryLine(includingWallTime: false),
      failures: report.failures.map(Self.mark), replayCommand: report.replayCommand,
      peerCount: peers.count, peers: drawn, groups: groups, folded: folded, faults: faults,
      rosters: rosterSeries, media: mediaRows, delay: Self.histogram(allDelays),
      callbackLatency: Self.histogram(latency),
      inFlight: InFlightSummary.describe(report.inFlight))
  }

  /// The peers whose subscriptions are drawn one by one, at most
  /// ``subscriptionDetailLimit``: those a check failed on, then those a fault touched, the
  /// watched peer, then the rest in order.
  static func detailedMedia(
    _ candidates: [String], failed: Set<String>, faults: [RunTimeline.FaultBand],
    watch: String?
  ) -> Set<String> {
    let touched = Set(faults.flatMap(\.peers))
    let ranked =
      candidates.filter { failed.contains($0) }
      + candidates.filter { touched.contains($0) } + candidates.filter { $0 == watch }
      + candidates
    var chosen: [String] = []
    for name in ranked where !chosen.contains(name) && chosen.count < subscriptionDetailLimit {
      chosen.append(name)
    }
    return Set(chosen)
  }

  /// A failure placed on the timeline, its expected and actual values read from its detail
  /// (`expected host teacher, saw student-3`).
  static func mark(_ failure: RunReport.Failure) -> RunTimeline.FailureMark {
    var expected: String?
    var actual: String?
    let detail = failure.detail
    if let start = detail.range(of: "expected ") {
      let rest = detail[start.upperBound...]
      for word in [", saw ", ", was ", ", got ", ", found ", " but "] {
        if let split = rest.range(of: word) {
          expected = String(rest[..<split.lowerBound])
          actual = String(rest[split.upperBound...])
          break
        }
      }
    }
    return RunTimeline.FailureMark(
      at: failure.at, check: failure.check, peer: failure.peer, expected: expected,
      actual: actual, detail: detail)
  }

  /// A histogram of microseconds as milliseconds; `nil` when empty.
  static func histogram(_ delays: DelayHistogram) -> RunTimeline.Histogram? {
    guard delays.count > 0 else { return nil }
    // Buckets of the report: powers of two of milliseconds from 1 up, enough for any delay.
    var buckets: [RunTimeline.Histogram.Bucket] = []
    var previous: Int64 = -1
    var bound: Int64 = 1_000
    for (edge, count) in delays.buckets() {
      while edge > bound - 1 { bound *= 2 }
      if previous == bound {
        buckets[buckets.count - 1].count += Int(count)
      } else {
        buckets.append(.init(upTo: Double(bound) / 1_000, count: Int(count)))
        previous = bound
      }
    }
    return RunTimeline.Histogram(
      buckets: buckets, count: Int(delays.count),
      p50: Double(delays.percentile(0.5)) / 1_000, p99: Double(delays.percentile(0.99)) / 1_000,
      max: Double(delays.maximum) / 1_000)
  }
}

/// One lane of one peer as it is sampled: the closed segments and the open value.
///
/// > Important: A value owned by its recorder.
private struct LaneBuilder {
  let kind: String
  var segments: [RunTimeline.Segment] = []
  var value: String?
  var since: Int64 = 0

  init(kind: String) { self.kind = kind }

  mutating func set(_ new: String?, at now: Int64) {
    guard new != value else { return }
    if let value { segments.append(.init(from: since, to: now, value: value)) }
    value = new
    since = now
  }

  func lane(until end: Int64) -> RunTimeline.Lane? {
    var all = segments
    if let value, since < end { all.append(.init(from: since, to: end, value: value)) }
    return all.isEmpty ? nil : RunTimeline.Lane(kind: kind, segments: all)
  }
}

/// One peer's media as sampled: the previous figures, to take differences from, and the
/// series.
///
/// > Important: A value owned by its recorder.
private struct MediaRecord {
  struct Totals {
    var bytes: Int64 = 0
    var lost: Int64 = 0
    var expected: Int64 = 0
    var freezes = 0
  }

  var previous: [StreamKey: Totals] = [:]
  var previousDelays = DelayHistogram()
  var delays = DelayHistogram()
  var lastAt: Int64?
  var samples: [RunTimeline.MediaSample] = []
  var subscriptions: [StreamKey: RunTimeline.Subscription] = [:]
  var order: [StreamKey] = []

  struct StreamKey: Hashable {
    var publisher: UserID
    var kind: String
  }

  mutating func sample(_ peer: SimulatedPeer, names: [UserID: String], at now: Int64) {
    guard peer.life != .dead else {
      previous = [:]
      previousDelays = DelayHistogram()
      lastAt = nil
      return
    }
    let figures = peer.sdk.mediaFigures
    var all = figures.videoDelays
    all.merge(figures.audioDelays)
    all.merge(figures.shareDelays)
    // A fresh instance's figures start again from zero.
    let fresh = all.count < previousDelays.count
    let recent = fresh ? all : all.subtracting(previousDelays)
    delays.merge(recent)
    previousDelays = all
    let span = Double(max(1, now - (lastAt ?? now - 1)))
    lastAt = now
    var bytes: Int64 = 0
    var lost: Int64 = 0
    var expected: Int64 = 0
    var freezes = 0
    var paused = 0
    let state = peer.sdk.store.current
    for stream in figures.streams {
      let key = StreamKey(publisher: stream.publisher, kind: "\(stream.kind)")
      // A stream whose publisher stopped is over, not frozen.
      let publishing: Bool
      switch stream.kind {
      case .video: publishing = state.participants[stream.publisher]?.isVideoOn == true
      case .share: publishing = state.shares[stream.publisher] != nil
      default: publishing = true
      }
      let before = fresh ? Totals() : previous[key] ?? Totals()
      let current = Totals(
        bytes: stream.bytes, lost: stream.packetsLost, expected: stream.packetsExpected,
        freezes: stream.freezes)
      previous[key] = current
      let streamBytes = max(0, current.bytes - before.bytes)
      bytes += streamBytes
      if stream.kind != .audio {
        lost += max(0, current.lost - before.lost)
        expected += max(0, current.expected - before.expected)
      }
      freezes += max(0, current.freezes - before.freezes)
      if stream.isPaused { paused += 1 }
      if subscriptions[key] == nil {
        let name = names[stream.publisher] ?? "user \(stream.publisher)"
        subscriptions[key] = RunTimeline.Subscription(
          publisher: name, kind: key.kind, samples: [])
        order.append(key)
      }
      subscriptions[key]?.samples.append(
        RunTimeline.SubscriptionSample(
          at: now, kbps: Double(streamBytes) * 8 / span, layer: stream.layer,
          paused: stream.isPaused, frozen: stream.isFrozen && publishing))
    }
    let level = state.myselfID.flatMap { state.participants[$0] }.map {
      switch $0.networkQuality {
      case .bad: 1
      case .normal: 2
      case .good: 3
      default: 0
      }
    }
    samples.append(
      RunTimeline.MediaSample(
        at: now, receiveKbps: Double(bytes) * 8 / span,
        lossPercent: expected == 0 ? 0 : Double(lost) / Double(expected) * 100,
        freezes: freezes, pausedTracks: paused, networkLevel: level ?? 0,
        delayMs: recent.count == 0 ? nil : Double(recent.percentile(0.5)) / 1_000))
  }

  func timeline(peer: String) -> RunTimeline.PeerMedia {
    RunTimeline.PeerMedia(
      peer: peer, samples: samples, subscriptions: order.compactMap { subscriptions[$0] },
      delay: TimelineRecorder.histogram(delays))
  }
}
