import Foundation

/// A disjoint, deterministic share of a sweep's seeds: shard `index` of `count` runs the seeds
/// whose offset from the first seed leaves `index` when divided by `count`. Every seed falls in
/// exactly one shard, whatever the machine, so K jobs of a CI matrix or a Kubernetes Indexed
/// Job cover the sweep between them.
///
/// > Important: A value; `Sendable`.
public struct SeedShard: Sendable, Hashable, CustomStringConvertible {
  /// The shard's number, from 0.
  public let index: Int
  /// How many shards the sweep is cut into.
  public let count: Int

  /// The whole sweep as one shard.
  public static let whole = SeedShard(uncheckedIndex: 0, count: 1)

  private init(uncheckedIndex index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// Reads `I/K` (`0/4`, `3/4`): `0 ≤ I < K`, `1 ≤ K ≤ 100,000`.
  ///
  /// - Parameter text: The shard as the command line gives it.
  /// - Throws: ``SweepError`` saying what was expected.
  public init(parsing text: String) throws(SweepError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
      throw SweepError("--shard \(text): expected I/K, such as 0/4")
    }
    guard count >= 1, count <= 100_000 else {
      throw SweepError("--shard \(text): K must be 1 to 100,000")
    }
    guard index >= 0, index < count else {
      throw SweepError("--shard \(text): I must be 0 to \(count - 1)")
    }
    self.init(uncheckedIndex: index, count: count)
  }

  /// Whether the seed `offset` places after the first belongs to this shard.
  ///
  /// - Parameter offset: The seed's offset from the sweep's first seed.
  /// - Returns: `true` for this shard's seeds.
  public func contains(offset: Int) -> Bool { offset % count == index }

  /// `I/K`.
  public var description: String { "\(index)/\(count)" }
}

/// A sweep's input that cannot be used: a malformed shard, a merge of runs that do not belong
/// together, a line that is not a run's JSON. The message names the file, the line and what was
/// expected.
///
/// > Important: A value; `Sendable`.
public struct SweepError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What was wrong, and where.
  public let message: String

  /// An error saying `message`.
  ///
  /// - Parameter message: The explanation.
  public init(_ message: String) { self.message = message }

  /// The message.
  public var description: String { message }
}

/// One seed of a sweep, as `sessionsim run --json` writes it: a JSON object on one line.
///
/// The sweep's identity (scenario, mode, swarm, first seed and seed count) is on every line, so
/// that `sessionsim merge` can refuse lines of different sweeps.
///
/// > Important: A value; `Sendable`.
public struct SweepRecord: Sendable, Hashable, Codable {
  /// The scenario's name.
  public var scenario: String
  /// `deterministic` or `loopback`.
  public var mode: String
  /// Whether each seed drew its swarm rates.
  public var swarm: Bool
  /// The sweep's first seed.
  public var firstSeed: UInt64
  /// How many seeds the whole sweep has (all shards together).
  public var seeds: Int
  /// This line's seed.
  public var seed: UInt64
  /// The run's report.
  public var report: RunReport

  /// A record.
  ///
  /// - Parameters:
  ///   - report: The run's report (its scenario, mode and seed are the record's).
  ///   - swarm: Whether the seed drew its swarm rates.
  ///   - firstSeed: The sweep's first seed.
  ///   - seeds: How many seeds the sweep has.
  public init(report: RunReport, swarm: Bool, firstSeed: UInt64, seeds: Int) {
    scenario = report.scenario
    mode = report.mode
    self.swarm = swarm
    self.firstSeed = firstSeed
    self.seeds = seeds
    seed = report.seed
    self.report = report
  }

  /// The record as one line of JSON (sorted keys, no newline inside).
  ///
  /// - Returns: The record's JSON with sorted keys and unescaped slashes, on one line.
  public func jsonLine() throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(self), as: UTF8.self)
  }
}

/// The verdict of a sweep merged from its shards' `--json` lines.
///
/// > Important: A value; `Sendable`.
public struct SweepVerdict: Sendable, Hashable {
  /// Every seed's record, in seed order.
  public var records: [SweepRecord]

