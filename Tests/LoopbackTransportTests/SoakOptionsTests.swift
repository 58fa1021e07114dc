import Foundation
import Testing

/// `sessionbench soak`'s refusals, from the built binary: a run that would end inside its
/// warm-up, and numbers out of range, exit 2 with the reason and start nothing. (A run itself
/// takes minutes of real time; `Docs/Reliability.md` has the figures of one.)
@Suite("sessionbench soak options")
struct SoakOptionsTests {
  static func soak(_ arguments: [String]) throws -> (status: Int32?, output: String) {
    let child = try ChildProcess(try ChildProcess.requireSessionbench(), ["soak"] + arguments)
    let status = child.waitForExit()
    return (status, child.output.joined(separator: "\n"))
  }

  @Test func aRunEndingInsideTheDefaultWarmUpIsRefusedWithTheWarmUpNamed() throws {
    // 200 instances, 40 rejoins a minute: the ids drift past the tables' span in 21.5
    // minutes, so the warm-up is 23 and a 20-minute run would measure nothing.
    let (status, output) = try Self.soak(["--minutes", "20"])
    #expect(status == 2)
    #expect(output.contains("--warm-up (23 minutes) must end before --minutes (20.0)"))
    #expect(!output.contains("joining"), "nothing started")
  }

  @Test func fewerRejoinsMakeALongerWarmUpAndNoRejoinsTheFloor() throws {
    // 100 instances, 20 rejoins a minute: (4 × 101 + 256 − 100) / 20 = 28 minutes, plus one.
    let slower = try Self.soak(["--peers", "100", "--churn-per-minute", "60", "--minutes", "28"])
    #expect(slower.status == 2)
    #expect(slower.output.contains("--warm-up (29 minutes)"))
    // No leave among the steps: no new ids, and the warm-up is its floor of 5 minutes.
    let noLeaves = try Self.soak(["--churn", "camera,move", "--minutes", "5"])
    #expect(noLeaves.status == 2)
    #expect(noLeaves.output.contains("--warm-up (5 minutes)"))
  }

  @Test func numbersOutOfRangeAreRefused() throws {
    for arguments in [
      ["--peers", "1e300"], ["--peers", "1"], ["--watching", "0"], ["--frame-rate", "61"],
      ["--minutes", "-1"], ["--churn", "leave,dance"], ["--churn-per-minute", "7000"],
      // A huge warm-up is refused with its reason, never converted to an integer (a trap).
      ["--warm-up", "1e300", "--minutes", "10"],
    ] {
      let (status, output) = try Self.soak(arguments)
      #expect(status == 2, "\(arguments)")
      #expect(output.contains("usage: sessionbench soak"), "\(arguments)")
    }
  }
}
