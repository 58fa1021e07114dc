import Foundation
import SessionSimulation

/// `sessionsim simulate`: the classroom scenario (Examples/Scenarios/classroom.json, bundled
/// with the tool), run as `sessionsim run` runs any scenario. Takes `run`'s options.
let simulateUsage = """
  simulate [run options]

    Runs the bundled classroom scenario: a teacher and 30 students share, annotate and chat;
    the teacher's network drops past the heartbeat timeout and comes back within the grace.
    Every option of `sessionsim run` applies (--mode loopback, --seeds 20, --trace FILE, …).
  """

@Sendable func runSimulate(_ arguments: [String]) throws {
  guard
    let url = Bundle.module.url(
      forResource: "classroom", withExtension: "json", subdirectory: "Resources")
  else { throw CommandFailure("the bundled classroom.json is missing") }
  try runRun([url.path] + arguments)
}
