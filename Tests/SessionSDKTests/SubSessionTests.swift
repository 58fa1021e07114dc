import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import Testing

/// Subsessions (`getsubSessionHelper`, the prepared list, commit, start, join, return, stop,
/// broadcast, help) over the in-process network with the real service: who may, what each
/// member sees of the others, and what every member hears.
@MainActor
struct SubSessionTests {
  let testbed = SessionTestbed(sessionName: "Breakout")
  /// What a share is drawn from.
  final class View {}
  let view = View()

  /// Records what a member hears of subsessions, and keeps the handles it is given.
  final class Listener: VideoSDKDelegate {
    var manager: SubSessionManager?
    var participant: SubSessionParticipant?
    var kits: [SubSessionKit] = []
    var statuses: [SubSessionStatus] = []
    var broadcasts: [String] = []
    var helpRequests: [SubSessionUserHelpRequestHandler] = []
    var helpResults: [SubSessionHelpResult] = []
    var updates: [String] = []
    var joined: [[UserID]] = []
    var left: [[UserID]] = []
    var video: [[UserID]] = []
    var shares: [(UserID, ShareStatus)] = []
    var chats: [String] = []

    func onSubSessionStatusChanged(_ status: SubSessionStatus, subSession: [SubSessionKit]) {
      statuses.append(status)
      kits = subSession
    }
    func onSubSessionManagerHandle(_ manager: SubSessionManager?) { self.manager = manager }
    func onSubSessionParticipantHandle(_ participant: SubSessionParticipant?) {
      self.participant = participant
    }
    func onSubSessionUsersUpdate(_ subSessionKit: SubSessionKit) {
      updates.append(subSessionKit.getSubSessionName() ?? "?")
    }
    func onBroadcastMessageFromMainSession(_ message: String, userName: String) {
      broadcasts.append("\(userName): \(message)")
    }
    func onSubSessionUserHelpRequestHandler(_ handler: SubSessionUserHelpRequestHandler) {
      helpRequests.append(handler)
    }
    func onSubSessionUserHelpRequestResult(_ result: SubSessionHelpResult) {
      helpResults.append(result)
    }
    func onUserJoin(_ helper: UserHelper?, users: [User]?) {
      joined.append(users?.map(\.id) ?? [])
    }
    func onUserLeave(_ helper: UserHelper?, users: [User]?) {
      left.append(users?.map(\.id) ?? [])
    }
    func onUserVideoStatusChanged(_ helper: VideoHelper?, user: [User]?) {
      video.append(user?.map(\.id) ?? [])
    }
    func onUserShareStatusChanged(
      _ helper: ShareHelper?, user: User?, shareAction: ShareAction?
    ) {
      if let user, let status = shareAction?.getShareStatus() { shares.append((user.id, status)) }
    }
    func onChatNewMessageNotify(_ helper: ChatHelper?, message: ChatMessageInfo?) {
      chats.append(message?.content ?? "")
    }
  }

  struct Member {
    let sdk: VideoSDK
    let listener: Listener
    var id: UserID { sdk.store.state.myselfID ?? 0 }
    func remoteIDs() -> [UserID] { sdk.getSession()?.getRemoteUsers()?.map(\.id) ?? [] }
  }

  func member(_ name: String, role: TokenRole = .participant) -> Member {
    let listener = Listener()
    let sdk = testbed.makeSDK()
    sdk.delegate = listener
    sdk.joinSession(testbed.context(name, role: role))
    testbed.run()
    return Member(sdk: sdk, listener: listener)
  }

  /// A teacher (host) with four students, the subsessions "Group 1" and "Group 2" committed
  /// and started.
  func classInGroups() throws -> (teacher: Member, students: [Member]) {
    let teacher = member("Teacher", role: .host)
    let students = ["Ada", "Bob", "Cy", "Di"].map { member($0) }
    let helper = try #require(teacher.sdk.getsubSessionHelper())
    #expect(helper.addSubSession(toPreList: ["Group 1", "Group 2"]) == .success)
    #expect(helper.commitSubSessionList() == .success)
    testbed.run()
    let manager = try #require(teacher.listener.manager)
    #expect(manager.startSubSession() == .success)
    testbed.run()
    return (teacher, students)
  }

