import Foundation
import SessionCore
@_spi(Testing) import SessionSDK
import SessionTransport
import Testing

@Suite("SDK service events and callbacks")
struct SDKUnitTestsEvents {
  /// An instance in session as Ada (2) with Grace (1, host) and Alan (3); sequence 10.
  func joinedRig() throws -> (SDKTestRig, FakeLink) {
    let links = FakeLinkFactory()
    let rig = SDKTestRig(transport: links)
    rig.join()
    let link = try #require(links.last)
    link.deliver(.joined(snapshot(myself: 2, users: classroom, sequence: 10), resumeToken: 1))
    _ = rig.log.take()
    return (rig, link)
  }

  /// The lookahead only warms caches: whatever message it hears of, in whatever state, the
  /// replica, the callbacks and the link stay as they were.
  @Test func lookingAheadChangesNothing() throws {
    let (rig, link) = try joinedRig()
    let lookahead = try #require(link.lookahead, "the instance looks ahead on its link")
    let before = rig.sdk.store.state
    let sent = link.sent.count
    var messages: [ServerMessage] = SDKUnitTestsMapping.oneOfEach.map {
      .events(EventBatch(firstSequence: 11, events: [$0]))
    }
    messages += SDKUnitTestsMapping.oneOfEach.map { .notice($0) }
    messages += [
      .events(EventBatch(firstSequence: 11, events: [])),
      .events(EventBatch(firstSequence: 11, events: [.videoStatusChanged(user: 99, isOn: true)])),
      .events(EventBatch(firstSequence: 11, events: [.videoStatusChanged(user: 3, isOn: true)])),
      // One joiner (the storm's hint), a joiner already present, and two at once.
      .events(
        EventBatch(
          firstSequence: 11, events: [.usersJoined([Participant(id: 9, name: "I", joinOrder: 9)])])),
      .events(
        EventBatch(
          firstSequence: 11, events: [.usersJoined([Participant(id: 3, name: "A", joinOrder: 3)])])),
      .events(
        EventBatch(
          firstSequence: 11,
          events: [
            .usersJoined([
              Participant(id: 10, name: "J", joinOrder: 10),
              Participant(id: 11, name: "K", joinOrder: 11),
            ])
          ])),
      .joinRefused(.sessionJoinFailed), .left(.bySelf), .heartbeat, .commandFailed(1, .wrongUsage),
    ]
    for message in messages { lookahead.linkWillDeliver(message) }
    #expect(rig.sdk.store.state == before)
    #expect(rig.log.take() == [])
    #expect(link.sent.count == sent)
    #expect(!link.isClosed)
    // The next real message still applies.
    link.deliver(
      .events(EventBatch(firstSequence: 11, events: [.videoStatusChanged(user: 3, isOn: true)])))
    #expect(rig.log.take() == [.onUserVideoStatusChanged([3])])
    #expect(rig.sdk.leaveSession(false) == .success)
    link.deliver(.left(.bySelf))
    #expect(link.isClosed && link.lookahead == nil, "a closed link lets its lookahead go")
  }

