import SessionCore
import VirtualNetwork

/// Swarm testing: the scenario a seed gets when it draws its own rates from the swarm ranges.
package enum SwarmDraw {
  /// The scenario with the drawn network over every peer's and the drawn fault processes
  /// added; unchanged without swarm ranges.
  static func apply(to scenario: Scenario, streams: RandomStreams) -> Scenario {
    guard let swarm = scenario.swarm else { return scenario }
    var random = streams.stream("swarm")
    func draw(_ range: [Double]?) -> Double? {
      guard let range, let low = range.first, low.isFinite else { return nil }
      let high = range.count > 1 && range[1].isFinite ? max(low, range[1]) : low
      return low + (high - low) * random.nextDouble()
    }
    var result = scenario
    var link = LinkSpec()
    if let loss = draw(swarm.loss) { link.loss = min(1, max(0, loss)) }
    if let delay = draw(swarm.delayMilliseconds) {
      link.distribution = DelayDistributionSpec(kind: .exponential, mean: .ms(Int64(delay)))
    }
    if let jitter = draw(swarm.jitterMilliseconds) { link.jitter = .ms(Int64(jitter)) }
    result.network = (scenario.network ?? NetworkSpec()).overridden(by: .symmetric(link))
    let span = swarm.faultDuration ?? SimDurationRange(from: .seconds(1), to: .seconds(10))
    let processes: [(RandomFaultSpec.Kind, [Double]?)] = [
      (.partition, swarm.partitionsPerMinute), (.hold, swarm.holdsPerMinute),
      (.kill, swarm.killsPerMinute), (.pause, swarm.pausesPerMinute),
      (.killService, swarm.serviceKillsPerMinute),
    ]
    for (kind, range) in processes {
      guard let rate = draw(range), rate > 0 else { continue }
      result.randomFaults.append(RandomFaultSpec(kind, perMinute: rate, duration: span))
    }
    result.description = (scenario.description ?? "") + " [swarm: \(summary(of: result))]"
    return result
  }

  /// What a seed draws from the scenario's swarm ranges, in words; empty without swarm
  /// ranges.
  ///
  /// - Parameters:
  ///   - scenario: The scenario as loaded.
  ///   - seed: The seed.
  /// - Returns: `loss 0.05, delay mean 40ms, jitter 5ms, partition 1.2/min`, or empty.
  package static func drawn(by scenario: Scenario, seed: UInt64) -> String {
    guard scenario.swarm != nil else { return "" }
    return summary(of: apply(to: scenario, streams: RandomStreams(seed: seed)))
  }

  private static func summary(of scenario: Scenario) -> String {
    let link = scenario.network?.link(uplink: true) ?? LinkSpec()
    var parts = [
      "loss \(link.loss ?? 0)", "delay mean \(link.distribution?.mean ?? .zero)",
      "jitter \(link.jitter ?? .zero)",
    ]
    for process in scenario.randomFaults {
      parts.append("\(process.kind.rawValue) \(process.perMinute)/min")
    }
    return parts.joined(separator: ", ")
  }
}
