import Foundation
import SessionFuzz
import Testing

/// Every checked-in fuzz input through its harness, without a fuzzer: the seed corpora of
/// `Fuzz/Corpus/<harness>/` and every input that once broke something, kept in
/// `Fuzz/Regressions/<harness>/`, so that each crash the fuzzers found stays fixed.
/// (`scripts/fuzz` runs the fuzzers; `Docs/Reliability.md`, "Fuzzing", says what each checks.)
@Suite struct FuzzCorpusTests {
  /// The repository's root, from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// The files under `Fuzz/<folder>/<harness>/`, sorted; none if the folder is missing.
  static func inputs(_ folder: String, _ harness: FuzzHarness) -> [URL] {
    let directory = root.appendingPathComponent("Fuzz/\(folder)/\(harness.rawValue)")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { !$0.hasPrefix(".") }.sorted().map {
      directory.appendingPathComponent($0)
    }
  }

  static func replay(_ files: [URL], through harness: FuzzHarness) throws {
    for file in files {
      let bytes = [UInt8](try Data(contentsOf: file))
      do throws(FuzzFailure) {
        try harness.run(bytes)
      } catch {
        Issue.record(Comment(rawValue: "\(file.lastPathComponent): \(error)"))
      }
    }
  }

  @Test(arguments: FuzzHarness.allCases)
  func theSeedCorpusPasses(_ harness: FuzzHarness) throws {
    let files = Self.inputs("Corpus", harness)
    #expect(files.count >= 5, "Fuzz/Corpus/\(harness.rawValue) has \(files.count) inputs")
    try Self.replay(files, through: harness)
  }

  @Test(arguments: FuzzHarness.allCases)
  func everyRegressionInputPasses(_ harness: FuzzHarness) throws {
    try Self.replay(Self.inputs("Regressions", harness), through: harness)
  }

  /// The generated seeds are what `sessionfuzz seeds` wrote into the corpus.
  @Test(arguments: FuzzHarness.allCases)
  func theGeneratedSeedsAreCheckedIn(_ harness: FuzzHarness) throws {
    for (name, bytes) in FuzzSeeds.seeds(for: harness) {
      let file = Self.root.appendingPathComponent(
        "Fuzz/Corpus/\(harness.rawValue)/seed-\(name)")
      let checkedIn = try? Data(contentsOf: file)
      #expect(checkedIn.map([UInt8].init) == bytes, "\(file.path) differs from its seed")
    }
  }

  /// Random inputs of every length up to 300 bytes, a few per harness: no harness traps or
  /// fails on arbitrary bytes.
  @Test(arguments: FuzzHarness.allCases)
  func arbitraryBytesPass(_ harness: FuzzHarness) {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for length in stride(from: 0, through: 300, by: 7) {
      let bytes = (0..<length).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
      }
      do throws(FuzzFailure) {
        try harness.run(bytes)
      } catch {
        Issue.record(Comment(rawValue: "\(length) bytes: \(error)"))
      }
    }
  }
}
