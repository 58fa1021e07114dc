import Foundation
import InProcessTransport
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
    #expect(
      replayed.callbacks == [
        .onSessionJoin, .onUserJoin([1, 2]), .onCmdChannelConnectResult(true),
      ])
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
    #expect(wrapper.callbacks.count == 5)
    #expect(
      wrapper.callbacks.prefix(3) == [
        .onUserJoin([adaID]), .onUserAudioStatusChanged([adaID]),
        .onUserVideoStatusChanged([adaID]),
      ])
    #expect(app.callbacks == wrapper.callbacks)
    #expect(observed.callbacks == wrapper.callbacks)
    #expect(wrapper.take().count == 5)
    #expect(wrapper.callbacks.isEmpty)
  }

  /// Every `VideoSDKCallback` case, by its delegate method's name.
  static let everyCallbackName: Set<String> = [
    "onSessionJoin", "onSessionLeave(_:)", "onSessionLeave()", "onError", "onSessionNeedPassword",
    "onSessionPasswordWrong", "onSystemPermissionRequired", "onUserJoin", "onUserLeave",
    "onUserHostChanged", "onUserManagerChanged", "onUserNameChanged", "onUserActiveAudioChanged",
    "onUserVideoStatusChanged", "onUserOverallNetworkStatusChanged", "onVideoCanvasSubscribeFail",
    "onUserAudioStatusChanged", "onHostAskUnmute", "onUserShareStatusChanged",
    "onFailedToStartShare", "onShareSettingChanged", "onShareContentChanged",
    "onAnnotationHelperCleanUp", "onAnnotationPrivilegeChange(with:shareAction:)",
    "onAnnotationPrivilegeChange(_:shareOwner:)", "onAnnotationToolTypeChanged",
    "onChatNewMessageNotify", "onChatMsgDeleteNotification", "onChatPrivilegeChanged",
    "onCmdChannelConnectResult", "onCommandReceived", "onSpotlightVideoChanged",
    "onSubSessionStatusChanged", "onSubSessionManagerHandle", "onSubSessionParticipantHandle",
    "onSubSessionUsersUpdate", "onBroadcastMessageFromMainSession",
    "onSubSessionUserHelpRequestHandler", "onSubSessionUserHelpRequestResult",
    "onCloudRecordingStatus", "onUserRecordAgreementNotification",
  ]

  /// A hand-made recording that fires every callback once or more: the events' callbacks come
  /// from the pure mapping (with a helper held on user 1's share), the local ones are placed by
  /// hand where the SDK would fire them.
  static func everyCallbackRecording() throws -> SessionRecording {
    let message = ChatMessage(id: "m1", sender: 3, receiver: nil, content: "hi", timestamp: 0)
    let events: [SessionEvent] = [
      .initialized,
      .joinRequested(sessionName: "Algebra101", userName: "Ada"),
      .sessionJoined(
        SessionSnapshot(
          sessionName: "Algebra101", sessionID: "S1", myself: 2,
          participants: [
            Participant(id: 1, name: "Grace", role: .host, joinOrder: 1),
            Participant(id: 2, name: "Ada", joinOrder: 2),
            Participant(id: 3, name: "Alan", joinOrder: 3),
            Participant(id: 4, name: "Edsger", joinOrder: 4),
          ])),
      .usersJoined([Participant(id: 5, name: "Barbara", joinOrder: 5)]),
      .nameChanged(user: 3, name: "Alan T."),
      .managerChanged(user: 3, isManager: true),
      .activeSpeakersChanged([1]),
      .videoStatusChanged(user: 4, isOn: true),
      .networkStatusChanged(user: 4, quality: .good),
      .audioStatusChanged(user: 4, type: .voip, isMuted: true),
      .hostAskedUnmute(by: 1),
      .shareStatusChanged(user: 1, status: .started, kind: .view),
      .shareSettingChanged(.multi),
      .annotationPrivilegeChanged(shareOwner: 1, isViewerAnnotationDisabled: true),
      .chatMessageReceived(message),
      .chatMessageDeleted(messageID: "m1", deletedBy: .host),
      .chatPrivilegeChanged(.noOne),
      .shareStatusChanged(user: 1, status: .stopped, kind: .view),
      .errorOccurred(error: .sessionNoRights, detail: 5),
      .commandReceived(sender: 3, content: "raise-hand"),
      .spotlightChanged([4]),
      .managerChanged(user: 2, isManager: true),
      .subSession(.statusChanged(.committed, [SubSession(id: "1-1", name: "Group 1")])),
      .subSession(.statusChanged(.started, [SubSession(id: "1-1", name: "Group 1")])),
      .subSession(.userMoved(4, to: "1-1")),
      .subSession(.broadcast(from: 1, message: "five minutes")),
      .subSession(.helpRequested(by: 4, subSessionID: "1-1")),
      .subSession(.helpResult(.busy)),
      .subSession(.statusChanged(.stopped, [SubSession(id: "1-1", name: "Group 1")])),
      .recording(.statusChanged(.start)),
      .recording(.agreed(2)),
      .recording(.statusChanged(.stop)),
      .hostChanged(newHost: 3),
      .usersLeft([5]),
      .sessionLeft(reason: .kickByHost),
    ]
    let locals: [Int: [VideoSDKCallback]] = [
      2: [.onSessionNeedPassword, .onSessionPasswordWrong],
      12: [
        .onAnnotationToolTypeChanged(shareOwner: 1, .arrow),
        .onShareContentChanged(1, .view),
        .onVideoCanvasSubscribeFail(.hasSubscribeExceededLimit, user: 4),
        .onFailedToStartShare(2),
        .onSystemPermissionRequired(.camera),
      ],
    ]
    var state = SessionState()
    var trace = Trace()
    var recorded: [RecordedCallback] = []
    for (index, event) in events.enumerated() {
      let sequence = UInt64(index + 1)
      let helpers: Set<UserID> = (13...18).contains(sequence) ? [1] : []
      let context = CallbackMapping.Context.capture(
        before: event, in: state, annotationHelperOwners: helpers)
      try state.reduce(event)
      trace.events.append(AppliedEvent(sequence: sequence, timestamp: 0, event: event))
      for callback in CallbackMapping.callbacks(for: event, context: context)
        + locals[index + 1, default: []]
      {
        recorded.append(RecordedCallback(callback, afterSequence: sequence))
      }
    }
    return SessionRecording(trace: trace, recordedCallbacks: recorded)
  }

  @Test func everyCallbackKindRoundTripsThroughTheRecordingDelegate() throws {
    let recording = try Self.everyCallbackRecording()
    let names = Set(recording.callbacks.map(\.name))
    #expect(Self.everyCallbackName.subtracting(names).isEmpty, "not fired")
    #expect(names.subtracting(Self.everyCallbackName).isEmpty, "not listed")
    let replayed = Recorder()
    let outcome = replay(recording, into: replayed)
    #expect(outcome.error == nil)
    #expect(replayed.callbacks == recording.callbacks)
    #expect(replayed.unrepresentable.isEmpty)
    #expect(replayed.passwordCompletion?("pw", false) == .wrongUsage, "no service in a replay")

    // The same through a forwarding recorder and the observer path.
    let inner = Recorder()
    let outer = Recorder(forwardingTo: inner)
    replay(recording, into: outer)
    #expect(inner.callbacks == recording.callbacks)
    #expect(outer.callbacks == recording.callbacks)
  }
}
