import Foundation

/// `sessionbench sdk`: 1,000 SDK instances join one in-process session one by one, then take
/// turns toggling video and audio, each toggle fanned out to all 1,000 (see ``runSDKScene``).
///
/// Bars: deliveries_per_s >= 2,000,000; join_storm_1k_s <= 1.0; admitting the 1,000th member
/// costs no more than 3x the 10th, beyond its fan-out: the service's handling of the join
/// message, timed alone (the `usersJoined` fan-out is delivered after it), less the time to
/// build the joiner's snapshot of everyone, measured on the same states.
///
/// `--members N` and `--commands N` shrink the scene, for profiling.
func runSDKBenchmark(_ arguments: [String]) throws {
  var members = 1_000
  var commands: Int?
  var rest: [String] = []
  var iterator = arguments.makeIterator()
  while let argument = iterator.next() {
    switch argument {
    case "--members", "--commands":
      guard let value = iterator.next().flatMap(Int.init), value >= 10 else {
        throw usageError("\(argument) needs a number of at least 10")
      }
      if argument == "--members" { members = value } else { commands = value }
    default:
      rest.append(argument)
    }
  }
  let options = try BenchmarkOptions(rest)
  let commandCount = commands ?? 2 * members

  _ = runSDKScene(members: members, commands: commandCount)  // warm-up
  var runs: [SDKSceneResult] = []
  for _ in 0..<options.repetitions {
    runs.append(runSDKScene(members: members, commands: commandCount))
  }
  let figures = SDKFigures(runs, members: members)

  if options.json {
    var json = figures.values
    json["bars_met"] = figures.bars.allSatisfy(\.met) ? 1 : 0
    try printJSON(json)
    return
  }
  figures.printTable(members: members, commands: commandCount, repetitions: runs.count)
}

/// The medians of several runs, and the bars they are judged by.
private struct SDKFigures {
  var joinStorm: Double
  var deliveriesPerSecond: Double
  var tenthJoin: Double
  var lastJoin: Double
  var tenthAdmission: Double
  var lastAdmission: Double
  var ninthAdmissionInSitu: Double
  var lastButOneAdmissionInSitu: Double
  var tenthSnapshot: Double
  var lastSnapshot: Double
  var tenthBeyondFanOut: Double
  var lastBeyondFanOut: Double
  var stormRange: ClosedRange<Double>
  var deliveriesRange: ClosedRange<Double>

  init(_ runs: [SDKSceneResult], members: Int) {
    let tenth = 9
    let last = members - 1
    let microseconds = { (duration: Duration) in duration.seconds * 1e6 }
    let storms = runs.map { $0.joinStorm.seconds }
    joinStorm = median(storms)
    let rates = runs.map { Double($0.deliveries) / $0.steady.seconds }
    deliveriesPerSecond = median(rates)
    tenthJoin = median(runs.map { microseconds($0.joins[tenth]) })
    lastJoin = median(runs.map { microseconds($0.joins[last]) })
    tenthAdmission = median(runs.map { microseconds($0.admissions[tenth]) })
    lastAdmission = median(runs.map { microseconds($0.admissions[last]) })
    ninthAdmissionInSitu = median(runs.map { microseconds($0.admissions[tenth - 1]) })
    lastButOneAdmissionInSitu = median(runs.map { microseconds($0.admissions[last - 1]) })
    tenthSnapshot = median(runs.map { microseconds($0.tenthSnapshot) })
    lastSnapshot = median(runs.map { microseconds($0.lastSnapshot) })
    // A joiner's fan-out: the `usersJoined` event to everyone already in (queued by the
    // service, delivered after admission, so outside the admission time) and the snapshot of
    // everyone for the joiner (built inside it).
    tenthBeyondFanOut = median(
      runs.map { microseconds($0.admissions[tenth]) - microseconds($0.tenthSnapshot) })
    lastBeyondFanOut = median(
      runs.map { microseconds($0.admissions[last]) - microseconds($0.lastSnapshot) })
    stormRange = (storms.min() ?? 0)...(storms.max() ?? 0)
    deliveriesRange = (rates.min() ?? 0)...(rates.max() ?? 0)
  }

  var admissionRatio: Double { lastAdmission / tenthAdmission }
  var beyondFanOutRatio: Double { lastBeyondFanOut / tenthBeyondFanOut }

