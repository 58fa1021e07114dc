import Foundation
import LoopbackTransport

/// `sessionbench transport`: the session service and SDK instances over loopback TCP (libuv),
/// beside a raw-libuv fan-out baseline measured in the same run.
///
/// - join storm: 1,000 instances on one client loop connect and join one session at once;
///   seconds until every replica holds the whole roster (then checked equal to the service).
/// - steady fan-out: one of the 1,000 pipelines video toggles (64 per loop turn, at most 256 in
///   flight); `onUserVideoStatusChanged` callbacks per second at all instances together.
///   Baseline: `runUVBaseline` with the same peers, the measured mean frame size and the
///   measured frames per write.
/// - latency: 100 instances; from a `startVideo`/`stopVideo` call to the last instance's
///   `onUserVideoStatusChanged`, p50 and p99 over 200 toggles.
/// - memory: resident KB per idle connected peer beyond its replica (fresh child processes;
///   see ``ResidentMemory``).
///
/// Bars: fanout_1k_dps >= 0.25 x uv_baseline_1k_dps and >= 3,000,000; join_storm_1k_s <= 3;
/// latency_100_p99_us <= 5,000; rss_per_peer_kb <= 64.
func runTransportBenchmark(_ arguments: [String]) throws {
  var settings = TransportSettings()
  var rest: [String] = []
  var iterator = arguments.makeIterator()
  while let argument = iterator.next() {
    switch argument {
    case "--peers", "--latency-peers", "--latency-samples", "--commands", "--session-size",
      "--burst", "--window":
      guard let value = iterator.next().flatMap(Int.init), value >= 2 else {
        throw usageError("\(argument) needs a number of at least 2")
      }
      switch argument {
      case "--peers": settings.peers = value
      case "--latency-peers": settings.latencyPeers = value
      case "--latency-samples": settings.latencySamples = value
      case "--commands": settings.commands = value
      case "--burst": settings.burst = value
      case "--window": settings.window = value
      default: settings.sessionSize = value
      }
    case "--rss-child":
      guard let mode = iterator.next() else { throw usageError("--rss-child needs a mode") }
      settings.childMode = mode
    case "--coalesce":
      settings.coalesce = true
    case "--log":
      settings.logs = true
    case "--only":
      let all = ["storm", "fanout", "latency", "rss", "links"]
      guard let part = iterator.next(), all.contains(part) else {
        throw usageError("--only needs one of \(all.joined(separator: ", "))")
      }
      settings.only = part
    default:
      rest.append(argument)
    }
  }
  if let mode = settings.childMode {
    try ResidentMemory.runChild(
      mode: mode, peers: settings.peers, sessionSize: settings.sessionSize)
    return
  }
  let options = try BenchmarkOptions(rest)
  let figures = try TransportFigures.measure(settings, repetitions: options.repetitions)
  if options.json {
    var json = figures.values
    json["bars_met"] = figures.bars.allSatisfy(\.met) ? 1 : 0
    try printJSON(json)
  } else {
    figures.printTable(settings, repetitions: options.repetitions)
  }
}

/// `sessionbench transport --help`.
let transportUsage = """
  usage: sessionbench transport [options]

    --json                 one JSON object instead of the table
    --repetitions N        timed runs (default 5), after one warm-up run; medians reported
    --peers N              SDK instances on the client loop (default 1000)
    --commands N           video toggles per fan-out run (default 6400; the warm-up runs
                           at most 640)
    --burst N, --window N  toggles sent per loop turn (64) and at most in flight (256)
    --latency-peers N      instances in the latency run (100)
    --latency-samples N    toggles timed per latency run (200)
    --session-size N       peers per session in the memory run (10)
    --coalesce             also measure the fan-out with the server merging a turn's batches
    --only PART            storm, fanout, latency, rss, or links (the bare-link fan-out)
    --log                  print the server's and links' log records (closes and their
                           reasons) of the storm and fan-out runs on standard error

  Progress goes to standard error, one line per run, with the connections the server
  accepted beyond one per peer: a member whose link failed and resumed shows up there. A
  debug build waits 20 times longer before it calls a run stuck.
  """

