import Foundation
import SessionCore
import SessionService
import SessionSimulation
import SessionTransport

let mediaUsage = """
  usage: sessionbench media [--json] [--repetitions N] [--only PART] [--scenario FILE]
                            [--aligned-cameras]

  Simulated media, measured in parts (--only picks one; repeatable as a comma list):

    service   service_cpu_ns_per_pkt: the service's media plane alone (30 members, each
              watching 25 others), ns per packet in, against a floor that only decodes the
              header and fans out from a dictionary; and ratio_service_to_bar, each round's
              service against 3 x floor + auth (auth as below, timed in the same rounds),
              median over the rounds. Bar: <= 1.
    auth      auth_ns_per_pkt: checking the trailer of one video packet datagram (1,034 bytes
              and its 24-byte trailer; AES-128-GMAC under the member's key, as the service does
              for every datagram), against decoding the same packet's header, which the service
              does anyway.
    det       det_media_speedup: the media classroom (--scenario, default
              Examples/Scenarios/classroom.json) in deterministic mode, virtual seconds per
              wall second, against the same classroom without media.
    relay     classroom_fwd_pps against uv_udp_baseline_pps: 30 members of one loopback
              session (raw links and raw UDP sockets), each watching 25 videos (180p, one
              layer) and hearing three loud talkers, sending pre-encoded packets as fast as
              the relay takes them (at most 4 rounds of video + audio in flight per member,
              counted by the copies that come back), against a raw libuv UDP relay doing the
              same fan-out with the same sockets. Copies received per second over 3 s after
              0.3 s of warm-up; median of the runs' ratios. Bar: >= 0.5.
    capacity  max_peers_30fps: the largest loopback session (50, 100, 150, ... SDK peers on
              one client loop, until one fails or takes over a minute) in which every peer
              sends 180p at 30 fps and watches 25 others, and over 5 s, a second after every
              subscription delivered, every receiver has under 1% video loss and a p99
              one-way video delay under 50 ms. One search; every size tried is printed.
              Bar: >= 100.
    signal    signal_delay_p99_ms with 100 loopback SDK peers under that media load, and
              signal_delay_p99_ms_no_media without a media plane: a video toggle to the last
              peer's callback, p99 of 200 after 20 untimed; pairs of runs interleaved (no
              media, media, ...), medians. Bar: media adds <= 10 ms.

  The cameras of capacity and signal start spread over one frame interval (33 ms) after the
  join, as cameras that start at different moments; --aligned-cameras starts them with the
  join, so that every frame of the session leaves in the same 10 ms tick (the worst case).
  The server's media socket reads with a 4 MiB buffer there (the system's default overflows).

  Each figure is the median of --repetitions runs (default 5; relay at most 5, signal at
  most 3 pairs), printed beside its baseline from the same run and their ratio. Progress and
  per-run figures go to standard error.
  """

