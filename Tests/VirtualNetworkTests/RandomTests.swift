import SessionCore
import Testing
import VirtualNetwork

@Suite("Simulation randomness")
struct RandomTests {
  @Test func theSameSeedGivesTheSameDrawsAndAnotherSeedOthers() {
    var a = SimulationRandom(seed: 42)
    var b = SimulationRandom(seed: 42)
    var c = SimulationRandom(seed: 43)
    let first = (0..<8).map { _ in a.next() }
    #expect(first == (0..<8).map { _ in b.next() })
    #expect(first != (0..<8).map { _ in c.next() })
    // Seed 0 works too (SplitMix fills the state).
    var zero = SimulationRandom(seed: 0)
    #expect(Set((0..<8).map { _ in zero.next() }).count == 8)
  }

  @Test func streamsDependOnTheirLabelAndSeedOnly() {
    let streams = RandomStreams(seed: 9)
    var alice = streams.stream("link/alice/up")
    var again = RandomStreams(seed: 9).stream("link/alice/up")
    var bob = streams.stream("link/bob/up")
    var otherSeed = RandomStreams(seed: 10).stream("link/alice/up")
    let draws = (0..<4).map { _ in alice.next() }
    #expect(draws == (0..<4).map { _ in again.next() })
    #expect(draws != (0..<4).map { _ in bob.next() })
    #expect(draws != (0..<4).map { _ in otherSeed.next() })
    // Drawing from one stream does not move another.
    var fresh = streams.stream("link/bob/up")
    var bobAgain = streams.stream("link/bob/up")
    _ = (0..<100).map { _ in fresh.next() }
    var bobFromTheStart = streams.stream("link/bob/up")
    #expect(bobFromTheStart.next() == bobAgain.next())
  }

  @Test func uniformDoublesStayInTheUnitInterval() {
    var random = SimulationRandom(seed: 1)
    let values = (0..<10_000).map { _ in random.nextDouble() }
    #expect(values.allSatisfy { $0 >= 0 && $0 < 1 })
    let mean = values.reduce(0, +) / Double(values.count)
    #expect(abs(mean - 0.5) < 0.02)
  }

  @Test func distributionsHaveTheirMeans() {
    var random = SimulationRandom(seed: 3)
    let count = 40_000
    func mean(_ draw: () -> Double) -> Double {
      (0..<count).reduce(0) { sum, _ in sum + draw() } / Double(count)
    }
    #expect(abs(mean { random.normal(mean: 10, standardDeviation: 2) } - 10) < 0.1)
    #expect(abs(mean { random.exponential(mean: 4) } - 4) < 0.15)
    // Pareto(1, 3): mean 1.5.
    #expect(abs(mean { random.pareto(scale: 1, shape: 3) } - 1.5) < 0.05)
    let normals = (0..<count).map { _ in random.normal(mean: 0, standardDeviation: 3) }
    let variance = normals.reduce(0) { $0 + $1 * $1 } / Double(count)
    #expect(abs(variance.squareRoot() - 3) < 0.1)
  }

  @Test func degenerateParametersGiveFiniteValues() {
    var random = SimulationRandom(seed: 5)
    #expect(random.exponential(mean: -1) == 0)
    #expect(random.exponential(mean: .nan) == 0)
    #expect(random.pareto(scale: -1, shape: 2) == 0)
    #expect(random.pareto(scale: 2, shape: 0) == 2)
    #expect(random.normal(mean: 1, standardDeviation: 0) == 1)
    #expect(!random.chance(0) && !random.chance(-3) && !random.chance(.nan))
    #expect(random.chance(1) && random.chance(7))
  }
}

@Suite("Delay distributions")
struct DelayDistributionTests {
  /// The mean of `count` sampled delays, in milliseconds.
  func meanDelay(_ behavior: LinkBehavior, count: Int = 20_000, seed: UInt64 = 11) -> Double {
    var random = SimulationRandom(seed: seed)
    var sum: Int64 = 0
    for _ in 0..<count { sum += behavior.sampleDelay(&random) }
    return Double(sum) / Double(count) / 1_000
  }