/// The benchmark's sizes.
struct TransportSettings {
  var peers = 1_000
  var latencyPeers = 100
  var latencySamples = 200
  /// Video toggles per fan-out run; each reaches every peer.
  var commands = 6_400
  /// Toggles the driver sends per loop turn, and at most in flight.
  var burst = 64
  var window = 256
  /// Also measure the fan-out with the server coalescing a turn's event batches.
  var coalesce = false
  /// Print the server's and the links' log records of the storm and fan-out runs (`--log`).
  var logs = false
  /// Peers per session in the memory measurement.
  var sessionSize = 10
  /// Set in the memory measurement's child processes.
  var childMode: String?
  /// Run one part only (`storm`, `fanout`, `latency`, `rss`, or `links`: the bare-link
  /// fan-out alone), for profiling.
  var only: String?

  func runs(_ part: String) -> Bool { only == nil || only == part }
}

/// The medians of several repetitions, and the bars they are judged by.
struct TransportFigures {
  var joinStorms: [Double] = []
  var fanOuts: [FanOutResult] = []
  var baselines: [Double] = []
  /// The same fan-out with bare links (no SDK instances), for diagnosis.
  var linkFanOuts: [FanOutResult] = []
  /// With `--coalesce`: the fan-out with the server merging a turn's event batches, and the
  /// baseline at its frame size and batching, in events per second.
  var coalescedFanOuts: [FanOutResult] = []
  var coalescedBaselines: [Double] = []
  var p50s: [Double] = []
  var p99s: [Double] = []
  var rssPerPeer: [Double] = []
  var rssLoopback: [Double] = []
  var rssReplicas: [Double] = []

  static func measure(_ settings: TransportSettings, repetitions: Int) throws -> TransportFigures {
    var figures = TransportFigures()
    let log = StandardError()
    if settings.runs("storm") || settings.runs("fanout") {
      for repetition in 0...repetitions {
        let world = try TransportWorld(peers: settings.peers, logs: settings.logs)
        defer { world.shutdown() }
        let storm = try world.joinStorm()
        // Repetition 0 warms up (code, allocator, kernel buffers) and is not counted.
        let fanOut = try world.fanOut(
          commands: repetition == 0 ? min(640, settings.commands) : settings.commands,
          burst: settings.burst, window: settings.window)
        try world.checkConvergence(session: "Bench", after: "the fan-out")
        // A member whose link failed (a timeout, say) resumed on a new connection.
        let extra = try world.server.statistics().connectionsAccepted - settings.peers
        world.shutdown()
        guard repetition > 0 else {
          log.line(
            "warm-up: storm \(fixed2(storm)) s, fan-out \(millions(fanOut.deliveriesPerSecond)), "
              + "\(extra) connections beyond the peers")
          continue
        }
        let baseline = runUVBaseline(
          peers: settings.peers, frameSize: Int(fanOut.payloadSize.rounded()),
          framesPerWrite: max(1, Int(fanOut.framesPerWrite.rounded())),
          totalFramesPerPeer: settings.commands)
        let links = try TransportWorld.linkFanOut(
          peers: settings.peers, commands: settings.commands, burst: settings.burst,
          window: settings.window)
        figures.joinStorms.append(storm)
        figures.fanOuts.append(fanOut)
        figures.baselines.append(baseline)
        figures.linkFanOuts.append(links)
        log.line(
          "run \(repetition): storm \(fixed2(storm)) s, fan-out "
            + "\(millions(fanOut.deliveriesPerSecond)), baseline \(millions(baseline)), "
            + "\(fixed2(fanOut.framesPerWrite)) frames/write of \(fixed2(fanOut.payloadSize)) B; "
            + "links only \(millions(links.deliveriesPerSecond)); CPU ns/delivery client "
            + "\(fixed2(fanOut.clientNanosecondsPerDelivery)) (links only "
            + "\(fixed2(links.clientNanosecondsPerDelivery))), server "
            + "\(fixed2(fanOut.serverNanosecondsPerDelivery)); \(extra) connections beyond the "
            + "peers")
        if settings.coalesce {
          let coalescing = try TransportWorld(peers: settings.peers, coalescing: true)
          _ = try coalescing.joinStorm()
          let merged = try coalescing.fanOut(
            commands: settings.commands, burst: settings.burst, window: settings.window)
          try coalescing.checkConvergence(session: "Bench", after: "the coalesced fan-out")
          coalescing.shutdown()
          let frames = runUVBaseline(
            peers: settings.peers, frameSize: Int(merged.payloadSize.rounded()),
            framesPerWrite: max(1, Int(merged.framesPerWrite.rounded())),
            totalFramesPerPeer: max(1, merged.frames / settings.peers))
          figures.coalescedFanOuts.append(merged)
          figures.coalescedBaselines.append(frames * merged.eventsPerFrame)
          log.line(
            "coalesced run \(repetition): \(millions(merged.deliveriesPerSecond)), "
              + "\(fixed2(merged.eventsPerFrame)) events/frame of \(fixed2(merged.payloadSize)) B, "
              + "\(fixed2(merged.framesPerWrite)) frames/write; baseline at that size and "
              + "batching \(millions(frames)) frames = \(millions(frames * merged.eventsPerFrame)) "
              + "events; CPU ns/delivery client \(fixed2(merged.clientNanosecondsPerDelivery)), "
              + "server \(fixed2(merged.serverNanosecondsPerDelivery))")
        }
      }
    }
    if settings.only == "links" {
      for repetition in 1...repetitions {
        let links = try TransportWorld.linkFanOut(
          peers: settings.peers, commands: settings.commands, burst: settings.burst,
          window: settings.window)
        log.line(
          "links-only run \(repetition): \(millions(links.deliveriesPerSecond)), "
            + "\(fixed2(links.framesPerWrite)) frames/write of \(fixed2(links.payloadSize)) B; "
            + "CPU ns/delivery client \(fixed2(links.clientNanosecondsPerDelivery)), server "
            + "\(fixed2(links.serverNanosecondsPerDelivery))")
      }
    }
    if settings.runs("latency") {
      let world = try TransportWorld(peers: settings.latencyPeers)
      defer { world.shutdown() }
      _ = try world.joinStorm()
      _ = try world.latencies(samples: 20)  // warm-up
      for repetition in 1...repetitions {
        let samples = try world.latencies(samples: settings.latencySamples)
        figures.p50s.append(quantile(samples, 0.5))
        figures.p99s.append(quantile(samples, 0.99))
        log.line(
          "latency run \(repetition): p50 \(fixed2(quantile(samples, 0.5))) us, "
            + "p99 \(fixed2(quantile(samples, 0.99))) us, max \(fixed2(samples.max() ?? 0)) us")
      }
    }
    if settings.runs("rss") {
      for repetition in 1...repetitions {
        let loopback = try ResidentMemory.measureInChild(
          mode: "loopback", peers: settings.peers, sessionSize: settings.sessionSize)
        let replicas = try ResidentMemory.measureInChild(
          mode: "replicas", peers: settings.peers, sessionSize: settings.sessionSize)
        figures.rssLoopback.append(loopback)
        figures.rssReplicas.append(replicas)
        figures.rssPerPeer.append((loopback - replicas) / Double(settings.peers))
        log.line(
          "memory run \(repetition): loopback +\(fixed2(loopback)) KB, replicas "
            + "+\(fixed2(replicas)) KB, per peer \(fixed2((loopback - replicas) / Double(settings.peers))) KB"
        )
      }
    }
    return figures
  }