  @Test func theTeacherSplitsTheClassAndCallsItBack() throws {
    let (teacher, students) = try classInGroups()
    let (ada, bob, cy, di) = (students[0], students[1], students[2], students[3])
    for member in [teacher] + students {
      #expect(member.listener.statuses == [.committed, .started])
      #expect(member.listener.kits.map { $0.getSubSessionName() } == ["Group 1", "Group 2"])
      #expect(member.listener.participant != nil)
    }
    #expect(teacher.listener.manager?.isSubSessionStarted() == true)
    #expect(ada.listener.manager == nil, "a participant gets no manager handle")
    #expect(ada.sdk.getsubSessionHelper() == nil, "nor a helper")

    // Ada and Bob join Group 1, Cy Group 2; Di stays in the main session.
    let kits = ada.listener.kits
    #expect(kits[0].joinSubSession() == .success)
    testbed.run()
    #expect(bob.listener.kits[0].joinSubSession() == .success)
    #expect(cy.listener.kits[1].joinSubSession() == .success)
    testbed.run()
    #expect(ada.remoteIDs() == [bob.id])
    #expect(cy.remoteIDs().isEmpty)
    #expect(di.remoteIDs() == [teacher.id])
    #expect(teacher.remoteIDs() == [di.id])
    // Ada left everyone behind, then met Bob.
    #expect(ada.listener.left.last == [teacher.id, bob.id, cy.id, di.id])
    #expect(ada.listener.joined.last == [bob.id])
    #expect(di.listener.left.suffix(3).flatMap { $0 }.sorted() == [ada.id, bob.id, cy.id])
    #expect(ada.sdk.getSessionType() == .sub && di.sdk.getSessionType() == .main)
    #expect(di.sdk.getSession()?.user(withID: ada.id)?.isInSubSession() == true)
    #expect(Set(teacher.listener.updates) == ["Group 1", "Group 2"])
    #expect(kits[0].getSubSessionUserList()?.map { $0.getUserName() } == ["Ada", "Bob"])

    // Each place hears its own: Cy's camera reaches nobody else, Ada's chat reaches Bob only.
    let diVideo = di.listener.video.count
    #expect(cy.sdk.getVideoHelper().startVideo() == .success)
    testbed.run()
    #expect(di.listener.video.count == diVideo)
    #expect(ada.listener.video.allSatisfy { !$0.contains(cy.id) })
    #expect(ada.sdk.getChatHelper().SendChatToAll("in group 1") == .success)
    testbed.run()
    #expect(bob.listener.chats == ["in group 1"])
    #expect(di.listener.chats.isEmpty && teacher.listener.chats.isEmpty)

    // The teacher's broadcast reaches every subsession, not the main session.
    #expect(teacher.listener.manager?.broadcastMessage("Five minutes left") == .success)
    testbed.run()
    for member in [ada, bob, cy] {
      #expect(member.listener.broadcasts == ["Teacher: Five minutes left"])
    }
    #expect(di.listener.broadcasts.isEmpty)

    // Help: Ada asks first and is heard; Cy, asking meanwhile, finds the host busy.
    #expect(ada.listener.participant?.requestForHelp() == .success)
    testbed.run()
    #expect(cy.listener.participant?.requestForHelp() == .success)
    testbed.run()
    #expect(ada.listener.helpResults == [.idle])
    #expect(cy.listener.helpResults == [.busy])
    let request = try #require(teacher.listener.helpRequests.first)
    #expect(teacher.listener.helpRequests.count == 1)
    #expect(request.getRequestUserName() == "Ada")
    #expect(request.getRequestSubSessionName() == "Group 1")
    #expect(request.joinSubSessionByUserRequest() == .success)
    testbed.run()
    #expect(ada.remoteIDs() == [teacher.id, bob.id])
    #expect(ada.listener.joined.last == [teacher.id])
    #expect(request.ignore() == .invalidParameter, "already answered")
    // In Ada's group the teacher is already there.
    #expect(bob.listener.participant?.requestForHelp() == .success)
    testbed.run()
    #expect(bob.listener.helpResults == [.hostAlreadyInSubSession])

    // Bob returns on his own; then the teacher calls everyone back.
    #expect(bob.listener.participant?.returnToMainSession() == .success)
    testbed.run()
    #expect(bob.remoteIDs() == [di.id])
    #expect(teacher.listener.manager?.stopSubSession() == .success)
    testbed.run()
    for member in [teacher] + students {
      #expect(member.listener.statuses.last == .stopped)
      #expect(member.listener.participant == nil)
      #expect(member.remoteIDs().count == 4)
      #expect(member.sdk.getSessionType() == .main)
    }
    #expect(teacher.listener.manager?.isSubSessionStarted() == false)
    testbed.assertConverged()
  }

