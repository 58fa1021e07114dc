import Foundation
import SessionService
import SessionSimulation
import SessionTransport

let mediaUsage = """
  usage: sessionbench media [--json] [--repetitions N] [--only PART] [--scenario FILE]

  Simulated media, measured in parts (--only picks one; repeatable as a comma list):

    service   service_cpu_ns_per_pkt: the service's media plane alone (30 members, each
              watching 25 others), ns per packet in, against a floor that only decodes the
              header and fans out from a dictionary.
    det       det_media_speedup: the media classroom (--scenario, default
              Examples/Scenarios/classroom.json) in deterministic mode, virtual seconds per
              wall second, against the same classroom without media.
    relay     classroom_fwd_pps against uv_udp_baseline_pps: 30 loopback peers, each watching
              25 videos and hearing the audio, sending as fast as the relay takes them,
              against a raw libuv UDP relay doing the same fan-out. Bar: >= 0.5.
    capacity  max_peers_30fps: the largest loopback session in which every peer sends 30 fps
              and receives its 25 subscriptions with under 1% loss and p99 one-way delay
              under 50 ms. Bar: >= 100.
    signal    signal_delay_p99_ms with 100 loopback peers under that media load, and
              signal_delay_p99_ms_no_media without it. Bar: media adds <= 10 ms.

  Each figure is the median of --repetitions runs (default 5; the loopback parts fewer),
  printed beside its baseline from the same run and their ratio.
  """

/// `sessionbench media`: the media plane's costs and capacity (see ``mediaUsage``).
func runMediaBenchmark(_ arguments: [String]) throws {
  var rest: [String] = []
  var parts: Set<String> = ["service", "det", "relay", "capacity", "signal"]
  var scenarioPath = "Examples/Scenarios/classroom.json"
  var iterator = arguments.makeIterator()
  while let argument = iterator.next() {
    switch argument {
    case "--only":
      guard let value = iterator.next() else { throw BenchmarkError("--only needs a part") }
      parts = Set(value.split(separator: ",").map(String.init))
    case "--scenario":
      guard let value = iterator.next() else { throw BenchmarkError("--scenario needs a file") }
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
    let (service, floor) = try measureServiceMedia(repetitions: options.repetitions)
    results["service_cpu_ns_per_pkt"] = service
    results["floor_ns_per_pkt"] = floor
    results["ratio_service_to_floor_ns"] = service / floor
    lines.append(
      "  service_cpu_ns_per_pkt  \(String(format: "%8.1f", service)) ns   floor "
        + "\(String(format: "%.1f", floor)) ns   ratio \(String(format: "%.2f", service / floor))"
        + "   (30 members x 25 subscriptions, 25 copies per packet)")
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
private func measureServiceMedia(repetitions: Int) throws -> (Double, Double) {
  let run = try ServiceMediaRun(members: 30)
  let rounds = 2_000
  let packets = rounds * run.datagrams.count
  var sink = 0
  let rates = medianRates(
    repetitions: repetitions,
    [
      TimedRun(operations: packets, prepare: { () }) { _ in run.runService(rounds: rounds) },
      TimedRun(operations: packets, prepare: { () }) { _ in
        run.runFloor(rounds: rounds) { (output: MediaHostOutput) -> Void in
          guard case .forward(let bytes, let endpoints) = output else { return }
          sink &+= bytes.count &+ endpoints.count
        }
      },
    ])
  blackHole(sink)
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
  func speedup(_ scenario: Scenario) throws -> Double {
    let outcome = try Simulation.run(
      scenario, mode: .deterministic, options: RunOptions(seed: scenario.seed ?? 1))
    guard outcome.report.passed else {
      throw BenchmarkError(
        "\(scenario.name) failed: \(outcome.report.failures.first.map { "\($0)" } ?? "")")
    }
    return Double(outcome.report.simulatedMilliseconds) / 1_000 / outcome.report.wallSeconds
  }
  var media: [Double] = []
  var without: [Double] = []
  for _ in 0..<repetitions {
    media.append(try speedup(scenario))
    without.append(try speedup(plain))
  }
  return (media.sorted()[media.count / 2], without.sorted()[without.count / 2])
}