  var joinStorm: Double { quantile50(joinStorms) }
  var fanOut: Double { quantile50(fanOuts.map(\.deliveriesPerSecond)) }
  var baseline: Double { quantile50(baselines) }
  var ratio: Double { quantile50(zip(fanOuts, baselines).map { $0.deliveriesPerSecond / $1 }) }
  var linksOnly: Double { quantile50(linkFanOuts.map(\.deliveriesPerSecond)) }
  var linksOnlyRatio: Double {
    quantile50(zip(linkFanOuts, baselines).map { $0.deliveriesPerSecond / $1 })
  }
  var framesPerWrite: Double { quantile50(fanOuts.map(\.framesPerWrite)) }
  var payloadSize: Double { quantile50(fanOuts.map(\.payloadSize)) }
  var p50: Double { quantile50(p50s) }
  var p99: Double { quantile50(p99s) }
  var rss: Double { quantile50(rssPerPeer) }

  var values: [String: Double] {
    var values: [String: Double] = [:]
    if !joinStorms.isEmpty {
      values["join_storm_1k_s"] = joinStorm
      values["fanout_1k_dps"] = fanOut.rounded()
      values["uv_baseline_1k_dps"] = baseline.rounded()
      values["ratio_fanout_to_baseline"] = ratio
      values["frames_per_write"] = framesPerWrite
      values["frame_payload_bytes"] = payloadSize
      values["fanout_links_only_1k_dps"] = linksOnly.rounded()
      values["ratio_links_only_to_baseline"] = linksOnlyRatio
    }
    if !coalescedFanOuts.isEmpty {
      let rate = quantile50(coalescedFanOuts.map(\.deliveriesPerSecond))
      let baseline = quantile50(coalescedBaselines)
      values["fanout_coalesced_1k_dps"] = rate.rounded()
      values["uv_baseline_coalesced_1k_eps"] = baseline.rounded()
      values["ratio_coalesced_to_baseline"] = rate / baseline
      values["coalesced_events_per_frame"] = quantile50(coalescedFanOuts.map(\.eventsPerFrame))
    }
    if !p50s.isEmpty {
      values["latency_100_p50_us"] = p50.rounded()
      values["latency_100_p99_us"] = p99.rounded()
      values["ratio_latency_p99_to_bar"] = p99 / 5_000
    }
    if !rssPerPeer.isEmpty {
      values["rss_per_peer_kb"] = rss
      values["ratio_rss_to_bar"] = rss / 64
    }
    return values
  }