  @Test func eachRefusalHasTheSDKsCodeAndChangesNothing() throws {
    let teacher = member("Teacher", role: .host)
    let ada = member("Ada")
    let helper = try #require(teacher.sdk.getsubSessionHelper())
    // The prepared list: empty, repeated, too long, too many names are refused whole.
    #expect(helper.commitSubSessionList() == .invalidParameter, "nothing prepared")
    #expect(helper.addSubSession(toPreList: [""]) == .invalidParameter)
    #expect(helper.addSubSession(toPreList: ["A", "A"]) == .invalidParameter)
    #expect(
      helper.addSubSession(toPreList: [String(repeating: "x", count: 65)]) == .invalidParameter)
    #expect(
      helper.addSubSession(toPreList: (1...51).map { "Group \($0)" }) == .invalidParameter)
    #expect(helper.getSubSessionPreList() == [])
    #expect(helper.addSubSession(toPreList: (1...50).map { "Group \($0)" }) == .success)
    #expect(helper.addSubSession(toPreList: ["Group 51"]) == .invalidParameter)
    #expect(helper.removeSubSession(fromPreList: ["Nope"]) == .invalidParameter)
    #expect(helper.clearSubSessionPreList() == .success)
    #expect(helper.withdrawSubSessionList() == .wrongUsage, "nothing committed")

    // A list committed, withdrawn, and a new one started: the old kits join nothing.
    #expect(helper.addSubSession(toPreList: ["Old"]) == .success)
    #expect(helper.commitSubSessionList() == .success)
    testbed.run()
    let oldKits = ada.listener.kits
    #expect(helper.getCommittedSubSessionList()?.map { $0.getSubSessionName() } == ["Old"])
    #expect(oldKits[0].joinSubSession() == .wrongUsage, "not started")
    #expect(helper.withdrawSubSessionList() == .success)
    testbed.run()
    #expect(ada.listener.statuses == [.committed, .withdrawn])
    #expect(teacher.listener.manager == nil, "the withdrawal takes the handle back")
    #expect(helper.addSubSession(toPreList: ["New"]) == .success)
    #expect(helper.commitSubSessionList() == .success)
    testbed.run()
    let manager = try #require(teacher.listener.manager)
    #expect(manager.startSubSession() == .success)
    testbed.run()
    #expect(manager.startSubSession() == .wrongUsage, "already started")
    #expect(oldKits[0].joinSubSession() == .invalidParameter, "withdrawn")
    #expect(helper.addSubSession(toPreList: ["Later"]) == .success)
    #expect(helper.commitSubSessionList() == .wrongUsage, "not while started")
    #expect(manager.broadcastMessage("") == .invalidParameter)
    #expect(
      manager.broadcastMessage(String(repeating: "b", count: 513)) == .invalidParameter)
    let participant = try #require(ada.listener.participant)
    #expect(participant.returnToMainSession() == .wrongUsage, "not in a subsession")
    #expect(participant.requestForHelp() == .wrongUsage, "not in a subsession")

    // A participant's calls: no helper, and a kept manager handle has no rights.
    #expect(ada.sdk.getsubSessionHelper() == nil)
    let userHelper = try #require(teacher.sdk.getUserHelper())
    let adaUser = try #require(teacher.sdk.getSession()?.user(withID: ada.id))
    #expect(userHelper.makeManager(adaUser))
    testbed.run()
    let adaHelper = try #require(ada.sdk.getsubSessionHelper(), "a manager gets the helper")
    #expect(userHelper.revokeManager(adaUser) == .success)
    testbed.run()
    #expect(ada.sdk.getsubSessionHelper() == nil)
    #expect(adaHelper.addSubSession(toPreList: ["Mine"]) == .sessionNoRights)
    #expect(adaHelper.withdrawSubSessionList() == .sessionNoRights)
    testbed.assertConverged()
    #expect(testbed.serviceState()?.subSessions.list.map(\.name) == ["New"])
  }

  @Test func aRequestWaitingForAHostWhoHandedOverBlocksNobody() throws {
    let (teacher, students) = try classInGroups()
    let (ada, bob, cy) = (students[0], students[1], students[2])
    #expect(ada.listener.kits[0].joinSubSession() == .success)
    #expect(cy.listener.kits[1].joinSubSession() == .success)
    testbed.run()
    #expect(ada.listener.participant?.requestForHelp() == .success)
    testbed.run()
    let unanswered = try #require(teacher.listener.helpRequests.first)
    // The teacher hands the host role to Bob before answering.
    let bobUser = try #require(teacher.sdk.getSession()?.user(withID: bob.id))
    #expect(teacher.sdk.getUserHelper().makeHost(bobUser))
    testbed.run()
    // Cy's request reaches the new host instead of finding it busy.
    #expect(cy.listener.participant?.requestForHelp() == .success)
    testbed.run()
    #expect(cy.listener.helpResults == [.idle])
    #expect(bob.listener.helpRequests.map(\.requester) == [cy.id])
    // The old host's handler answers nothing now.
    #expect(unanswered.ignore() == .sessionNoRights)
    testbed.assertConverged()
  }

  @Test func aShareStopsAtTheBorderAndEachPlaceSharesOnItsOwn() throws {
    let (teacher, students) = try classInGroups()
    let (ada, bob, cy) = (students[0], students[1], students[2])
    // Ada shares in the main session, then joins Group 1: her share stops first.
    #expect(ada.sdk.getShareHelper().startShare(with: view) == .success)
    testbed.run()
    #expect(ada.listener.kits[0].joinSubSession() == .success)
    testbed.run()
    #expect(teacher.listener.shares.map(\.1) == [.started, .stopped])
    #expect(cy.listener.kits[1].joinSubSession() == .success)
    #expect(bob.listener.kits[0].joinSubSession() == .success)
    testbed.run()
    // One share at a time in each place: Group 1 and Group 2 share at once.
    #expect(ada.sdk.getShareHelper().startShare(with: view) == .success)
    #expect(cy.sdk.getShareHelper().startShare(with: view) == .success)
    testbed.run()
    #expect(teacher.sdk.getShareHelper().startShare(with: view) == .success)
    testbed.run()
    #expect(testbed.serviceState()?.shares.count == 3)
    #expect(bob.sdk.getShareHelper().startShare(with: view) == .sessionShareError)
    // Bob saw Ada's share in the main session, then hers in Group 1, and no other.
    #expect(bob.listener.shares.filter { $0.1 == .started }.map(\.0) == [ada.id, ada.id])
    // Stopping brings everyone back: the shares in subsessions stop first.
    #expect(teacher.listener.manager?.stopSubSession() == .success)
    testbed.run()
    #expect(testbed.serviceState()?.shares.keys.sorted() == [teacher.id])
    testbed.assertConverged()
  }
}