  @Test func eachDistributionSamplesAroundItsMean() {
    #expect(meanDelay(LinkBehavior(minimumDelay: 30)) == 30)
    #expect(
      abs(meanDelay(LinkBehavior(minimumDelay: 10, distribution: .uniform(max: 30))) - 20) < 0.3)
    #expect(
      abs(
        meanDelay(
          LinkBehavior(minimumDelay: 5, distribution: .normal(mean: 20, standardDeviation: 4)))
          - 25) < 0.3)
    #expect(
      abs(meanDelay(LinkBehavior(minimumDelay: 5, distribution: .exponential(mean: 10))) - 15)
        < 0.4)
    // Pareto(scale 4, shape 3): mean 6.
    #expect(
      abs(meanDelay(LinkBehavior(minimumDelay: 2, distribution: .pareto(scale: 4, shape: 3))) - 8)
        < 0.3)
  }

  @Test func jitterSpreadsAroundTheDelayAndNeverGoesNegative() {
    var random = SimulationRandom(seed: 2)
    let behavior = LinkBehavior(minimumDelay: 10, jitter: 4)
    let samples = (0..<10_000).map { _ in behavior.sampleDelay(&random) }
    #expect(samples.allSatisfy { $0 >= 6_000 && $0 <= 14_000 })
    #expect(abs(Double(samples.reduce(0, +)) / 10_000 / 1_000 - 10) < 0.1)
    let wide = LinkBehavior(minimumDelay: 1, jitter: 50)
    #expect((0..<1_000).allSatisfy { _ in wide.sampleDelay(&random) >= 0 })
  }

  @Test func badParametersAreClampedNotTrapped() {
    var random = SimulationRandom(seed: 4)
    let bad: [LinkBehavior] = [
      LinkBehavior(minimumDelay: -5),
      LinkBehavior(minimumDelay: .nan, jitter: .nan),
      LinkBehavior(minimumDelay: 10, distribution: .uniform(max: 2)),
      LinkBehavior(distribution: .normal(mean: .nan, standardDeviation: .infinity)),
      LinkBehavior(distribution: .exponential(mean: -3)),
      LinkBehavior(distribution: .pareto(scale: 1, shape: 1e-9)),
      LinkBehavior(minimumDelay: .infinity),
      LinkBehavior(minimumDelay: 1e300, jitter: 1e300),
    ]
    for behavior in bad {
      for _ in 0..<100 {
        let delay = behavior.sampleDelay(&random)
        #expect(delay >= 0 && delay <= 3_600_000_000)
      }
    }
    #expect(LinkBehavior(minimumDelay: -5).sampleDelay(&random) == 0)
    #expect(
      LinkBehavior(minimumDelay: 10, distribution: .uniform(max: 2)).sampleDelay(&random)
        == 10_000)
    #expect(LinkBehavior(minimumDelay: .infinity).sampleDelay(&random) == 3_600_000_000)
  }

  @Test func lossModelsClampTheirParameters() {
    #expect(LossModel.bernoulli(-1) == .bernoulli(0))
    #expect(LossModel.bernoulli(2) == .bernoulli(1))
    #expect(LossModel.bernoulli(.nan).lossRate == 0)
    #expect(LossModel.none.lossRate == 0)
    #expect(abs(LossModel.gilbertElliott(lossRate: 0.2, meanBurstLength: 4).lossRate - 0.2) < 1e-9)
    #expect(LossModel.gilbertElliott(lossRate: 1.5, meanBurstLength: 3).lossRate == 1)
    #expect(LossModel.gilbertElliott(lossRate: 0.1, meanBurstLength: .nan).lossRate > 0)
    // A burst length below 1 counts as 1: independent losses at the same rate.
    #expect(abs(LossModel.gilbertElliott(lossRate: 0.1, meanBurstLength: 0).lossRate - 0.1) < 1e-9)
  }
}
