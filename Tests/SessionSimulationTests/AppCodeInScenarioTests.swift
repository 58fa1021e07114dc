import Foundation
import SessionCore
import SessionSDK
import SessionSimulation
import Testing

/// Copies of unchanged singleton app code as a scenario's peers (`RunOptions.appDelegate`):
/// each copy calls `VideoSDK.shareInstance()` in its callbacks and finds its own peer's
/// instance.
@MainActor
@Suite struct AppCodeInScenarioTests {
  /// App code written against the singleton, as the seeds are.
  @MainActor
  final class AppCopy: @preconcurrency VideoSDKDelegate {
    let name: String
    var joinedAs: String?
    var groupsHeard: [String] = []

    init(name: String) { self.name = name }

    func onSessionJoin() {
      joinedAs = VideoSDK.shareInstance()?.getSession()?.getMySelf()?.getUserName()
    }

    func onSubSessionStatusChanged(_ status: SubSessionStatus, subSession: [SubSessionKit]) {
      // Whose instance reports it: this copy's own.
      let me = VideoSDK.shareInstance()?.getSession()?.getMySelf()?.getUserName() ?? "?"
      groupsHeard.append("\(me): \(status)")
    }
  }

  /// The copies a run made, by peer name.
  final class Copies: @unchecked Sendable {
    var byName: [String: AppCopy] = [:]
  }

  @Test func everyCopyOfSingletonAppCodeFindsItsOwnInstance() throws {
    let text = """
      {
        "name": "app-copies", "seed": 3, "duration": "12s",
        "session": { "name": "Copies" },
        "peers": [
          { "name": "teacher", "role": "host" },
          { "name": "student-{i}", "count": 6, "join": { "from": "500ms", "to": "2s" } }
        ],
        "actions": [
          { "at": "4s", "peer": "teacher", "do": "commitSubSessions", "text": "A, B" },
          { "at": "5s", "peer": "teacher", "do": "startSubSessions" }
        ],
        "expect": { "liveness": "3s" }
      }
      """
    let scenario = try ScenarioLoader.load(Data(text.utf8))
    let copies = Copies()
    var options = RunOptions(seed: 3)
    // The run runs here, on the main actor, so the copies are made and called on it.
    options.appDelegate = { name in
      nonisolated(unsafe) var made: (any VideoSDKDelegate)?
      MainActor.assumeIsolated {
        let copy = AppCopy(name: name)
        copies.byName[name] = copy
        made = copy
      }
      return made
    }
    let outcome = try Simulation.run(scenario, mode: .deterministic, options: options)
    #expect(outcome.report.passed, "\(outcome.report.failures.prefix(2))")
    #expect(copies.byName.count == 7)
    for (name, copy) in copies.byName {
      #expect(copy.joinedAs == name, "\(name)'s copy found \(copy.joinedAs ?? "nothing")")
      #expect(copy.groupsHeard == ["\(name): committed", "\(name): started"])
    }
    #expect(VideoSDK.shareInstance() === VideoSDK.shared, "outside the run: the shared one")
  }
}