/// `sessionbench media`: the media plane's costs and capacity (see ``mediaUsage``).
func runMediaBenchmark(_ arguments: [String]) throws {
  var rest: [String] = []
  var parts: Set<String> = ["service", "auth", "det", "relay", "capacity", "signal"]
  var scenarioPath = "Examples/Scenarios/classroom.json"
  var alignedCameras = false
  var iterator = arguments.makeIterator()
  while let argument = iterator.next() {
    switch argument {
    case "--only":
      let all = ["service", "auth", "det", "relay", "capacity", "signal"]
      guard let value = iterator.next(),
        case let chosen = Set(value.split(separator: ",").map(String.init)),
        !chosen.isEmpty, chosen.isSubset(of: all)
      else { throw usageError("--only needs parts among \(all.joined(separator: ", "))") }
      parts = chosen
    case "--aligned-cameras":
      alignedCameras = true
    case "--scenario":
      guard let value = iterator.next() else { throw usageError("--scenario needs a file") }
      scenarioPath = value
    default:
      rest.append(argument)
    }
  }
  let options = try BenchmarkOptions(rest)
  var results: [String: Double] = [:]
  var lines: [String] = []
  var bars: [(String, Bool)] = []
  if parts.contains("service") {
    let (service, floor, barRatio) = try measureServiceMedia(repetitions: options.repetitions)
    results["service_cpu_ns_per_pkt"] = service
    results["floor_ns_per_pkt"] = floor
    results["ratio_service_to_floor_ns"] = service / floor
    results["ratio_service_to_bar"] = barRatio
    lines.append(
      "  service_cpu_ns_per_pkt  \(String(format: "%8.1f", service)) ns   floor "
        + "\(String(format: "%.1f", floor)) ns   ratio \(String(format: "%.2f", service / floor))"
        + "   (30 members x 25 subscriptions, 25 copies per packet)")
    lines.append(
      "    against 3 x floor + auth, round by round: ratio \(fixed2(barRatio))   (median; "
        + "auth timed in the same rounds)")
    bars.append(("service_cpu_ns_per_pkt <= 3 x floor_ns_per_pkt + auth_ns_per_pkt", barRatio <= 1))
  }
  if parts.contains("auth") {
    let (auth, decode) = measureAuthentication(repetitions: options.repetitions)
    results["auth_ns_per_pkt"] = auth
    results["decode_ns_per_pkt"] = decode
    results["ratio_auth_to_decode_ns"] = auth / decode
    lines.append(
      "  auth_ns_per_pkt         \(String(format: "%8.1f", auth)) ns   header decode "
        + "\(String(format: "%.1f", decode)) ns   ratio \(String(format: "%.2f", auth / decode))"
        + "   (1,034-byte packet + 24-byte trailer)")
  }
  if parts.contains("det") {
    let scenario = try ScenarioLoader.load(path: scenarioPath)
    let (media, plain) = try measureDeterministicSpeedup(
      scenario, repetitions: max(1, min(options.repetitions, 3)))
    results["det_media_speedup"] = media
    results["det_no_media_speedup"] = plain
    results["ratio_det_media_to_no_media"] = media / plain
    lines.append(
      "  det_media_speedup       \(String(format: "%8.1f", media)) x    without media "
        + "\(String(format: "%.1f", plain)) x   ratio \(String(format: "%.2f", media / plain))"
        + "   (virtual s per wall s, \(scenario.name))")
  }
  if parts.contains("relay") {
    let runs = min(options.repetitions, 5)
    let relay = try RelayFigures.measure(runs: runs)
    results["classroom_fwd_pps"] = relay.classroomRate.rounded()
    results["uv_udp_baseline_pps"] = relay.baselineRate.rounded()
    results["ratio_classroom_to_uv_udp"] = relay.ratio
    results["relay_copies_given_up"] = Double(
      relay.classroom.map(\.forgiven).sorted()[relay.classroom.count / 2])
    lines.append(
      "  classroom_fwd_pps       \(millions(relay.classroomRate))   raw relay "
        + "\(millions(relay.baselineRate))   ratio \(fixed2(relay.ratio))   (median of \(runs) "
        + "interleaved runs' ratios; 30 members x 25 videos + 3 loud talkers)")
    bars.append(("classroom_fwd_pps >= 0.5 x uv_udp_baseline_pps", relay.ratio >= 0.5))
  }
  if parts.contains("capacity") {
    let (maximum, trials) = CapacityTrial.search(staggered: !alignedCameras)
    results["max_peers_30fps"] = Double(maximum)
    results["ratio_max_peers_to_bar"] = Double(maximum) / 100
    for trial in trials {
      let key = "capacity_\(trial.peers)"
      results["\(key)_passed"] = trial.passed ? 1 : 0
      guard let window = trial.window else { continue }
      results["\(key)_worst_loss_pct"] = window.worstLoss * 100
      results["\(key)_worst_p99_ms"] = Double(window.worstP99) / 1_000
      results["\(key)_p50_ms"] = Double(window.mergedP50) / 1_000
      results["\(key)_p99_ms"] = Double(window.mergedP99) / 1_000
      results["\(key)_video_pps"] = window.videoPacketsPerSecond.rounded()
    }
    lines.append(
      "  max_peers_30fps         \(String(format: "%8d", maximum))      bar 100   ratio "
        + "\(fixed2(Double(maximum) / 100))   (180p at 30 fps, 25 subscriptions each; < 1% loss, "
        + "p99 < 50 ms on every receiver over 5 s)")
    for trial in trials { lines.append("                          \(trial.summary)") }
    bars.append(("max_peers_30fps >= 100", maximum >= 100))
  }
  if parts.contains("signal") {
    let pairs = min(options.repetitions, 3)
    let signal = try SignalFigures.measure(pairs: pairs, staggered: !alignedCameras)
    let (media, plain) = (signal.mediaP99, signal.noMediaP99)
    results["signal_delay_p99_ms"] = media
    results["signal_delay_p99_ms_no_media"] = plain
    results["signal_delay_added_ms"] = media - plain
    results["ratio_signal_media_to_no_media"] = media / plain
    lines.append(
      "  signal_delay_p99_ms     \(String(format: "%8.2f", media)) ms   without media "
        + "\(fixed2(plain)) ms   ratio \(fixed2(media / plain))   added "
        + "\(fixed2(media - plain)) ms   (100 peers; medians of \(pairs) interleaved pairs)")
    bars.append(
      ("signal_delay_p99_ms <= signal_delay_p99_ms_no_media + 10", media <= plain + 10))
  }
  if options.json {
    var json = results
    json["bars_met"] = bars.allSatisfy(\.1) ? 1 : 0
    try printJSON(json)
    return
  }
  print("sessionbench media: medians of \(options.repetitions) runs")
  for line in lines { print(line) }
  if !bars.isEmpty { print("") }
  for (bar, met) in bars { print("  \(met ? "ok    " : "FAILED") \(bar)") }
  bars.removeAll()
}

