import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import Testing

// Every permission rule, both ways, through the SDK's own API over the real service: what each
// call returns (an error code or a Bool, as the SDK types it), that a refusal changes nothing
// anywhere and fires nothing (or, for a rule only the service can judge, fires `onError`), and
// that every replica still equals the service afterwards.

private typealias Recorder = SessionTestSupport.RecordingDelegate

/// Who calls.
enum Seat: String, Sendable, CaseIterable {
  /// Hana, role_type 1, first in: host.
  case host
  /// Max, role_type 1: manager.
  case manager
  /// Pat, role_type 0.
  case participant
  /// Quinn, role_type 0: the usual target, and a sharer when a rule needs one.
  case target
}

/// What a call came to.
enum Outcome: Equatable, Sendable, CustomStringConvertible {
  /// An SDK call that returns an error code.
  case code(VideoSDKError)
  /// An SDK call that returns a Bool.
  case bool(Bool)
  /// Accepted by the replica's rules (success or true), then refused by the service: the
  /// caller gets `onError` with this code.
  case refusedByService(VideoSDKError)

  var description: String {
    switch self {
    case .code(let error): error.sdkName
    case .bool(let value): "\(value)"
    case .refusedByService(let error): "refused by the service: \(error.sdkName)"
    }
  }

  var isRefusal: Bool {
    switch self {
    case .code(let error): error != .success
    case .bool(let value): !value
    case .refusedByService: true
    }
  }
}

/// Four members of one session, each with a callback log.
@MainActor
final class PermissionRoom {
  let testbed = SessionTestbed(sessionName: "Rules")
  private(set) var members: [Seat: VideoSDK] = [:]
  fileprivate private(set) var logs: [Seat: Recorder] = [:]
  /// A chat message id a setup left for the call.
  var messageID = ""

  init() {
    for (seat, name, role) in [
      (Seat.host, "Hana", TokenRole.host), (.manager, "Max", .host),
      (.participant, "Pat", .participant), (.target, "Quinn", .participant),
    ] {
      let sdk = testbed.join(name, role: role)
      let log = Recorder()
      log.observe(sdk)
      members[seat] = sdk
      logs[seat] = log
    }
  }

  func sdk(_ seat: Seat) -> VideoSDK { members[seat] ?? VideoSDK() }
  func id(_ seat: Seat) -> UserID { sdk(seat).store.state.myselfID ?? 0 }

  /// `seat`'s `User` as `caller`'s instance sees it.
  func user(_ seat: Seat, seenBy caller: VideoSDK) -> User? {
    caller.getSession()?.user(withID: id(seat))
  }

  /// `caller`'s annotation helper on `owner`'s share.
  func helper(on owner: Seat, for caller: VideoSDK) -> AnnotationHelper? {
    caller.getShareHelper().createAnnotationHelper(forShareOf: user(owner, seenBy: caller))
  }

  /// Forgets every callback so far.
  func clearLogs() {
    for log in logs.values { _ = log.take() }
  }

  func callbacks(_ seat: Seat) -> [VideoSDKCallback] { logs[seat]?.take() ?? [] }

  // MARK: Setups

  func share(_ seat: Seat) {
    #expect(sdk(seat).getShareHelper().startShare(with: NSObjectStandIn()) == .success)
  }

  func setShare(_ setting: ShareSetting) {
    let share: ShareHelper = sdk(.host).getShareHelper()
    switch setting {
    case .locked: #expect(share.lockShare(true) == .success)
    case .multi: #expect(share.enableMultiShare(true) == .success)
    default: break
    }
  }

  func mute(_ seat: Seat) {
    let target = sdk(seat)
    #expect(target.getAudioHelper().muteAudio(target.getSession()?.getMySelf()) == .success)
  }

  func chat(from seat: Seat) {
    #expect(sdk(seat).getChatHelper().SendChatToAll("hello from \(seat)") == .success)
    messageID = sdk(seat).store.state.chatMessages.last?.id ?? ""
  }

  func setPrivilege(_ privilege: ChatPrivilege) {
    #expect(sdk(.host).getChatHelper().changeChatPrivilege(privilege) == .success)
  }
}

/// One rule, one way.
struct PermissionCase: Sendable, CustomTestStringConvertible {
  let name: String
  let seat: Seat
  let expected: Outcome
  let setup: @MainActor @Sendable (PermissionRoom) -> Void
  let act: @MainActor @Sendable (PermissionRoom, VideoSDK) -> Outcome

