import SessionCore
import SessionSDK
import SessionTransport

extension ScenarioRunner {
  /// Starts the timeline (``RunOptions/recordsTimeline``): the recorder, the world's note of
  /// send times, and a sample every period from the start.
  func startTimeline(_ scenario: Scenario) {
    guard options.recordsTimeline else { return }
    let length =
      scenario.duration.milliseconds + scenario.expect.liveness.milliseconds
      + Self.mediaSettleTime
    let recorder = TimelineRecorder(length: length)
    recorder.setUp(peers: peers, watch: options.watch)
    timeline = recorder
    eventSendTimes = world as? any EventSendTimes
    eventSendTimes?.noteEventSendTimes()
    scheduleTimelineSample(at: 0)
  }

  private func scheduleTimelineSample(at elapsed: Int64) {
    schedule(at: elapsed) { runner in
      guard let recorder = runner.timeline, !runner.timelineFinished else { return }
      runner.sampleTimeline(recorder)
      runner.scheduleTimelineSample(at: elapsed + recorder.interval)
    }
  }

  private func sampleTimeline(_ recorder: TimelineRecorder) {
    recorder.sample(
      peers: peers, service: world.serviceState(ofSession: scenario.session.name),
      names: peerNamesByUser(), at: world.elapsed)
  }

  /// Each live peer's user id and name (the newest holder of an id wins).
  func peerNamesByUser() -> [UserID: String] {
    var names: [UserID: String] = [:]
    for peer in peers {
      if let id = peer.userID { names[id] = peer.name }
    }
    return names
  }

  /// Notes a callback on the timeline.
  func noteOnTimeline(_ callback: VideoSDKCallback, of peer: SimulatedPeer) {
    guard let recorder = timeline else { return }
    recorder.noteCallback(callback, of: peer, at: world.elapsed) { [eventSendTimes] sequence in
      eventSendTimes?.eventSentAt(sequence: sequence)
    }
  }

  /// Draws a fault the world applies as a band: opened by a fault, closed by what undoes it.
  func noteOnTimeline(_ fault: WorldFault) {
    guard let recorder = timeline else { return }
    let now = world.elapsed
    switch fault {
    case .partition(let a, let b, let oneWay):
      let label =
        "partition \(a.joined(separator: ", ")) \(oneWay ? "->" : "<->") "
        + b.joined(separator: ", ")
      recorder.openFault(
        "partition", label, peers: a + b, at: now, until: nil, key: "partition \(label)")
    case .heal:
      recorder.closeFaults(prefix: "partition ", at: now)
      recorder.closeFaults(prefix: "hold ", at: now)
    case .hold(let peer, let direction):
      recorder.openFault(
        "hold", "hold \(peer) \(direction.rawValue)", peers: [peer], at: now, until: nil,
        key: "hold \(peer) \(direction.rawValue)")
    case .release(let peer, let direction):
      recorder.closeFaults("hold \(peer) \(direction.rawValue)", at: now)
    case .kill(let peer):
      recorder.openFault(
        "kill", "\(peer) killed", peers: [peer], at: now, until: nil, key: "kill \(peer)")
    case .revive(let peer):
      recorder.closeFaults("kill \(peer)", at: now)
    case .pause(let peer):
      recorder.openFault(
        "pause", "\(peer) paused", peers: [peer], at: now, until: nil, key: "pause \(peer)")
    case .resume(let peer):
      recorder.closeFaults("pause \(peer)", at: now)
    case .killService:
      recorder.openFault(
        "serviceRestart", "service down (restarts with its state lost)", peers: ["service"],
        at: now, until: nil, key: "service")
    case .startService:
      recorder.closeFaults("service", at: now)
    case .clockSkew(let peer, let total):
      recorder.closeFaults("skew \(peer)", at: now)
      guard total != 0 else { return }
      recorder.openFault(
        "clockSkew", "clock skew \(peer) \(total > 0 ? "+" : "")\(total) ms", peers: [peer],
        at: now, until: nil, key: "skew \(peer)")
    case .impair(let peer, let direction, let link):
      let key = "impair \(peer) \(direction.rawValue)"
      recorder.closeFaults(key, at: now)
      let base = (baseLinks[peer] ?? NetworkSpec()).link(uplink: direction == .uplink)
      guard link != base else { return }
      let (kind, what) = Self.describe(link)
      recorder.openFault(
        kind, "\(kind) \(peer) \(direction.rawValue): \(what)", peers: [peer], at: now,
        until: nil, key: key)
    }
  }

  /// A link's band kind (`cap`, `loss` or `delay`) and its figures in words.
  static func describe(_ link: LinkSpec) -> (kind: String, words: String) {
    var words: [String] = []
    var kind = "delay"
    if let bandwidth = link.bandwidth {
      kind = "cap"
      words.append("\(bandwidth)")
    }
    if let loss = link.loss, loss > 0 {
      if kind == "delay" { kind = "loss" }
      words.append("\((loss * 1_000).rounded() / 10)% loss")
    }
    if let delay = link.delay { words.append("\(delay) delay") }
    if let mean = link.distribution?.mean { words.append("\(mean) mean delay") }
    if let jitter = link.jitter { words.append("\(jitter) jitter") }
    if link.duplicate ?? 0 > 0 { words.append("duplicates") }
    if link.reorder == true { words.append("reordering") }
    return (kind, words.isEmpty ? "changed" : words.joined(separator: ", "))
  }

  /// The timeline at the end of the run, if recorded.
  func finishTimeline(_ report: RunReport, scriptedEnd: Int64) -> RunTimeline? {
    guard let recorder = timeline else { return nil }
    timelineFinished = true
    sampleTimeline(recorder)
    return recorder.finish(
      report: report, peers: peers, scriptedEnd: scriptedEnd, watch: options.watch)
  }
}