/// The service's ns per packet and the floor's, medians of interleaved runs.
/// The service's figures per packet: medians of interleaved runs of the service, the floor and
/// the authentication of one packet (as `measureAuthentication` times it), and the median over
/// the rounds of each round's service against `3 × floor + auth`, so that a burst of load on a
/// shared machine weighs on both sides of the bar alike.
private func measureServiceMedia(repetitions: Int) throws -> (
  service: Double, floor: Double, barRatio: Double
) {
  let run = try ServiceMediaRun(members: 30)
  // Every packet must pass its tag and reach its 25 subscribers, or the figure means nothing.
  let expected = run.datagrams.count * 25
  let forwarded = run.runService(rounds: 1)
  guard forwarded == expected else {
    throw BenchmarkError("the service forwarded \(forwarded) copies of \(expected) in one round")
  }
  let rounds = 2_000
  let packets = rounds * run.datagrams.count
  var sink = 0
  let rates = roundRates(
    repetitions: repetitions,
    [
      TimedRun(operations: packets, prepare: { () }) { _ in run.runService(rounds: rounds) },
      TimedRun(operations: packets, prepare: { () }) { _ in
        run.runFloor(rounds: rounds) { (output: MediaHostOutput) -> Void in
          guard case .forward(let bytes, let endpoints) = output else { return }
          sink &+= bytes.count &+ endpoints.count
        }
      },
      AuthenticationRun().checks(count: packets),
    ])
  blackHole(sink)
  let nanoseconds = rates.map { $0.map { 1e9 / $0 } }
  let ratios = zip(nanoseconds[0], zip(nanoseconds[1], nanoseconds[2])).map { service, other in
    service / (3 * other.0 + other.1)
  }
  return (median(nanoseconds[0]), median(nanoseconds[1]), median(ratios))
}

/// One video packet's datagram sealed under a member's key, and the service's authenticator
/// of that key: what `auth_ns_per_pkt` times.
private struct AuthenticationRun {
  let authenticator = MediaAuthenticator(
    key: [UInt8](repeating: 0x42, count: 16), sending: .toMember)
  let sealed: [UInt8]

  init() {
    let member = MediaAuthenticator(key: [UInt8](repeating: 0x42, count: 16))
    let packet = MediaPacket(
      stream: StreamID(user: 7, kind: .video, layer: 0), sequence: 1, frameID: 1,
      isKeyFrame: true, sendTime: 0, payloadBytes: 1_000, width: 320, height: 180)
    sealed = member.sealed(packet.encode())
    precondition(authenticator.isAuthentic(sealed), "the benchmark's packet must pass its tag")
  }

  /// `count` checks of the packet's tag.
  func checks(count: Int) -> TimedRun {
    let body: (inout ()) -> Int = { _ in
      sealed.withUnsafeBytes { buffer in
        var hits = 0
        for _ in 0..<count where authenticator.isAuthentic(buffer) { hits &+= 1 }
        return hits
      }
    }
    return TimedRun(operations: count, prepare: { () }, body)
  }
}

/// ns to check one packet's tag, and ns to decode its header, medians of interleaved runs.
private func measureAuthentication(repetitions: Int) -> (Double, Double) {
  let run = AuthenticationRun()
  let count = 200_000
  let rates = medianRates(
    repetitions: repetitions,
    [
      run.checks(count: count),
      TimedRun(operations: count, prepare: { () }) { _ in
        run.sealed.withUnsafeBytes { buffer in
          guard let body = MediaDatagram.body(ofSealed: buffer) else { return 0 }
          var sum = 0
          for _ in 0..<count {
            if case .packet(let decoded)? = try? MediaDatagram.decode(body) {
              sum &+= Int(decoded.sequence)
            }
          }
          return sum
        }
      },
    ])
  return (1e9 / rates[0], 1e9 / rates[1])
}

/// Virtual seconds per wall second of `scenario` with its media and without, medians.
private func measureDeterministicSpeedup(_ scenario: Scenario, repetitions: Int) throws -> (
  Double, Double
) {
  var plain = scenario
  plain.peers = plain.peers.map { peer in
    var peer = peer
    peer.media = nil
    return peer
  }
  plain.expect.media = nil
  let (media, without) = try interleaved(
    repetitions: repetitions, { try deterministicSpeedup(scenario) },
    against: { try deterministicSpeedup(plain) })
  return (median(media), median(without))
}