  init(
    _ name: String, by seat: Seat, _ expected: Outcome,
    setup: @escaping @MainActor @Sendable (PermissionRoom) -> Void = { _ in },
    act: @escaping @MainActor @Sendable (PermissionRoom, VideoSDK) -> Outcome
  ) {
    self.name = name
    self.seat = seat
    self.expected = expected
    self.setup = setup
    self.act = act
  }

  var testDescription: String { "\(name) by \(seat.rawValue) → \(expected)" }
}

private let success = Outcome.code(.success)
private let noRights = Outcome.code(.sessionNoRights)

/// Media, roles and names.
let mediaAndRoleRules: [PermissionCase] = [
  // Video and audio of one's own: anyone.
  .init("startVideo", by: .participant, success) { .code($1.getVideoHelper().startVideo()) },
  .init("stopVideo", by: .participant, success) { .code($1.getVideoHelper().stopVideo()) },
  .init("stopAudio", by: .participant, success) { .code($1.getAudioHelper().stopAudio()) },
  .init("muteAudio(self)", by: .participant, success) { room, sdk in
    .code(sdk.getAudioHelper().muteAudio(room.user(.participant, seenBy: sdk)))
  },
  // Muting others: host and managers.
  .init("muteAudio(other)", by: .participant, noRights) { room, sdk in
    .code(sdk.getAudioHelper().muteAudio(room.user(.target, seenBy: sdk)))
  },
  .init("muteAudio(other)", by: .manager, success) { room, sdk in
    .code(sdk.getAudioHelper().muteAudio(room.user(.target, seenBy: sdk)))
  },
  .init("muteAudio(other)", by: .host, success) { room, sdk in
    .code(sdk.getAudioHelper().muteAudio(room.user(.manager, seenBy: sdk)))
  },
  // Unmuting oneself: allowed unless the host forbade it, which only the service knows.
  .init(
    "unmuteAudio(self)", by: .participant, success, setup: { $0.mute(.participant) },
    act: { room, sdk in
      .code(sdk.getAudioHelper().unmuteAudio(room.user(.participant, seenBy: sdk)))
    }),
  .init(
    "unmuteAudio(self) after allowAudioUnmutedBySelf(false)", by: .participant,
    .refusedByService(.sessionNoRights),
    setup: { room in
      room.mute(.participant)
      #expect(room.sdk(.host).getAudioHelper().allowAudioUnmutedBySelf(false) == .success)
    },
    act: { room, sdk in
      .code(sdk.getAudioHelper().unmuteAudio(room.user(.participant, seenBy: sdk)))
    }),
  .init(
    "unmuteAudio(self) after allowAudioUnmutedBySelf(false)", by: .manager, success,
    setup: { room in
      room.mute(.manager)
      #expect(room.sdk(.host).getAudioHelper().allowAudioUnmutedBySelf(false) == .success)
    },
    act: { room, sdk in .code(sdk.getAudioHelper().unmuteAudio(room.user(.manager, seenBy: sdk))) }),
  // Unmuting others only asks them, and only host and managers may ask.
  .init(
    "unmuteAudio(other)", by: .participant, noRights, setup: { $0.mute(.target) },
    act: { room, sdk in
      .code(sdk.getAudioHelper().unmuteAudio(room.user(.target, seenBy: sdk)))
    }),
  .init(
    "unmuteAudio(other)", by: .manager, success, setup: { $0.mute(.target) },
    act: { room, sdk in
      let result = sdk.getAudioHelper().unmuteAudio(room.user(.target, seenBy: sdk))
      #expect(room.callbacks(.target) == [.onHostAskUnmute])
      #expect(room.sdk(.target).store.state.unmuteRequestedBy == room.id(.manager))
      return .code(result)
    }),
  .init("muteAllAudio", by: .participant, noRights) {
    .code($1.getAudioHelper().muteAllAudio(true))
  },
  .init("muteAllAudio", by: .manager, success) { .code($1.getAudioHelper().muteAllAudio(true)) },
  .init("muteAllAudio", by: .host, success) { .code($1.getAudioHelper().muteAllAudio(false)) },
  .init("unmuteAllAudio", by: .participant, noRights) {
    .code($1.getAudioHelper().unmuteAllAudio())
  },
  .init("unmuteAllAudio", by: .manager, success) { .code($1.getAudioHelper().unmuteAllAudio()) },
  .init("allowAudioUnmutedBySelf", by: .participant, noRights) {
    .code($1.getAudioHelper().allowAudioUnmutedBySelf(false))
  },
  .init("allowAudioUnmutedBySelf", by: .host, success) {
    .code($1.getAudioHelper().allowAudioUnmutedBySelf(false))
  },

  // Roles: host only, never on oneself. Bool returns but revokeManager's error code.
  .init("makeHost", by: .participant, .bool(false)) { room, sdk in
    .bool(sdk.getUserHelper().makeHost(room.user(.target, seenBy: sdk)))
  },
  .init("makeHost", by: .manager, .bool(false)) { room, sdk in
    .bool(sdk.getUserHelper().makeHost(room.user(.target, seenBy: sdk)))
  },
  .init("makeHost", by: .host, .bool(true)) { room, sdk in
    let result = sdk.getUserHelper().makeHost(room.user(.target, seenBy: sdk))
    #expect(room.sdk(.target).store.state.isHost)
    return .bool(result)
  },
  .init("makeHost(self)", by: .host, .bool(false)) { room, sdk in
    .bool(sdk.getUserHelper().makeHost(room.user(.host, seenBy: sdk)))
  },
  .init("makeManager", by: .participant, .bool(false)) { room, sdk in
    .bool(sdk.getUserHelper().makeManager(room.user(.target, seenBy: sdk)))
  },
  .init("makeManager", by: .manager, .bool(false)) { room, sdk in
    .bool(sdk.getUserHelper().makeManager(room.user(.target, seenBy: sdk)))
  },
  .init("makeManager", by: .host, .bool(true)) { room, sdk in
    .bool(sdk.getUserHelper().makeManager(room.user(.target, seenBy: sdk)))
  },
  .init("makeManager(a manager)", by: .host, .bool(false)) { room, sdk in
    .bool(sdk.getUserHelper().makeManager(room.user(.manager, seenBy: sdk)))
  },
  .init("revokeManager", by: .participant, noRights) { room, sdk in
    .code(sdk.getUserHelper().revokeManager(room.user(.manager, seenBy: sdk)))
  },
  .init("revokeManager", by: .host, success) { room, sdk in
    .code(sdk.getUserHelper().revokeManager(room.user(.manager, seenBy: sdk)))
  },
  .init("revokeManager(a participant)", by: .host, .code(.wrongUsage)) { room, sdk in
    .code(sdk.getUserHelper().revokeManager(room.user(.target, seenBy: sdk)))
  },
  .init("revokeManager(self)", by: .host, .code(.invalidParameter)) { room, sdk in
    .code(sdk.getUserHelper().revokeManager(room.user(.host, seenBy: sdk)))
  },
  .init("removeUser", by: .participant, .bool(false)) { room, sdk in
    .bool(sdk.getUserHelper().removeUser(room.user(.target, seenBy: sdk)))
  },
  .init("removeUser", by: .manager, .bool(false)) { room, sdk in
    .bool(sdk.getUserHelper().removeUser(room.user(.target, seenBy: sdk)))
  },
  .init("removeUser", by: .host, .bool(true)) { room, sdk in
    let result = sdk.getUserHelper().removeUser(room.user(.target, seenBy: sdk))
    #expect(room.callbacks(.target) == [.onSessionLeave(.kickByHost), .onSessionLeaveLegacy])
    return .bool(result)
  },
  .init("removeUser(self)", by: .host, .bool(false)) { room, sdk in
    .bool(sdk.getUserHelper().removeUser(room.user(.host, seenBy: sdk)))
  },
  .init("reclaimHost", by: .participant, .refusedByService(.sessionNoRights)) {
    .bool($1.getUserHelper().reclaimHost())
  },
  .init("reclaimHost", by: .manager, .bool(true)) { room, sdk in
    let result = sdk.getUserHelper().reclaimHost()
    #expect(room.sdk(.host).store.state.hostID == room.id(.manager))
    return .bool(result)
  },
  .init("reclaimHost", by: .host, .bool(false)) { .bool($1.getUserHelper().reclaimHost()) },
  .init("changeName(self)", by: .participant, .bool(true)) { room, sdk in
    .bool(
      sdk.getUserHelper().changeName("Patricia", withUser: room.user(.participant, seenBy: sdk)))
  },
  .init("changeName(other)", by: .participant, .bool(false)) { room, sdk in
    .bool(sdk.getUserHelper().changeName("Q", withUser: room.user(.target, seenBy: sdk)))
  },
  .init("changeName(other)", by: .manager, .bool(true)) { room, sdk in
    .bool(sdk.getUserHelper().changeName("Q", withUser: room.user(.target, seenBy: sdk)))
  },
  .init("changeName(empty)", by: .host, .bool(false)) { room, sdk in
    .bool(sdk.getUserHelper().changeName("", withUser: room.user(.host, seenBy: sdk)))
  },
]

