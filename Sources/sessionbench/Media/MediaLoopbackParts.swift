import Foundation
import SessionService

/// The relay part's runs: the classroom through the service and the same blast through the
/// raw relay, interleaved.
struct RelayFigures {
  var classroom: [RelayResult] = []
  var baseline: [RelayResult] = []

  var classroomRate: Double { quantile(classroom.map(\.packetsPerSecond), 0.5) }
  var baselineRate: Double { quantile(baseline.map(\.packetsPerSecond), 0.5) }
  /// The median of the runs' own ratios (each classroom run against the baseline run after it).
  var ratio: Double {
    quantile(zip(classroom, baseline).map { $0.packetsPerSecond / $1.packetsPerSecond }, 0.5)
  }

  /// `relay`: 30 members of one session, each watching 25 videos and hearing three loud
  /// talkers, blasting through the service's media plane and through a raw libuv relay with
  /// the same fan-out, `runs` times each, interleaved, after one short warm-up run of each.
  static func measure(runs: Int) throws -> RelayFigures {
    let log = StandardError()
    let world = try RelayWorld()
    defer { world.shutdown() }
    var figures = RelayFigures()
    let warmUp = (
      try world.run(baseline: false, warmUp: 0.2, seconds: 0.3),
      try world.run(baseline: true, warmUp: 0.2, seconds: 0.3)
    )
    log.line(
      "relay warm-up: classroom \(millions(warmUp.0.packetsPerSecond)), raw relay "
        + "\(millions(warmUp.1.packetsPerSecond))")
    for run in 1...runs {
      let classroom = try world.run(baseline: false, warmUp: 0.3, seconds: 3)
      let baseline = try world.run(baseline: true, warmUp: 0.3, seconds: 3)
      figures.classroom.append(classroom)
      figures.baseline.append(baseline)
      log.line(
        "relay run \(run): classroom \(millions(classroom.packetsPerSecond)) "
          + "(\(classroom.forgiven) copies given up; CPU ns/copy relay "
          + "\(fixed2(classroom.relayNanosecondsPerCopy)), members "
          + "\(fixed2(classroom.clientNanosecondsPerCopy))), raw relay "
          + "\(millions(baseline.packetsPerSecond)) (\(baseline.forgiven) given up; "
          + "\(fixed2(baseline.relayNanosecondsPerCopy)), "
          + "\(fixed2(baseline.clientNanosecondsPerCopy))), ratio "
          + "\(fixed2(classroom.packetsPerSecond / baseline.packetsPerSecond))")
    }
    let statistics = try world.serviceStatistics()
    log.line(
      "relay service: \(statistics.packetsRouted) packets routed, \(statistics.packetsForwarded) "
        + "copies forwarded, \(statistics.dropped.total) datagrams dropped")
    return figures
  }
}

/// One size the capacity search tried.
struct CapacityTrial {
  var peers: Int
  /// The window's figures, if the run got that far.
  var window: MediaWindow?
  /// Why the run failed before or outside its window's bars, if it did.
  var failure: String?
  /// Seconds the whole run took, setup and shutdown included.
  var seconds: Double
  /// Connections the server accepted beyond one per peer.
  var extraConnections = 0

  var passed: Bool { failure == nil && window?.passed == true }

  /// One line for the table.
  var summary: String {
    var text = "N=\(peers): "
    if let window {
      text +=
        "worst loss \(String(format: "%.2f", window.worstLoss * 100))%, worst p99 "
        + "\(String(format: "%.1f", Double(window.worstP99) / 1_000)) ms, all receivers p50/p99 "
        + "\(String(format: "%.1f", Double(window.mergedP50) / 1_000))/"
        + "\(String(format: "%.1f", Double(window.mergedP99) / 1_000)) ms, loss "
        + "\(String(format: "%.2f", window.totalLoss * 100))%, "
        + "\(String(format: "%.0f", window.videoPacketsPerSecond)) video pkt/s received, CPU "
        + "client \(fixed2(window.clientLoad)) server \(fixed2(window.serverLoad))"
      if window.silentSubscriptions > 0 { text += ", \(window.silentSubscriptions) silent" }
    } else {
      text += "no window"
    }
    if let failure { text += "; \(failure)" }
    if extraConnections > 0 { text += "; \(extraConnections) reconnections" }
    return text + " (\(String(format: "%.0f", seconds)) s) \(passed ? "ok" : "FAILED")"
  }