  @Test func aBatchFiresTheRightCallbacksInOrder() throws {
    let (rig, link) = try joinedRig()
    let delegate = RecordingDelegate(sdk: rig.sdk)
    rig.sdk.delegate = delegate
    let message = ChatMessage(id: "m1", sender: 3, receiver: nil, content: "hi", timestamp: 5)
    let events: [SessionEvent] = [
      .usersJoined([person(4, "Barbara")]),
      .videoStatusChanged(user: 3, isOn: true),
      .audioStatusChanged(user: 3, type: .voip, isMuted: false),
      .activeSpeakersChanged([3]),
      .shareStatusChanged(user: 3, status: .started, kind: .view),
      .annotationStarted(user: 3, shareOwner: 3),
      .annotationPrivilegeChanged(shareOwner: 3, isViewerAnnotationDisabled: true),
      .shareStatusChanged(user: 3, status: .stopped, kind: .view),
      .shareSettingChanged(.multi),
      .managerChanged(user: 4, isManager: true),
      .hostChanged(newHost: 4),
      .nameChanged(user: 3, name: "Alan T."),
      .chatMessageReceived(message),
      .chatMessageDeleted(messageID: "m1", deletedBy: .host),
      .chatPrivilegeChanged(.everyonePublicly),
      .networkStatusChanged(user: 3, quality: .good),
      .usersLeft([3]),
    ]
    link.deliver(.events(EventBatch(firstSequence: 11, events: events)))
    #expect(
      rig.log.take() == [
        .onUserJoin([4]),
        .onUserVideoStatusChanged([3]),
        .onUserAudioStatusChanged([3]),
        .onUserActiveAudioChanged([3]),
        .onUserShareStatusChanged(3, .started, .view),
        .onAnnotationPrivilegeChangeWithUser(3, isEnabled: false),
        .onAnnotationPrivilegeChange(enable: false, shareOwner: 3),
        .onUserShareStatusChanged(3, .stopped, .view),
        .onShareSettingChanged(.multi),
        .onUserManagerChanged(4),
        .onUserHostChanged(4),
        .onUserNameChanged(3),
        .onChatNewMessageNotify(message),
        .onChatMsgDeleteNotification(messageID: "m1", deleteBy: .host),
        .onChatPrivilegeChanged(.everyonePublicly),
        .onUserOverallNetworkStatusChanged(.good, user: 3),
        .onUserLeave([3]),
      ])
    // Getters inside each callback saw the state after its event.
    #expect(
      delegate.lines == [
        "onUserJoin Barbara",
        "video Alan on",
        "audio Alan unmuted",
        "share Alan started",
        "annotationPrivilegeWithUser false Alan",
        "annotationPrivilege false Alan",
        "share Alan stopped",
        "manager Barbara true",
        "host Barbara isHost=true",
        "name Alan T.",
        "chat Alan T.: hi self=false",
        "onUserLeave Alan T.",
      ])
    #expect(rig.sdk.lastServiceSequence == 27)
    #expect(rig.sdk.diagnostics == LinkDiagnostics())
  }

  @Test func duplicateEventsAreDroppedWithoutCallbacks() throws {
    let (rig, link) = try joinedRig()
    let batch = EventBatch(
      firstSequence: 11,
      events: [.videoStatusChanged(user: 1, isOn: true), .videoStatusChanged(user: 3, isOn: true)])
    link.deliver(.events(batch))
    #expect(rig.log.take() == [.onUserVideoStatusChanged([1]), .onUserVideoStatusChanged([3])])
    link.deliver(.events(batch))
    #expect(rig.log.take().isEmpty)
    // An overlapping batch applies only what is new.
    link.deliver(
      .events(
        EventBatch(
          firstSequence: 12,
          events: [
            .videoStatusChanged(user: 3, isOn: true), .videoStatusChanged(user: 1, isOn: false),
          ])))
    #expect(rig.log.take() == [.onUserVideoStatusChanged([1])])
    // Events at or before the snapshot are duplicates too.
    link.deliver(.events(EventBatch(firstSequence: 10, events: [.usersLeft([3])])))
    #expect(rig.log.take().isEmpty)
    #expect(rig.sdk.diagnostics.duplicateEventsDropped == 4)
    #expect(rig.sdk.lastServiceSequence == 13)
  }

  @Test func aGapIsLoggedAndTheEventsStillApply() throws {
    let (rig, link) = try joinedRig()
    link.deliver(
      .events(EventBatch(firstSequence: 15, events: [.videoStatusChanged(user: 1, isOn: true)])))
    #expect(rig.log.take() == [.onUserVideoStatusChanged([1])])
    #expect(rig.sdk.diagnostics.sequenceGaps == 1)
    #expect(rig.sdk.lastServiceSequence == 15)
  }

  @Test func eventsTheReplicaRejectsAreCountedAndFireNothing() throws {
    let (rig, link) = try joinedRig()
    link.deliver(
      .events(EventBatch(firstSequence: 11, events: [.videoStatusChanged(user: 99, isOn: true)])))
    #expect(rig.log.take().isEmpty)
    #expect(rig.sdk.diagnostics.rejectedEvents == 1)
    link.deliver(.events(EventBatch(firstSequence: 12, events: [.leaveRequested])))
    #expect(rig.sdk.diagnostics.ignoredMessages == 1)
    #expect(rig.sdk.isInSession())
  }

  @Test func noticesApplyUnnumbered() throws {
    let (rig, link) = try joinedRig()
    link.deliver(.notice(.hostAskedUnmute(by: 1)))
    #expect(rig.log.take() == [.onHostAskUnmute])
    #expect(rig.sdk.store.state.unmuteRequestedBy == 1)
    #expect(rig.sdk.lastServiceSequence == 10)
  }

  @Test func commandFailedIsAnErrorWithTheCommandID() throws {
    let (rig, link) = try joinedRig()
    #expect(rig.sdk.getVideoHelper().startVideo() == .success)
    let id = try #require(link.lastCommandID)
    link.deliver(.commandFailed(id, .sessionNoRights))
    #expect(rig.log.take() == [.onError(.sessionNoRights, detail: Int(id))])
    #expect(rig.sdk.store.state.lastError == .sessionNoRights)
    #expect(rig.sdk.store.state.participants[2]?.isVideoOn == false)
  }

  @Test func aRefusedShareAlsoFiresFailedToStartShare() throws {
    let (rig, link) = try joinedRig()
    #expect(rig.sdk.getShareHelper().startShare(with: NSObjectStandIn()) == .success)
    let id = try #require(link.lastCommandID)
    link.deliver(.commandFailed(id, .sessionShareError))
    #expect(
      rig.log.take() == [.onError(.sessionShareError, detail: Int(id)), .onFailedToStartShare(2)])
  }

  @Test func leaversStillAnswerWithWhatWasLastKnown() throws {
    let (rig, link) = try joinedRig()
    let delegate = RecordingDelegate(sdk: rig.sdk)
    rig.sdk.delegate = delegate
    let alan = try #require(rig.sdk.getSession()?.user(withID: 3))
    link.deliver(.events(EventBatch(firstSequence: 11, events: [.usersLeft([3])])))
    #expect(delegate.leftUsers.first === alan)
    #expect(alan.getName() == "Alan")
    #expect(!alan.isPresent)
    #expect(rig.sdk.getSession()?.getRemoteUsers()?.map { $0.getID() } == [1])
  }

  @Test func aLeaverKeepsTheCanvasItHadBesideWhatWasLastKnown() throws {
    let (rig, link) = try joinedRig()
    let alan = try #require(rig.sdk.getSession()?.user(withID: 3))
    let canvas = try #require(alan.getVideoCanvas())
    #expect(alan.getVideoCanvas() === canvas)
    link.deliver(.events(EventBatch(firstSequence: 11, events: [.usersLeft([3])])))
    #expect(alan.getVideoCanvas() === canvas)
    #expect(alan.getName() == "Alan")
    // A handle that never had a canvas gets one after leaving, and keeps it too.
    let ada = try #require(rig.sdk.getSession()?.user(withID: 1))
    link.deliver(.events(EventBatch(firstSequence: 12, events: [.usersLeft([1])])))
    #expect(ada.getName() != nil)
    let late = try #require(ada.getVideoCanvas())
    #expect(ada.getVideoCanvas() === late)
  }

  @Test func aSharerWhoLeavesStopsTheirShareFirst() throws {
    let (rig, link) = try joinedRig()
    link.deliver(
      .events(
        EventBatch(
          firstSequence: 11, events: [.shareStatusChanged(user: 3, status: .started, kind: .camera)]
        )))
    _ = rig.log.take()
    link.deliver(.events(EventBatch(firstSequence: 12, events: [.usersLeft([3])])))
    #expect(rig.log.take() == [.onUserShareStatusChanged(3, .stopped, .camera), .onUserLeave([3])])
  }

  @Test func shareActionsReportStatusAndType() throws {
    let (rig, link) = try joinedRig()
    let delegate = RecordingDelegate(sdk: rig.sdk)
    rig.sdk.delegate = delegate
    link.deliver(
      .events(
        EventBatch(
          firstSequence: 11,
          events: [
            .shareStatusChanged(user: 3, status: .started, kind: .camera),
            .shareStatusChanged(user: 3, status: .paused, kind: .camera),
          ])))
    let action = try #require(delegate.shareActions.first)
    #expect(delegate.shareActions.count == 2 && delegate.shareActions[1] === action)
    #expect(action.getShareStatus() == .pause)
    #expect(action.getShareType() == .camera)
    #expect(action.isAnnotationPrivilegeEnabled())
    #expect(action.getShareSourceId() == 3)
    let alan = try #require(rig.sdk.getSession()?.user(withID: 3))
    #expect(alan.getShareActionList()?.first === action)
    link.deliver(
      .events(
        EventBatch(
          firstSequence: 13, events: [.shareStatusChanged(user: 3, status: .stopped, kind: .camera)]
        )))
    #expect(action.getShareStatus() == .stop)
    #expect(alan.getShareActionList()?.isEmpty == true)
  }

  @Test func callsFromInsideACallbackRunAfterIt() throws {
    let (rig, link) = try joinedRig()
    let delegate = RecordingDelegate(sdk: rig.sdk)
    rig.sdk.delegate = delegate
    delegate.onUserJoinHook = { [rig] in
      // A second join is refused; its error must follow, not interrupt, this callback.
      _ = rig.join()
    }
    link.deliver(
      .events(
        EventBatch(
          firstSequence: 11,
          events: [.usersJoined([person(4, "Barbara")]), .videoStatusChanged(user: 4, isOn: true)]
        )))
    #expect(
      rig.log.take() == [
        .onUserJoin([4]), .onUserVideoStatusChanged([4]),
        .onError(.sessionAlreadyInProgress, detail: 0),
      ])
  }

  @Test func theDelegateIsHeldWeakly() throws {
    let (rig, link) = try joinedRig()
    do {
      let delegate = RecordingDelegate(sdk: rig.sdk)
      rig.sdk.delegate = delegate
    }
    #expect(rig.sdk.delegate == nil)
    link.deliver(
      .events(EventBatch(firstSequence: 11, events: [.videoStatusChanged(user: 1, isOn: true)])))
    #expect(rig.log.take() == [.onUserVideoStatusChanged([1])])
  }

  @Test func replayDrivesAnInstanceWithoutAService() {
    let sdk = VideoSDK()
    let log = CallbackLog()
    sdk.callbackObserver = { log.callbacks.append($0) }
    let trace: [SessionEvent] = [
      .initialized,
      .joinRequested(sessionName: "Algebra101", userName: "Ada"),
      .sessionJoined(snapshot(myself: 2, users: classroom)),
      .videoStatusChanged(user: 2, isOn: true),
      .sessionLeft(reason: .endByHost),
    ]
    for event in trace { #expect(sdk.replay(event)) }
    #expect(!sdk.replay(.usersLeft([9])))
    #expect(
      log.callbacks == [
        .onSessionJoin, .onUserJoin([1, 2, 3]), .onCmdChannelConnectResult(true),
        .onUserVideoStatusChanged([2]), .onSessionLeave(.endByHost), .onSessionLeaveLegacy,
      ])
  }
}