/// Share, annotation and chat.
let shareAndChatRules: [PermissionCase] = [
  // Starting a share: who, and against the share setting and the other shares.
  .init("startShare", by: .participant, success) {
    .code($1.getShareHelper().startShare(with: NSObjectStandIn()))
  },
  .init(
    "startShare (locked)", by: .participant, noRights, setup: { $0.setShare(.locked) },
    act: {
      .code($1.getShareHelper().startShare(with: NSObjectStandIn()))
    }),
  .init(
    "startInAppScreenShare (locked)", by: .participant, noRights, setup: { $0.setShare(.locked) },
    act: {
      .code($1.getShareHelper().startInAppScreenShare())
    }),
  .init(
    "startShare (locked)", by: .manager, success, setup: { $0.setShare(.locked) },
    act: {
      .code($1.getShareHelper().startShare(with: NSObjectStandIn()))
    }),
  .init(
    "startShare (another participant shares)", by: .participant, .code(.sessionShareError),
    setup: { $0.share(.target) },
    act: { .code($1.getShareHelper().startShare(with: NSObjectStandIn())) }),
  .init(
    "startShare (takes over a participant's)", by: .manager, success, setup: { $0.share(.target) },
    act: {
      room, sdk in
      let result = sdk.getShareHelper().startShare(with: NSObjectStandIn())
      #expect(room.sdk(.host).store.state.shares.keys.sorted() == [room.id(.manager)])
      return .code(result)
    }),
  .init(
    "startShare (a manager shares)", by: .host, .code(.sessionShareError),
    setup: { $0.share(.manager) },
    act: { .code($1.getShareHelper().startShare(with: NSObjectStandIn())) }),
  .init(
    "startShare (multi-share)", by: .participant, success,
    setup: { room in
      room.setShare(.multi)
      room.share(.target)
    }, act: { .code($1.getShareHelper().startShare(with: NSObjectStandIn())) }),
  .init(
    "startShare (already sharing)", by: .participant, .code(.sessionShareError),
    setup: { $0.share(.participant) },
    act: { .code($1.getShareHelper().startShare(with: NSObjectStandIn())) }),
  .init("startShareCamera (video off)", by: .participant, .code(.sessionShareCameraVideoNotStart)) {
    .code($1.getShareHelper().startShareCamera(NSObjectStandIn()))
  },
  .init(
    "startShareCamera (video on)", by: .participant, success,
    setup: { #expect($0.sdk(.participant).getVideoHelper().startVideo() == .success) },
    act: { .code($1.getShareHelper().startShareCamera(NSObjectStandIn())) }),
  // Pause, resume, stop: one's own share, in the right state.
  .init("pauseShare (not sharing)", by: .participant, .code(.sessionShareYouAreNotSharing)) {
    .code($1.getShareHelper().pauseShare())
  },
  .init(
    "pauseShare", by: .participant, success, setup: { $0.share(.participant) },
    act: {
      .code($1.getShareHelper().pauseShare())
    }),
  .init(
    "pauseShare (paused)", by: .participant, .code(.wrongUsage),
    setup: { room in
      room.share(.participant)
      #expect(room.sdk(.participant).getShareHelper().pauseShare() == .success)
    }, act: { .code($1.getShareHelper().pauseShare()) }),
  .init(
    "resumeShare (not paused)", by: .participant, .code(.wrongUsage),
    setup: { $0.share(.participant) },
    act: {
      .code($1.getShareHelper().resumeShare())
    }),
  .init(
    "resumeShare", by: .participant, success,
    setup: { room in
      room.share(.participant)
      #expect(room.sdk(.participant).getShareHelper().pauseShare() == .success)
    }, act: { .code($1.getShareHelper().resumeShare()) }),
  .init(
    "stopShare (not sharing)", by: .host, .code(.sessionShareYouAreNotSharing),
    setup: { $0.share(.target) },
    act: {
      .code($1.getShareHelper().stopShare())
    }),
  .init(
    "stopShare", by: .participant, success, setup: { $0.share(.participant) },
    act: {
      .code($1.getShareHelper().stopShare())
    }),
  // Share settings: host and managers.
  .init("lockShare", by: .participant, noRights) { .code($1.getShareHelper().lockShare(true)) },
  .init("lockShare", by: .manager, success) { .code($1.getShareHelper().lockShare(true)) },
  .init("lockShare", by: .host, success) { .code($1.getShareHelper().lockShare(true)) },
  .init("enableMultiShare", by: .participant, noRights) {
    .code($1.getShareHelper().enableMultiShare(true))
  },
  .init("enableMultiShare", by: .manager, success) {
    .code($1.getShareHelper().enableMultiShare(true))
  },
  // Viewer annotation: the share owner only.
  .init(
    "disableViewerAnnotation (not the owner)", by: .host, .code(.sessionShareYouAreNotSharing),
    setup: { $0.share(.target) }, act: { .code($1.getShareHelper().disableViewerAnnotation(true)) }),
  .init(
    "disableViewerAnnotation (owner)", by: .target, success, setup: { $0.share(.target) },
    act: {
      .code($1.getShareHelper().disableViewerAnnotation(true))
    }),
  // Annotating: anyone, unless the owner turned viewers off.
  .init(
    "startAnnotation", by: .participant, success, setup: { $0.share(.target) },
    act: { room, sdk in
      .code(room.helper(on: .target, for: sdk)?.startAnnotation() ?? .unknown)
    }),
  .init(
    "startAnnotation (viewers off)", by: .participant, noRights,
    setup: { room in
      room.share(.target)
      #expect(room.sdk(.target).getShareHelper().disableViewerAnnotation(true) == .success)
    },
    act: { room, sdk in .code(room.helper(on: .target, for: sdk)?.startAnnotation() ?? .unknown) }),
  .init(
    "startAnnotation (viewers off, owner)", by: .target, success,
    setup: { room in
      room.share(.target)
      #expect(room.sdk(.target).getShareHelper().disableViewerAnnotation(true) == .success)
    },
    act: { room, sdk in .code(room.helper(on: .target, for: sdk)?.startAnnotation() ?? .unknown) }),
  // Clearing: all by host, manager or owner; others by the owner; mine by anyone.
  .init(
    "clear(all)", by: .participant, noRights, setup: { $0.share(.target) },
    act: { room, sdk in
      .code(room.helper(on: .target, for: sdk)?.clear(.all) ?? .unknown)
    }),
  .init(
    "clear(all)", by: .manager, success, setup: { $0.share(.target) },
    act: { room, sdk in
      .code(room.helper(on: .target, for: sdk)?.clear(.all) ?? .unknown)
    }),
  .init(
    "clear(all)", by: .host, success, setup: { $0.share(.target) },
    act: { room, sdk in
      .code(room.helper(on: .target, for: sdk)?.clear(.all) ?? .unknown)
    }),
  .init(
    "clear(all)", by: .target, success, setup: { $0.share(.target) },
    act: { room, sdk in
      .code(room.helper(on: .target, for: sdk)?.clear(.all) ?? .unknown)
    }),
  .init(
    "clear(others)", by: .host, noRights, setup: { $0.share(.target) },
    act: { room, sdk in
      .code(room.helper(on: .target, for: sdk)?.clear(.others) ?? .unknown)
    }),
  .init(
    "clear(others)", by: .target, success, setup: { $0.share(.target) },
    act: { room, sdk in
      .code(room.helper(on: .target, for: sdk)?.clear(.others) ?? .unknown)
    }),
  .init(
    "clear(mine)", by: .participant, success, setup: { $0.share(.target) },
    act: { room, sdk in
      .code(room.helper(on: .target, for: sdk)?.clear(.mine) ?? .unknown)
    }),
  // Chat: the privilege decides, moderators are exempt.
  .init("SendChatToAll", by: .participant, success) {
    .code($1.getChatHelper().SendChatToAll("hi"))
  },
  .init(
    "SendChatToAll (no one)", by: .participant, noRights, setup: { $0.setPrivilege(.noOne) },
    act: {
      .code($1.getChatHelper().SendChatToAll("hi"))
    }),
  .init(
    "SendChatToAll (no one)", by: .manager, success, setup: { $0.setPrivilege(.noOne) },
    act: {
      .code($1.getChatHelper().SendChatToAll("hi"))
    }),
  .init("SendChatToUser", by: .participant, success) { room, sdk in
    let result = sdk.getChatHelper().SendChatToUser(
      room.user(.target, seenBy: sdk), Content: "psst")
    #expect(room.callbacks(.target).count == 1)
    #expect(room.callbacks(.manager).isEmpty, "a private message reaches the two users only")
    return .code(result)
  },
  .init(
    "SendChatToUser (publicly only)", by: .participant, noRights,
    setup: { $0.setPrivilege(.everyonePublicly) },
    act: { room, sdk in
      .code(sdk.getChatHelper().SendChatToUser(room.user(.target, seenBy: sdk), Content: "psst"))
    }),
  .init(
    "SendChatToUser (publicly only)", by: .manager, success,
    setup: { $0.setPrivilege(.everyonePublicly) },
    act: { room, sdk in
      .code(sdk.getChatHelper().SendChatToUser(room.user(.target, seenBy: sdk), Content: "psst"))
    }),
  .init("SendChatToUser (self)", by: .participant, .code(.invalidParameter)) { room, sdk in
    .code(sdk.getChatHelper().SendChatToUser(room.user(.participant, seenBy: sdk), Content: "me"))
  },
  .init(
    "deleteChatMessage (own)", by: .participant, success, setup: { $0.chat(from: .participant) },
    act: { room, sdk in
      .code(sdk.getChatHelper().deleteChatMessage(room.messageID))
    }),
  .init(
    "deleteChatMessage (other's)", by: .participant, noRights, setup: { $0.chat(from: .target) },
    act: { room, sdk in
      .code(sdk.getChatHelper().deleteChatMessage(room.messageID))
    }),
  .init(
    "deleteChatMessage (other's)", by: .manager, success, setup: { $0.chat(from: .target) },
    act: { room, sdk in
      .code(sdk.getChatHelper().deleteChatMessage(room.messageID))
    }),
  .init("changeChatPrivilege", by: .participant, noRights) {
    .code($1.getChatHelper().changeChatPrivilege(.noOne))
  },
  .init("changeChatPrivilege", by: .manager, success) {
    .code($1.getChatHelper().changeChatPrivilege(.everyonePublicly))
  },
  .init("changeChatPrivilege (unknown)", by: .host, .code(.invalidParameter)) {
    .code($1.getChatHelper().changeChatPrivilege(.unknown))
  },
]

@MainActor
@Suite("Every permission rule both ways, through the SDK")
struct SeedRulesPermissionTests {
  /// Runs a rule: set up, call, then check the outcome and what the call did everywhere.
  func check(_ rule: PermissionCase) {
    let room = PermissionRoom()
    rule.setup(room)
    room.testbed.run()
    room.clearLogs()
    let before = room.testbed.serviceState()?.sharedFacts
    let caller = room.sdk(rule.seat)
    let callerStateBefore = caller.store.state
    var outcome = rule.act(room, caller)
    room.testbed.run()
    let heard = room.callbacks(rule.seat)
    let accepted = outcome == .code(.success) || outcome == .bool(true)
    if accepted, case .onError(let error, _)? = heard.last {
      outcome = .refusedByService(error)
    }
    #expect(outcome == rule.expected)
    if rule.expected.isRefusal {
      #expect(room.testbed.serviceState()?.sharedFacts == before, "a refusal changes nothing")
      if case .refusedByService(let error) = rule.expected {
        #expect(heard.count == 1, "only onError: \(heard)")
        #expect(caller.store.state.lastError == error)
      } else {
        #expect(heard.isEmpty, "a local refusal fires nothing")
        #expect(caller.store.state == callerStateBefore)
      }
    }
    room.testbed.assertConverged()
  }

  @Test(arguments: mediaAndRoleRules)
  func mediaAndRoles(_ rule: PermissionCase) {
    check(rule)
  }

  @Test(arguments: shareAndChatRules)
  func shareAnnotationAndChat(_ rule: PermissionCase) {
    check(rule)
  }

  @Test func everyRuleIsExercisedBothWays() {
    let rules = mediaAndRoleRules + shareAndChatRules
    let refused = Set(rules.filter { $0.expected.isRefusal }.map(\.name))
    let allowed = Set(rules.filter { !$0.expected.isRefusal }.map(\.name))
    #expect(rules.count >= 90)
    for name in [
      "muteAudio(other)", "unmuteAudio(other)", "muteAllAudio", "unmuteAllAudio",
      "allowAudioUnmutedBySelf", "makeHost", "makeManager", "revokeManager", "removeUser",
      "reclaimHost", "changeName(other)", "lockShare", "enableMultiShare", "startShare (locked)",
      "clear(all)", "clear(others)", "SendChatToAll (no one)", "SendChatToUser (publicly only)",
      "deleteChatMessage (other's)", "changeChatPrivilege",
    ] {
      #expect(refused.contains(name) && allowed.contains(name), "\(name) both ways")
    }
  }
}