  /// `capacity`: one loopback session of `peers` SDK instances, every one sending 180p video
  /// at 30 fps and watching the next 25; after every subscription delivered and a second to
  /// settle, the media figures' differences over `window` seconds.
  static func run(peers: Int, window seconds: Double, staggered: Bool) -> CapacityTrial {
    let start = monotonicNanoseconds()
    var trial = CapacityTrial(peers: peers, seconds: 0)
    do {
      let world = try MediaWorld(peers: peers, media: true)
      defer { world.shutdown() }
      _ = try world.joinStorm(staggered: staggered)
      _ = try world.subscribe(watching: 25, timeout: 20)
      usleep(1_000_000)
      let window = try world.window(seconds: seconds)
      trial.window = window
      trial.extraConnections = try world.extraConnections()
    } catch {
      trial.failure = "\(error)"
    }
    trial.seconds = Double(monotonicNanoseconds() - start) / 1e9
    return trial
  }

  /// Tries 50, 100, 150, … peers until one fails, or a run takes longer than `budget` seconds,
  /// or `maximum` passed; returns the largest that passed (0 if none) and every trial.
  static func search(
    from first: Int = 50, step: Int = 50, maximum: Int = 1_000, window: Double = 5,
    budget: Double = 60, staggered: Bool
  ) -> (maximum: Int, trials: [CapacityTrial]) {
    let log = StandardError()
    var trials: [CapacityTrial] = []
    var best = 0
    var peers = first
    while peers <= maximum {
      let trial = run(peers: peers, window: window, staggered: staggered)
      trials.append(trial)
      log.line("capacity \(trial.summary)")
      guard trial.passed else { break }
      best = peers
      guard trial.seconds <= budget else {
        log.line("capacity: N=\(peers) took \(Int(trial.seconds)) s; stopping the search")
        break
      }
      peers += step
    }
    return (best, trials)
  }
}

/// The signal part's runs.
struct SignalFigures {
  /// The p99 of each run, ms, with media and without.
  var media: [Double] = []
  var noMedia: [Double] = []

  var mediaP99: Double { quantile(media, 0.5) }
  var noMediaP99: Double { quantile(noMedia, 0.5) }

  /// `signal`: `pairs` times a session of `peers` SDK instances without a media plane, then one
  /// with it (180p at 30 fps, 25 subscriptions each); in each, `samples` command-to-callback
  /// delays after 20 untimed ones (the transport benchmark's probe).
  static func measure(pairs: Int, peers: Int = 100, samples: Int = 200, staggered: Bool) throws
    -> SignalFigures
  {
    let log = StandardError()
    var figures = SignalFigures()
    for pair in 1...pairs {
      for media in [false, true] {
        let world = try MediaWorld(peers: peers, media: media)
        defer { world.shutdown() }
        _ = try world.joinStorm(staggered: staggered)
        _ = try world.subscribe(watching: 25, timeout: 20)
        if media { usleep(1_000_000) }
        _ = try world.latencies(samples: 20)
        let delays = try world.latencies(samples: samples)
        let p99 = quantile(delays, 0.99) / 1_000
        let extra = try world.extraConnections()
        if media { figures.media.append(p99) } else { figures.noMedia.append(p99) }
        log.line(
          "signal run \(pair) \(media ? "media   " : "no media"): p50 "
            + "\(fixed2(quantile(delays, 0.5) / 1_000)) ms, p99 \(fixed2(p99)) ms, max "
            + "\(fixed2((delays.max() ?? 0) / 1_000)) ms; \(extra) reconnections")
      }
    }
    return figures
  }
}
