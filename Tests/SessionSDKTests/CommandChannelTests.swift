import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport
import Testing

/// The command channel (`ZoomVideoSDKCmdChannel`) over the in-process network with the real
/// service: who hears a command, the size and rate limits, and what a refusal changes.
@MainActor
struct CommandChannelTests {
  let testbed = SessionTestbed(sessionName: "Classroom")

  /// Joins `name` and records its callbacks.
  func member(_ name: String, role: TokenRole = .participant) -> (VideoSDK, CommandChannelLog) {
    let recorder = CommandChannelLog()
    let sdk = testbed.makeSDK()
    sdk.callbackObserver = { recorder.callbacks.append($0) }
    sdk.joinSession(testbed.context(name, role: role))
    testbed.run()
    return (sdk, recorder)
  }

  func user(_ id: UserID?, seenBy sdk: VideoSDK) -> User? {
    sdk.getSession()?.getRemoteUsers()?.first { $0.getUserID() == Int(id?.rawValue ?? 0) }
  }

  @Test func theChannelConnectsAfterTheJoinsOtherCallbacks() {
    let (_, log) = member("Teacher", role: .host)
    #expect(log.callbacks.first == .onSessionJoin)
    #expect(log.callbacks.last == .onCmdChannelConnectResult(true))
    #expect(log.callbacks.filter { $0 == .onCmdChannelConnectResult(true) }.count == 1)
  }

  @Test func aCommandToOneReachesThatOneAndABroadcastEveryoneButTheSender() throws {
    let (teacher, teacherLog) = member("Teacher", role: .host)
    let (ada, adaLog) = member("Ada")
    let (_, bobLog) = member("Bob")
    let adaID = try #require(ada.store.state.myselfID)
    let teacherID = try #require(teacher.store.state.myselfID)
    for log in [teacherLog, adaLog, bobLog] { log.callbacks.removeAll() }

    #expect(
      ada.getCmdChannel().sendCommand("raise-hand", receiveUser: user(teacherID, seenBy: ada))
        == .success)
    #expect(teacherLog.callbacks == [.onCommandReceived(content: "raise-hand", sender: adaID)])
    #expect(adaLog.callbacks.isEmpty && bobLog.callbacks.isEmpty)

