import Foundation
import SessionCore
import SessionService

/// A scenario file that cannot run: where and why.
public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
  /// Where in the file (`peers[2].count`), or empty for the whole file.
  public var path: String
  /// What is wrong.
  public var reason: String

  /// A short description, for logs and reports.
  public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}

/// Reads scenario files and checks that they can run.
public enum ScenarioLoader {
  /// The most peers a scenario may have.
  public static let maxPeers = 5_000
  /// The longest scripted part.
  public static let maxDuration = SimDuration.seconds(24 * 3_600)
  /// The most behaviour steps and random faults a run may expect: a run draws them all when it
  /// starts, so rates × peers × duration must stay within memory.
  public static let maxExpectedSteps = 5_000_000.0

  /// Reads and validates a scenario from JSON.
  ///
  /// - Parameter data: The file's bytes.
  /// - Returns: The scenario.
  /// - Throws: ``ScenarioError`` saying where the file is wrong.
  public static func load(_ data: Data) throws -> Scenario {
    let scenario: Scenario
    do {
      scenario = try JSONDecoder().decode(Scenario.self, from: data)
    } catch let error as DecodingError {
      throw ScenarioError(path: path(of: error), reason: reason(of: error))
    }
    if let unknown = ScenarioKeys.firstUnknownKey(in: data) { throw unknown }
    try validate(scenario)
    return scenario
  }

