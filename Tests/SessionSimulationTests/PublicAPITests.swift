import Foundation
import Synchronization
import Testing

/// Whether the tests run on Linux.
private let runsOnLinux: Bool = {
  #if os(Linux)
    true
  #else
    false
  #endif
}()

/// Every public (and SPI) symbol of each library module, from `swift-symbolgraph-extract`,
/// against the checked-in list in `Docs/API/`: a new public symbol, a removed one or a changed
/// signature is a decision, made by updating the list in the same change
/// (`SESSIONENGINE_WRITE_DOCS=1 swift test --skip-build --filter PublicAPI` rewrites it).
///
/// The lists are Linux's (the platform CI runs on); on Apple platforms the suite is off, since
/// the crypto shim and the target triple differ there.
@Suite(
  "Public API: each module's symbols match Docs/API",
  .enabled(if: runsOnLinux, "the checked-in lists are Linux's"))
struct PublicAPITests {
  /// The library modules whose surface is checked.
  static let modules = [
    "SessionCore", "SessionTransport", "InProcessTransport", "VirtualNetwork", "SessionService",
    "SessionSDK", "SessionTestSupport", "LoopbackTransport", "LoopbackFaults", "SessionSimulation",
    "LoopbackSimulation",
  ]

  /// The repository's root, from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  @Test(arguments: modules)
  func theSurfaceIsTheCheckedInOne(module: String) throws {
    let lines = try Self.symbolLines(of: module)
    #expect(lines.count > 0, "no symbols extracted for \(module)")
    let listed = Self.root.appendingPathComponent("Docs/API/\(module).txt")
    let text = lines.joined(separator: "\n") + "\n"
    if ProcessInfo.processInfo.environment["SESSIONENGINE_WRITE_DOCS"] == "1" {
      try FileManager.default.createDirectory(
        at: listed.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: listed, atomically: true, encoding: .utf8)
      return
    }
    let expected = try String(contentsOf: listed, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
    let added = Set(lines).subtracting(expected).sorted()
    let removed = Set(expected).subtracting(lines).sorted()
    #expect(
      added.isEmpty && removed.isEmpty,
      """
      \(module)'s public surface differs from Docs/API/\(module).txt \
      (a new, removed or changed public symbol is a decision: update the list with \
      SESSIONENGINE_WRITE_DOCS=1 swift test --skip-build --filter PublicAPI)
      added (\(added.count)): \(added.prefix(20).joined(separator: "\n  "))
      removed (\(removed.count)): \(removed.prefix(20).joined(separator: "\n  "))
      """)
  }

  /// Public doc comments say what a symbol does, not how fast: instruction counts, cache lines
  /// and prefetching are in `Docs/Performance.md` and beside internal code.
  @Test(arguments: modules)
  func publicDocCommentsCarryNoPerformanceNotes(module: String) throws {
    let pattern = /instructions? (per|each|a)|cache lines?|cache miss|callgrind|prefetch|\bTLB\b/
    var offenders: [String] = []
    for symbol in try Self.symbols(of: module) {
      let lines = (symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
      for line in lines {
        guard let text = line["text"] as? String,
          text.lowercased().contains(pattern)
        else { continue }
        let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
        offenders.append("\(path): \(text)")
      }
    }
    #expect(offenders.isEmpty, "\(offenders.joined(separator: "\n"))")
  }

  /// Every public function, initializer, subscript and operator documents its parameters, and
  /// every one that returns a value documents what it returns.
  @Test(arguments: modules)
  func everyPublicFunctionDocumentsItsParametersAndResult(module: String) throws {
    let callable: Set<String> = [
      "swift.method", "swift.func", "swift.init", "swift.type.method", "swift.subscript",
      "swift.type.subscript", "swift.func.op",
    ]
    var missing: [String] = []
    for symbol in try Self.symbols(of: module) {
      let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? ""
      guard callable.contains(kind) else { continue }
      let signature = symbol["functionSignature"] as? [String: Any] ?? [:]
      let parameters = signature["parameters"] as? [[String: Any]] ?? []
      let result = (signature["returns"] as? [[String: Any]] ?? [])
        .compactMap { $0["spelling"] as? String }.joined()
      let lines = (symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]] ?? []
      let doc = lines.compactMap { $0["text"] as? String }.joined(separator: "\n")
      let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
      if !parameters.isEmpty, !doc.contains(/-\s+Parameters?\b/) {
        missing.append("\(path): no parameter docs")
      }
      let returnsValue = !["", "()", "Void", "Self"].contains(result) && kind != "swift.init"
      if returnsValue, !doc.contains(/-\s+Returns?:/) {
        missing.append("\(path): no Returns")
      }
    }
    #expect(missing.isEmpty, "\(missing.joined(separator: "\n"))")
  }