  var bars: [(name: String, met: Bool)] {
    [
      ("deliveries_per_s >= 2,000,000", deliveriesPerSecond >= 2_000_000),
      ("join_storm_1k_s <= 1.0", joinStorm <= 1.0),
      (
        "admitting the 1,000th <= 3 x the 10th, beyond its fan-out",
        beyondFanOutRatio <= 3
      ),
    ]
  }

  var values: [String: Double] {
    [
      "join_storm_1k_s": joinStorm,
      "deliveries_per_s": deliveriesPerSecond.rounded(),
      "last_join_us": lastJoin,
      "tenth_join_us": tenthJoin,
      "last_admission_us": lastAdmission,
      "tenth_admission_us": tenthAdmission,
      "ratio_admission_last_to_tenth": admissionRatio,
      "ninth_admission_in_situ_us": ninthAdmissionInSitu,
      "last_but_one_admission_in_situ_us": lastButOneAdmissionInSitu,
      "last_snapshot_us": lastSnapshot,
      "tenth_snapshot_us": tenthSnapshot,
      "last_admission_beyond_fanout_us": lastBeyondFanOut,
      "tenth_admission_beyond_fanout_us": tenthBeyondFanOut,
      "ratio_admission_beyond_fanout_last_to_tenth": beyondFanOutRatio,
    ]
  }

  func printTable(members: Int, commands: Int, repetitions: Int) {
    print(
      "sessionbench sdk: \(members) instances join one in-process session, then \(commands) "
        + "video/audio toggles fan out to all; median of \(repetitions) runs")
    print("")
    print(
      "  join_storm_1k_s      \(fixed(joinStorm, 3)) s   "
        + "(runs \(fixed(stormRange.lowerBound, 3))...\(fixed(stormRange.upperBound, 3)); "
        + "bar <= 1.0)")
    print("                       every replica's shared facts checked equal to the service's")
    print(
      "  deliveries_per_s    \(millions(deliveriesPerSecond))   "
        + "(runs \(fixed(deliveriesRange.lowerBound / 1e6, 2))..."
        + "\(fixed(deliveriesRange.upperBound / 1e6, 2)); bar >= 2.00 M/s; "
        + "\(fixed(1e9 / deliveriesPerSecond, 0)) ns each)")
    print("")
    print("  the 10th and the last join each start on emptied caches (see CacheEviction)")
    print("  a whole join, as the joiner's joinSession call sees it:")
    print("    tenth_join_us                     \(fixed(tenthJoin, 1)) µs   baseline")
    print(
      "    last_join_us                      \(fixed(lastJoin, 1)) µs   "
        + "ratio \(fixed(lastJoin / tenthJoin, 1))")
    print("  the service's admission of the join (token, rules, state, snapshot, queued outputs):")
    print("    tenth_admission_us                \(fixed(tenthAdmission, 1)) µs   baseline")
    print(
      "    last_admission_us                 \(fixed(lastAdmission, 1)) µs   "
        + "ratio \(fixed(admissionRatio, 2))")
    print("  of which the joiner's snapshot of everyone (its own fan-out):")
    print("    tenth_snapshot_us                 \(fixed(tenthSnapshot, 1)) µs")
    print("    last_snapshot_us                  \(fixed(lastSnapshot, 1)) µs")
    print("  admission beyond the fan-out:")
    print(
      "    tenth_admission_beyond_fanout_us  \(fixed(tenthBeyondFanOut, 1)) µs   baseline")
    print(
      "    last_admission_beyond_fanout_us   \(fixed(lastBeyondFanOut, 1)) µs   "
        + "ratio \(fixed(beyondFanOutRatio, 2))  (bar <= 3.00)")
    print("  in situ, for comparison (the joins just before, caches as the storm left them):")
    print(
      "    ninth_admission_in_situ_us        \(fixed(ninthAdmissionInSitu, 1)) µs   "
        + "last_but_one \(fixed(lastButOneAdmissionInSitu, 1)) µs, ratio "
        + "\(fixed(lastButOneAdmissionInSitu / ninthAdmissionInSitu, 2))")
    print("")
    for bar in bars { print("  \(bar.met ? "ok    " : "FAILED") \(bar.name)") }
  }
}
