// sessionbench: release-build benchmarks, each printing its baseline and ratio beside it.
//
//   swift run -c release sessionbench <benchmark> [--json]
//
// Benchmarks register themselves in `Benchmarks.swift`.

import SessionSimulation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Before anything else: a run of many replicas is bound by TLB misses on 4 KiB pages
// (Decision 0020); `SESSIONENGINE_HUGEPAGES=0` turns this off.
HugePageHeap.restartIfUseful()

let arguments = Array(CommandLine.arguments.dropFirst())

func printUsage() {
  print("usage: sessionbench <benchmark> [--json]\n\nbenchmarks:")
  for name in benchmarks.keys.sorted() {
    if let benchmark = benchmarks[name] {
      let padding = String(repeating: " ", count: max(1, 12 - name.count))
      print("  \(name)\(padding)\(benchmark.summary)")
    }
  }
}

guard let name = arguments.first, !["-h", "--help", "help"].contains(name) else {
  printUsage()
  exit(arguments.isEmpty ? 64 : 0)
}
guard let benchmark = benchmarks[name] else {
  print("sessionbench: unknown benchmark '\(name)'\n")
  printUsage()
  exit(64)
}
let rest = Array(arguments.dropFirst())
if rest.contains(where: { ["-h", "--help"].contains($0) }) {
  print(benchmark.help ?? "usage: sessionbench \(benchmark.usage)\n\n\(name): \(benchmark.summary)")
  exit(0)
}
do {
  try benchmark.run(rest)
} catch {
  print("sessionbench \(name): \(error)")
  exit(1)
}