@Suite("Callback mapping")
struct SDKUnitTestsMapping {
  @Test func ownJoinReportsEveryoneInJoinOrderOnlyWhenJoining() {
    let event = SessionEvent.sessionJoined(
      snapshot(myself: 3, users: [classroom[2], classroom[1], classroom[0]]))
    #expect(
      CallbackMapping.callbacks(for: event, context: .init(phaseBefore: .joining))
        == [.onSessionJoin, .onUserJoin([1, 2, 3]), .onCmdChannelConnectResult(true)])
    #expect(CallbackMapping.callbacks(for: event, context: .init(phaseBefore: .inSession)).isEmpty)
  }

  @Test func leavingReleasesHelpersBeforeSessionLeave() {
    let context = CallbackMapping.Context(annotationHelperOwners: [5, 3])
    #expect(
      CallbackMapping.callbacks(for: .sessionLeft(reason: .endByHost), context: context) == [
        .onAnnotationHelperCleanUp(shareOwner: 3), .onAnnotationHelperCleanUp(shareOwner: 5),
        .onSessionLeave(.endByHost), .onSessionLeaveLegacy,
      ])
  }

  @Test func aStoppedShareWithAHelperCleansItUp() {
    let context = CallbackMapping.Context(annotationHelperOwners: [3])
    #expect(
      CallbackMapping.callbacks(
        for: .shareStatusChanged(user: 3, status: .stopped, kind: .view), context: context) == [
          .onUserShareStatusChanged(3, .stopped, .view), .onAnnotationHelperCleanUp(shareOwner: 3),
        ])
    #expect(
      CallbackMapping.callbacks(
        for: .shareStatusChanged(user: 3, status: .paused, kind: .view), context: context) == [
          .onUserShareStatusChanged(3, .paused, .view)
        ])
  }

  /// One event of every kind, for checks that must cover them all.
  static let oneOfEach: [SessionEvent] = [
    .initialized, .cleanedUp, .joinRequested(sessionName: "room", userName: "Ada"),
    .sessionJoined(
      SessionSnapshot(
        sessionName: "room", sessionID: "S1", myself: 2, participants: [], sequence: 1)),
    .joinFailed(error: .sessionJoinFailed), .leaveRequested, .sessionLeft(reason: .bySelf),
    .usersJoined([person(4, "Edsger")]), .usersLeft([3]),
    .videoStatusChanged(user: 3, isOn: true),
    .audioStatusChanged(user: 3, type: .voip, isMuted: false), .activeSpeakersChanged([3]),
    .hostAskedUnmute(by: 1), .shareStatusChanged(user: 3, status: .stopped, kind: .view),
    .shareSettingChanged(.multi), .hostChanged(newHost: 3),
    .managerChanged(user: 3, isManager: true),
    .nameChanged(user: 3, name: "Alan T."), .annotationStarted(user: 2, shareOwner: 3),
    .annotationStopped(user: 2, shareOwner: 3),
    .annotationCleared(user: 2, shareOwner: 3, type: .all),
    .annotationPrivilegeChanged(shareOwner: 3, isViewerAnnotationDisabled: true),
    .chatMessageReceived(
      ChatMessage(id: "m1", sender: 3, receiver: nil, content: "hi", timestamp: 1)),
    .chatMessageDeleted(messageID: "m1", deletedBy: .selfSender), .chatPrivilegeChanged(.noOne),
    .networkStatusChanged(user: 3, quality: .good), .errorOccurred(error: .wrongUsage, detail: 0),
  ]

  @Test func eventsOnTheFastPathFireTheSameCallbacksWhateverTheContext() {
    #expect(Set(Self.oneOfEach.map(\.name)).count == Self.oneOfEach.count)
    let full = CallbackMapping.Context(
      phaseBefore: .inSession, myself: 3,
      endedShares: [ActiveShare(owner: 3, startOrder: 1)],
      annotationHelperOwners: [1, 3])
    let fast = Self.oneOfEach.filter(VideoSDK.appliesWithoutBookkeeping)
    #expect(fast.count >= 10, "the steady-state events take the fast path")
    for event in fast {
      #expect(
        CallbackMapping.callbacks(for: event, context: full)
          == CallbackMapping.callbacks(for: event, context: .init()), "\(event.name)")
    }
    // What the fast path skips: the lifecycle, leavers, shares and annotation.
    for event in Self.oneOfEach where !fast.contains(event) {
      #expect(
        SDKEngineBookkeeping.kinds.contains(event.name), "\(event.name) is neither")
    }
  }

  @Test func contextCapturesTheSharesOfLeavers() throws {
    var state = try SessionState(snapshot: snapshot(myself: 2, users: classroom))
    state.apply(.shareStatusChanged(user: 3, status: .started, kind: .view))
    let event = SessionEvent.usersLeft([1, 3])
    let context = CallbackMapping.Context.capture(
      before: event, in: state, annotationHelperOwners: [3])
    #expect(context.endedShares.map(\.owner) == [3])
    #expect(
      CallbackMapping.callbacks(for: event, context: context) == [
        .onUserShareStatusChanged(3, .stopped, .view), .onAnnotationHelperCleanUp(shareOwner: 3),
        .onUserLeave([1, 3]),
      ])
  }

  /// The engine captures from its store, field by field: the same context as from the
  /// whole state, for every event that reads the state before it applies.
  @Test func contextFromAStoreIsTheContextFromItsState() throws {
    var state = try SessionState(snapshot: snapshot(myself: 2, users: classroom))
    state.apply(.shareStatusChanged(user: 3, status: .started, kind: .view))
    let store = SessionStore(state: state)
    let events: [SessionEvent] = [
      .usersLeft([1, 3]), .usersLeft([1]),
      .sessionJoined(snapshot(myself: 2, users: classroom)),
      .annotationPrivilegeChanged(shareOwner: 3, isViewerAnnotationDisabled: true),
      .videoStatusChanged(user: 1, isOn: true),
    ]
    for event in events {
      #expect(
        CallbackMapping.Context.capture(before: event, from: store, annotationHelperOwners: [3])
          == CallbackMapping.Context.capture(before: event, in: state, annotationHelperOwners: [3]),
        "\(event.name)")
    }
  }

  @Test func ownersDoNotHearTheirOwnAnnotationPrivilegeChange() {
    let event = SessionEvent.annotationPrivilegeChanged(
      shareOwner: 2, isViewerAnnotationDisabled: true)
    #expect(CallbackMapping.callbacks(for: event, context: .init(myself: 2)).isEmpty)
    #expect(CallbackMapping.callbacks(for: event, context: .init(myself: 3)).count == 2)
  }

  @Test func callbacksRoundTripThroughJSON() throws {
    let callbacks: [VideoSDKCallback] = [
      .onSessionJoin, .onUserJoin([1, 2]), .onError(.sessionNoRights, detail: 4),
      .onUserShareStatusChanged(3, .started, .inAppScreen),
      .onChatNewMessageNotify(
        ChatMessage(id: "m", sender: 1, receiver: 2, content: "x", timestamp: 1)),
    ]
    let data = try JSONEncoder().encode(callbacks)
    #expect(try JSONDecoder().decode([VideoSDKCallback].self, from: data) == callbacks)
  }
}