  var bars: [(name: String, met: Bool)] {
    var bars: [(String, Bool)] = []
    if !joinStorms.isEmpty {
      // Judged on the runs' own ratios (each fan-out against the baseline of its run), the
      // figure printed beside it; the medians' quotient can pass when most runs did not.
      bars.append(("fanout_1k_dps >= 0.25 x uv_baseline_1k_dps", ratio >= 0.25))
      bars.append(("fanout_1k_dps >= 3,000,000", fanOut >= 3_000_000))
      bars.append(("join_storm_1k_s <= 3", joinStorm <= 3))
    }
    if !p99s.isEmpty { bars.append(("latency_100_p99_us <= 5,000", p99 <= 5_000)) }
    if !rssPerPeer.isEmpty { bars.append(("rss_per_peer_kb <= 64", rss <= 64)) }
    return bars
  }

  func printTable(_ settings: TransportSettings, repetitions: Int) {
    print("sessionbench transport: median of \(repetitions) runs (after a warm-up run)")
    if !joinStorms.isEmpty {
      print("")
      print(
        "  join_storm_1k_s     \(fixed2(joinStorm)) s      "
          + "\(settings.peers) peers join one session at once (bar <= 3)")
      print(
        "  uv_baseline_1k_dps  \(millions(baseline))   raw libuv, \(settings.peers) peers, "
          + "\(fixed2(payloadSize)) B frames, \(Int(framesPerWrite.rounded())) per write")
      print(
        "  fanout_1k_dps       \(millions(fanOut))   ratio to baseline \(fixed2(ratio)) "
          + "(median of the runs' ratios; bars >= 0.25 and >= 3.00 M/s)")
      print(
        "                      \(settings.commands) toggles x \(settings.peers) peers per run; "
          + "\(fixed2(framesPerWrite)) frames per write achieved")
      print(
        "  diagnosis:          \(millions(linksOnly))   the same fan-out to bare links (no SDK), "
          + "ratio to baseline \(fixed2(linksOnlyRatio))")
      if !coalescedFanOuts.isEmpty {
        let rate = quantile50(coalescedFanOuts.map(\.deliveriesPerSecond))
        let baseline = quantile50(coalescedBaselines)
        print(
          "  coalesced:          \(millions(rate))   server merging a turn's batches "
            + "(\(fixed2(quantile50(coalescedFanOuts.map(\.eventsPerFrame)))) events/frame); "
            + "baseline at that size and batching \(millions(baseline)) events, ratio "
            + "\(fixed2(rate / baseline))")
      }
    }
    if !p50s.isEmpty {
      print("")
      print(
        "  latency_100_p50_us  \(fixed2(p50)) us   startVideo to the last of "
          + "\(settings.latencyPeers) callbacks, \(settings.latencySamples) samples per run")
      print("  latency_100_p99_us  \(fixed2(p99)) us   (bar <= 5,000)")
    }
    if !rssPerPeer.isEmpty {
      print("")
      print(
        "  rss_per_peer_kb     \(fixed2(rss)) KB    loopback +\(fixed2(quantile50(rssLoopback))) KB "
          + "minus replicas +\(fixed2(quantile50(rssReplicas))) KB, over \(settings.peers) peers in "
          + "sessions of \(settings.sessionSize) (bar <= 64)")
    }
    print("")
    for bar in bars { print("  \(bar.met ? "met   " : "FAILED") \(bar.name)") }
  }
}

/// Progress lines on standard error, so that `--json` output stays clean.
struct StandardError {
  func line(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}

/// Two decimals.
func fixed2(_ value: Double) -> String {
  String(format: "%.2f", value)
}

/// The median of `values` (nearest rank).
private func quantile50(_ values: [Double]) -> Double { quantile(values, 0.5) }
