import SessionSimulation

/// A benchmark the command line can run by name: its summary, usage, help and entry point.
typealias Benchmark = ToolCommand

/// Every benchmark, by the name given on the command line. Add one line per benchmark.
let benchmarks: [String: Benchmark] = [
  "reducer": Benchmark(
    summary: "SessionState.reduce and SessionStore.send against a plain dictionary floor",
    usage: "reducer [--json] [--repetitions N]", run: runReducerBenchmark),
  "sdk": Benchmark(
    summary: "1,000 SDK instances join one in-process session; callback fan-out and admission",
    usage: "sdk [--json] [--repetitions N] [--members N] [--commands N]", run: runSDKBenchmark),
  "transport": Benchmark(
    summary: "1,000 SDK peers over loopback TCP: join storm, fan-out vs raw libuv, latency, memory",
    usage:
      "transport [--json] [--repetitions N] [--peers N] [--latency-peers N] "
      + "[--latency-samples N] [--commands N] [--session-size N] [--burst N] [--window N] "
      + "[--coalesce] [--only PART] [--log]",
    help: transportUsage, run: runTransportBenchmark),
  "media": Benchmark(
    summary: "simulated media: service cost per packet, relay vs raw libuv, capacity, speedup",
    usage: "media [--json] [--repetitions N] [--only PART] [--scenario FILE]",
    help: mediaUsage, run: runMediaBenchmark),
  "soak": Benchmark(
    summary: "a long loopback run (30 min, 200 peers, media churning): RSS, descriptors, handles",
    usage: "soak [--minutes M] [--peers N] [--churn-per-minute C] [--json]",
    help: soakUsage, run: runSoakBenchmark),
  "simulation": Benchmark(
    summary: "deterministic runs at scale: fan-out vs in-process, 1k churn, 5k join, demo, sweeps",
    usage: "simulation [--json] [--repetitions N] [--only PART]",
    help: simulationUsage, run: runSimulationBenchmark),
]
