import Foundation
import SessionSimulation

/// The scenario reader's harness: the input as a scenario file.
///
/// ``SessionSimulation/ScenarioLoader/load(_:)-(Data)`` either refuses it with a
/// ``SessionSimulation/ScenarioError`` that says why, or returns a scenario that passes
/// ``SessionSimulation/ScenarioLoader/validate(_:)``, whose service configuration can be made,
/// and that ``SessionSimulation/ScenarioLoader/encode(_:)`` writes as a file that loads back to
/// the same scenario.
///
/// > Important: Stateless; each call works on the calling thread.
enum ScenarioFuzz {
  static func run(_ bytes: UnsafeRawBufferPointer) throws(FuzzFailure) {
    let data = Data(bytes)
    let scenario: Scenario
    do {
      scenario = try ScenarioLoader.load(data)
    } catch let error as ScenarioError {
      try require(!error.reason.isEmpty, "a refusal without a reason: \(error)")
      return
    } catch {
      throw FuzzFailure("load threw \(type(of: error)), not a ScenarioError: \(error)")
    }
    do {
      try ScenarioLoader.validate(scenario)
    } catch {
      throw FuzzFailure("a loaded scenario does not validate: \(error)")
    }
    _ = ScenarioLoader.serviceConfiguration(for: scenario, seed: 1)
    let written = ScenarioLoader.encode(scenario)
    try require(!written.isEmpty, "a loaded scenario does not encode")
    let again: Scenario
    do {
      again = try ScenarioLoader.load(written)
    } catch {
      throw FuzzFailure(
        "a written scenario does not load: \(error)\n"
          + String(decoding: written.prefix(2_000), as: UTF8.self))
    }
    try require(
      again == scenario,
      "a written scenario loads differently:\n"
        + String(decoding: written.prefix(2_000), as: UTF8.self))
  }
}
