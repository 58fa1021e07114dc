// sessionsim: the SessionEngine command-line tool.
//
//   swift run sessionsim <command> [options]
//
// Commands register themselves in `Commands.swift`.

import Foundation
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
  print("usage: sessionsim <command> [options]\n\ncommands:")
  for name in commands.keys.sorted() {
    if let command = commands[name] {
      let padding = String(repeating: " ", count: max(1, 16 - name.count))
      print("  \(name)\(padding)\(command.summary)")
    }
  }
}

guard let name = arguments.first, !["-h", "--help", "help"].contains(name) else {
  printUsage()
  exit(arguments.isEmpty ? 64 : 0)
}
guard let command = commands[name] else {
  print("sessionsim: unknown command '\(name)'\n")
  printUsage()
  exit(2)
}
let rest = Array(arguments.dropFirst())
if rest.contains(where: { ["-h", "--help"].contains($0) }) {
  print("usage: sessionsim \(command.usage)\n\n\(name): \(command.summary)")
  exit(0)
}
do {
  try command.run(rest)
} catch let failure as CommandFailure {
  // On standard error: standard output holds the command's results (a sweep's --json lines,
  // which `merge` reads), and a failure line there would spoil them.
  printError("sessionsim \(name): \(failure)")
  exit(failure.status)
} catch {
  printError("sessionsim \(name): \(error)")
  exit(1)
}

/// Writes a line to standard error.
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
