import Foundation
import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport
import Testing

// This module's own `RecordingDelegate` (SDKUnitTestsLifecycle.swift) shadows the support
// module's; name the one under test explicitly.
private typealias Recorder = SessionTestSupport.RecordingDelegate

@Suite("Test support: recording delegate, recorder and replayer")
struct TestSupportRecordingTests {
  /// The scenario every recording test runs: a password-protected session, a share with an
  /// annotation helper, a tool change, a viewer-annotation change, a subscription over the
  /// limit, a share the service refuses (a race on a manual network), chat, and a leave that
  /// releases a helper. Ada is recorded from before her join.
  struct Scenario {
    let testbed = SessionTestbed(delivery: .manual)
    let grace: VideoSDK
    let carl: VideoSDK
    let ada: VideoSDK
    let byObserver: CallbackRecorder
    let byDelegate: CallbackRecorder
    let sharerView = NSObjectStandIn()
    let videoViews = [NSObjectStandIn(), NSObjectStandIn()]

    init() throws {
      grace = testbed.join("Grace", role: .host) { $0.sessionPassword = "pw" }
      carl = testbed.join("Carl") { $0.sessionPassword = "pw" }
      var limits = SessionLimits()
      limits.maxVideoSubscriptions = 1
      ada = testbed.makeSDK(limits: limits)
      byObserver = CallbackRecorder(ada, source: "scenario")
      byDelegate = CallbackRecorder(ada, path: .delegate)
      try run()
    }

    private func run() throws {
      // Ada joins without the password, then answers the prompt.
      ada.joinSession(testbed.context("Ada"))
      testbed.run()
      let answer = try #require(byDelegate.recordingDelegate.passwordCompletion)
      #expect(answer("pw", false) == .success)
      testbed.run()
      #expect(ada.isInSession())
      let session = try #require(ada.getSession())
      let graceUser = try #require(session.getSessionHost())

      // Grace shares; Ada watches and annotates.
      #expect(grace.getShareHelper().startShare(with: NSObjectStandIn()) == .success)
      testbed.run()
      let action = try #require(graceUser.getShareActionList()?.first)
      #expect(
        action.getShareCanvas()?.subscribe(
          with: sharerView, aspectMode: .letterBox, andResolution: .auto) == .success)
      let helper = try #require(ada.getShareHelper().createAnnotationHelper(sharerView))
      #expect(helper.setToolType(.highLighter) == .success)
      #expect(helper.startAnnotation() == .success)
      testbed.run()
      #expect(grace.getShareHelper().disableViewerAnnotation(true) == .success)
      testbed.run()