    testbed.advance(by: 1_000)
    #expect(teacher.getCmdChannel().sendCommand("quiet, please", receiveUser: nil) == .success)
    #expect(adaLog.callbacks == [.onCommandReceived(content: "quiet, please", sender: teacherID)])
    #expect(bobLog.callbacks == [.onCommandReceived(content: "quiet, please", sender: teacherID)])
    #expect(teacherLog.callbacks.count == 1, "the sender does not hear its own broadcast")
    // Nothing of a command stays in the session.
    #expect(teacher.store.state.sharedFacts == testbed.serviceState()?.sharedFacts)
    testbed.assertConverged()
  }

  /// The delegate method gets the text and the sender as a user object.
  @Test func theDelegateGetsTheTextAndTheSender() throws {
    final class Listener: VideoSDKDelegate {
      var heard: [(String?, String?)] = []
      func onCommandReceived(_ commandContent: String?, sendUser: User?) {
        heard.append((commandContent, sendUser?.getName()))
      }
    }
    let (teacher, _) = member("Teacher", role: .host)
    let listener = Listener()
    teacher.delegate = listener
    let (ada, _) = member("Ada")
    #expect(ada.getCmdChannel().sendCommand("👋 hello", receiveUser: nil) == .success)
    #expect(listener.heard.count == 1)
    #expect(listener.heard.first?.0 == "👋 hello" && listener.heard.first?.1 == "Ada")
  }

  @Test func theSizeLimitIs512CharactersAndEmptyIsRefused() {
    let (teacher, teacherLog) = member("Teacher", role: .host)
    let (ada, _) = member("Ada")
    teacherLog.callbacks.removeAll()
    let channel = ada.getCmdChannel()!
    #expect(channel.sendCommand("", receiveUser: nil) == .invalidParameter)
    #expect(channel.sendCommand(nil, receiveUser: nil) == .invalidParameter)
    #expect(
      channel.sendCommand(String(repeating: "x", count: 513), receiveUser: nil) == .invalidParameter
    )
    // Characters, not bytes: 512 four-byte characters fit; 513 do not.
    #expect(
      channel.sendCommand(String(repeating: "🙋", count: 513), receiveUser: nil) == .invalidParameter
    )
    #expect(teacherLog.callbacks.isEmpty)
    #expect(channel.sendCommand(String(repeating: "🙋", count: 512), receiveUser: nil) == .success)
    #expect(teacherLog.callbacks.count == 1)
    _ = teacher
  }

  @Test func aReceiverWhoIsYourselfOrGoneIsRefused() throws {
    let (teacher, teacherLog) = member("Teacher", role: .host)
    let (ada, _) = member("Ada")
    let (bob, _) = member("Bob")
    let me = ada.getSession()?.getMySelf()
    #expect(ada.getCmdChannel().sendCommand("hi", receiveUser: me) == .invalidParameter)
    let bobSeenByAda = try #require(user(bob.store.state.myselfID, seenBy: ada))
    #expect(bob.leaveSession(false) == .success)
    testbed.run()
    teacherLog.callbacks.removeAll()
    #expect(ada.getCmdChannel().sendCommand("hi", receiveUser: bobSeenByAda) == .invalidParameter)
    #expect(teacherLog.callbacks.isEmpty)
    _ = teacher
  }

  @Test func outsideASessionTheChannelSaysSo() {
    let sdk = VideoSDK()
    #expect(sdk.getCmdChannel().sendCommand("hi", receiveUser: nil) == .uninitialize)
    let initialized = testbed.makeSDK()
    #expect(initialized.getCmdChannel().sendCommand("hi", receiveUser: nil) == .notInSession)
  }

  /// Two commands a second from one instance, then `Errors_Call_Too_Frequently` at once until
  /// a second of its clock has passed.
  @Test func aThirdCommandWithinASecondIsRefusedAtOnce() {
    let (_, teacherLog) = member("Teacher", role: .host)
    let (ada, _) = member("Ada")
    teacherLog.callbacks.removeAll()
    let channel = ada.getCmdChannel()!
    #expect(channel.sendCommand("1", receiveUser: nil) == .success)
    #expect(channel.sendCommand("2", receiveUser: nil) == .success)
    #expect(channel.sendCommand("3", receiveUser: nil) == .callTooFrequently)
    testbed.advance(by: 999)
    #expect(channel.sendCommand("3", receiveUser: nil) == .callTooFrequently)
    testbed.advance(by: 1)
    #expect(channel.sendCommand("3", receiveUser: nil) == .success)
    #expect(teacherLog.callbacks.count == 3)
  }

  /// With the clock an app gets by default (no `clock:`), the instance's second is wall time.
  /// (The refusal is checked only when the three calls really were under a second apart, so
  /// that a stalled machine cannot fail it.)
  @Test func theInstancesRateWithTheDefaultClockCountsWallTime() async throws {
    let testbed = SessionTestbed(sessionName: "Wall")
    let host = testbed.join("Teacher", role: .host)
    let ada = VideoSDK()
    #expect(ada.initialize(InitParams(domain: "zoom.us", transport: testbed.network)) == .success)
    ada.joinSession(testbed.context("Ada"))
    testbed.run()
    #expect(ada.isInSession() && host.isInSession())
    let channel = ada.getCmdChannel()!
    let start = InitParams.wallClock()
    #expect(channel.sendCommand("1", receiveUser: nil) == .success)
    #expect(channel.sendCommand("2", receiveUser: nil) == .success)
    let third = channel.sendCommand("3", receiveUser: nil)
    if InitParams.wallClock() - start < 1_000 { #expect(third == .callTooFrequently) }
    try await Task.sleep(for: .milliseconds(1_100))
    // The service's second is the testbed's clock: move it on as well.
    testbed.advance(by: 1_000)
    #expect(channel.sendCommand("3", receiveUser: nil) == .success)
  }

  /// The session's rate is for all its members together: the service refuses the third
  /// command of a second, whoever sends it, and it reaches nobody.
  @Test func theSessionCarriesTwoCommandsASecondFromEveryoneTogether() throws {
    let (_, teacherLog) = member("Teacher", role: .host)
    let (ada, _) = member("Ada")
    let (bob, bobLog) = member("Bob")
    teacherLog.callbacks.removeAll()
    bobLog.callbacks.removeAll()
    #expect(ada.getCmdChannel().sendCommand("1", receiveUser: nil) == .success)
    #expect(ada.getCmdChannel().sendCommand("2", receiveUser: nil) == .success)
    bobLog.callbacks.removeAll()
    // Bob's instance has sent nothing: it sends, and the service refuses.
    #expect(bob.getCmdChannel().sendCommand("3", receiveUser: nil) == .success)
    #expect(
      teacherLog.callbacks.filter { if case .onCommandReceived = $0 { true } else { false } }.count
        == 2)
    let refusal = try #require(bobLog.callbacks.first)
    guard case .onError(let error, _) = refusal else {
      Issue.record("Bob got \(refusal), not onError")
      return
    }
    #expect(error == .callTooFrequently)
    testbed.advance(by: 1_000)
    #expect(bob.getCmdChannel().sendCommand("3", receiveUser: nil) == .success)
    #expect(
      teacherLog.callbacks.last
        == .onCommandReceived(content: "3", sender: try #require(bob.store.state.myselfID)))
  }
}

/// Callbacks as values, in order.
@MainActor
final class CommandChannelLog {
  var callbacks: [VideoSDKCallback] = []
}