  /// The module's public and SPI symbols, one sorted line each: kind, path, declaration.
  static func symbolLines(of module: String) throws -> [String] {
    try lines(of: symbols(of: module))
  }

  /// Each module's symbol graph once extracted, so that the suite's tests extract it once.
  static let extracted = Mutex<[String: Data]>([:])

  /// The module's public and SPI symbols, as the symbol graph gives them.
  static func symbols(of module: String) throws -> [[String: Any]] {
    let data = try extracted.withLock { $0[module] } ?? extractSymbolGraph(of: module)
    extracted.withLock { $0[module] = data }
    let graph = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    return try #require(graph["symbols"] as? [[String: Any]])
  }

  /// Runs `swift-symbolgraph-extract` on the module.
  static func extractSymbolGraph(of module: String) throws -> Data {
    let modules = try #require(buildModulesDirectory(), "no Modules directory beside the tests")
    let output = FileManager.default.temporaryDirectory
      .appendingPathComponent("session-api-\(module)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: output) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swift-symbolgraph-extract", "-module-name", module, "-I", modules.path,
      "-I", root.appendingPathComponent("Sources/CLibUV").path,
      "-I", root.appendingPathComponent("Sources/CCrypto").path,
      "-I", root.appendingPathComponent("Sources/CPrefetch").path,
      "-target", targetTriple, "-minimum-access-level", "public", "-skip-synthesized-members",
      "-include-spi-symbols", "-output-dir", output.path,
    ]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    try process.run()
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try #require(
      process.terminationStatus == 0,
      "swift-symbolgraph-extract failed: \(String(decoding: message, as: UTF8.self))")
    return try Data(contentsOf: output.appendingPathComponent("\(module).symbols.json"))
  }

  /// `kind path: declaration` for each symbol, sorted, repeats dropped.
  static func lines(of symbols: [[String: Any]]) -> [String] {
    var lines = Set<String>()
    for symbol in symbols {
      let kind = (symbol["kind"] as? [String: Any])?["identifier"] as? String ?? "?"
      let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
      let fragments = symbol["declarationFragments"] as? [[String: Any]] ?? []
      let declaration = fragments.compactMap { $0["spelling"] as? String }.joined()
        .split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        .joined(separator: " ")
      let spi = (symbol["spi"] as? Bool) == true ? " [SPI]" : ""
      lines.insert(
        "\(kind.replacingOccurrences(of: "swift.", with: "")) \(path)\(spi): \(declaration)")
    }
    return lines.sorted()
  }

  /// Where the build keeps its `.swiftmodule`s: beside the test bundle.
  static func buildModulesDirectory() -> URL? {
    let candidates =
      [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
      + CommandLine.arguments.prefix(1).map {
        URL(fileURLWithPath: $0).deletingLastPathComponent()
      }
    for directory in candidates {
      for base in [directory, directory.deletingLastPathComponent()] {
        let modules = base.appendingPathComponent("Modules")
        if FileManager.default.fileExists(
          atPath: modules.appendingPathComponent("SessionCore.swiftmodule").path)
        {
          return modules
        }
      }
    }
    return nil
  }

  static var targetTriple: String {
    #if arch(x86_64)
      "x86_64-unknown-linux-gnu"
    #else
      "aarch64-unknown-linux-gnu"
    #endif
  }
}