      // Two video views with a limit of one: the second fails locally.
      let canvas = try #require(graceUser.getVideoCanvas())
      #expect(
        canvas.subscribe(with: videoViews[0], aspectMode: .original, andResolution: .auto)
          == .success)
      #expect(
        canvas.subscribe(with: videoViews[1], aspectMode: .original, andResolution: .auto)
          == .sessionVideoError)

      // Grace stops; the helper is released. She shares again and Ada holds a fresh helper.
      #expect(grace.getShareHelper().stopShare() == .success)
      testbed.run()
      #expect(grace.getShareHelper().startInAppScreenShare() == .success)
      testbed.run()
      #expect(ada.getShareHelper().createAnnotationHelper(forShareOf: graceUser) != nil)
      #expect(grace.getShareHelper().stopShare() == .success)
      testbed.run()

      // Carl and Ada both start sharing before the service hears either: Ada's is refused.
      #expect(carl.getShareHelper().startShare(with: NSObjectStandIn()) == .success)
      #expect(ada.getShareHelper().startShare(with: NSObjectStandIn()) == .success)
      testbed.run()
      #expect(ada.store.state.lastError == .sessionShareError)

      // Chat, a mute by the host, and a helper still held on Carl's share when Ada leaves.
      #expect(ada.getChatHelper().SendChatToAll("hello") == .success)
      testbed.run()
      #expect(grace.getAudioHelper().muteAudio(session.getMySelf()) == .success)
      testbed.run()
      let carlID = try #require(carl.store.state.myselfID)
      let carlUser = try #require(session.user(withID: carlID))
      #expect(ada.getShareHelper().createAnnotationHelper(forShareOf: carlUser) != nil)
      #expect(ada.leaveSession(false) == .success)
      testbed.run()
      testbed.assertConverged()
    }
  }

  @Test func replayingARecordingIntoADelegateGivesExactlyTheRecordedCallbacks() throws {
    let scenario = try Scenario()
    let recording = scenario.byObserver.recording
    let kinds = Set(recording.callbacks.map(\.name))
    for expected in [
      "onSessionNeedPassword", "onAnnotationToolTypeChanged", "onVideoCanvasSubscribeFail",
      "onFailedToStartShare", "onAnnotationHelperCleanUp",
      "onAnnotationPrivilegeChange(with:shareAction:)", "onChatNewMessageNotify",
    ] {
      #expect(kinds.contains(expected), "the scenario should exercise \(expected)")
    }

    let replayed = Recorder()
    let outcome = replay(recording, into: replayed)
    #expect(outcome.error == nil)
    #expect(replayed.callbacks == recording.callbacks)
    #expect(outcome.callbacks == recording.callbacks)
    #expect(replayed.unrepresentable.isEmpty)
    #expect(outcome.sdk.store.state == scenario.ada.store.state)
  }

  @Test func theDelegatePathAndTheObserverPathRecordTheSame() throws {
    let scenario = try Scenario()
    #expect(!scenario.byObserver.callbacks.isEmpty)
    #expect(scenario.byDelegate.callbacks == scenario.byObserver.callbacks)
    #expect(
      scenario.byDelegate.recording.trace.events == scenario.byObserver.recording.trace.events)
    #expect(
      scenario.byDelegate.recording.recordedCallbacks
        == scenario.byObserver.recording.recordedCallbacks)
  }

  @Test func replayingARecordingIntoAStoreReachesTheSameState() throws {
    let scenario = try Scenario()
    let recording = scenario.byObserver.recording
    let store = recording.makeStore()
    #expect(replay(recording, into: store) == nil)
    #expect(store.state == scenario.ada.store.state)
    #expect(recording.trace.header.source == "scenario")
  }

  @Test func aRecordingStartedMidSessionReplaysFromItsInitialState() throws {
    let testbed = SessionTestbed()
    let grace = testbed.join("Grace", role: .host)
    let ada = testbed.join("Ada")
    let adaID = try #require(ada.store.state.myselfID)
    let graceID = try #require(grace.store.state.myselfID)
    let recorder = CallbackRecorder(grace)
    #expect(ada.getVideoHelper().startVideo() == .success)
    #expect(grace.getShareHelper().startShare(with: NSObjectStandIn()) == .success)
    #expect(ada.leaveSession(false) == .success)
    let recording = recorder.recording
    #expect(
      recording.callbacks == [
        .onUserVideoStatusChanged([adaID]), .onUserShareStatusChanged(graceID, .started, .view),
        .onUserLeave([adaID]),
      ])

    let replayed = Recorder()
    let outcome = replay(recording, into: replayed)
    #expect(outcome.error == nil)
    #expect(replayed.callbacks == recording.callbacks)
    #expect(outcome.sdk.store.state.sharedFacts == grace.store.state.sharedFacts)
    let store = recording.makeStore()
    #expect(replay(recording, into: store) == nil)
    #expect(store.state == grace.store.state)
  }

  @Test func stoppingARecorderGivesTheDelegateSlotBack() {
    let testbed = SessionTestbed()
    let grace = testbed.join("Grace", role: .host)
    let app = Recorder()
    grace.delegate = app
    let recorder = CallbackRecorder(grace, path: .delegate)
    #expect(grace.getVideoHelper().startVideo() == .success)
    recorder.stop()
    #expect(grace.delegate === app)
    #expect(grace.getVideoHelper().stopVideo() == .success)
    #expect(recorder.callbacks.count == 1, "nothing is recorded after stop()")
    #expect(app.callbacks.count == 2, "the app's delegate got both, forwarded then directly")
  }

  @Test func theBundledClassroomTraceReplaysIntoADelegateAsTheMappingDerivesIt() throws {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/sessionsim/Resources/classroom.jsonl")
    let parsed = Trace.parse(try String(contentsOf: url, encoding: .utf8))
    #expect(parsed.error == nil)
    let trace = parsed.trace

    // The pure mapping, event by event, on a plain state.
    var state = SessionState()
    var derived: [VideoSDKCallback] = []
    for applied in trace.events {
      let context = CallbackMapping.Context.capture(before: applied.event, in: state)
      try state.reduce(applied.event)
      derived += CallbackMapping.callbacks(for: applied.event, context: context)
    }

    let replayed = Recorder()
    let outcome = replay(trace, into: replayed)
    #expect(outcome.error == nil)
    #expect(replayed.callbacks == derived)
    #expect(replayed.unrepresentable.isEmpty)
    #expect(outcome.sdk.store.state == state)

    let store = SessionStore()
    #expect(replay(trace, into: store) == nil)
    #expect(store.state == state)
  }

  @Test func aTraceThatStartsAtTheJoinIsReplayedIntoAnInitializedInstance() {
    let snapshot = SessionSnapshot(
      sessionName: "Algebra101", sessionID: "S1", myself: 2,
      participants: [
        Participant(id: 1, name: "Grace", role: .host, joinOrder: 1),
        Participant(id: 2, name: "Ada", joinOrder: 2),
      ])
    let trace = Trace(events: [
      AppliedEvent(
        sequence: 1, timestamp: 0, event: .joinRequested(sessionName: "Algebra101", userName: "Ada")
      ),
      AppliedEvent(sequence: 2, timestamp: 0, event: .sessionJoined(snapshot)),
      AppliedEvent(sequence: 3, timestamp: 0, event: .usersLeft([9])),
    ])
    let replayed = Recorder()
    let outcome = replay(trace, into: replayed)
    #expect(replayed.callbacks == [.onSessionJoin, .onUserJoin([1, 2])])
    #expect(outcome.error == TraceError(line: 4, message: "the instance rejected usersLeft"))
  }

  @Test func aForwardingRecorderPassesEveryCallbackOn() throws {
    let testbed = SessionTestbed()
    let grace = testbed.join("Grace", role: .host)
    let app = Recorder()
    let wrapper = Recorder(forwardingTo: app)
    grace.delegate = wrapper
    let observed = Recorder()
    observed.observe(grace)
    let ada = testbed.join("Ada")
    #expect(ada.getVideoHelper().startVideo() == .success)
    #expect(ada.getChatHelper().SendChatToAll("hi") == .success)
    #expect(grace.getShareHelper().lockShare(true) == .success)
    let adaID = try #require(ada.store.state.myselfID)
    #expect(wrapper.callbacks.count == 4)
    #expect(
      wrapper.callbacks.prefix(2) == [.onUserJoin([adaID]), .onUserVideoStatusChanged([adaID])])
    #expect(app.callbacks == wrapper.callbacks)
    #expect(observed.callbacks == wrapper.callbacks)
    #expect(wrapper.take().count == 4)
    #expect(wrapper.callbacks.isEmpty)
  }
}