  /// Whether every seed passed.
  public var passed: Bool { records.allSatisfy(\.report.passed) }

  /// The lines `sessionsim merge` prints: one verdict per seed (without wall time, so shards
  /// and a single run print the same), the failing seeds' first failure and replay command,
  /// and a total.
  public var lines: [String] {
    var lines = records.map { $0.report.summaryLine(includingWallTime: false) }
    for record in records where !record.report.passed {
      if let first = record.report.failures.first {
        lines.append("seed \(record.seed) first failure: \(first)")
      }
      lines.append("seed \(record.seed) replay: \(record.report.replayCommand)")
    }
    let passed = records.count { $0.report.passed }
    lines.append("total: \(passed) of \(records.count) seeds passed")
    return lines
  }

  /// Merges the lines of one or more shards.
  ///
  /// Every line must be a ``SweepRecord`` of the same sweep (scenario, mode, swarm, first seed
  /// and seed count), no seed may come twice, and together they must cover every seed of
  /// `shard` (the whole sweep by default); blank lines are skipped.
  ///
  /// - Parameters:
  ///   - files: Each file's name and text.
  ///   - shard: The share of the sweep the files must cover together.
  /// - Returns: The verdict.
  /// - Throws: ``SweepError`` naming the file and line, and what was expected.
  public static func merge(
    _ files: [(name: String, text: String)], shard: SeedShard = .whole
  ) throws(SweepError) -> SweepVerdict {
    let decoder = JSONDecoder()
    var first: (record: SweepRecord, place: String)?
    var bySeed: [UInt64: (SweepRecord, String)] = [:]
    for file in files {
      for (number, line) in file.text.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { continue }
        let place = "\(file.name):\(number + 1)"
        guard let record = try? decoder.decode(SweepRecord.self, from: Data(trimmed.utf8)) else {
          throw SweepError(
            "\(place): expected one run's JSON (a line of `sessionsim run --json`)")
        }
        if let (expected, where_) = first {
          let same =
            record.scenario == expected.scenario && record.mode == expected.mode
            && record.swarm == expected.swarm && record.firstSeed == expected.firstSeed
            && record.seeds == expected.seeds
          guard same else {
            throw SweepError(
              "\(place): expected a seed of the sweep in \(where_) (\(Self.identity(expected))), "
                + "found \(Self.identity(record))")
          }
        } else {
          first = (record, place)
        }
        let range = Self.range(of: record)
        guard range.contains(record.seed),
          shard.contains(offset: Int(record.seed - record.firstSeed))
        else {
          throw SweepError(
            "\(place): seed \(record.seed) is outside the sweep's seeds \(range.lowerBound)"
              + "...\(range.upperBound) (shard \(shard))")
        }
        if let (_, earlier) = bySeed[record.seed] {
          throw SweepError("\(place): seed \(record.seed) again (first in \(earlier))")
        }
        bySeed[record.seed] = (record, place)
      }
    }
    guard let (expected, _) = first else {
      throw SweepError("no runs to merge: expected lines of `sessionsim run --json`")
    }
    let missing = Self.range(of: expected).filter { seed in
      shard.contains(offset: Int(seed - expected.firstSeed)) && bySeed[seed] == nil
    }
    guard missing.isEmpty else {
      let shown = missing.prefix(10).map(String.init).joined(separator: ", ")
      throw SweepError(
        "the sweep (\(Self.identity(expected))) misses \(missing.count) seeds: \(shown)"
          + (missing.count > 10 ? ", …" : "") + " (a shard not given?)")
    }
    return SweepVerdict(records: bySeed.keys.sorted().compactMap { bySeed[$0]?.0 })
  }

  private static func range(of record: SweepRecord) -> ClosedRange<UInt64> {
    let last = record.firstSeed.addingReportingOverflow(UInt64(max(1, record.seeds) - 1))
    return record.firstSeed...(last.overflow ? .max : last.partialValue)
  }

  private static func identity(_ record: SweepRecord) -> String {
    "\(record.scenario) [\(record.mode)\(record.swarm ? ", swarm" : "")], seeds "
      + "\(record.firstSeed) and \(record.seeds - 1) more"
  }
}