@Suite("User handles")
struct SDKUnitTestsUserHandles {
  /// Keeps the `User` objects that callbacks hand out.
  final class HandleDelegate: VideoSDKDelegate {
    var joined: [User] = []
    var videoChanged: [User] = []
    var left: [User] = []

    func onUserJoin(_ helper: UserHelper?, users: [User]?) { joined += users ?? [] }
    func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) {
      videoChanged += user ?? []
    }
    func onUserLeave(_ helper: UserHelper?, users: [User]?) { left += users ?? [] }
  }

  private func participant(_ id: UInt32, _ name: String, order: UInt64) -> Participant {
    Participant(id: UserID(id), name: name, role: .participant, joinOrder: order)
  }

  /// Ids close together, one below the first, and two far away (beyond what the dense table
  /// takes) all keep one handle each while present, and a fresh one after they leave.
  @Test(arguments: [
    [UInt32(1_001), 1_002, 1_003], [999, 5], [4_000_000_000, 70_000], [1_002, 4_000_000_000],
  ])
  func callbacksHandOutOneHandlePerPresentUserWhateverTheIds(others: [UInt32]) {
    let sdk = VideoSDK()
    let delegate = HandleDelegate()
    sdk.delegate = delegate
    let me = participant(1_000, "Grace", order: 1)
    #expect(sdk.replay(.initialized))
    #expect(sdk.replay(.joinRequested(sessionName: "Algebra101", userName: "Grace")))
    #expect(sdk.replay(.sessionJoined(snapshot(myself: 1_000, users: [me]))))
    let newcomers = others.enumerated().map { participant($1, "User \($1)", order: UInt64($0 + 2)) }
    #expect(sdk.replay(.usersJoined(newcomers)))
    for id in others { #expect(sdk.replay(.videoStatusChanged(user: UserID(id), isOn: true))) }
    for id in others { #expect(sdk.replay(.videoStatusChanged(user: UserID(id), isOn: false))) }

    let joined = Dictionary(
      uniqueKeysWithValues: delegate.joined.map { ($0.id, ObjectIdentifier($0)) })
    #expect(delegate.videoChanged.count == 2 * others.count)
    for user in delegate.videoChanged {
      #expect(joined[user.id] == ObjectIdentifier(user), "a second handle for \(user.id)")
      #expect(sdk.getSession()?.user(withID: user.id) === user)
      #expect(user.getUserName() == "User \(user.id.rawValue)")
    }

    let leaver = UserID(others[0])
    #expect(sdk.replay(.usersLeft([leaver])))
    #expect(delegate.left.map(\.id) == [leaver])
    #expect(delegate.left.first?.getUserName() == "User \(leaver.rawValue)", "last known")
    #expect(sdk.getSession()?.user(withID: leaver) == nil)
    let back = participant(leaver.rawValue, "Back", order: 99)
    #expect(sdk.replay(.usersJoined([back])))
    #expect(delegate.joined.last?.id == leaver)
    #expect(delegate.joined.last !== delegate.left.first, "a user who left keeps the old handle")
    #expect(delegate.joined.last?.getUserName() == "Back")
  }

  /// One-user callbacks hand out the list each handle is kept in: a list the delegate keeps
  /// names the same user ever after, whoever the next callbacks name.
  @Test func aListTheDelegateKeepsNeverChanges() {
    let delegate = ListKeeper()
    let sdk = joinedClassroom(as: 1, delegate: delegate)
    for id in [UserID(2), 3, 2, 1] {
      #expect(sdk.replay(.videoStatusChanged(user: id, isOn: true)))
      #expect(sdk.replay(.videoStatusChanged(user: id, isOn: false)))
    }
    #expect(delegate.lists.map { $0.map(\.id) } == [[2], [2], [3], [3], [2], [2], [1], [1]])
    let handle = sdk.getSession()?.user(withID: 2)
    #expect(delegate.lists[0][0] === handle && delegate.lists[4][0] === handle)
  }

  /// The handles belong to their session: after it ends, the ended session still answers with
  /// the handles its callbacks gave out, and the next session gives out new ones.
  @Test func handlesStayWithTheSessionThatGaveThemOut() {
    let delegate = HandleDelegate()
    let sdk = joinedClassroom(as: 1, delegate: delegate)
    #expect(sdk.replay(.videoStatusChanged(user: 2, isOn: true)))
    guard let first = sdk.getSession(), let ada = delegate.videoChanged.first else {
      Issue.record("no session or no callback")
      return
    }
    #expect(first.user(withID: 2) === ada)
    #expect(sdk.replay(.sessionLeft(reason: .bySelf)))
    #expect(sdk.getSession() == nil)
    #expect(first.user(withID: 2) === ada, "the ended session keeps its handles")
    #expect(ada.getUserName() == "Ada", "last known")

    #expect(sdk.replay(.joinRequested(sessionName: "Algebra101", userName: "Grace")))
    #expect(sdk.replay(.sessionJoined(snapshot(myself: 1, users: classroom))))
    #expect(sdk.replay(.videoStatusChanged(user: 2, isOn: false)))
    let second = sdk.getSession()
    #expect(second !== first)
    #expect(delegate.videoChanged.count == 2)
    #expect(delegate.videoChanged.last !== ada, "a new session, a new handle")
    #expect(second?.user(withID: 2) === delegate.videoChanged.last)
    #expect(first.user(withID: 2) === ada)
  }

  /// What an instance hands out (helpers, the session, users, a password completion) outlives
  /// it and answers as if uninitialized, with the handles its callbacks gave out.
  @Test func objectsHandedOutOutliveTheirInstance() throws {
    let delegate = HandleDelegate()
    var sdk: VideoSDK? = joinedClassroom(as: 1, delegate: delegate)
    #expect(sdk?.replay(.videoStatusChanged(user: 2, isOn: true)) == true)
    let session = try #require(sdk?.getSession())
    let videoHelper = try #require(sdk?.getVideoHelper())
    let audioHelper = try #require(sdk?.getAudioHelper())
    let chatHelper = try #require(sdk?.getChatHelper())
    let ada = try #require(delegate.videoChanged.first)
    weak let released = sdk
    sdk = nil
    #expect(released == nil, "nothing the instance handed out keeps it alive")

    #expect(videoHelper.startVideo() == .uninitialize)
    #expect(audioHelper.startAudio() == .uninitialize)
    #expect(chatHelper.SendChatToAll("hi") == .uninitialize)
    #expect(session.user(withID: 2) === ada, "the session keeps its handles")
    #expect(ada.getUserName() == "Ada")
    #expect(session.getRemoteUsers() == nil)
  }

  /// Users and share actions outlive their session: once nothing holds the session, they
  /// answer as last known.
  @Test func usersAndShareActionsOutliveTheirSession() throws {
    let delegate = HandleDelegate()
    let sdk = joinedClassroom(as: 1, delegate: delegate)
    #expect(sdk.replay(.shareStatusChanged(user: 2, status: .started, kind: .view)))
    #expect(sdk.replay(.videoStatusChanged(user: 2, isOn: true)))
    let ada = try #require(delegate.videoChanged.first)
    var session = sdk.getSession()
    let action = try #require(session?.user(withID: 2)?.getShareActionList()?.first)
    weak let released = session
    #expect(sdk.replay(.sessionLeft(reason: .bySelf)))
    session = nil
    #expect(released == nil, "nothing a user or a share action holds keeps the session alive")
    #expect(ada.getUserName() == "Ada")
    #expect(ada.isPresent == false)
    #expect(ada.getShareActionList()?.isEmpty == true)
    #expect(action.getShareKind() == .view, "as last reported")
    #expect(action.getShareCanvas() == nil)
  }

  /// An instance in the classroom session as `myself`, replayed, reporting to `delegate` (which
  /// the caller keeps: the instance holds it weakly).
  /// A joiner's callbacks go out in one pass (a join storm's fan-out): in the mapping's order,
  /// to the observer and the delegate, one handle for all of them, and only the media that
  /// started at the join.
  @Test(arguments: [(false, false), (true, false), (false, true), (true, true)])
  func oneJoinerFiresTheMediaItStartedWithOneHandle(videoOn: Bool, audioOn: Bool) {
    let delegate = JoinKeeper()
    let sdk = joinedClassroom(as: 1, delegate: delegate)
    delegate.calls.removeAll()
    let log = CallbackLog()
    sdk.callbackObserver = { log.callbacks.append($0) }
    let audio = audioOn ? AudioStatus(type: .voip, isMuted: true) : .disconnected
    #expect(sdk.replay(.usersJoined([person(4, "Barbara", videoOn: videoOn, audio: audio)])))
    let expected: [VideoSDKCallback] =
      [.onUserJoin([4])] + (videoOn ? [.onUserVideoStatusChanged([4])] : [])
      + (audioOn ? [.onUserAudioStatusChanged([4])] : [])
    #expect(log.callbacks == expected)
    #expect(
      log.callbacks
        == CallbackMapping.callbacks(
          for: .usersJoined([person(4, "Barbara", videoOn: videoOn, audio: audio)]),
          context: CallbackMapping.Context()))
    #expect(delegate.calls.map(\.0) == expected.map(\.name))
    let handle = sdk.getSession()?.user(withID: 4)
    #expect(handle != nil && delegate.calls.allSatisfy { $0.1.count == 1 && $0.1[0] === handle })
  }

  /// The delegate is read again for each of a joiner's callbacks: one that a callback replaces
  /// or lets go hears nothing more, and its successor hears the rest.
  @Test func aJoinersLaterCallbacksGoToTheDelegateOfTheMoment() {
    let first = JoinKeeper()
    let second = JoinKeeper()
    let sdk = joinedClassroom(as: 1, delegate: first)
    first.calls.removeAll()
    first.onJoin = { [weak sdk] in sdk?.delegate = second }
    let barbara = person(
      4, "Barbara", videoOn: true, audio: AudioStatus(type: .voip, isMuted: false))
    #expect(sdk.replay(.usersJoined([barbara])))
    #expect(first.calls.map(\.0) == ["onUserJoin"])
    #expect(second.calls.map(\.0) == ["onUserVideoStatusChanged", "onUserAudioStatusChanged"])

    // Let go of inside its `onUserJoin`: the weak reference is empty for the next callbacks.
    var kept: JoinKeeper? = JoinKeeper()
    weak let released = kept
    kept?.onJoin = { kept = nil }
    sdk.delegate = kept
    let log = CallbackLog()
    sdk.callbackObserver = { log.callbacks.append($0) }
    #expect(sdk.replay(.usersJoined([person(5, "Claude", videoOn: true)])))
    #expect(released == nil && sdk.delegate == nil)
    #expect(log.callbacks == [.onUserJoin([5]), .onUserVideoStatusChanged([5])])
    #expect(second.calls.count == 2, "the replaced delegate hears nothing more")
  }

  private func joinedClassroom(as myself: UInt32, delegate: any VideoSDKDelegate) -> VideoSDK {
    let sdk = VideoSDK()
    sdk.delegate = delegate
    #expect(sdk.replay(.initialized))
    #expect(sdk.replay(.joinRequested(sessionName: "Algebra101", userName: "Grace")))
    #expect(sdk.replay(.sessionJoined(snapshot(myself: myself, users: classroom))))
    return sdk
  }

  /// Keeps the name and the users of each join, video and audio callback, in order.
  final class JoinKeeper: VideoSDKDelegate {
    var calls: [(String, [User])] = []
    var onJoin: (() -> Void)?
    func onUserJoin(_ helper: UserHelper?, users: [User]?) {
      calls.append(("onUserJoin", users ?? []))
      onJoin?()
    }
    func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) {
      calls.append(("onUserVideoStatusChanged", user ?? []))
    }
    func onUserAudioStatusChanged(_ helper: AudioHelper?, user: [User]?) {
      calls.append(("onUserAudioStatusChanged", user ?? []))
    }
  }

  /// Keeps every list that video callbacks hand out.
  final class ListKeeper: VideoSDKDelegate {
    var lists: [[User]] = []
    func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) {
      lists.append(user ?? [])
    }
  }
}

/// The events whose callbacks or local state need more than the event: the lifecycle, users
/// leaving, shares, annotation and errors.
enum SDKEngineBookkeeping {
  static let kinds: Set<String> = [
    "initialized", "cleanedUp", "joinRequested", "sessionJoined", "joinFailed",
    "leaveRequested", "sessionLeft", "usersLeft", "shareStatusChanged", "annotationStarted",
    "annotationStopped", "annotationCleared", "annotationPrivilegeChanged", "errorOccurred",
  ]
}
