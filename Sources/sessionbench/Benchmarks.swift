/// A benchmark the command line can run by name.
struct Benchmark: Sendable {
  /// One line for the usage text.
  var summary: String
  /// Runs the benchmark with the arguments after its name (for example `--json`).
  var run: @Sendable ([String]) throws -> Void
}

/// Every benchmark, by the name given on the command line. Add one line per benchmark.
let benchmarks: [String: Benchmark] = [
  "reducer": Benchmark(
    summary: "SessionState.reduce and SessionStore.send against a plain dictionary floor",
    run: runReducerBenchmark),
  "sdk": Benchmark(
    summary: "1,000 SDK instances join one in-process session; callback fan-out and admission",
    run: runSDKBenchmark),
  "transport": Benchmark(
    summary: "1,000 SDK peers over loopback TCP: join storm, fan-out vs raw libuv, latency, memory",
    run: runTransportBenchmark),
]