  /// Reads and validates a scenario file.
  ///
  /// - Parameter path: The file.
  /// - Returns: The scenario.
  /// - Throws: ``ScenarioError`` when the file is missing or wrong.
  public static func load(path: String) throws -> Scenario {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw ScenarioError(path: "", reason: "cannot read \(path)")
    }
    return try load(data)
  }

  /// The scenario as JSON, keys sorted, as `--shrink` writes it.
  ///
  /// - Parameter scenario: The scenario.
  /// - Returns: Pretty-printed JSON.
  public static func encode(_ scenario: Scenario) -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(scenario)) ?? Data()
  }

  /// The service configuration a scenario asks for.
  ///
  /// - Parameters:
  ///   - scenario: The scenario.
  ///   - seed: The seed the service's secrets are derived from
  ///     (`ServiceSecrets.derived(seed:)`), so a run issues the same secrets
  ///     every time.
  /// - Returns: The configuration.
  public static func serviceConfiguration(for scenario: Scenario, seed: UInt64)
    -> ServiceConfiguration
  {
    var limits = SessionLimits()
    if let users = scenario.service?.maxUsers { limits.maxUsers = users }
    return ServiceConfiguration(
      credentials: DevelopmentCredentials.table, limits: limits,
      heartbeatTimeout: scenario.service?.heartbeatTimeout?.milliseconds ?? 15_000,
      reconnectGrace: scenario.service?.reconnectGrace?.milliseconds ?? 10_000,
      secrets: .derived(seed: seed))
  }

  /// Checks what decoding cannot: counts, names, times, probabilities, references.
  ///
  /// - Parameter scenario: The scenario.
  /// - Throws: ``ScenarioError`` at the first problem.
  public static func validate(_ scenario: Scenario) throws {
    func fail(_ path: String, _ reason: String) -> ScenarioError {
      ScenarioError(path: path, reason: reason)
    }
    guard !scenario.name.isEmpty, scenario.name.count <= 200 else {
      throw fail("name", "must be 1 to 200 characters")
    }
    guard scenario.duration > .zero, scenario.duration <= maxDuration else {
      throw fail("duration", "must be over 0 and at most 24h")
    }
    guard scenario.expect.liveness <= maxDuration else {
      throw fail("expect.liveness", "must be at most 24h")
    }
    if let media = scenario.expect.media {
      if let loss = media.maxLossPercent, !(0...100).contains(loss) {
        throw fail("expect.media.maxLossPercent", "must be 0 to 100")
      }
      if let delay = media.maxP99DelayMs, !(0...3_600_000).contains(delay) {
        throw fail("expect.media.maxP99DelayMs", "must be 0 to 3,600,000")
      }
    }
    guard !scenario.session.name.isEmpty, scenario.session.name.count <= 150 else {
      throw fail("session.name", "must be 1 to 150 characters")
    }
    var names: Set<String> = []
    var total = 0
    for (index, peer) in scenario.peers.enumerated() {
      let path = "peers[\(index)]"
      guard peer.count >= 1, peer.count <= maxPeers else {
        throw fail("\(path).count", "must be 1 to \(maxPeers)")
      }
      guard peer.count == 1 || peer.name.contains("{i}") else {
        throw fail("\(path).name", "a group of \(peer.count) needs {i} in its name")
      }
      total += peer.count
      guard total <= maxPeers else { throw fail(path, "more than \(maxPeers) peers in all") }
      for name in peer.names {
        guard !name.isEmpty, name.utf8.count <= 200, !name.contains("*") else {
          throw fail("\(path).name", "'\(name)' must be 1 to 200 bytes without '*'")
        }
        guard name != "service" else { throw fail("\(path).name", "'service' is reserved") }
        guard names.insert(name).inserted else {
          throw fail("\(path).name", "'\(name)' is used twice")
        }
      }
      try validate(peer.network, at: "\(path).network")
      try validate(peer.media, at: "\(path).media")
    }
    guard total >= 1 else { throw fail("peers", "a scenario needs at least one peer") }
    if let users = scenario.service?.maxUsers {
      // The service admits no more members than a worst-case `joined` snapshot fits in the
      // largest message: a larger maxUsers would refuse joins without a word from the scenario.
      let service = SessionService(configuration: serviceConfiguration(for: scenario, seed: 0))
      guard users >= 1, users <= service.admissionLimit else {
        throw fail(
          "service.maxUsers",
          "must be 1 to \(service.admissionLimit): the service holds no more members per session "
            + "(a joined snapshot of more could outgrow the largest message a member accepts)")
      }
    }
    try validate(scenario.network, at: "network")
    func requireMatch(_ pattern: String, _ path: String) throws {
      guard names.contains(pattern) || names.contains(where: { PeerPattern.matches(pattern, $0) })
      else { throw fail(path, "'\(pattern)' names no peer") }
    }
    func requirePeer(_ name: String?, _ path: String) throws {
      guard let name else { return }
      guard names.contains(name) else { throw fail(path, "'\(name)' is no peer") }
    }
    for (index, action) in scenario.actions.enumerated() {
      let path = "actions[\(index)]"
      try requireMatch(action.peer, "\(path).peer")
      try requirePeer(action.target, "\(path).target")
      guard (action.text?.utf8.count ?? 0) <= 20_000 else {
        throw fail("\(path).text", "longer than 20,000 bytes")
      }
    }
    // Behaviour steps and random faults are all drawn when a run starts: bound their number.
    let minutes = Double(scenario.duration.milliseconds) / 60_000
    var expectedSteps = 0.0
    for (index, behaviour) in scenario.behaviours.enumerated() {
      let path = "behaviours[\(index)]"
      try requireMatch(behaviour.peers, "\(path).peers")
      let rates = [
        behaviour.leavePerMinute, behaviour.videoTogglePerMinute, behaviour.audioTogglePerMinute,
        behaviour.mutePerMinute, behaviour.chatPerMinute, behaviour.sharePerMinute,
        behaviour.annotatePerMinute, behaviour.renamePerMinute, behaviour.talkPerMinute,
      ]
      for rate in rates.compactMap({ $0 }) where !(rate >= 0 && rate <= 600) {
        throw fail(path, "rates must be 0 to 600 per minute")
      }
      let selected = names.count {
        $0 == behaviour.peers || PeerPattern.matches(behaviour.peers, $0)
      }
      expectedSteps += rates.compactMap { $0 }.reduce(0, +) * Double(selected) * minutes
    }
    for (index, fault) in scenario.faults.enumerated() {
      let path = "faults[\(index)]"
      if let peers = fault.peers { try requireMatch(peers, "\(path).peers") }
      if fault.kind == .partition, let groups = fault.groups {
        guard groups.count == 2, groups.allSatisfy({ !$0.isEmpty }) else {
          throw fail("\(path).groups", "a partition has two non-empty sides")
        }
        for side in groups {
          for pattern in side where pattern != "service" {
            try requireMatch(pattern, "\(path).groups")
          }
        }
      }
      if fault.kind == .impair, fault.network == nil {
        throw fail("\(path).network", "an impairment needs a network")
      }
      try validate(fault.network, at: "\(path).network")
    }
    for (index, process) in scenario.randomFaults.enumerated() {
      let path = "randomFaults[\(index)]"
      if let peers = process.peers { try requireMatch(peers, "\(path).peers") }
      guard process.perMinute >= 0, process.perMinute <= 600 else {
        throw fail("\(path).perMinute", "must be 0 to 600")
      }
      expectedSteps += process.perMinute * minutes
      try validate(process.network, at: "\(path).network")
    }
    for (index, assertion) in scenario.expect.assertions.enumerated() {
      let path = "expect.assertions[\(index)]"
      if let peers = assertion.peers { try requireMatch(peers, "\(path).peers") }
      for name in [assertion.host].compactMap({ $0 }) + (assertion.managers ?? [])
        + (assertion.sees ?? []) + (assertion.doesNotSee ?? []) + (assertion.sharing ?? [])
        + (assertion.videoOn ?? [])
      {
        try requirePeer(name, path)
      }
    }
    if let swarm = scenario.swarm {
      let ranges: [(String, [Double]?, ClosedRange<Double>)] = [
        ("loss", swarm.loss, 0...1), ("delayMs", swarm.delayMilliseconds, 0...60_000),
        ("jitterMs", swarm.jitterMilliseconds, 0...60_000),
        ("partitionsPerMinute", swarm.partitionsPerMinute, 0...600),
        ("holdsPerMinute", swarm.holdsPerMinute, 0...600),
        ("killsPerMinute", swarm.killsPerMinute, 0...600),
        ("pausesPerMinute", swarm.pausesPerMinute, 0...600),
        ("serviceKillsPerMinute", swarm.serviceKillsPerMinute, 0...600),
      ]
      for (key, range, allowed) in ranges {
        guard let range else { continue }
        guard range.count == 2, range.allSatisfy(allowed.contains), range[0] <= range[1] else {
          throw fail("swarm.\(key)", "must be [low, high] within \(allowed)")
        }
      }
    }
    if let swarm = scenario.swarm {
      let highs = [
        swarm.partitionsPerMinute, swarm.holdsPerMinute, swarm.killsPerMinute,
        swarm.pausesPerMinute, swarm.serviceKillsPerMinute,
      ]
      expectedSteps += highs.compactMap { $0?.last }.reduce(0, +) * minutes
    }
    guard expectedSteps <= maxExpectedSteps else {
      throw fail(
        "behaviours",
        "rates × peers × duration expect \(Int(expectedSteps)) steps; at most "
          + "\(Int(maxExpectedSteps)) (lower the rates, the peers or the duration)")
    }
  }

  /// Checks that a scenario can run, and in `mode`: what ``validate(_:)`` checks, then that
  /// every link the scenario states (its network, each peer group's, each impairment's and
  /// each random impairment's) asks for nothing the mode cannot do. Loopback mode cannot
  /// duplicate or reorder (TCP never does, and its media proxy keeps order and forwards each
  /// datagram once) nor make loss bursts (`burstLength` over 1); deterministic mode can do
  /// everything.
  ///
  /// - Parameters:
  ///   - scenario: The scenario.
  ///   - mode: The mode it is to run in.
  /// - Throws: ``ScenarioError`` at the first problem; a field the mode cannot do names the
  ///   field (`network.both.duplicate`) and the mode.
  public static func validate(_ scenario: Scenario, for mode: SimulationMode) throws {
    try validate(scenario)
    try checkSupported(scenario, in: mode)
  }

  /// Reads a scenario file and checks that it can run in `mode` (``validate(_:for:)``).
  ///
  /// - Parameters:
  ///   - path: The file.
  ///   - mode: The mode it is to run in.
  /// - Returns: The scenario.
  /// - Throws: ``ScenarioError`` when the file is missing or wrong, or asks for what the mode
  ///   cannot do.
  public static func load(path: String, for mode: SimulationMode) throws -> Scenario {
    let scenario = try load(path: path)
    try checkSupported(scenario, in: mode)
    return scenario
  }

  /// The mode-specific part of ``validate(_:for:)``: every stated link's fields the mode
  /// cannot do.
  static func checkSupported(_ scenario: Scenario, in mode: SimulationMode) throws {
    var networks: [(String, NetworkSpec?)] = [("network", scenario.network)]
    for (index, peer) in scenario.peers.enumerated() {
      networks.append(("peers[\(index)].network", peer.network))
    }
    for (index, fault) in scenario.faults.enumerated() {
      networks.append(("faults[\(index)].network", fault.network))
    }
    for (index, process) in scenario.randomFaults.enumerated() {
      networks.append(("randomFaults[\(index)].network", process.network))
    }
    for (path, network) in networks {
      guard let network else { continue }
      for (side, link) in [
        ("both", network.both), ("uplink", network.uplink), ("downlink", network.downlink),
      ] {
        guard let link, let field = link.unsupportedFields(in: mode).first else { continue }
        throw ScenarioError(path: "\(path).\(side).\(field.key)", reason: field.reason)
      }
    }
  }

  private static func validate(_ media: PeerMediaSpec?, at path: String) throws {
    guard let media else { return }
    guard (1...60).contains(media.frameRate) else {
      throw ScenarioError(path: "\(path).frameRate", reason: "must be 1 to 60")
    }
    guard media.send != .auto else {
      throw ScenarioError(path: "\(path).send", reason: "must be 90p, 180p, 360p or 720p")
    }
    guard (0...100).contains(media.subscribe.maxVideo) else {
      throw ScenarioError(path: "\(path).subscribe.maxVideo", reason: "must be 0 to 100")
    }
    for (index, pattern) in media.subscribe.video.enumerated()
    where pattern.isEmpty || pattern.dropLast().contains("*") {
      throw ScenarioError(
        path: "\(path).subscribe.video[\(index)]",
        reason: "'\(pattern)' must be a name or a prefix ending in '*'")
    }
  }

  private static func validate(_ network: NetworkSpec?, at path: String) throws {
    guard let network else { return }
    for (side, link) in [
      ("both", network.both), ("uplink", network.uplink), ("downlink", network.downlink),
    ] {
      guard let link else { continue }
      for (key, probability) in [("loss", link.loss), ("duplicate", link.duplicate)] {
        if let probability, !(0...1).contains(probability) {
          throw ScenarioError(path: "\(path).\(side).\(key)", reason: "must be 0 to 1")
        }
      }
      if let burst = link.burstLength, !(burst >= 1 && burst <= 10_000) {
        throw ScenarioError(path: "\(path).\(side).burstLength", reason: "must be 1 to 10,000")
      }
      if let queue = link.queueBytes, !(1...1_073_741_824).contains(queue) {
        throw ScenarioError(path: "\(path).\(side).queueBytes", reason: "must be 1 B to 1 GiB")
      }
      for delay in [link.delay, link.jitter].compactMap({ $0 }) where delay > .seconds(3_600) {
        throw ScenarioError(path: "\(path).\(side)", reason: "delays must be at most 1h")
      }
    }
  }

  private static func path(of error: DecodingError) -> String {
    let context: DecodingError.Context
    switch error {
    case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): context = c
    case .keyNotFound(let key, let c):
      return pathText(c.codingPath + [key])
    @unknown default: return ""
    }
    return pathText(context.codingPath)
  }

  private static func pathText(_ keys: [any CodingKey]) -> String {
    keys.reduce(into: "") { text, key in
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
  }

  private static func reason(of error: DecodingError) -> String {
    switch error {
    case .typeMismatch(let type, let c): "expected \(type): \(c.debugDescription)"
    case .valueNotFound(let type, _): "missing \(type)"
    case .keyNotFound(let key, _): "missing '\(key.stringValue)'"
    case .dataCorrupted(let c): c.debugDescription
    @unknown default: "\(error)"
    }
  }
}
