import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import Testing

/// Every test that touches `VideoSDK.shared` lives in this suite (extend it), so that they run
/// one at a time: the shared instance is one object for the whole test process, and two tests
/// initializing, joining or cleaning it up at once would see each other's state.
@MainActor
@Suite("VideoSDK.shared", .serialized)
enum SharedInstanceTests {
  /// Puts the shared instance back to before `initialize`, whatever an earlier test (or an
  /// earlier failure) left behind: no delegate, no observer, not in a session, not initialized.
  static func resetSharedInstance() {
    let sdk = VideoSDK.shared
    sdk.delegate = nil
    sdk.callbackObserver = nil
    if sdk.store.state.phase.acceptsSessionEvents { sdk.leaveSession(false) }
    sdk.cleanup()
  }

  /// Waits until `condition` holds, letting other work run: the seed apps hop with
  /// `Task(priority: .background) { await MainActor.run { … } }`, and such a task starts on the
  /// global executor at background priority, which a busy machine may not schedule for a while
  /// (measured: up to ~5,000 main-actor yields with two cores busy). So the wait is bounded by
  /// time, not by a number of yields, and sleeps between checks so that the task gets a thread.
  ///
  /// - Returns: Whether the condition held before the deadline.
  @discardableResult
  static func settle(
    timeout: Duration = .seconds(60), until condition: () -> Bool
  ) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while !condition() {
      guard clock.now < deadline else { return false }
      await Task.yield()
      if !condition() { try? await Task.sleep(for: .milliseconds(1)) }
    }
    return true
  }
}

extension SharedInstanceTests {
  /// Seed 000's view model, verbatim but for the names (as in Examples/QuickStart), on the
  /// shared instance with the real service: the `Task` hops included.
  @MainActor
  @Suite("Seed 000 on the shared instance and the real service")
  struct QuickStartOnTheSharedInstance {
    @Test func theSeedsTaskHopsSettleDeterministically() async throws {
      SharedInstanceTests.resetSharedInstance()
      defer { SharedInstanceTests.resetSharedInstance() }
      let testbed = SessionTestbed(sessionName: "QuickStart")
      let grace = testbed.join("Grace", role: .host, sessionName: "QuickStart")
      let sdk = VideoSDK.shared
      #expect(sdk.initialize(testbed.initParams()) == .success)
      let recorder = SessionTestSupport.RecordingDelegate()
      recorder.observe(sdk)
      let context = testbed.context("Ada")
      context.videoOption.localVideoOn = true
      context.audioOption.mute = true
      #expect(VideoSDK.shareInstance()?.joinSession(context) != nil)
      let me = try #require(sdk.getSession()?.getMySelf())
      #expect(
        recorder.take() == [
          .onSessionJoin, .onUserJoin([1, 2]), .onUserVideoStatusChanged([2]),
          .onUserAudioStatusChanged([2]), .onCmdChannelConnectResult(true),
        ])

      // The seed's toggleVideo: check the canvas, then hop to the main actor to call the helper.
      for expected in [false, true, false] {
        let videoHelper: VideoHelper = sdk.getVideoHelper()
        if me.getVideoCanvas()?.videoStatus()?.on == true {
          Task(priority: .background) { await MainActor.run { _ = videoHelper.stopVideo() } }
        } else {
          Task(priority: .background) { await MainActor.run { _ = videoHelper.startVideo() } }
        }
        let settled = await SharedInstanceTests.settle {
          me.getVideoCanvas()?.videoStatus()?.on == expected
        }
        #expect(settled)
        #expect(recorder.take() == [.onUserVideoStatusChanged([2])])
      }
      assertConverged([sdk, grace], with: testbed.service, session: "QuickStart")
      #expect(sdk.leaveSession(true) == .success)
      #expect(recorder.take() == [.onSessionLeave(.bySelf), .onSessionLeaveLegacy])
      #expect(testbed.serviceState()?.participants.keys.sorted() == [1])
    }
  }
}
