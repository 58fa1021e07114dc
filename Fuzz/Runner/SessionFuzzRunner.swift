import Foundation
import SessionFuzz

#if FUZZING
  import CFuzzerDriver
#endif

/// `sessionfuzz`: the fuzz harnesses of `SessionFuzz` as one program.
///
/// Built by `scripts/fuzz` with `-DFUZZING -sanitize=fuzzer,address`, it is a libFuzzer fuzzer:
///
///     sessionfuzz HARNESS [libFuzzer flags] [corpus directories or files]
///
/// (the harness is also read from `SESSIONFUZZ_HARNESS`, which it sets for the processes
/// libFuzzer starts with `-fork` or `-merge`). Built normally (`swift build`), it replays inputs
/// through a harness without a fuzzer, and writes the generated seeds:
///
///     sessionfuzz HARNESS PATH...   run each file (each file of each directory) once
///     sessionfuzz seeds DIRECTORY   write the generated seeds into DIRECTORY/<harness>/
///     sessionfuzz list              the harness names
///
/// > Important: One thread: the harness runs on the main thread, input after input.
@main
enum SessionFuzzRunner {
  static func main() {
    #if FUZZING
      fuzz()
    #else
      replay(Array(CommandLine.arguments.dropFirst()))
    #endif
  }

  static let usage = """
    usage: sessionfuzz HARNESS PATH...      replay files and directories through a harness
           sessionfuzz seeds DIRECTORY      write the generated seed corpora
           sessionfuzz list                 the harnesses: \
    \(FuzzHarness.allCases.map(\.rawValue).joined(separator: ", "))
    (built by scripts/fuzz, `sessionfuzz HARNESS [libFuzzer flags] [corpus...]` fuzzes)
    """

  // MARK: Replay

  static func replay(_ arguments: [String]) {
    guard let first = arguments.first else {
      print(usage)
      exit(2)
    }
    switch first {
    case "list":
      for harness in FuzzHarness.allCases { print(harness.rawValue) }
    case "seeds":
      guard arguments.count == 2 else {
        print(usage)
        exit(2)
      }
      writeSeeds(into: URL(fileURLWithPath: arguments[1]))
    default:
      guard let harness = FuzzHarness(rawValue: first) else {
        print("sessionfuzz: no harness \(first)\n\(usage)")
        exit(2)
      }
      let files = arguments.dropFirst().flatMap(inputs(at:))
      var failed = 0
      for file in files {
        guard let data = FileManager.default.contents(atPath: file.path) else {
          print("sessionfuzz: cannot read \(file.path)")
          failed += 1
          continue
        }
        do throws(FuzzFailure) {
          try harness.run([UInt8](data))
        } catch {
          print("FAILED \(file.path):\n\(error)")
          failed += 1
        }
      }
      print("\(harness.rawValue): \(files.count) inputs, \(failed) failed")
      exit(failed == 0 ? 0 : 1)
    }
  }

  /// The file at `path`, or every file under it, sorted.
  static func inputs(at path: String) -> [URL] {
    let url = URL(fileURLWithPath: path)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      print("sessionfuzz: no file \(path)")
      exit(2)
    }
    guard isDirectory.boolValue else { return [url] }
    let enumerator = FileManager.default.enumerator(
      at: url, includingPropertiesForKeys: [.isRegularFileKey])
    var files: [URL] = []
    while let item = enumerator?.nextObject() as? URL {
      if (try? item.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
        files.append(item)
      }
    }
    return files.sorted { $0.path < $1.path }
  }

  static func writeSeeds(into directory: URL) {
    for harness in FuzzHarness.allCases {
      let seeds = FuzzSeeds.seeds(for: harness)
      guard !seeds.isEmpty else { continue }
      let folder = directory.appendingPathComponent(harness.rawValue)
      do {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, bytes) in seeds {
          try Data(bytes).write(to: folder.appendingPathComponent("seed-\(name)"))
        }
      } catch {
        print("sessionfuzz: cannot write \(folder.path): \(error)")
        exit(1)
      }
      print("\(harness.rawValue): \(seeds.count) seeds in \(folder.path)")
    }
  }

  // MARK: Fuzzing

  #if FUZZING
    /// The harness libFuzzer's callback runs: set once, before the driver starts.
    nonisolated(unsafe) static var selected = FuzzHarness.wire

    static func fuzz() {
      var arguments = CommandLine.arguments
      if arguments.count > 1, let named = FuzzHarness(rawValue: arguments[1]) {
        selected = named
        arguments.remove(at: 1)
        setenv("SESSIONFUZZ_HARNESS", named.rawValue, 1)
      } else if let name = ProcessInfo.processInfo.environment["SESSIONFUZZ_HARNESS"],
        let named = FuzzHarness(rawValue: name)
      {
        selected = named
      } else {
        print(usage)
        exit(2)
      }
      // libFuzzer keeps the argument strings for the whole run (and for the children it
      // starts): they are never freed.
      var pointers: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
      let status = pointers.withUnsafeMutableBufferPointer { buffer in
        var argc = CInt(arguments.count)
        var argv = buffer.baseAddress
        return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
          do throws(FuzzFailure) {
            try SessionFuzzRunner.selected.run(UnsafeRawBufferPointer(start: data, count: size))
          } catch {
            let line = "sessionfuzz \(SessionFuzzRunner.selected.rawValue): \(error)\n"
            FileHandle.standardError.write(Data(line.utf8))
            abort()
          }
          return 0
        }
      }
      exit(status)
    }
  #endif
}
