import SessionCore

/// `sessionbench reducer`: the reducer on rosters of 1,000 and 10,000 users, the store with one
/// observer on 1,000, and the floor (the same mutations on a plain dictionary) on 1,000.
///
/// Bars: reducer_eps_1k / floor_eps_1k >= 0.5; reducer_eps_10k >= 0.75 * reducer_eps_1k;
/// store_eps_1k >= 1,000,000.
///
/// `--profile 1k|10k` runs the reducer on that roster once, untimed, and prints nothing: for
/// `valgrind --tool=callgrind`, which counts each case's instructions per event (the
/// instructions of `reduce` are the same on both rosters; what differs is memory).
func runReducerBenchmark(_ arguments: [String]) throws {
  if let index = arguments.firstIndex(of: "--profile") {
    guard index + 1 < arguments.count,
      let size = ["1k": 1_000, "10k": 10_000][arguments[index + 1]]
    else { throw usageError("--profile needs 1k or 10k") }
    let mix = EventMix(size: size, count: 500_000)
    _ = reducerRun(mix).run()
    return
  }
  let options = try BenchmarkOptions(arguments)
  let eventCount = 500_000
  let repetitions = options.repetitions

  let mix1k = EventMix(size: 1_000, count: eventCount)
  let mix10k = EventMix(size: 10_000, count: eventCount)
  let rates = medianRates(
    repetitions: repetitions,
    [reducerRun(mix1k), floorRun(mix1k), storeRun(mix1k), reducerRun(mix10k)])
  let (reducer1k, floor1k, store1k, reducer10k) = (rates[0], rates[1], rates[2], rates[3])

  let results: [String: Double] = [
    "reducer_eps_1k": reducer1k.rounded(),
    "reducer_eps_10k": reducer10k.rounded(),
    "floor_eps_1k": floor1k.rounded(),
    "store_eps_1k": store1k.rounded(),
    "ratio_reducer_to_floor_1k": reducer1k / floor1k,
    "ratio_reducer_10k_to_1k": reducer10k / reducer1k,
    "ratio_store_to_reducer_1k": store1k / reducer1k,
  ]
  let bars = [
    ("reducer_eps_1k / floor_eps_1k >= 0.5", reducer1k / floor1k >= 0.5),
    ("reducer_eps_10k >= 0.75 x reducer_eps_1k", reducer10k >= 0.75 * reducer1k),
    ("store_eps_1k >= 1,000,000", store1k >= 1_000_000),
  ]
  if options.json {
    var json = results
    json["bars_met"] = bars.allSatisfy(\.1) ? 1 : 0
    try printJSON(json)
    return
  }
  print(
    "sessionbench reducer: \(eventCount) events per run, median of \(repetitions) interleaved runs")
  print("  mix: 42% video, 42% audio, 8% network/name, 10.5% join+leave, 2% host/manager")
  print("")
  print("  floor_eps_1k     \(millions(floor1k))   baseline: [UInt32: SmallUser], 1,000 users")
  print(
    "  reducer_eps_1k   \(millions(reducer1k))   "
      + "ratio to floor \(format(reducer1k / floor1k))  (bar >= 0.50)")
  print(
    "  reducer_eps_10k  \(millions(reducer10k))   "
      + "ratio to 1k    \(format(reducer10k / reducer1k))  (bar >= 0.75)")
  print(
    "  store_eps_1k     \(millions(store1k))   "
      + "ratio to reducer \(format(store1k / reducer1k))  (bar >= 1.00 M/s)")
  print("")
  for (bar, met) in bars { print("  \(met ? "ok    " : "FAILED") \(bar)") }
}

private func format(_ ratio: Double) -> String {
  let hundredths = Int((ratio * 100).rounded())
  let fraction = hundredths % 100
  return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}

private func reducerRun(_ mix: EventMix) -> TimedRun {
  let events = mix.events
  return TimedRun(operations: events.count, prepare: mix.makeState) { state in
    var rejected = 0
    for event in events {
      do {
        try state.reduce(event)
      } catch {
        rejected &+= 1
      }
    }
    precondition(rejected == 0, "the mix only holds events that apply")
    return state.participants.count
  }
}

private func floorRun(_ mix: EventMix) -> TimedRun {
  let operations = mix.floorOperations
  return TimedRun(operations: operations.count, prepare: mix.makeFloor) { floor in
    floor.apply(operations)
  }
}

private func storeRun(_ mix: EventMix) -> TimedRun {
  let events = mix.events
  let prepare = { () -> SessionStore in
    let store = SessionStore(state: mix.makeState())
    store.checksInvariants = false
    return store
  }
  return TimedRun(operations: events.count, prepare: prepare) { store in
    var observed = 0
    store.addObserver { applied, _ in observed &+= Int(truncatingIfNeeded: applied.sequence) }
    var rejected = 0
    for event in events {
      if case .rejected = store.send(event) { rejected &+= 1 }
    }
    precondition(rejected == 0, "the mix only holds events that apply")
    return observed
  }
}
