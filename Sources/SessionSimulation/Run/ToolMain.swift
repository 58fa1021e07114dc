import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A subcommand of one of the package's tools (`sessionsim run`, `sessionbench sdk`), found by
/// the name given on the command line.
///
/// A value; `Sendable`.
package struct ToolCommand: Sendable {
  /// One line for the tool's usage text.
  package var summary: String
  /// The command's arguments, for `--help` and usage errors.
  package var usage: String
  /// A fuller `--help` text than the usage line, if the command has one.
  package var help: String?
  /// Runs the command with the arguments after its name.
  package var run: @Sendable ([String]) throws -> Void

  /// Creates a command.
  ///
  /// - Parameters:
  ///   - summary: One line for the usage text.
  ///   - usage: The arguments, for `--help`.
  ///   - help: A fuller `--help` text; `nil` (the default) for the usage line and summary.
  ///   - run: Runs the command.
  package init(
    summary: String, usage: String, help: String? = nil,
    run: @escaping @Sendable ([String]) throws -> Void
  ) {
    self.summary = summary
    self.usage = usage
    self.help = help
    self.run = run
  }
}

/// A command's failure: the message printed and the exit status.
///
/// A value; `Sendable`.
package struct ToolFailure: Error, CustomStringConvertible, Sendable {
  /// The message.
  package var description: String
  /// The process's exit status.
  package var status: Int32

  /// Creates a failure.
  ///
  /// - Parameters:
  ///   - description: The message.
  ///   - status: The exit status; 1 by default.
  package init(_ description: String, status: Int32 = 1) {
    self.description = description
    self.status = status
  }
}

/// The one `main` of the package's tools: huge pages first, then the command the arguments
/// name, with `--help`, usage and errors handled alike.
///
/// > Important: Call it from the tool's top-level code, before any thread starts.
package enum ToolMain {
  /// Runs the command the arguments name and exits the process.
  ///
  /// No arguments print the usage and exit 64; `-h`, `--help` or `help` print it and exit 0;
  /// an unknown name prints it and exits `unknownStatus`. `--help` after a name prints that
  /// command's help. A ``ToolFailure`` prints its message on standard error and exits with its
  /// status; another error exits 1. Standard output holds only what the command prints (a
  /// sweep's `--json` lines, which `sessionsim merge` reads).
  ///
  /// - Parameters:
  ///   - tool: The tool's name (`sessionsim`).
  ///   - noun: What its commands are called (`command`, `benchmark`).
  ///   - usage: The usage line after the tool's name (`<command> [options]`).
  ///   - commands: Every command, by name.
  ///   - unknownStatus: The exit status for an unknown name.
  /// - Returns: Never: it exits.
  package static func run(
    tool: String, noun: String, usage: String, commands: [String: ToolCommand],
    unknownStatus: Int32
  ) -> Never {
    // Before anything else: a run of many replicas is bound by TLB misses on 4 KiB pages
    // (Decision 0020); `SESSIONENGINE_HUGEPAGES=0` turns this off.
    HugePageHeap.restartIfUseful()
    let arguments = Array(CommandLine.arguments.dropFirst())
    let width = (commands.keys.map(\.count).max() ?? 0) + 2
    func printUsage() {
      print("usage: \(tool) \(usage)\n\n\(noun)s:")
      for (name, command) in commands.sorted(by: { $0.key < $1.key }) {
        print("  \(name)\(String(repeating: " ", count: width - name.count))\(command.summary)")
      }
    }
    guard let name = arguments.first, !["-h", "--help", "help"].contains(name) else {
      printUsage()
      exit(arguments.isEmpty ? 64 : 0)
    }
    guard let command = commands[name] else {
      print("\(tool): unknown \(noun) '\(name)'\n")
      printUsage()
      exit(unknownStatus)
    }
    let rest = Array(arguments.dropFirst())
    if rest.contains(where: { ["-h", "--help"].contains($0) }) {
      print(command.help ?? "usage: \(tool) \(command.usage)\n\n\(name): \(command.summary)")
      exit(0)
    }
    do {
      try command.run(rest)
      exit(0)
    } catch let failure as ToolFailure {
      printError("\(tool) \(name): \(failure)")
      exit(failure.status)
    } catch {
      printError("\(tool) \(name): \(error)")
      exit(1)
    }
  }

  /// Writes a line to standard error.
  ///
  /// - Parameter line: The line, without its newline.
  package static func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }
}
