import Foundation
import SessionCore
import SessionSDK
import Testing

// The table of the Zoom Video SDK's names and ours, as data, rendered to `Docs/SDKNames.md`.
//
// Each modelled row carries a closure that uses our name; the closures are never called, they
// only have to type-check, so this file stops compiling when a name is renamed or removed. Enum
// and error rows are generated from our enums' cases. The suite checks the rendering against the
// checked-in file (`SESSIONENGINE_WRITE_DOCS=1 swift test --skip-build --filter SDKName` writes
// it instead), that every `VideoSDKError` case is listed under its SDK spelling, that no SDK
// name is listed twice, and that the table covers `SDKNameTable.checklist`.

@Suite("SDK names: the table of ZoomVideoSDK names in Docs/SDKNames.md")
struct SDKNameTableTests {
  /// The repository's root, from this file's path.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  static let regenerate = "SESSIONENGINE_WRITE_DOCS=1 swift test --skip-build --filter SDKName"

  @Test func theCheckedInDocIsTheRenderedTable() throws {
    let url = Self.root.appendingPathComponent("Docs/SDKNames.md")
    let rendered = SDKNameTable.markdown()
    if ProcessInfo.processInfo.environment["SESSIONENGINE_WRITE_DOCS"] == "1" {
      try rendered.write(to: url, atomically: true, encoding: .utf8)
      return
    }
    guard let checkedIn = try? String(contentsOf: url, encoding: .utf8) else {
      Issue.record("Docs/SDKNames.md is missing: write it with \(Self.regenerate)")
      return
    }
    guard checkedIn != rendered else { return }
    let expected = rendered.components(separatedBy: "\n")
    let actual = checkedIn.components(separatedBy: "\n")
    let common = min(expected.count, actual.count)
    let line = (0..<common).first { expected[$0] != actual[$0] } ?? common
    let want = line < expected.count ? expected[line] : "(end of file)"
    let have = line < actual.count ? actual[line] : "(end of file)"
    Issue.record(
      """
      Docs/SDKNames.md differs from the table in SDKNameTableTests.swift; if the table is \
      right, regenerate the file with \(Self.regenerate)
      first difference, line \(line + 1):
        table: \(want)
        file:  \(have)
      """)
  }

  @Test func everyErrorCaseIsListedUnderItsSDKSpelling() {
    let errorRows = SDKNameTable.rows.filter { $0.section == .errors }
    for error in VideoSDKError.allCases {
      let matching = errorRows.filter { $0.sdkName == error.sdkName }
      #expect(matching.count == 1, "\(error.sdkName) is listed \(matching.count) times")
      #expect(matching.first?.status == .modelled, "\(error.sdkName) is not listed as modelled")
      #expect(matching.first?.here == "VideoSDKError.\(error)")
    }
  }

  @Test func noSDKNameIsListedTwice() {
    var seen: [String: Int] = [:]
    for row in SDKNameTable.rows { seen[row.sdkName, default: 0] += 1 }
    let twice = seen.filter { $0.value > 1 }.keys.sorted()
    #expect(twice.isEmpty, "listed more than once: \(twice.joined(separator: ", "))")
  }

  @Test func everyNotModelledNameSaysWhyAndEveryModelledNameSaysWhat() {
    for row in SDKNameTable.rows {
      switch row.status {
      case .modelled:
        #expect(!row.here.isEmpty, "\(row.sdkName) is modelled but names nothing here")
      case .notModelled(let reason):
        #expect(!reason.isEmpty, "\(row.sdkName) is not modelled and gives no reason")
      }
    }
  }

  @Test func theGeneratedRowsAgreeWithTheirSourceLists() {
    #expect(SDKNameTable.problems.isEmpty, "\(SDKNameTable.problems.joined(separator: "\n"))")
  }

  @Test func theTableCoversEveryNameOfTheChecklist() {
    let listed = Dictionary(SDKNameTable.rows.map { ($0.sdkName, $0) }) { first, _ in first }
    let missing = SDKNameTable.checklist.filter { listed[$0] == nil }
    #expect(missing.isEmpty, "not in the table: \(missing.joined(separator: ", "))")
    for name in SDKNameTable.checklist {
      if case .notModelled(let reason)? = listed[name]?.status {
        #expect(!reason.isEmpty, "\(name) is not modelled and gives no reason")
      }
    }
    #expect(Set(SDKNameTable.checklist).count == SDKNameTable.checklist.count)
  }
}

// MARK: - The table

/// One SDK name and what it is here.
struct SDKNameEntry: Sendable {
  enum Status: Sendable, Equatable {
    /// The name exists here with the SDK's meaning.
    case modelled
    /// No counterpart here, for this reason.
    case notModelled(reason: String)
  }

  /// The SDK's name, as its headers spell it.
  var sdkName: String
  /// Our name, in Swift; empty when not modelled.
  var here: String
  /// What a porter should know; for generated rows, the number.
  var note: String
  var status: Status
}

/// An entry in a section of the table.
struct SDKNameRow: Sendable {
  var section: SDKNameSection
  var entry: SDKNameEntry

  var sdkName: String { entry.sdkName }
  var here: String { entry.here }
  var status: SDKNameEntry.Status { entry.status }
}

/// The sections of the table, in order.
enum SDKNameSection: CaseIterable, Sendable {
  case delegate
  case videoSDK
  case session
  case user
  case userHelper
  case videoHelper
  case audioHelper
  case shareHelper
  case annotationHelper
  case chatHelper
  case objects
  case enums
  case errors

  var title: String {
    switch self {
    case .delegate: "Delegate callbacks"
    case .videoSDK: "VideoSDK"
    case .session: "Session"
    case .user: "User"
    case .userHelper: "UserHelper"
    case .videoHelper: "VideoHelper"
    case .audioHelper: "AudioHelper"
    case .shareHelper: "ShareHelper"
    case .annotationHelper: "AnnotationHelper"
    case .chatHelper: "ChatHelper"
    case .objects: "ShareAction, ChatMessage and canvas objects"
    case .enums: "Enums"
    case .errors: "Error codes"
    }
  }

  var lede: String {
    switch self {
    case .delegate:
      """
      `ZoomVideoSDKDelegate` is `VideoSDKDelegate`, with the SDK's callback names and \
      Swift-imported parameter shapes. Not listed, all out of scope: the incoming live stream \
      callbacks (`onBind…`, `onUnbind…`, `onStart…` and `onStopIncomingLiveStreamResponse…`, \
      `onIncomingLiveStreamStatusResponse…`) and the raw-data protocols beside the delegate \
      (`ZoomVideoSDKRawDataPipeDelegate`, `ZoomVideoSDKVideoSource`, `ZoomVideoSDKShareSource`, \
      `ZoomVideoSDKVirtualAudioMic`, …).
      """
    case .videoSDK:
      """
      `ZoomVideoSDK` is `VideoSDK`, a class you can make many instances of; its parameters \
      `ZoomVideoSDKInitParams` and `ZoomVideoSDKSessionContext` are `InitParams` and \
      `SessionContext`.
      """
    case .session: "`ZoomVideoSDKSession` is `Session`: its getters read the replica live."
    case .user: "`ZoomVideoSDKUser` is `User`: a handle that reads the replica live."
    case .userHelper:
      """
      `ZoomVideoSDKUserHelper` is `UserHelper`. As in the SDK, most of its methods return \
      `Bool` and `revokeManager` returns an error code.
      """
    case .videoHelper: "`ZoomVideoSDKVideoHelper` is `VideoHelper`: the camera on and off."
    case .audioHelper: "`ZoomVideoSDKAudioHelper` is `AudioHelper`: connect, mute, unmute."
    case .shareHelper:
      "`ZoomVideoSDKShareHelper` is `ShareHelper`; views are any `AnyObject`, held weakly."
    case .annotationHelper:
      """
      `ZoomVideoSDKAnnotationHelper` is `AnnotationHelper`; the tool, colour, width and stroke \
      stack are local to the instance.
      """
    case .chatHelper:
      "`ZoomVideoSDKChatHelper` is `ChatHelper`, with the SDK's capitalised selectors."
    case .objects:
      """
      The objects that callbacks and getters hand out. The engine renders nothing: a canvas \
      records which views show whom.
      """
    case .enums:
      """
      Cases are spelled `Type_Case`, as the headers declare them. Each modelled case is found \
      among our enum's cases by its raw value, so the numbers (`= n`) are the SDK's.
      """
    case .errors:
      """
      `ZoomVideoSDKError` is `VideoSDKError` (SessionCore), numbered as the v2 headers number \
      it. The modelled rows are generated from `VideoSDKError.allCases` and `sdkName`; each \
      case also answers to its SDK spelling, as in `case .Errors_Success:`.
      """
    }
  }
}

/// A row whose name exists here: `proof` is a closure that uses it, never called.
private func modelled<Proof>(
  _ sdkName: String, _ here: String, _ note: String = "", proof: Proof
) -> SDKNameEntry {
  SDKNameEntry(sdkName: sdkName, here: here, note: note, status: .modelled)
}

/// A row with no counterpart here.
private func notModelled(_ sdkName: String, _ reason: String) -> SDKNameEntry {
  SDKNameEntry(sdkName: sdkName, here: "", note: "", status: .notModelled(reason: reason))
}

/// Rows that share one reason.
private func notModelled(_ sdkNames: [String], _ reason: String) -> [SDKNameEntry] {
  sdkNames.map { notModelled($0, reason) }
}

/// The rows of one SDK enum, generated from ours, and what disagreed while generating them.
struct SDKEnumRows: Sendable {
  var entries: [SDKNameEntry]
  var problems: [String] = []

  /// The rows of `sdkType`, whose cases and numbers are `cases`: each number found among
  /// `type`'s cases is modelled by that case.
  ///
  /// - Parameters:
  ///   - aliases: By SDK case, a static member of `type` that spells the case the SDK's way,
  ///     with its value (which must be the case of that number).
  ///   - notes: By SDK case, a note for a modelled case.
  ///   - missing: By SDK case, why a number none of `type`'s cases has is not modelled.
  init<E: CaseIterable & RawRepresentable & Equatable>(
    _ sdkType: String, as type: E.Type, _ cases: KeyValuePairs<String, Int>,
    aliases: [String: (name: String, value: E)] = [:], notes: [String: String] = [:],
    missing: [String: String] = [:]
  ) where E.RawValue: BinaryInteger {
    entries = [modelled(sdkType, "\(E.self)", proof: type)]
    for (sdkCase, number) in cases {
      let sdkName = "\(sdkType)_\(sdkCase)"
      guard let value = E.allCases.first(where: { Int($0.rawValue) == number }) else {
        entries.append(notModelled(sdkName, (missing[sdkCase] ?? "") + " (= \(number))"))
        if missing[sdkCase] == nil { problems.append("\(sdkName): no case and no reason") }
        continue
      }
      if missing[sdkCase] != nil {
        problems.append("\(sdkName) is \(E.self).\(value) now: drop its reason")
      }
      var note = "= \(number)"
      if let alias = aliases[sdkCase] {
        note += "; also `.\(alias.name)`"
        if alias.value != value {
          problems.append("\(E.self).\(alias.name) is not \(E.self).\(value)")
        }
      }
      if let extra = notes[sdkCase] { note += "; \(extra)" }
      entries.append(modelled(sdkName, "\(E.self).\(value)", note, proof: value))
    }
  }

  /// The rows of an SDK enum with no counterpart here.
  init(_ sdkType: String, cases: [String], notModelled reason: String) {
    entries = [notModelled(sdkType, reason)] + cases.map { notModelled("\(sdkType)_\($0)", reason) }
  }

  /// Rows written by hand.
  init(entries: [SDKNameEntry]) {
    self.entries = entries
  }
}

enum SDKNameTable {
  /// Every row, section by section.
  static let rows: [SDKNameRow] = SDKNameSection.allCases.flatMap { section in
    entries(of: section).map { SDKNameRow(section: section, entry: $0) }
  }

  /// What disagreed while generating the enum and error rows.
  static let problems: [String] = enumRows.flatMap(\.problems) + errorProblems

  static func entries(of section: SDKNameSection) -> [SDKNameEntry] {
    switch section {
    case .delegate: delegate
    case .videoSDK: videoSDK
    case .session: session
    case .user: user
    case .userHelper: userHelper
    case .videoHelper: videoHelper
    case .audioHelper: audioHelper
    case .shareHelper: shareHelper
    case .annotationHelper: annotationHelper
    case .chatHelper: chatHelper
    case .objects: objects
    case .enums: enumRows.flatMap(\.entries)
    case .errors: errors
    }
  }

  // MARK: Delegate callbacks

  static let delegate: [SDKNameEntry] =
    [
      modelled(
        "ZoomVideoSDKDelegate", "VideoSDKDelegate",
        "a class protocol; every callback has an empty default, as every SDK callback is optional"
      ) { (_: any VideoSDKDelegate) in },
      // Session lifecycle and errors.
      modelled("onSessionJoin", "onSessionJoin()") { (d: any VideoSDKDelegate) in
        d.onSessionJoin()
      },
      modelled(
        "onSessionLeave", "onSessionLeave()",
        "deprecated in the SDK; fired right after `onSessionLeave(_:)`"
      ) { (d: any VideoSDKDelegate) in d.onSessionLeave() },
      modelled("onSessionLeave:", "onSessionLeave(_:)", "with a `LeaveReason`") {
        (d: any VideoSDKDelegate) in d.onSessionLeave(.bySelf)
      },
      modelled(
        "onError:detail:", "onError(_:detail:)",
        "join failures, and commands the service refused (the detail is the command's id)"
      ) { (d: any VideoSDKDelegate) in d.onError(.success, detail: 0) },
      modelled(
        "onSessionNeedPassword:", "onSessionNeedPassword(_:)",
        "call the completion with the password, or with `true` to give up"
      ) { (d: any VideoSDKDelegate) in d.onSessionNeedPassword { _, _ in .success } },
      modelled(
        "onSessionPasswordWrong:", "onSessionPasswordWrong(_:)",
        "the same completion as `onSessionNeedPassword(_:)`"
      ) { (d: any VideoSDKDelegate) in d.onSessionPasswordWrong { _, _ in .success } },
      notModelled("onProxySettingNotification:", "out of scope: network plumbing (proxies)"),
      notModelled(
        "onSSLCertVerifiedFailNotification:", "out of scope: network plumbing (certificates)"),
      modelled(
        "onSystemPermissionRequired:", "onSystemPermissionRequired(_:)",
        "never fired: the engine needs no OS permissions"
      ) { (d: any VideoSDKDelegate) in d.onSystemPermissionRequired(.camera) },
      // Users and roles.
      modelled(
        "onUserJoin:users:", "onUserJoin(_:users:)",
        "on the local join, everyone present, the local user included"
      ) { (d: any VideoSDKDelegate) in d.onUserJoin(nil, users: nil) },
      modelled("onUserLeave:users:", "onUserLeave(_:users:)") { (d: any VideoSDKDelegate) in
        d.onUserLeave(nil, users: nil)
      },
      modelled(
        "onUserHostChanged:users:", "onUserHostChanged(_:users:)",
        "one user, though the parameter is named `users`, as in the SDK"
      ) { (d: any VideoSDKDelegate) in d.onUserHostChanged(nil, users: nil) },
      modelled(
        "onUserManagerChanged:", "onUserManagerChanged(_:)",
        "granted or revoked: ask `isManager()`"
      ) { (d: any VideoSDKDelegate) in d.onUserManagerChanged(nil) },
      modelled("onUserNameChanged:", "onUserNameChanged(_:)") { (d: any VideoSDKDelegate) in
        d.onUserNameChanged(nil)
      },
      modelled(
        "onUserActiveAudioChanged:users:", "onUserActiveAudioChanged(_:users:)",
        "the users talking now; passes a `UserHelper`, as in the SDK"
      ) { (d: any VideoSDKDelegate) in d.onUserActiveAudioChanged(nil, users: nil) },
      modelled(
        "onUserRecordAgreementNotification:", "onUserRecordAgreementNotification(_:)",
        "to everyone when a member accepts"
      ) { (d: any VideoSDKDelegate) in d.onUserRecordAgreementNotification(nil) },
      notModelled("onCalloutJoinSuccess:phoneNumber:", "out of scope: phone dial-out"),
      notModelled("onInviteByPhoneStatus:failReason:", "out of scope: phone dial-out"),
      // Video.
      modelled(
        "onUserVideoStatusChanged:user:", "onUserVideoStatusChanged(_:user:)",
        "read `getVideoCanvas()?.videoStatus()?.on`"
      ) { (d: any VideoSDKDelegate) in d.onUserVideoStatusChanged(nil, user: nil) },
      notModelled(
        "onUserVideoNetworkStatusChanged:user:",
        "deprecated in the SDK for `onUserNetworkStatusChanged:level:user:`"),
      modelled(
        "onUserNetworkStatusChanged:level:user:", "onUserNetworkStatusChanged(_:level:user:)",
        "as this instance measures it; only with a media plane"
      ) { (d: any VideoSDKDelegate) in d.onUserNetworkStatusChanged(.video, level: .good, user: nil)
      },
      modelled(
        "onUserOverallNetworkStatusChanged:user:", "onUserOverallNetworkStatusChanged(_:user:)"
      ) { (d: any VideoSDKDelegate) in d.onUserOverallNetworkStatusChanged(.good, user: nil) },
      modelled(
        "onVideoCanvasSubscribeFail:user:view:", "onVideoCanvasSubscribeFail(_:user:view:)",
        "for video and share canvases"
      ) { (d: any VideoSDKDelegate) in
        d.onVideoCanvasSubscribeFail(.hasSubscribeExceededLimit, user: nil, view: nil)
      },
      modelled(
        "onSpotlightVideoChanged:userList:", "onSpotlightVideoChanged(_:userList:)",
        "the whole new list, in the host's order"
      ) { (d: any VideoSDKDelegate) in d.onSpotlightVideoChanged(nil, userList: []) },
    ]
    + notModelled(
      [
        "onMultiCameraStreamStatusChanged:parentUser:videoPipe:",
        "onMultiCameraStreamStatusChanged:parentUser:videoCanvas:",
      ], "out of scope: multiple cameras")
    + [
      notModelled("onVideoAlphaChannelStatusChanged:", "out of scope: video effects"),
      notModelled("onUVCCameraStatusChange:", "out of scope: camera devices"),
      notModelled("onCameraControlRequestResult:approved:", "out of scope: remote camera control"),
    ]
    + notModelled(
      ["onCanvasSnapshotTaken:isShare:", "onCanvasSnapshotIncompatible:"],
      "out of scope: rendering (snapshots)")
    + [
      // Audio.
      modelled(
        "onUserAudioStatusChanged:user:", "onUserAudioStatusChanged(_:user:)",
        "read `audioStatus()`"
      ) { (d: any VideoSDKDelegate) in d.onUserAudioStatusChanged(nil, user: nil) },
      modelled(
        "onHostAskUnmute", "onHostAskUnmute()",
        "on the users a host or manager asked with `unmuteAudio(_:)` or `unmuteAllAudio()`"
      ) { (d: any VideoSDKDelegate) in d.onHostAskUnmute() },
      notModelled(
        "onAudioLevelChanged:audioSharing:user:",
        "no audio levels here yet (who talks is `onUserActiveAudioChanged(_:users:)`)"),
      notModelled("onMyAudioSourceTypeChanged:", "out of scope: audio devices"),
      notModelled("onTestMicStatusChanged:", "out of scope: audio device tests"),
      notModelled("onMicSpeakerVolumeChanged:speakerVolume:", "out of scope: audio devices"),
    ]
    + notModelled(
      [
        "onMixedAudioRawDataReceived:", "onOneWayAudioRawDataReceived:user:",
        "onSharedAudioRawDataReceived:",
      ], "out of scope: raw media")
    + [
      // Share.
      modelled(
        "onUserShareStatusChanged:user:shareAction:",
        "onUserShareStatusChanged(_:user:shareAction:)",
        "read `shareAction?.getShareStatus()`"
      ) { (d: any VideoSDKDelegate) in d.onUserShareStatusChanged(nil, user: nil, shareAction: nil)
      },
      modelled(
        "onFailedToStartShare:user:", "onFailedToStartShare(_:user:)",
        "the service refused the local user's share"
      ) { (d: any VideoSDKDelegate) in d.onFailedToStartShare(nil, user: nil) },
      modelled("onShareSettingChanged:", "onShareSettingChanged(_:)") {
        (d: any VideoSDKDelegate) in d.onShareSettingChanged(.single)
      },
      modelled(
        "onShareContentChanged:user:shareAction:", "onShareContentChanged(_:user:shareAction:)",
        "never fired: a live share keeps its kind"
      ) { (d: any VideoSDKDelegate) in d.onShareContentChanged(nil, user: nil, shareAction: nil) },
    ]
    + notModelled(
      [
        "onShareContentSizeChanged:user:shareAction:",
        "onShareCaptureSizeChanged:user:shareAction:",
      ],
      "out of scope: rendering (content sizes)")
    + notModelled(
      [
        "onShareCanvasSubscribeFail:user:view:",
        "onShareCanvasSubscribeFailWithUser:view:shareAction:",
      ],
      "a share canvas's failure is `onVideoCanvasSubscribeFail(_:user:view:)`")
    + [
      notModelled(
        "onUserShareNetworkStatusChanged:isSending:",
        "deprecated in the SDK for `onUserNetworkStatusChanged:level:user:`"),
      notModelled("onInAppScreenShareErrorCode:", "out of scope: ReplayKit recording errors"),
      notModelled(
        "onInAppScreenShareAvailableChanged:",
        "in-app screen share is always available here (`isSupportInAppScreenShare()`)"),
    ]
    + notModelled(
      ["onUserWhiteboardShareStatusChanged:whiteboardhelper:", "onWhiteboardExported:data:"],
      "out of scope: whiteboard")
    + [
      // Annotation.
      modelled(
        "onAnnotationHelperCleanUp:", "onAnnotationHelperCleanUp(_:)",
        "the helper no longer works afterwards"
      ) { (d: any VideoSDKDelegate) in d.onAnnotationHelperCleanUp(nil) },
      modelled(
        "onAnnotationPrivilegeChange:shareOwner:", "onAnnotationPrivilegeChange(_:shareOwner:)",
        "deprecated in the SDK; fired right after `onAnnotationPrivilegeChange(with:shareAction:)`"
      ) { (d: any VideoSDKDelegate) in d.onAnnotationPrivilegeChange(true, shareOwner: nil) },
      modelled(
        "onAnnotationPrivilegeChangeWithUser:shareAction:",
        "onAnnotationPrivilegeChange(with:shareAction:)",
        "read `shareAction?.isAnnotationPrivilegeEnabled()`"
      ) { (d: any VideoSDKDelegate) in d.onAnnotationPrivilegeChange(with: nil, shareAction: nil) },
      modelled(
        "onAnnotationToolTypeChanged:view:toolType:",
        "onAnnotationToolTypeChanged(_:view:toolType:)",
        "after a local helper's `setToolType(_:)`"
      ) { (d: any VideoSDKDelegate) in d.onAnnotationToolTypeChanged(nil, view: nil, toolType: .pen)
      },
      // Chat.
      modelled(
        "onChatNewMessageNotify:message:", "onChatNewMessageNotify(_:message:)",
        "the local user's own messages too (it confirms delivery)"
      ) { (d: any VideoSDKDelegate) in d.onChatNewMessageNotify(nil, message: nil) },
      modelled(
        "onChatMsgDeleteNotification:messageID:deleteBy:",
        "onChatMsgDeleteNotification(_:messageID:deleteBy:)"
      ) { (d: any VideoSDKDelegate) in
        d.onChatMsgDeleteNotification(nil, messageID: nil, deleteBy: .host)
      },
      modelled("onChatPrivilegeChanged:privilege:", "onChatPrivilegeChanged(_:privilege:)") {
        (d: any VideoSDKDelegate) in d.onChatPrivilegeChanged(nil, privilege: .noOne)
      },
      // Command channel, recording, streaming, transcription, sub-sessions, files.
      modelled(
        "onCmdChannelConnectResult:", "onCmdChannelConnectResult(_:)",
        "after each join's other callbacks; always `true`"
      ) { (d: any VideoSDKDelegate) in d.onCmdChannelConnectResult(true) },
      modelled(
        "onCommandReceived:sendUser:", "onCommandReceived(_:sendUser:)",
        "the sender does not receive its own"
      ) { (d: any VideoSDKDelegate) in d.onCommandReceived("raise-hand", sendUser: nil) },
      modelled(
        "onCloudRecordingStatus:recordAgreementHandler:",
        "onCloudRecordingStatus(_:recordAgreementHandler:)",
        "no recording is made; a handler for each member but the host when one starts"
      ) { (d: any VideoSDKDelegate) in
        d.onCloudRecordingStatus(.start, recordAgreementHandler: nil)
      },
      notModelled("onLiveStreamStatusChanged:status:", "out of scope: live streaming"),
    ]
    + notModelled(
      [
        "onStartBroadcastResponse:channelID:", "onStopBroadcastResponse:",
        "onGetBroadcastControlStatus:status:", "onStreamingJoinStatusChanged:",
      ], "out of scope: broadcast streaming")
    + notModelled(
      [
        "onLiveTranscriptionStatus:", "onLiveTranscriptionMsgReceived:",
        "onOriginalLanguageMsgReceived:", "onLiveTranscriptionMsgError:transLanguage:",
        "onSpokenLanguageChanged:",
      ], "out of scope: live transcription")
    + [
      modelled(
        "onSubSessionStatusChanged:subSession:", "onSubSessionStatusChanged(_:subSession:)",
        "committed, withdrawn, started, stopped; with the committed list"
      ) { (d: any VideoSDKDelegate) in d.onSubSessionStatusChanged(.started, subSession: []) },
      modelled(
        "onSubSessionManagerHandle:", "onSubSessionManagerHandle(_:)",
        "to the host and managers with the first commit; `nil` when withdrawn"
      ) { (d: any VideoSDKDelegate) in d.onSubSessionManagerHandle(nil) },
      modelled(
        "onSubSessionParticipantHandle:", "onSubSessionParticipantHandle(_:)",
        "to everyone when started; `nil` when stopped"
      ) { (d: any VideoSDKDelegate) in d.onSubSessionParticipantHandle(nil) },
      modelled(
        "onSubSessionUsersUpdate:", "onSubSessionUsersUpdate(_:)",
        "for each subsession a move changes"
      ) { (d: any VideoSDKDelegate, k: SubSessionKit) in d.onSubSessionUsersUpdate(k) },
      modelled(
        "onBroadcastMessageFromMainSession:userName:",
        "onBroadcastMessageFromMainSession(_:userName:)", "heard in the subsessions only"
      ) { (d: any VideoSDKDelegate) in d.onBroadcastMessageFromMainSession("", userName: "") },
      modelled(
        "onSubSessionUserHelpRequestHandler:", "onSubSessionUserHelpRequestHandler(_:)",
        "heard by the host"
      ) { (d: any VideoSDKDelegate, h: SubSessionUserHelpRequestHandler) in
        d.onSubSessionUserHelpRequestHandler(h)
      },
      modelled(
        "onSubSessionUserHelpRequestResult:", "onSubSessionUserHelpRequestResult(_:)",
        "idle, busy, ignore, host already there"
      ) { (d: any VideoSDKDelegate) in d.onSubSessionUserHelpRequestResult(.idle) },
    ]
    + notModelled(
      ["onSendFileStatus:status:", "onReceiveFileStatus:status:"], "out of scope: file transfer")
    + [
      notModelled("onCallCRCDeviceStatusChanged:", "out of scope: room connectors (CRC)"),
      notModelled("onRealTimeMediaStreamsStatus:", "out of scope: real-time media streams"),
      notModelled("onRealTimeMediaStreamsFail:", "out of scope: real-time media streams"),
    ]

  // MARK: VideoSDK

  static let videoSDK: [SDKNameEntry] =
    [
      modelled(
        "ZoomVideoSDK", "VideoSDK", "make one per member with `VideoSDK()`, or use the shared one"
      ) {
        (_: VideoSDK) in
      },
      modelled(
        "ZoomVideoSDK.shareInstance", "VideoSDK.shareInstance()",
        "never `nil`; also `VideoSDK.shared`"
      ) { @MainActor in VideoSDK.shareInstance() },
      modelled("ZoomVideoSDK.delegate", "VideoSDK.delegate", "held weakly") { (s: VideoSDK) in
        s.delegate
      },
      modelled(
        "ZoomVideoSDK.initialize:", "VideoSDK.initialize(_:)",
        "first; anything before it is `Errors_Uninitialize`"
      ) { (s: VideoSDK, p: InitParams) in s.initialize(p) },
      modelled("ZoomVideoSDK.cleanup", "VideoSDK.cleanup()") { (s: VideoSDK) in s.cleanup() },
      modelled(
        "ZoomVideoSDK.joinSession:", "VideoSDK.joinSession(_:)",
        "`nil` when the join cannot start; the outcome is `onSessionJoin()` or `onError(_:detail:)`"
      ) { (s: VideoSDK, c: SessionContext) in s.joinSession(c) },
      modelled(
        "ZoomVideoSDK.leaveSession:", "VideoSDK.leaveSession(_:)",
        "`true` ends the session for everyone (the host only)"
      ) { (s: VideoSDK) in s.leaveSession(false) },
      modelled("ZoomVideoSDK.getSession", "VideoSDK.getSession()") { (s: VideoSDK) in
        s.getSession()
      },
      modelled("ZoomVideoSDK.isInSession", "VideoSDK.isInSession()") { (s: VideoSDK) in
        s.isInSession()
      },
      modelled("ZoomVideoSDK.getSDKVersion", "VideoSDK.getSDKVersion()", "the engine's version") {
        (s: VideoSDK) in s.getSDKVersion()
      },
    ]
    + notModelled(
      ["ZoomVideoSDK.exportLog", "ZoomVideoSDK.cleanAllExportedLogs"],
      "out of scope: log files (records go to `logHandler` and `recentLogs`)")
    + [
      modelled(
        "ZoomVideoSDK.getSessionType", "VideoSDK.getSessionType()", "`.sub` in a subsession"
      ) { (s: VideoSDK) in s.getSessionType() },
      modelled("ZoomVideoSDK.getAudioHelper", "VideoSDK.getAudioHelper()") { (s: VideoSDK) in
        s.getAudioHelper()
      },
      modelled("ZoomVideoSDK.getVideoHelper", "VideoSDK.getVideoHelper()") { (s: VideoSDK) in
        s.getVideoHelper()
      },
      modelled("ZoomVideoSDK.getUserHelper", "VideoSDK.getUserHelper()") { (s: VideoSDK) in
        s.getUserHelper()
      },
      modelled(
        "ZoomVideoSDK.getShareHelper", "VideoSDK.getShareHelper()",
        "annotation helpers come from it"
      ) { (s: VideoSDK) in s.getShareHelper() },
      notModelled("ZoomVideoSDK.getLiveStreamHelper", "out of scope: live streaming"),
      notModelled("ZoomVideoSDK.getIncomingLiveStreamHelper", "out of scope: live streaming"),
      modelled("ZoomVideoSDK.getChatHelper", "VideoSDK.getChatHelper()") { (s: VideoSDK) in
        s.getChatHelper()
      },
      notModelled("ZoomVideoSDK.getPhoneHelper", "out of scope: phone dial-out"),
      modelled("ZoomVideoSDK.getCmdChannel", "VideoSDK.getCmdChannel()") { (s: VideoSDK) in
        s.getCmdChannel()
      },
      modelled(
        "ZoomVideoSDK.getRecordingHelper", "VideoSDK.getRecordingHelper()",
        "status and consent only; no recording is made"
      ) { (s: VideoSDK) in s.getRecordingHelper() },
      notModelled("ZoomVideoSDK.getAudioSettingHelper", "out of scope: audio devices"),
      notModelled("ZoomVideoSDK.getTestAudioDeviceHelper", "out of scope: audio device tests"),
      notModelled("ZoomVideoSDK.getLiveTranscriptionHelper", "out of scope: live transcription"),
      notModelled("ZoomVideoSDK.getVirtualBackgroundHelper", "out of scope: video effects"),
      notModelled("ZoomVideoSDK.getCRCHelper", "out of scope: room connectors (CRC)"),
      notModelled("ZoomVideoSDK.getMaskHelper", "out of scope: video effects"),
      modelled(
        "ZoomVideoSDK.getsubSessionHelper", "VideoSDK.getsubSessionHelper()",
        "host and managers only; `nil` for others"
      ) { (s: VideoSDK) in s.getsubSessionHelper() },
      // Initialize parameters.
      modelled(
        "ZoomVideoSDKInitParams", "InitParams",
        "plus how the instance reaches a service (`transport`), its `clock`, `limits` and `media`"
      ) { (_: InitParams) in },
      modelled(
        "ZoomVideoSDKInitParams.domain", "InitParams.domain",
        "required: empty is `Errors_Invalid_Parameter`"
      ) { (p: InitParams) in p.domain },
      notModelled("ZoomVideoSDKInitParams.logFilePrefix", "out of scope: log files"),
      notModelled(
        "ZoomVideoSDKInitParams.appGroupId", "out of scope: broadcast-extension screen share"),
      modelled(
        "ZoomVideoSDKInitParams.enableLog", "InitParams.enableLog",
        "keeps recent log lines in `recentLogs`"
      ) { (p: InitParams) in p.enableLog },
      notModelled("ZoomVideoSDKInitParams.extendParam", "out of scope: SDK-specific extensions"),
      // Join parameters.
      modelled("ZoomVideoSDKSessionContext", "SessionContext") { (_: SessionContext) in },
      modelled(
        "ZoomVideoSDKSessionContext.sessionName", "SessionContext.sessionName",
        "required; at most 150 characters of the documented set"
      ) { (c: SessionContext) in c.sessionName },
      modelled(
        "ZoomVideoSDKSessionContext.sessionPassword", "SessionContext.sessionPassword",
        "at most 10 printable ASCII characters"
      ) { (c: SessionContext) in c.sessionPassword },
      modelled(
        "ZoomVideoSDKSessionContext.userName", "SessionContext.userName",
        "required; longer than 200 characters is truncated"
      ) { (c: SessionContext) in c.userName },
      modelled("ZoomVideoSDKSessionContext.token", "SessionContext.token", "required: the JWT") {
        (c: SessionContext) in c.token
      },
      modelled(
        "ZoomVideoSDKSessionContext.sessionIdleTimeoutMins",
        "SessionContext.sessionIdleTimeoutMins",
        "`nil` for the default (40), negative for never"
      ) { (c: SessionContext) in c.sessionIdleTimeoutMins },
      notModelled(
        "ZoomVideoSDKSessionContext.enable5GHighBandWidth", "out of scope: network tuning"),
      modelled("ZoomVideoSDKSessionContext.audioOption", "SessionContext.audioOption") {
        (c: SessionContext) in c.audioOption
      },
      modelled("ZoomVideoSDKSessionContext.videoOption", "SessionContext.videoOption") {
        (c: SessionContext) in c.videoOption
      },
      modelled("ZoomVideoSDKAudioOptions", "AudioOptions") { (_: AudioOptions) in },
      modelled(
        "ZoomVideoSDKAudioOptions.connect", "AudioOptions.connect",
        "audio connects (VoIP) when the join completes"
      ) { (o: AudioOptions) in o.connect },
      modelled("ZoomVideoSDKAudioOptions.mute", "AudioOptions.mute", "the microphone starts muted")
      {
        (o: AudioOptions) in o.mute
      },
      notModelled(
        "ZoomVideoSDKAudioOptions.isMyVoiceInMix", "out of scope: raw media (the mixed audio)"),
      notModelled(
        "ZoomVideoSDKAudioOptions.autoAdjustSpeakerVolume", "out of scope: audio devices"),
      modelled("ZoomVideoSDKVideoOptions", "VideoOptions") { (_: VideoOptions) in },
      modelled(
        "ZoomVideoSDKVideoOptions.localVideoOn", "VideoOptions.localVideoOn",
        "the camera is reported on after the join"
      ) { (o: VideoOptions) in o.localVideoOn },
      notModelled(
        "ZoomVideoSDKVideoOptions.multitaskingCameraAccessEnabled", "out of scope: camera devices"),
    ]

  // MARK: Session

  static let session: [SDKNameEntry] =
    [
      modelled("ZoomVideoSDKSession", "Session") { (_: Session) in },
      modelled("ZoomVideoSDKSession.getSessionName", "Session.getSessionName()") { (s: Session) in
        s.getSessionName()
      },
      modelled(
        "ZoomVideoSDKSession.getSessionID", "Session.getSessionID()",
        "the host only: `nil` for everyone else, as in the SDK"
      ) { (s: Session) in s.getSessionID() },
      notModelled("ZoomVideoSDKSession.getSessionNumber", "no session number here (names only)"),
      modelled(
        "ZoomVideoSDKSession.getSessionPassword", "Session.getSessionPassword()",
        "the password this instance joined with"
      ) { (s: Session) in s.getSessionPassword() },
      notModelled("ZoomVideoSDKSession.getSessionPhonePasscode", "out of scope: phone dial-out"),
      modelled("ZoomVideoSDKSession.getSessionHostName", "Session.getSessionHostName()") {
        (s: Session) in s.getSessionHostName()
      },
      modelled("ZoomVideoSDKSession.getSessionHost", "Session.getSessionHost()") { (s: Session) in
        s.getSessionHost()
      },
      modelled(
        "ZoomVideoSDKSession.getRemoteUsers", "Session.getRemoteUsers()",
        "everyone but the local user, in join order"
      ) { (s: Session) in s.getRemoteUsers() },
      modelled("ZoomVideoSDKSession.getMySelf", "Session.getMySelf()") { (s: Session) in
        s.getMySelf()
      },
      modelled(
        "ZoomVideoSDKSession.getSessionAudioStatisticInfo",
        "Session.getSessionAudioStatisticInfo()",
        "zero with no media plane"
      ) { (s: Session) in s.getSessionAudioStatisticInfo() },
      modelled(
        "ZoomVideoSDKSession.getSessionVideoStatisticInfo",
        "Session.getSessionVideoStatisticInfo()",
        "zero with no media plane"
      ) { (s: Session) in s.getSessionVideoStatisticInfo() },
      modelled(
        "ZoomVideoSDKSession.getSessionShareStatisticInfo",
        "Session.getSessionShareStatisticInfo()",
        "zero with no media plane"
      ) { (s: Session) in s.getSessionShareStatisticInfo() },
    ]
    + notModelled(
      [
        "ZoomVideoSDKSession.isFileTransferEnable", "ZoomVideoSDKSession.transferFile:",
        "ZoomVideoSDKSession.getTransferFileTypeWhiteList",
        "ZoomVideoSDKSession.getMaxTransferFileSize",
      ], "out of scope: file transfer")

  // MARK: User

  static let user: [SDKNameEntry] =
    [
      modelled("ZoomVideoSDKUser", "User") { (_: User) in },
      modelled("ZoomVideoSDKUser.getUserID", "User.getUserID()", "also `getID()`") { (u: User) in
        u.getUserID()
      },
      modelled("ZoomVideoSDKUser.getUserName", "User.getUserName()", "also `getName()`") {
        (u: User) in u.getUserName()
      },
      modelled(
        "ZoomVideoSDKUser.getCustomUserId", "User.getCustomUserId()", "the token's `user_key`"
      ) { (u: User) in u.getCustomUserId() },
      notModelled("ZoomVideoSDKUser.getUserReference", "no user reference here"),
      modelled("ZoomVideoSDKUser.isHost", "User.isHost()") { (u: User) in u.isHost() },
      modelled("ZoomVideoSDKUser.isManager", "User.isManager()") { (u: User) in u.isManager() },
      modelled("ZoomVideoSDKUser.isIndividualRecordAgreed", "User.isIndividualRecordAgreed()") {
        (u: User) in u.isIndividualRecordAgreed()
      },
      modelled("ZoomVideoSDKUser.isVideoSpotLighted", "User.isVideoSpotLighted()") {
        (u: User) in u.isVideoSpotLighted()
      },
      modelled(
        "ZoomVideoSDKUser.audioStatus", "User.audioStatus()",
        "`audioType`, `isMuted`, `talking`"
      ) { (u: User) in u.audioStatus() },
      modelled(
        "ZoomVideoSDKUser.getVideoStatisticInfo", "User.getVideoStatisticInfo()",
        "a `QOSStatistics`; zero with no media plane"
      ) { (u: User) in u.getVideoStatisticInfo() },
      modelled(
        "ZoomVideoSDKUser.getShareStatisticInfo", "User.getShareStatisticInfo()",
        "a `QOSStatistics`; zero with no media plane"
      ) { (u: User) in u.getShareStatisticInfo() },
      notModelled("ZoomVideoSDKUser.getVideoPipe", "out of scope: raw media"),
      notModelled("ZoomVideoSDKUser.getMultiCameraStreamList", "out of scope: multiple cameras"),
      modelled(
        "ZoomVideoSDKUser.getVideoCanvas", "User.getVideoCanvas()",
        "video on or off is its `videoStatus()?.on`, as in the SDK"
      ) { (u: User) in u.getVideoCanvas() },
      notModelled("ZoomVideoSDKUser.getMultiCameraCanvasList", "out of scope: multiple cameras"),
      notModelled(
        "ZoomVideoSDKUser.getRemoteCameraControlHelper", "out of scope: remote camera control"),
      modelled(
        "ZoomVideoSDKUser.getShareActionList", "User.getShareActionList()",
        "at most one: a user shares one thing at a time"
      ) { (u: User) in u.getShareActionList() },
    ]
    + notModelled(
      [
        "ZoomVideoSDKUser.setUserPlaybackVolume:isSharingAudio:",
        "ZoomVideoSDKUser.getUserPlaybackVolume:", "ZoomVideoSDKUser.canSetUserPlaybackVolume:",
      ], "out of scope: audio playback")
    + [
      notModelled(
        "ZoomVideoSDKUser.getAudioLevel", "no audio levels here yet (`audioStatus()?.talking`)"),
      notModelled("ZoomVideoSDKUser.transferFile:", "out of scope: file transfer"),
      notModelled("ZoomVideoSDKUser.isIncomingLiveStreamUser", "out of scope: live streaming"),
      notModelled("ZoomVideoSDKUser.getWhiteboardStatus", "out of scope: whiteboard"),
      modelled("ZoomVideoSDKUser.isInSubSession", "User.isInSubSession()") { (u: User) in
        u.isInSubSession()
      },
      notModelled(
        "ZoomVideoSDKUser.getNetworkLevel:",
        "no getter per kind: `onUserNetworkStatusChanged(_:level:user:)` reports it"),
      modelled("ZoomVideoSDKUser.getOverallNetworkLevel", "User.getOverallNetworkLevel()") {
        (u: User) in u.getOverallNetworkLevel()
      },
    ]

  // MARK: Helpers

  static let userHelper: [SDKNameEntry] = [
    modelled("ZoomVideoSDKUserHelper", "UserHelper") { (_: UserHelper) in },
    modelled(
      "ZoomVideoSDKUserHelper.changeName:withUser:", "UserHelper.changeName(_:withUser:)",
      "yourself, or anyone as host or manager; returns `Bool`"
    ) { (h: UserHelper, u: User) in h.changeName("Ada", withUser: u) },
    modelled(
      "ZoomVideoSDKUserHelper.makeHost:", "UserHelper.makeHost(_:)",
      "host only, not yourself; returns `Bool`"
    ) { (h: UserHelper, u: User) in h.makeHost(u) },
    modelled(
      "ZoomVideoSDKUserHelper.makeManager:", "UserHelper.makeManager(_:)",
      "host only, not yourself; returns `Bool`"
    ) { (h: UserHelper, u: User) in h.makeManager(u) },
    modelled(
      "ZoomVideoSDKUserHelper.revokeManager:", "UserHelper.revokeManager(_:)",
      "host only; returns a `VideoSDKError`, as in the SDK"
    ) { (h: UserHelper, u: User) in h.revokeManager(u) },
    modelled(
      "ZoomVideoSDKUserHelper.removeUser:", "UserHelper.removeUser(_:)",
      "host only; they leave with `KickByHost`; returns `Bool`"
    ) { (h: UserHelper, u: User) in h.removeUser(u) },
    modelled(
      "ZoomVideoSDKUserHelper.reclaimHost", "UserHelper.reclaimHost()",
      "for a `role_type` 1 user who rejoined; returns `Bool`"
    ) { (h: UserHelper) in h.reclaimHost() },
  ]

  static let videoHelper: [SDKNameEntry] =
    [
      modelled("ZoomVideoSDKVideoHelper", "VideoHelper") { (_: VideoHelper) in },
      modelled("ZoomVideoSDKVideoHelper.startVideo", "VideoHelper.startVideo()") {
        (h: VideoHelper) in h.startVideo()
      },
      modelled("ZoomVideoSDKVideoHelper.stopVideo", "VideoHelper.stopVideo()") {
        (h: VideoHelper) in h.stopVideo()
      },
      modelled(
        "ZoomVideoSDKVideoHelper.spotLightVideo:", "VideoHelper.spotLightVideo(_:)",
        "host only; up to 9; camera on; first in the SFU's allocation"
      ) { (h: VideoHelper, u: User) in h.spotLightVideo(u) },
      modelled("ZoomVideoSDKVideoHelper.unSpotLightVideo:", "VideoHelper.unSpotLightVideo(_:)") {
        (h: VideoHelper, u: User) in h.unSpotLightVideo(u)
      },
      modelled(
        "ZoomVideoSDKVideoHelper.unSpotlightAllVideos", "VideoHelper.unSpotlightAllVideos()"
      ) { (h: VideoHelper) in h.unSpotlightAllVideos() },
      modelled(
        "ZoomVideoSDKVideoHelper.getSpotlightedVideoUserList",
        "VideoHelper.getSpotlightedVideoUserList()", "in the host's order"
      ) { (h: VideoHelper) in h.getSpotlightedVideoUserList() },
    ]
    + notModelled(
      [
        "ZoomVideoSDKVideoHelper.startVideoPreview:resolution:",
        "ZoomVideoSDKVideoHelper.stopVideoPreview:",
        "ZoomVideoSDKVideoHelper.startVideoCanvasPreview:andAspectMode:",
        "ZoomVideoSDKVideoHelper.stopVideoCanvasPreview:",
      ], "out of scope: camera preview outside a session")
    + [notModelled("ZoomVideoSDKVideoHelper.rotateMyVideo:", "out of scope: camera devices")]
    + notModelled(
      ["ZoomVideoSDKVideoHelper.mirrorMyVideo:", "ZoomVideoSDKVideoHelper.isMyVideoMirrored"],
      "out of scope: rendering (mirroring)")
    + notModelled(
      [
        "ZoomVideoSDKVideoHelper.switchCamera", "ZoomVideoSDKVideoHelper.switchCamera:",
        "ZoomVideoSDKVideoHelper.getCameraDeviceList", "ZoomVideoSDKVideoHelper.getSelectedCamera",
      ], "out of scope: camera devices")
    + [
      notModelled(
        "ZoomVideoSDKVideoHelper.setVideoQualityPreference:",
        "no quality preference; `InitParams.videoFrameRate` and `videoSendResolution` set what is sent"
      )
    ]
    + notModelled(
      [
        "ZoomVideoSDKVideoHelper.isOriginalAspectRatioEnabled",
        "ZoomVideoSDKVideoHelper.enableOriginalAspectRatio:",
      ], "out of scope: rendering (aspect ratio)")
    + notModelled(
      [
        "ZoomVideoSDKVideoHelper.canEnableAlphaChannelMode",
        "ZoomVideoSDKVideoHelper.enableAlphaChannelMode:",
        "ZoomVideoSDKVideoHelper.isAlphaChannelModeEnabled",
        "ZoomVideoSDKVideoHelper.isDeviceSupportAlphaChannelMode",
      ], "out of scope: video effects (alpha channel)")
    + notModelled(
      [
        "ZoomVideoSDKVideoHelper.isMultiStreamSupported",
        "ZoomVideoSDKVideoHelper.enableMultiStreamVideo:customDeviceName:",
        "ZoomVideoSDKVideoHelper.disableMultiStreamVideo:",
        "ZoomVideoSDKVideoHelper.muteMultiStreamVideo:",
        "ZoomVideoSDKVideoHelper.unmuteMultiStreamVideo:",
        "ZoomVideoSDKVideoHelper.getDeviceIDByMyPipe:",
        "ZoomVideoSDKVideoHelper.getDeviceIDByMyCanvas:",
      ], "out of scope: multiple cameras")

  static let audioHelper: [SDKNameEntry] =
    [
      modelled("ZoomVideoSDKAudioHelper", "AudioHelper") { (_: AudioHelper) in },
      modelled(
        "ZoomVideoSDKAudioHelper.startAudio", "AudioHelper.startAudio()", "connects VoIP"
      ) { (h: AudioHelper) in h.startAudio() },
      modelled("ZoomVideoSDKAudioHelper.stopAudio", "AudioHelper.stopAudio()") {
        (h: AudioHelper) in h.stopAudio()
      },
      modelled(
        "ZoomVideoSDKAudioHelper.muteAudio:", "AudioHelper.muteAudio(_:)",
        "yourself, or anyone as host or manager"
      ) { (h: AudioHelper, u: User) in h.muteAudio(u) },
      modelled(
        "ZoomVideoSDKAudioHelper.unmuteAudio:", "AudioHelper.unmuteAudio(_:)",
        "for someone else it only asks (`onHostAskUnmute()`)"
      ) { (h: AudioHelper, u: User) in h.unmuteAudio(u) },
      modelled(
        "ZoomVideoSDKAudioHelper.muteAllAudio:", "AudioHelper.muteAllAudio(_:)",
        "host or manager; spares the caller"
      ) { (h: AudioHelper) in h.muteAllAudio(true) },
      modelled(
        "ZoomVideoSDKAudioHelper.allowAudioUnmutedBySelf:",
        "AudioHelper.allowAudioUnmutedBySelf(_:)",
        "host or manager"
      ) { (h: AudioHelper) in h.allowAudioUnmutedBySelf(true) },
      modelled(
        "ZoomVideoSDKAudioHelper.unmuteAllAudio", "AudioHelper.unmuteAllAudio()",
        "host or manager; asks everyone muted"
      ) { (h: AudioHelper) in h.unmuteAllAudio() },
    ]
    + notModelled(
      ["ZoomVideoSDKAudioHelper.subscribe", "ZoomVideoSDKAudioHelper.unSubscribe"],
      "out of scope: raw media")
    + notModelled(
      [
        "ZoomVideoSDKAudioHelper.setSDKAudioSessionEnv",
        "ZoomVideoSDKAudioHelper.getCurrentAudioOutputRoute",
        "ZoomVideoSDKAudioHelper.setAudioOutputRoute:",
        "ZoomVideoSDKAudioHelper.getAvalibleAudioOutputRoute",
        "ZoomVideoSDKAudioHelper.showAudioOutputDeviceAirPlayPicker:",
        "ZoomVideoSDKAudioHelper.getCurrentAudioInputDevice",
        "ZoomVideoSDKAudioHelper.getAvailableAudioInputsDevice",
        "ZoomVideoSDKAudioHelper.setAudioInputDevice:",
      ], "out of scope: audio session and routing")
    + notModelled(
      ["ZoomVideoSDKAudioHelper.resetAudioSession", "ZoomVideoSDKAudioHelper.cleanAudioSession"],
      "deprecated in the SDK; out of scope: audio session")

  static let shareHelper: [SDKNameEntry] =
    [
      modelled("ZoomVideoSDKShareHelper", "ShareHelper") { (_: ShareHelper) in },
      modelled(
        "ZoomVideoSDKShareHelper.startShareWithView:", "ShareHelper.startShare(with:)",
        "its Swift name in the SDK too"
      ) { (h: ShareHelper, v: AnyObject) in h.startShare(with: v) },
      notModelled(
        "ZoomVideoSDKShareHelper.startSharingExternalSource:andAudioSource:isPlaying:",
        "no external share source here yet"),
      modelled(
        "ZoomVideoSDKShareHelper.startShareCamera:", "ShareHelper.startShareCamera(_:)",
        "the camera must be on (`Errors_Session_Share_Camera_Video_Not_Start`)"
      ) { (h: ShareHelper, v: AnyObject) in h.startShareCamera(v) },
      notModelled(
        "ZoomVideoSDKShareHelper.startShareWithPreprocessing:sharePreprocessor:",
        "out of scope: raw media (preprocessing)"),
      modelled(
        "ZoomVideoSDKShareHelper.isSupportInAppScreenShare",
        "ShareHelper.isSupportInAppScreenShare()", "always `true` once initialized"
      ) { (h: ShareHelper) in h.isSupportInAppScreenShare() },
      modelled(
        "ZoomVideoSDKShareHelper.startInAppScreenShare", "ShareHelper.startInAppScreenShare()",
        "at most once per 500 ms (`Errors_Call_Too_Frequently`)"
      ) { (h: ShareHelper) in h.startInAppScreenShare() },
      modelled(
        "ZoomVideoSDKShareHelper.setAnnotationView:", "ShareHelper.setAnnotationView(_:)",
        "in-app screen share only"
      ) { (h: ShareHelper, v: AnyObject) in h.setAnnotationView(v) },
      notModelled(
        "ZoomVideoSDKShareHelper.limitShareSendingResolutionToFullHD:",
        "out of scope: share encoding"),
    ]
    + notModelled(
      [
        "ZoomVideoSDKShareHelper.applyPreprocessingOverlayImage:",
        "ZoomVideoSDKShareHelper.removePreprocessingOverlayImage",
      ], "out of scope: raw media (preprocessing)")
    + [
      modelled(
        "ZoomVideoSDKShareHelper.stopShare", "ShareHelper.stopShare()",
        "`Errors_Session_Share_You_Are_Not_Sharing` when not sharing"
      ) { (h: ShareHelper) in h.stopShare() },
      modelled("ZoomVideoSDKShareHelper.pauseShare", "ShareHelper.pauseShare()") {
        (h: ShareHelper) in h.pauseShare()
      },
      modelled("ZoomVideoSDKShareHelper.resumeShare", "ShareHelper.resumeShare()") {
        (h: ShareHelper) in h.resumeShare()
      },
      modelled(
        "ZoomVideoSDKShareHelper.lockShare:", "ShareHelper.lockShare(_:)", "host or manager"
      ) { (h: ShareHelper) in h.lockShare(true) },
      modelled("ZoomVideoSDKShareHelper.isShareLocked", "ShareHelper.isShareLocked()") {
        (h: ShareHelper) in h.isShareLocked()
      },
      modelled("ZoomVideoSDKShareHelper.isSharingOut", "ShareHelper.isSharingOut()") {
        (h: ShareHelper) in h.isSharingOut()
      },
      modelled("ZoomVideoSDKShareHelper.isOtherSharing", "ShareHelper.isOtherSharing()") {
        (h: ShareHelper) in h.isOtherSharing()
      },
      notModelled(
        "ZoomVideoSDKShareHelper.isScreenSharingOut",
        "out of scope: broadcast-extension screen share (`isSharingOut()` covers every share)"),
    ]
    + notModelled(
      [
        "ZoomVideoSDKShareHelper.isShareDeviceAudioEnabled",
        "ZoomVideoSDKShareHelper.enableShareDeviceAudio:",
      ], "out of scope: share audio")
    + [
      notModelled(
        "ZoomVideoSDKShareHelper.enablePlaySharingAudioRawdata:", "out of scope: raw media"),
      modelled(
        "ZoomVideoSDKShareHelper.enableMultiShare:", "ShareHelper.enableMultiShare(_:)",
        "host or manager; turning it off stops every share but one"
      ) { (h: ShareHelper) in h.enableMultiShare(true) },
      modelled("ZoomVideoSDKShareHelper.isMultiShareEnabled", "ShareHelper.isMultiShareEnabled()") {
        (h: ShareHelper) in h.isMultiShareEnabled()
      },
      modelled(
        "ZoomVideoSDKShareHelper.isAnnotationFeatureSupport",
        "ShareHelper.isAnnotationFeatureSupport()", "always `true` once initialized"
      ) { (h: ShareHelper) in h.isAnnotationFeatureSupport() },
      modelled(
        "ZoomVideoSDKShareHelper.disableViewerAnnotation:",
        "ShareHelper.disableViewerAnnotation(_:)", "the share owner only"
      ) { (h: ShareHelper) in h.disableViewerAnnotation(true) },
      modelled(
        "ZoomVideoSDKShareHelper.isViewerAnnotationDisabled",
        "ShareHelper.isViewerAnnotationDisabled()"
      ) { (h: ShareHelper) in h.isViewerAnnotationDisabled() },
      modelled(
        "ZoomVideoSDKShareHelper.createAnnotationHelper:", "ShareHelper.createAnnotationHelper(_:)",
        "`nil` for your own share; also `createAnnotationHelper(forShareOf:)`, without a view"
      ) { (h: ShareHelper, v: AnyObject) in h.createAnnotationHelper(v) },
      modelled(
        "ZoomVideoSDKShareHelper.destroyAnnotationHelper:",
        "ShareHelper.destroyAnnotationHelper(_:)", "also `destroy(_:)`, as Swift imports it"
      ) { (h: ShareHelper, a: AnnotationHelper) in (h.destroyAnnotationHelper(a), h.destroy(a)) },
    ]
    + notModelled(
      [
        "ZoomVideoSDKShareHelper.setAnnotationVanishingToolTime:vanishingTime:",
        "ZoomVideoSDKShareHelper.getAnnotationVanishingToolDisplayTime",
        "ZoomVideoSDKShareHelper.getAnnotationVanishingToolVanishingTime",
      ], "no vanishing annotation tool here yet")

  static let annotationHelper: [SDKNameEntry] = [
    modelled("ZoomVideoSDKAnnotationHelper", "AnnotationHelper") { (_: AnnotationHelper) in },
    modelled(
      "ZoomVideoSDKAnnotationHelper.canDoAnnotation", "AnnotationHelper.canDoAnnotation()"
    ) { (h: AnnotationHelper) in h.canDoAnnotation() },
    notModelled(
      "ZoomVideoSDKAnnotationHelper.isSenderDisableAnnotation",
      "deprecated in the SDK for `canDoAnnotation`"),
    modelled(
      "ZoomVideoSDKAnnotationHelper.startAnnotation", "AnnotationHelper.startAnnotation()"
    ) { (h: AnnotationHelper) in h.startAnnotation() },
    modelled("ZoomVideoSDKAnnotationHelper.stopAnnotation", "AnnotationHelper.stopAnnotation()") {
      (h: AnnotationHelper) in h.stopAnnotation()
    },
    modelled(
      "ZoomVideoSDKAnnotationHelper.setToolColor:", "AnnotationHelper.setToolColor(_:)",
      "an `AnnotationColor` (RGBA) for the `UIColor`"
    ) { (h: AnnotationHelper) in h.setToolColor(.red) },
    modelled("ZoomVideoSDKAnnotationHelper.getToolColor", "AnnotationHelper.getToolColor()") {
      (h: AnnotationHelper) in h.getToolColor()
    },
    modelled(
      "ZoomVideoSDKAnnotationHelper.setToolType:", "AnnotationHelper.setToolType(_:)",
      "Picker and SpotLight on your own share only"
    ) { (h: AnnotationHelper) in h.setToolType(.pen) },
    modelled("ZoomVideoSDKAnnotationHelper.getToolType", "AnnotationHelper.getToolType()") {
      (h: AnnotationHelper) in h.getToolType()
    },
    modelled("ZoomVideoSDKAnnotationHelper.setToolWidth:", "AnnotationHelper.setToolWidth(_:)") {
      (h: AnnotationHelper) in h.setToolWidth(2)
    },
    modelled("ZoomVideoSDKAnnotationHelper.getToolWidth", "AnnotationHelper.getToolWidth()") {
      (h: AnnotationHelper) in h.getToolWidth()
    },
    modelled(
      "ZoomVideoSDKAnnotationHelper.undo", "AnnotationHelper.undo()", "the local stroke stack"
    ) { (h: AnnotationHelper) in h.undo() },
    modelled(
      "ZoomVideoSDKAnnotationHelper.redo", "AnnotationHelper.redo()", "the local stroke stack"
    ) { (h: AnnotationHelper) in h.redo() },
    modelled(
      "ZoomVideoSDKAnnotationHelper.clear:", "AnnotationHelper.clear(_:)",
      "all: host, manager or owner; others: owner; my: anyone"
    ) { (h: AnnotationHelper) in h.clear(.my) },
  ]

  static let chatHelper: [SDKNameEntry] = [
    modelled("ZoomVideoSDKChatHelper", "ChatHelper") { (_: ChatHelper) in },
    modelled(
      "ZoomVideoSDKChatHelper.SendChatToUser:Content:", "ChatHelper.SendChatToUser(_:Content:)",
      "capitalised, as in the SDK"
    ) { (h: ChatHelper, u: User) in h.SendChatToUser(u, Content: "hi") },
    modelled(
      "ZoomVideoSDKChatHelper.SendChatToAll:", "ChatHelper.SendChatToAll(_:)",
      "capitalised, as in the SDK"
    ) { (h: ChatHelper) in h.SendChatToAll("hi") },
    modelled(
      "ZoomVideoSDKChatHelper.canChatMessageBeDeleted:", "ChatHelper.canChatMessageBeDeleted(_:)",
      "your own, or any as host or manager"
    ) { (h: ChatHelper) in h.canChatMessageBeDeleted("m1") },
    modelled(
      "ZoomVideoSDKChatHelper.deleteChatMessage:", "ChatHelper.deleteChatMessage(_:)",
      "your UI learns of it from `onChatMsgDeleteNotification`"
    ) { (h: ChatHelper) in h.deleteChatMessage("m1") },
    modelled("ZoomVideoSDKChatHelper.IsChatDisabled", "ChatHelper.IsChatDisabled()") {
      (h: ChatHelper) in h.IsChatDisabled()
    },
    modelled("ZoomVideoSDKChatHelper.IsPrivateChatDisabled", "ChatHelper.IsPrivateChatDisabled()") {
      (h: ChatHelper) in h.IsPrivateChatDisabled()
    },
    modelled(
      "ZoomVideoSDKChatHelper.changeChatPrivilege:", "ChatHelper.changeChatPrivilege(_:)",
      "host or manager"
    ) { (h: ChatHelper) in h.changeChatPrivilege(.everyonePublicly) },
    modelled("ZoomVideoSDKChatHelper.getChatPrivilege", "ChatHelper.getChatPrivilege()") {
      (h: ChatHelper) in h.getChatPrivilege()
    },
    modelled("ZoomVideoSDKCmdChannel", "CmdChannel") { (_: CmdChannel) in },
    modelled(
      "ZoomVideoSDKCmdChannel.sendCommand:receiveUser:", "CmdChannel.sendCommand(_:receiveUser:)",
      "1–512 characters; 2 a second per session; `nil` user: everyone else"
    ) { (c: CmdChannel, u: User) in c.sendCommand("raise-hand", receiveUser: u) },
    // Subsessions.
    // Cloud recording.
    modelled("ZoomVideoSDKRecordingHelper", "RecordingHelper", "no recording is made") {
      (_: RecordingHelper) in
    },
    modelled(
      "ZoomVideoSDKRecordingHelper.canStartRecording", "RecordingHelper.canStartRecording()",
      "the host"
    ) { (h: RecordingHelper) in h.canStartRecording() },
    modelled(
      "ZoomVideoSDKRecordingHelper.startCloudRecording", "RecordingHelper.startCloudRecording()"
    ) { (h: RecordingHelper) in h.startCloudRecording() },
    modelled(
      "ZoomVideoSDKRecordingHelper.stopCloudRecording", "RecordingHelper.stopCloudRecording()"
    ) { (h: RecordingHelper) in h.stopCloudRecording() },
    modelled(
      "ZoomVideoSDKRecordingHelper.pauseCloudRecording", "RecordingHelper.pauseCloudRecording()"
    ) { (h: RecordingHelper) in h.pauseCloudRecording() },
    modelled(
      "ZoomVideoSDKRecordingHelper.resumeCloudRecording",
      "RecordingHelper.resumeCloudRecording()"
    ) { (h: RecordingHelper) in h.resumeCloudRecording() },
    modelled(
      "ZoomVideoSDKRecordingHelper.getCloudRecordingStatus",
      "RecordingHelper.getCloudRecordingStatus()"
    ) { (h: RecordingHelper) in h.getCloudRecordingStatus() },
    modelled("ZoomVideoSDKRecordAgreementHandler", "RecordAgreementHandler") {
      (_: RecordAgreementHandler) in
    },
    modelled(
      "ZoomVideoSDKRecordAgreementHandler.agreementType", "RecordAgreementHandler.agreementType",
      "always traditional"
    ) { (h: RecordAgreementHandler) in h.agreementType },
    modelled(
      "ZoomVideoSDKRecordAgreementHandler.accept", "RecordAgreementHandler.accept()",
      "everyone hears it"
    ) { (h: RecordAgreementHandler) in h.accept() },
    modelled(
      "ZoomVideoSDKRecordAgreementHandler.decline", "RecordAgreementHandler.decline()",
      "leaves the session"
    ) { (h: RecordAgreementHandler) in h.decline() },
    modelled("ZoomVideoSDKSubSessionHelper", "SubSessionHelper", "host and managers only") {
      (_: SubSessionHelper) in
    },
    modelled(
      "ZoomVideoSDKSubSessionHelper.addSubSessionToPreList:",
      "SubSessionHelper.addSubSession(toPreList:)", "1–50 distinct names of 1–64 characters"
    ) { (h: SubSessionHelper) in h.addSubSession(toPreList: ["Group 1"]) },
    modelled(
      "ZoomVideoSDKSubSessionHelper.removeSubSessionFromPreList:",
      "SubSessionHelper.removeSubSession(fromPreList:)"
    ) { (h: SubSessionHelper) in h.removeSubSession(fromPreList: ["Group 1"]) },
    modelled(
      "ZoomVideoSDKSubSessionHelper.clearSubSessionPreList",
      "SubSessionHelper.clearSubSessionPreList()"
    ) { (h: SubSessionHelper) in h.clearSubSessionPreList() },
    modelled(
      "ZoomVideoSDKSubSessionHelper.getSubSessionPreList", "SubSessionHelper.getSubSessionPreList()"
    ) { (h: SubSessionHelper) in h.getSubSessionPreList() },
    modelled(
      "ZoomVideoSDKSubSessionHelper.commitSubSessionList",
      "SubSessionHelper.commitSubSessionList()", "not while started"
    ) { (h: SubSessionHelper) in h.commitSubSessionList() },
    modelled(
      "ZoomVideoSDKSubSessionHelper.getCommittedSubSessionList",
      "SubSessionHelper.getCommittedSubSessionList()"
    ) { (h: SubSessionHelper) in h.getCommittedSubSessionList() },
    modelled(
      "ZoomVideoSDKSubSessionHelper.withdrawSubSessionList",
      "SubSessionHelper.withdrawSubSessionList()", "not while started"
    ) { (h: SubSessionHelper) in h.withdrawSubSessionList() },
    modelled("ZoomVideoSDKSubSessionKit", "SubSessionKit") { (_: SubSessionKit) in },
    modelled("ZoomVideoSDKSubSessionKit.getSubSessionName", "SubSessionKit.getSubSessionName()") {
      (k: SubSessionKit) in k.getSubSessionName()
    },
    modelled("ZoomVideoSDKSubSessionKit.getSubSessionID", "SubSessionKit.getSubSessionID()") {
      (k: SubSessionKit) in k.getSubSessionID()
    },
    modelled(
      "ZoomVideoSDKSubSessionKit.getSubSessionUserList", "SubSessionKit.getSubSessionUserList()"
    ) { (k: SubSessionKit) in k.getSubSessionUserList() },
    modelled(
      "ZoomVideoSDKSubSessionKit.joinSubSession", "SubSessionKit.joinSubSession()",
      "while started; a share or annotation stops first"
    ) { (k: SubSessionKit) in k.joinSubSession() },
    modelled("ZoomVideoSDKSubSessionUser", "SubSessionUser") { (_: SubSessionUser) in },
    modelled("ZoomVideoSDKSubSessionUser.getUserName", "SubSessionUser.getUserName()") {
      (u: SubSessionUser) in u.getUserName()
    },
    modelled(
      "ZoomVideoSDKSubSessionUser.getUserGUID", "SubSessionUser.getUserGUID()",
      "the custom user key, else the user id"
    ) { (u: SubSessionUser) in u.getUserGUID() },
    modelled("ZoomVideoSDKSubSessionManager", "SubSessionManager") { (_: SubSessionManager) in },
    modelled(
      "ZoomVideoSDKSubSessionManager.startSubSession", "SubSessionManager.startSubSession()"
    ) { (m: SubSessionManager) in m.startSubSession() },
    modelled(
      "ZoomVideoSDKSubSessionManager.stopSubSession", "SubSessionManager.stopSubSession()",
      "everyone returns to the main session"
    ) { (m: SubSessionManager) in m.stopSubSession() },
    modelled(
      "ZoomVideoSDKSubSessionManager.isSubSessionStarted",
      "SubSessionManager.isSubSessionStarted()"
    ) { (m: SubSessionManager) in m.isSubSessionStarted() },
    modelled(
      "ZoomVideoSDKSubSessionManager.broadcastMessage:", "SubSessionManager.broadcastMessage(_:)",
      "1–512 characters"
    ) { (m: SubSessionManager) in m.broadcastMessage("back in 5") },
    modelled("ZoomVideoSDKSubSessionParticipant", "SubSessionParticipant") {
      (_: SubSessionParticipant) in
    },
    modelled(
      "ZoomVideoSDKSubSessionParticipant.returnToMainSession",
      "SubSessionParticipant.returnToMainSession()"
    ) { (p: SubSessionParticipant) in p.returnToMainSession() },
    modelled(
      "ZoomVideoSDKSubSessionParticipant.requestForHelp", "SubSessionParticipant.requestForHelp()",
      "one request waits at a time"
    ) { (p: SubSessionParticipant) in p.requestForHelp() },
    modelled("ZoomVideoSDKSubSessionUserHelpRequestHandler", "SubSessionUserHelpRequestHandler") {
      (_: SubSessionUserHelpRequestHandler) in
    },
    modelled(
      "ZoomVideoSDKSubSessionUserHelpRequestHandler.getRequestUserName",
      "SubSessionUserHelpRequestHandler.getRequestUserName()"
    ) { (h: SubSessionUserHelpRequestHandler) in h.getRequestUserName() },
    modelled(
      "ZoomVideoSDKSubSessionUserHelpRequestHandler.getRequestSubSessionName",
      "SubSessionUserHelpRequestHandler.getRequestSubSessionName()"
    ) { (h: SubSessionUserHelpRequestHandler) in h.getRequestSubSessionName() },
    modelled(
      "ZoomVideoSDKSubSessionUserHelpRequestHandler.ignore",
      "SubSessionUserHelpRequestHandler.ignore()", "answers once"
    ) { (h: SubSessionUserHelpRequestHandler) in h.ignore() },
    modelled(
      "ZoomVideoSDKSubSessionUserHelpRequestHandler.joinSubSessionByUserRequest",
      "SubSessionUserHelpRequestHandler.joinSubSessionByUserRequest()", "answers once"
    ) { (h: SubSessionUserHelpRequestHandler) in h.joinSubSessionByUserRequest() },
  ]

  // MARK: Objects

  static let objects: [SDKNameEntry] =
    [
      // Canvases.
      modelled(
        "ZoomVideoSDKVideoCanvas", "VideoCanvas",
        "views are any `AnyObject`; a `VideoSink` view receives frames"
      ) { (_: VideoCanvas) in },
      modelled("ZoomVideoSDKVideoCanvas.videoStatus", "VideoCanvas.videoStatus()") {
        (c: VideoCanvas) in c.videoStatus()
      },
      notModelled(
        "ZoomVideoSDKVideoCanvas.shareStatus",
        "deprecated in the SDK; a share's status is `ShareAction.getShareStatus()`"),
      modelled(
        "ZoomVideoSDKVideoCanvas.subscribeWithView:aspectMode:andResolution:",
        "VideoCanvas.subscribe(with:aspectMode:andResolution:)",
        "counts toward the video subscription limit"
      ) { (c: VideoCanvas, v: AnyObject) in
        c.subscribe(with: v, aspectMode: .original, andResolution: .auto)
      },
      notModelled(
        "ZoomVideoSDKVideoCanvas.subscribeWithPiPView:", "out of scope: picture in picture"),
      modelled("ZoomVideoSDKVideoCanvas.unSubscribeWithView:", "VideoCanvas.unSubscribe(with:)") {
        (c: VideoCanvas, v: AnyObject) in c.unSubscribe(with: v)
      },
      notModelled(
        "ZoomVideoSDKVideoCanvas.setAspectMode:toView:",
        "subscribe the view again to change its aspect"),
      notModelled(
        "ZoomVideoSDKVideoCanvas.setResolution:toView:",
        "subscribe the view again to change its resolution"),
      modelled("ZoomVideoSDKVideoStatus", "VideoStatus", "a value, as the canvas said it") {
        (_: VideoStatus) in
      },
      modelled("ZoomVideoSDKVideoStatus.on", "VideoStatus.on") { (s: VideoStatus) in s.on },
      // Shares.
      modelled("ZoomVideoSDKShareAction", "ShareAction") { (_: ShareAction) in },
      modelled(
        "ZoomVideoSDKShareAction.getShareSourceId", "ShareAction.getShareSourceId()",
        "the owner's user id (one share per user)"
      ) { (a: ShareAction) in a.getShareSourceId() },
      modelled("ZoomVideoSDKShareAction.getShareCanvas", "ShareAction.getShareCanvas()") {
        (a: ShareAction) in a.getShareCanvas()
      },
      modelled(
        "ZoomVideoSDKShareAction.getShareStatus", "ShareAction.getShareStatus()",
        "a `ShareStatus`"
      ) { (a: ShareAction) in a.getShareStatus() },
      notModelled("ZoomVideoSDKShareAction.getSharePipe", "out of scope: raw media"),
      notModelled(
        "ZoomVideoSDKShareAction.getSubscribeFailReason",
        "a failure arrives as `onVideoCanvasSubscribeFail(_:user:view:)`"),
      modelled(
        "ZoomVideoSDKShareAction.isAnnotationPrivilegeEnabled",
        "ShareAction.isAnnotationPrivilegeEnabled()"
      ) { (a: ShareAction) in a.isAnnotationPrivilegeEnabled() },
      modelled(
        "ZoomVideoSDKShareAction.getShareType", "ShareAction.getShareType()", "normal or camera"
      ) { (a: ShareAction) in a.getShareType() },
      notModelled(
        "ZoomVideoSDKShareAction.getShareSourceContentSize",
        "out of scope: rendering (content sizes)"),
      notModelled(
        "ZoomVideoSDKShareStatus.sharingStatus",
        "no wrapper object: `getShareStatus()` returns the `ShareStatus` itself"),
      // Audio status.
      modelled("ZoomVideoSDKAudioStatus", "AudioStatus", "a value (SessionCore)") {
        (_: AudioStatus) in
      },
      modelled("ZoomVideoSDKAudioStatus.isMuted", "AudioStatus.isMuted") { (s: AudioStatus) in
        s.isMuted
      },
      modelled("ZoomVideoSDKAudioStatus.talking", "AudioStatus.talking", "also `isTalking`") {
        (s: AudioStatus) in s.talking
      },
      modelled("ZoomVideoSDKAudioStatus.audioType", "AudioStatus.audioType", "also `type`") {
        (s: AudioStatus) in s.audioType
      },
      // Chat messages.
      modelled(
        "ZoomVideoSDKChatMessage", "ChatMessageInfo",
        "with `User` objects; the replica's value is SessionCore's `ChatMessage` (`message`)"
      ) { (m: ChatMessageInfo) in m.message },
      modelled("ZoomVideoSDKChatMessage.messageID", "ChatMessageInfo.messageID") {
        (m: ChatMessageInfo) in m.messageID
      },
      modelled("ZoomVideoSDKChatMessage.senderUser", "ChatMessageInfo.senderUser") {
        (m: ChatMessageInfo) in m.senderUser
      },
      modelled(
        "ZoomVideoSDKChatMessage.receiverUser", "ChatMessageInfo.receiverUser",
        "`nil` for a message to everyone"
      ) { (m: ChatMessageInfo) in m.receiverUser },
      modelled("ZoomVideoSDKChatMessage.content", "ChatMessageInfo.content") {
        (m: ChatMessageInfo) in m.content
      },
      modelled(
        "ZoomVideoSDKChatMessage.timeStamp", "ChatMessageInfo.timeStamp",
        "`Int64` milliseconds of service time"
      ) { (m: ChatMessageInfo) in m.timeStamp },
      modelled("ZoomVideoSDKChatMessage.isChatToAll", "ChatMessageInfo.isChatToAll") {
        (m: ChatMessageInfo) in m.isChatToAll
      },
      modelled("ZoomVideoSDKChatMessage.isSelfSend", "ChatMessageInfo.isSelfSend") {
        (m: ChatMessageInfo) in m.isSelfSend
      },
    ]

  // MARK: Enums

  static let enumRows: [SDKEnumRows] = [
    SDKEnumRows(
      "ZoomVideoSDKSystemPermissionType", as: SystemPermissionType.self,
      ["Camera": 0, "Microphone": 1]),
    SDKEnumRows(
      "ZoomVideoSDKSessionLeaveReason", as: LeaveReason.self,
      ["Unknown": 0, "BySelf": 1, "KickByHost": 2, "EndByHost": 3, "NetworkError": 4]),
    SDKEnumRows(
      "ZoomVideoSDKReceiveSharingStatus", as: ShareStatus.self,
      ["None": 0, "Start": 1, "Pause": 2, "Resume": 3, "Stop": 4],
      aliases: [
        "Start": ("start", .start), "Pause": ("pause", .pause), "Resume": ("resume", .resume),
        "Stop": ("stop", .stop),
      ]),
    SDKEnumRows(
      "ZoomVideoSDKShareSetting", as: ShareSetting.self,
      ["None": 0, "LockedShare": 1, "SingleShare": 2, "MultiShare": 3],
      aliases: [
        "LockedShare": ("lockedShare", .lockedShare), "SingleShare": ("singleShare", .singleShare),
        "MultiShare": ("multiShare", .multiShare),
      ],
      notes: ["None": "sharing off"]),
    SDKEnumRows(entries: [
      modelled(
        "ZoomVideoSDKKShareSetting_LockedShare", "ShareSetting.locked",
        "a header typo of some v2 builds for `ZoomVideoSDKShareSetting_LockedShare`"
      ) { ShareSetting.lockedShare }
    ]),
    SDKEnumRows(
      "ZoomVideoSDKShareType", as: ShareType.self,
      ["None": 0, "Normal": 1, "PureAudio": 2, "Camera": 3],
      notes: ["PureAudio": "never reported: no audio-only share here"]),
    SDKEnumRows(
      "ZoomVideoSDKSubscribeFailReason", as: SubscribeFailReason.self,
      [
        "None": 0, "HasSubscribeShare": 1, "HasSubscribeExceededLimit": 2,
        "HasSubscribe1080POr720P": 3, "HasSubscribeOneShare": 4, "TooFrequentCall": 5,
      ]),
    SDKEnumRows(
      "ZoomVideoSDKAnnotationToolType", as: AnnotationToolType.self,
      [
        "None": 0, "Pen": 1, "HighLighter": 2, "AutoLine": 3, "AutoRectangle": 4,
        "AutoEllipse": 5, "AutoArrow": 6, "AutoRectangleFill": 7, "AutoEllipseFill": 8,
        "SpotLight": 9, "Arrow": 10, "ERASER": 11, "Picker": 12, "AutoRectangleSemiFill": 13,
        "AutoEllipseSemiFill": 14, "AutoDoubleArrow": 15, "AutoDiamond": 16,
        "AutoStampArrow": 17, "AutoStampCheck": 18, "AutoStampX": 19, "AutoStampStar": 20,
        "AutoStampHeart": 21, "AutoStampQm": 22,
      ],
      notes: [
        "SpotLight": "your own share only", "Picker": "your own share only",
      ]),
    SDKEnumRows(
      "ZoomVideoSDKAnnotationClearType", as: AnnotationClearType.self,
      ["All": 0, "Others": 1, "My": 2],
      aliases: ["My": ("my", .my)]),
    SDKEnumRows(
      "ZoomVideoSDKChatPrivilegeType", as: ChatPrivilege.self,
      [
        "Unknown": 0, "Everyone_Publicly_And_Privately": 1, "No_One": 2,
        "Everyone_Publicly": 3,
      ]),
    SDKEnumRows(
      "ZoomVideoSDKChatMsgDeleteBy", as: ChatDeleteBy.self,
      ["NONE": 0, "SELF": 1, "HOST": 2, "DLP": 3]),
    SDKEnumRows(
      "ZoomVideoSDKNetworkStatus", as: NetworkQuality.self,
      ["None": 0, "Bad": 1, "Normal": 2, "Good": 3]),
    SDKEnumRows(
      "ZoomVideoSDKAudioType", as: AudioType.self,
      ["None": 0, "VOIP": 1, "TELEPHONY": 2, "Unknown": 3],
      notes: ["TELEPHONY": "never reported: no phone audio here"],
      missing: ["Unknown": "the engine always knows how audio is connected"]),
    SDKEnumRows(
      "ZoomVideoSDKVideoResolution", as: VideoResolution.self,
      ["90": 0, "180": 1, "360": 2, "720": 3, "Auto": 100],
      aliases: ["Auto": ("_Auto", ._Auto)]),
    SDKEnumRows(
      "ZoomVideoSDKVideoAspect", as: VideoAspect.self,
      ["Original": 0, "Full_Filled": 1, "LetterBox": 2, "PanAndScan": 3],
      notes: ["Original": "recorded with the subscription; the engine draws nothing"]),
    SDKEnumRows(
      "ZoomVideoSDKRecordingStatus", as: RecordingStatus.self,
      ["None": 0, "Start": 1, "Stop": 2, "DiskFull": 3, "Pause": 4, "Connecting": 5],
      notes: [
        "DiskFull": "never reported: no recording is made",
        "Connecting": "never reported: a start takes effect at once",
      ]),
    SDKEnumRows(
      "ZoomVideoSDKRecordAgreementType", as: RecordAgreementType.self,
      ["Invalid": 0, "Traditional": 1, "Individual_Only": 2],
      notes: ["Individual_Only": "never offered: every recording here is a traditional one"]),
    SDKEnumRows("ZoomVideoSDKSessionType", as: SessionType.self, ["Main": 0, "Sub": 1]),
    SDKEnumRows(
      "ZoomVideoSDKSubSessionStatus", as: SubSessionStatus.self,
      [
        "None": 0, "Committed": 1, "Withdrawn": 2, "Started": 3, "Stopping": 4, "Stopped": 5,
        "CommitFailed": 6, "WithdrawFailed": 7, "StartFailed": 8, "StopFailed": 9,
      ],
      notes: [
        "Stopping": "never reported: stopping is immediate here",
        "CommitFailed": "never reported: a refused commit answers with its error code",
        "WithdrawFailed": "never reported: a refused withdrawal answers with its error code",
        "StartFailed": "never reported: a refused start answers with its error code",
        "StopFailed": "never reported: a refused stop answers with its error code",
      ]),
    SDKEnumRows(
      "ZoomVideoSDKUserHelpRequestResult", as: SubSessionHelpResult.self,
      ["Idle": 0, "Busy": 1, "Ignore": 2, "HostAlreadyInSubSession": 3]),
  ]

  // MARK: Error codes

  /// Each case's SDK spelling, as app code writes it: these compile only while they exist.
  static let errorSpellings: KeyValuePairs<String, VideoSDKError> = [
    "Errors_Success": .Errors_Success,
    "Errors_Wrong_Usage": .Errors_Wrong_Usage,
    "Errors_Internal_Error": .Errors_Internal_Error,
    "Errors_Uninitialize": .Errors_Uninitialize,
    "Errors_Invalid_Parameter": .Errors_Invalid_Parameter,
    "Errors_Call_Too_Frequently": .Errors_Call_Too_Frequently,
    "Errors_Dont_Support_Feature": .Errors_Dont_Support_Feature,
    "Errors_Unknown": .Errors_Unknown,
    "Errors_Auth_Error": .Errors_Auth_Error,
    "Errors_JoinSession_NoSessionName": .Errors_JoinSession_NoSessionName,
    "Errors_JoinSession_NoSessionToken": .Errors_JoinSession_NoSessionToken,
    "Errors_JoinSession_NoUserName": .Errors_JoinSession_NoUserName,
    "Errors_JoinSession_Invalid_SessionName": .Errors_JoinSession_Invalid_SessionName,
    "Errors_JoinSession_Invalid_Password": .Errors_JoinSession_Invalid_Password,
    "Errors_JoinSession_Invalid_SessionToken": .Errors_JoinSession_Invalid_SessionToken,
    "Errors_JoinSession_SessionName_TooLong": .Errors_JoinSession_SessionName_TooLong,
    "Errors_JoinSession_Token_MismatchedSessionName":
      .Errors_JoinSession_Token_MismatchedSessionName,
    "Errors_JoinSession_Token_NoSessionName": .Errors_JoinSession_Token_NoSessionName,
    "Errors_JoinSession_Token_RoleType_EmptyOrWrong":
      .Errors_JoinSession_Token_RoleType_EmptyOrWrong,
    "Errors_JoinSession_Token_UserIdentity_TooLong": .Errors_JoinSession_Token_UserIdentity_TooLong,
    "Errors_Session_Join_Failed": .Errors_Session_Join_Failed,
    "Errors_Session_No_Rights": .Errors_Session_No_Rights,
    "Errors_Session_Already_In_Progress": .Errors_Session_Already_In_Progress,
    "Errors_Session_You_Have_No_Share": .Errors_Session_You_Have_No_Share,
    "Errors_Session_Reconnecting": .Errors_Session_Reconnecting,
    "Errors_Session_Disconnecting": .Errors_Session_Disconnecting,
    "Errors_Session_Need_Password": .Errors_Session_Need_Password,
    "Errors_Session_Password_Wrong": .Errors_Session_Password_Wrong,
    "Errors_Session_Invalid_Param": .Errors_Session_Invalid_Param,
    "Errors_Session_Audio_Error": .Errors_Session_Audio_Error,
    "Errors_Session_Video_Error": .Errors_Session_Video_Error,
    "Errors_Fail_Assign_User_Privilege": .Errors_Fail_Assign_User_Privilege,
    "Errors_Not_In_Session": .Errors_Not_In_Session,
    "Errors_Session_Share_Error": .Errors_Session_Share_Error,
    "Errors_Session_Share_You_Are_Not_Sharing": .Errors_Session_Share_You_Are_Not_Sharing,
    "Errors_Session_Share_Camera_Video_Not_Start": .Errors_Session_Share_Camera_Video_Not_Start,
  ]

  /// The SDK's error codes that no path here returns: code, name, reason (each is a case all
  /// the same, so that app code that names it compiles).
  static let errorsNotModelled: [(code: Int, name: String, reason: String)] = [
    (4, "Errors_Memory_Error", "out of scope: SDK internals"),
    (5, "Errors_Load_Module_Error", "out of scope: SDK modules"),
    (6, "Errors_UnLoad_Module_Error", "out of scope: SDK modules"),
    (9, "Errors_No_Impl", "never returned: a call the engine lacks is absent, not stubbed"),
    (12, "Errors_Remove_Folder_Fail", "out of scope: log files"),
    (1000, "Errors_Auth_Base", "a numbering base, not an error"),
    (
      1002, "Errors_Auth_Empty_Key_or_Secret",
      "no key or secret at initialize; tokens are checked at join"
    ),
    (1003, "Errors_Auth_Wrong_Key_or_Secret", "deprecated in the SDK; tokens are checked at join"),
    (1004, "Errors_Auth_DoesNot_Support_SDK", "deprecated in the SDK; out of scope: accounts"),
    (1005, "Errors_Auth_Disable_SDK", "deprecated in the SDK; out of scope: accounts"),
    (2000, "Errors_Session_Base", "a numbering base, not an error"),
    (2001, "Errors_Session_Module_Not_Found", "out of scope: SDK modules"),
    (2002, "Errors_Session_Service_Invalid", "out of scope: SDK modules"),
    (2006, "Errors_Session_Dont_Support_SessionType", "out of scope: sub-sessions"),
    (2010, "Errors_Session_Not_Started", "never returned: joining a name starts its session"),
    (2013, "Errors_Session_Remote_DB_Error", "out of scope: service internals"),
    (2015, "Errors_Session_Client_Incompatible", "out of scope: client versions"),
    (2016, "Errors_Session_Account_FreeMinutesExceeded", "out of scope: accounts"),
    (2017, "Errors_Session_Account_FreeCreditExceeded", "out of scope: accounts"),
    (3001, "Errors_Session_Audio_No_Microphone", "out of scope: audio devices"),
    (3002, "Errors_Session_Audio_No_Speaker", "out of scope: audio devices"),
    (3003, "Errors_Session_Bluetooth_SCO_Connection_Failed", "Android only"),
    (4001, "Errors_Session_Video_Device_Error", "out of scope: camera devices"),
    (5000, "Errors_Session_Live_Stream_Error", "out of scope: live streaming"),
    (5500, "Errors_Session_Phone_Error", "out of scope: phone dial-out"),
    (5501, "Errors_Dont_Support_Multi_Stream_Video_User", "out of scope: multiple cameras"),
    (5504, "Errors_Recording_Is_Connecting", "a start takes effect at once here"),
    (
      5505, "Errors_Set_Virtual_Background_Fail",
      "out of scope: video effects; 5504 in older builds"
    ),
    (6001, "Errors_Malloc_Failed", "out of scope: SDK internals"),
    (6003, "Errors_No_License", "out of scope: accounts"),
    (6004, "Errors_Video_Module_Not_Ready", "out of scope: media modules"),
    (6005, "Errors_Video_Module_Error", "out of scope: media modules"),
    (6006, "Errors_Video_device_error", "out of scope: camera devices"),
    (6007, "Errors_No_Video_Data", "out of scope: raw media"),
    (6008, "Errors_Share_Module_Not_Ready", "out of scope: media modules"),
    (6009, "Errors_Share_Module_Error", "out of scope: media modules"),
    (6010, "Errors_No_Share_Data", "out of scope: raw media"),
    (6011, "Errors_Audio_Module_Not_Ready", "out of scope: media modules"),
    (6012, "Errors_Audio_Module_Error", "out of scope: media modules"),
    (6013, "Errors_No_Audio_Data", "out of scope: raw media"),
    (6014, "Errors_Preprocess_Rawdata_Error", "out of scope: raw media"),
    (6015, "Errors_Rawdata_No_Device_Running", "out of scope: raw media"),
    (6016, "Errors_Rawdata_Init_Device", "out of scope: raw media"),
    (6017, "Errors_Rawdata_Virtual_Device", "out of scope: raw media"),
    (6018, "Errors_Rawdata_Cannot_Change_Virtual_Device_In_Preview", "out of scope: raw media"),
    (6019, "Errors_Rawdata_Internal_Error", "out of scope: raw media"),
    (6020, "Errors_Rawdata_Send_Too_Much_Data_In_Single_Time", "out of scope: raw media"),
    (6021, "Errors_Rawdata_Send_Too_Frequently", "out of scope: raw media"),
    (6022, "Errors_Rawdata_Virtual_Mic_Is_Terminate", "out of scope: raw media"),
    (6023, "Errors_Rawdata_Invalid_Share_Preprocessing_Data_Object", "out of scope: raw media"),
    (6024, "Errors_Rawdata_Share_Preprocessing_Is_Stopped", "out of scope: raw media"),
    (
      7002, "Errors_Session_Share_Module_Not_Ready",
      "deprecated in the SDK; share failures are 7001"
    ),
    (
      7004, "Errors_Session_Share_Type_Is_Not_Support",
      "deprecated in the SDK; share failures are 7001"
    ),
    (7005, "Errors_Session_Share_Internal_Error", "deprecated in the SDK; share failures are 7001"),
    (
      7007, "Errors_Session_Share_Camera_Conflict_With_Video_Effects", "out of scope: video effects"
    ),
    (7008, "Errors_Session_Share_Conflict_With_Whiteboard", "out of scope: whiteboard"),
    (7500, "Errors_Session_Filetransfer_UnknownError", "out of scope: file transfer"),
    (7501, "Errors_Session_Filetransfer_FileTypeBlocked", "out of scope: file transfer"),
    (7502, "Errors_Session_Filetransfer_FileSizelimited", "out of scope: file transfer"),
  ]

  static let errors: [SDKNameEntry] = {
    var numbered: [(code: Int, entry: SDKNameEntry)] = []
    // Every code is a case; those no path here returns say why beside their code.
    let neverReturned = Dictionary(
      uniqueKeysWithValues: errorsNotModelled.map { ($0.name, $0.reason) })
    for error in VideoSDKError.allCases {
      let spelled = errorSpellings.contains { $0.key == error.sdkName }
      var note = "code \(error.rawValue)" + (spelled ? "; also `.\(error.sdkName)`" : "")
      if let reason = neverReturned[error.sdkName] { note += "; never returned here: \(reason)" }
      numbered.append(
        (error.rawValue, modelled(error.sdkName, "VideoSDKError.\(error)", note, proof: error)))
    }
    let sorted = numbered.sorted { ($0.code, $0.entry.sdkName) < ($1.code, $1.entry.sdkName) }
    return [
      modelled("ZoomVideoSDKError", "VideoSDKError", "SessionCore", proof: VideoSDKError.self)
    ]
      + sorted.map(\.entry)
  }()

  static let errorProblems: [String] =
    errorSpellings.compactMap { spelling in
      spelling.value.sdkName == spelling.key
        ? nil : "VideoSDKError.\(spelling.key) is \(spelling.value.sdkName)"
    }
    + errorsNotModelled.compactMap { missing in
      VideoSDKError(rawValue: missing.code)?.sdkName == missing.name
        ? nil : "\(missing.name) (\(missing.code)) is not the code of that name"
    }

  // MARK: Rendering

  static let intro = """
    # SDK names: ZoomVideoSDK and here

    Every name an app written against the Zoom Video SDK for iOS may reach for, and what it is
    here: the delegate callbacks; the methods and properties of the SDK object, the session,
    users, helpers and objects; the enum cases and the error codes. A name the engine does not
    model says why. Apps port by renaming types alone (`typealias ZoomVideoSDK = VideoSDK`, …;
    see `Examples/QuickStart/Seed/ZoomNames.swift`): method names, parameter labels and callback
    names stay, so most rows differ only as Objective-C and Swift spell a name
    (`onUserJoin:users:` is `onUserJoin(_:users:)`). SDK names are the headers' spellings:
    delegate selectors bare, members as `Type.selector`, enum cases as `Type_Case`, error codes
    as the `ZoomVideoSDKError` case names.

    This file is generated and checked by `Tests/SessionSDKTests/SDKNameTableTests.swift`, which
    holds the table as data. Each modelled row has a closure that uses the name here, so the
    tests stop compiling when one is renamed or removed; and they fail when this file differs
    from the table. After changing the table, or a name it generates rows from, regenerate the
    file with `SESSIONENGINE_WRITE_DOCS=1 swift test --skip-build --filter SDKName` (after
    `swift build --build-tests`).
    """

  /// The table as Markdown: the intro, the counts, then one section per part of the SDK.
  static func markdown() -> String {
    let modelledCount = rows.filter { $0.status == .modelled }.count
    var lines = [
      intro, "",
      "\(rows.count) names: \(modelledCount) modelled, \(rows.count - modelledCount) not modelled.",
    ]
    for section in SDKNameSection.allCases {
      lines += ["", "## \(section.title)", "", section.lede, ""]
      lines += ["| SDK name | Here | Notes |", "| --- | --- | --- |"]
      for entry in entries(of: section) {
        let here = entry.here.isEmpty ? "—" : "`\(entry.here)`"
        let notes: String
        switch entry.status {
        case .modelled: notes = entry.note
        case .notModelled(let reason): notes = "not modelled — \(reason)"
        }
        lines.append("| `\(entry.sdkName)` | \(here) | \(cell(notes)) |")
      }
    }
    return lines.joined(separator: "\n") + "\n"
  }

  private static func cell(_ text: String) -> String {
    text.replacingOccurrences(of: "|", with: "\\|")
  }

  // MARK: The checklist

  /// The names the table must cover, each modelled or not modelled with a reason: the SDK's
  /// delegate callbacks that a session engine needs (including the deprecated and the optional
  /// ones it needs), every method and property of the SDK object, its parameters, the session,
  /// users, canvases, share actions, helpers and chat messages, and every enum case and error
  /// code.
  static let checklist: [String] = [
    // Delegate callbacks.
    """
    onSessionJoin onSessionLeave onSessionLeave: onError:detail: onSessionNeedPassword:
    onSessionPasswordWrong: onSystemPermissionRequired:
    onUserJoin:users: onUserLeave:users: onUserHostChanged:users: onUserManagerChanged:
    onUserNameChanged: onUserActiveAudioChanged:users:
    onUserVideoStatusChanged:user: onUserVideoNetworkStatusChanged:user:
    onUserNetworkStatusChanged:level:user: onUserOverallNetworkStatusChanged:user:
    onVideoCanvasSubscribeFail:user:view:
    onUserAudioStatusChanged:user: onHostAskUnmute
    onUserShareStatusChanged:user:shareAction: onFailedToStartShare:user: onShareSettingChanged:
    onShareContentChanged:user:shareAction:
    onAnnotationHelperCleanUp: onAnnotationPrivilegeChange:shareOwner:
    onAnnotationPrivilegeChangeWithUser:shareAction: onAnnotationToolTypeChanged:view:toolType:
    onChatNewMessageNotify:message: onChatMsgDeleteNotification:messageID:deleteBy:
    onChatPrivilegeChanged:privilege:
    onCmdChannelConnectResult: onCommandReceived:sendUser:
    """,
    // The SDK object and its parameters.
    """
    ZoomVideoSDK.shareInstance ZoomVideoSDK.delegate ZoomVideoSDK.initialize:
    ZoomVideoSDK.cleanup ZoomVideoSDK.joinSession: ZoomVideoSDK.leaveSession:
    ZoomVideoSDK.getSession ZoomVideoSDK.isInSession ZoomVideoSDK.getSDKVersion
    ZoomVideoSDK.exportLog ZoomVideoSDK.cleanAllExportedLogs ZoomVideoSDK.getSessionType
    ZoomVideoSDK.getAudioHelper ZoomVideoSDK.getVideoHelper ZoomVideoSDK.getUserHelper
    ZoomVideoSDK.getShareHelper ZoomVideoSDK.getLiveStreamHelper
    ZoomVideoSDK.getIncomingLiveStreamHelper ZoomVideoSDK.getChatHelper ZoomVideoSDK.getPhoneHelper
    ZoomVideoSDK.getCmdChannel ZoomVideoSDK.getRecordingHelper ZoomVideoSDK.getAudioSettingHelper
    ZoomVideoSDK.getTestAudioDeviceHelper ZoomVideoSDK.getLiveTranscriptionHelper
    ZoomVideoSDK.getVirtualBackgroundHelper ZoomVideoSDK.getCRCHelper ZoomVideoSDK.getMaskHelper
    ZoomVideoSDK.getsubSessionHelper
    ZoomVideoSDKInitParams.domain ZoomVideoSDKInitParams.logFilePrefix
    ZoomVideoSDKInitParams.appGroupId ZoomVideoSDKInitParams.enableLog
    ZoomVideoSDKInitParams.extendParam
    ZoomVideoSDKSessionContext.sessionName ZoomVideoSDKSessionContext.sessionPassword
    ZoomVideoSDKSessionContext.userName ZoomVideoSDKSessionContext.token
    ZoomVideoSDKSessionContext.sessionIdleTimeoutMins
    ZoomVideoSDKSessionContext.enable5GHighBandWidth ZoomVideoSDKSessionContext.audioOption
    ZoomVideoSDKSessionContext.videoOption
    ZoomVideoSDKAudioOptions.connect ZoomVideoSDKAudioOptions.mute
    ZoomVideoSDKAudioOptions.isMyVoiceInMix ZoomVideoSDKAudioOptions.autoAdjustSpeakerVolume
    ZoomVideoSDKVideoOptions.localVideoOn ZoomVideoSDKVideoOptions.multitaskingCameraAccessEnabled
    """,
    // Session.
    """
    ZoomVideoSDKSession.getSessionName ZoomVideoSDKSession.getSessionID
    ZoomVideoSDKSession.getSessionNumber ZoomVideoSDKSession.getSessionPassword
    ZoomVideoSDKSession.getSessionPhonePasscode ZoomVideoSDKSession.getSessionHostName
    ZoomVideoSDKSession.getSessionHost ZoomVideoSDKSession.getRemoteUsers
    ZoomVideoSDKSession.getMySelf ZoomVideoSDKSession.getSessionAudioStatisticInfo
    ZoomVideoSDKSession.getSessionVideoStatisticInfo
    ZoomVideoSDKSession.getSessionShareStatisticInfo ZoomVideoSDKSession.isFileTransferEnable
    ZoomVideoSDKSession.transferFile: ZoomVideoSDKSession.getTransferFileTypeWhiteList
    ZoomVideoSDKSession.getMaxTransferFileSize
    """,
    // User, its audio status, canvases, share actions.
    """
    ZoomVideoSDKUser.getUserID ZoomVideoSDKUser.getUserName ZoomVideoSDKUser.getCustomUserId
    ZoomVideoSDKUser.getUserReference ZoomVideoSDKUser.isHost ZoomVideoSDKUser.isManager
    ZoomVideoSDKUser.isIndividualRecordAgreed ZoomVideoSDKUser.isVideoSpotLighted
    ZoomVideoSDKUser.audioStatus ZoomVideoSDKAudioStatus.isMuted ZoomVideoSDKAudioStatus.talking
    ZoomVideoSDKAudioStatus.audioType ZoomVideoSDKUser.getVideoStatisticInfo
    ZoomVideoSDKUser.getShareStatisticInfo ZoomVideoSDKUser.getVideoPipe
    ZoomVideoSDKUser.getMultiCameraStreamList ZoomVideoSDKUser.getVideoCanvas
    ZoomVideoSDKUser.getMultiCameraCanvasList ZoomVideoSDKUser.getRemoteCameraControlHelper
    ZoomVideoSDKUser.getShareActionList ZoomVideoSDKUser.setUserPlaybackVolume:isSharingAudio:
    ZoomVideoSDKUser.getUserPlaybackVolume: ZoomVideoSDKUser.canSetUserPlaybackVolume:
    ZoomVideoSDKUser.getAudioLevel ZoomVideoSDKUser.transferFile:
    ZoomVideoSDKUser.isIncomingLiveStreamUser ZoomVideoSDKUser.getWhiteboardStatus
    ZoomVideoSDKUser.isInSubSession ZoomVideoSDKUser.getNetworkLevel:
    ZoomVideoSDKUser.getOverallNetworkLevel
    ZoomVideoSDKVideoCanvas.videoStatus ZoomVideoSDKVideoStatus.on
    ZoomVideoSDKVideoCanvas.shareStatus
    ZoomVideoSDKVideoCanvas.subscribeWithView:aspectMode:andResolution:
    ZoomVideoSDKVideoCanvas.subscribeWithPiPView: ZoomVideoSDKVideoCanvas.unSubscribeWithView:
    ZoomVideoSDKVideoCanvas.setAspectMode:toView: ZoomVideoSDKVideoCanvas.setResolution:toView:
    ZoomVideoSDKShareAction.getShareSourceId ZoomVideoSDKShareAction.getShareCanvas
    ZoomVideoSDKShareAction.getShareStatus ZoomVideoSDKShareAction.getSharePipe
    ZoomVideoSDKShareAction.getSubscribeFailReason
    ZoomVideoSDKShareAction.isAnnotationPrivilegeEnabled ZoomVideoSDKShareAction.getShareType
    ZoomVideoSDKShareAction.getShareSourceContentSize
    """,
    // UserHelper, VideoHelper.
    """
    ZoomVideoSDKUserHelper.changeName:withUser: ZoomVideoSDKUserHelper.makeHost:
    ZoomVideoSDKUserHelper.makeManager: ZoomVideoSDKUserHelper.revokeManager:
    ZoomVideoSDKUserHelper.removeUser: ZoomVideoSDKUserHelper.reclaimHost
    ZoomVideoSDKVideoHelper.startVideo ZoomVideoSDKVideoHelper.stopVideo
    ZoomVideoSDKVideoHelper.startVideoPreview:resolution: ZoomVideoSDKVideoHelper.stopVideoPreview:
    ZoomVideoSDKVideoHelper.startVideoCanvasPreview:andAspectMode:
    ZoomVideoSDKVideoHelper.stopVideoCanvasPreview: ZoomVideoSDKVideoHelper.rotateMyVideo:
    ZoomVideoSDKVideoHelper.mirrorMyVideo: ZoomVideoSDKVideoHelper.isMyVideoMirrored
    ZoomVideoSDKVideoHelper.switchCamera ZoomVideoSDKVideoHelper.switchCamera:
    ZoomVideoSDKVideoHelper.getCameraDeviceList ZoomVideoSDKVideoHelper.getSelectedCamera
    ZoomVideoSDKVideoHelper.setVideoQualityPreference:
    ZoomVideoSDKVideoHelper.isOriginalAspectRatioEnabled
    ZoomVideoSDKVideoHelper.enableOriginalAspectRatio:
    ZoomVideoSDKVideoHelper.canEnableAlphaChannelMode
    ZoomVideoSDKVideoHelper.enableAlphaChannelMode:
    ZoomVideoSDKVideoHelper.isAlphaChannelModeEnabled
    ZoomVideoSDKVideoHelper.isDeviceSupportAlphaChannelMode
    ZoomVideoSDKVideoHelper.spotLightVideo: ZoomVideoSDKVideoHelper.unSpotLightVideo:
    ZoomVideoSDKVideoHelper.unSpotlightAllVideos
    ZoomVideoSDKVideoHelper.getSpotlightedVideoUserList
    ZoomVideoSDKVideoHelper.isMultiStreamSupported
    ZoomVideoSDKVideoHelper.enableMultiStreamVideo:customDeviceName:
    ZoomVideoSDKVideoHelper.disableMultiStreamVideo: ZoomVideoSDKVideoHelper.muteMultiStreamVideo:
    ZoomVideoSDKVideoHelper.unmuteMultiStreamVideo: ZoomVideoSDKVideoHelper.getDeviceIDByMyPipe:
    ZoomVideoSDKVideoHelper.getDeviceIDByMyCanvas:
    """,
    // AudioHelper.
    """
    ZoomVideoSDKAudioHelper.startAudio ZoomVideoSDKAudioHelper.stopAudio
    ZoomVideoSDKAudioHelper.muteAudio: ZoomVideoSDKAudioHelper.unmuteAudio:
    ZoomVideoSDKAudioHelper.muteAllAudio: ZoomVideoSDKAudioHelper.allowAudioUnmutedBySelf:
    ZoomVideoSDKAudioHelper.unmuteAllAudio ZoomVideoSDKAudioHelper.subscribe
    ZoomVideoSDKAudioHelper.unSubscribe ZoomVideoSDKAudioHelper.setSDKAudioSessionEnv
    ZoomVideoSDKAudioHelper.getCurrentAudioOutputRoute ZoomVideoSDKAudioHelper.setAudioOutputRoute:
    ZoomVideoSDKAudioHelper.getAvalibleAudioOutputRoute
    ZoomVideoSDKAudioHelper.showAudioOutputDeviceAirPlayPicker:
    ZoomVideoSDKAudioHelper.getCurrentAudioInputDevice
    ZoomVideoSDKAudioHelper.getAvailableAudioInputsDevice
    ZoomVideoSDKAudioHelper.setAudioInputDevice: ZoomVideoSDKAudioHelper.resetAudioSession
    ZoomVideoSDKAudioHelper.cleanAudioSession
    """,
    // ShareHelper.
    """
    ZoomVideoSDKShareHelper.startShareWithView:
    ZoomVideoSDKShareHelper.startSharingExternalSource:andAudioSource:isPlaying:
    ZoomVideoSDKShareHelper.startShareCamera:
    ZoomVideoSDKShareHelper.startShareWithPreprocessing:sharePreprocessor:
    ZoomVideoSDKShareHelper.isSupportInAppScreenShare ZoomVideoSDKShareHelper.startInAppScreenShare
    ZoomVideoSDKShareHelper.setAnnotationView:
    ZoomVideoSDKShareHelper.limitShareSendingResolutionToFullHD:
    ZoomVideoSDKShareHelper.applyPreprocessingOverlayImage:
    ZoomVideoSDKShareHelper.removePreprocessingOverlayImage ZoomVideoSDKShareHelper.stopShare
    ZoomVideoSDKShareHelper.pauseShare ZoomVideoSDKShareHelper.resumeShare
    ZoomVideoSDKShareHelper.lockShare: ZoomVideoSDKShareHelper.isShareLocked
    ZoomVideoSDKShareHelper.isSharingOut ZoomVideoSDKShareHelper.isOtherSharing
    ZoomVideoSDKShareHelper.isScreenSharingOut ZoomVideoSDKShareHelper.isShareDeviceAudioEnabled
    ZoomVideoSDKShareHelper.enableShareDeviceAudio:
    ZoomVideoSDKShareHelper.enablePlaySharingAudioRawdata:
    ZoomVideoSDKShareHelper.enableMultiShare: ZoomVideoSDKShareHelper.isMultiShareEnabled
    ZoomVideoSDKShareHelper.isAnnotationFeatureSupport
    ZoomVideoSDKShareHelper.disableViewerAnnotation:
    ZoomVideoSDKShareHelper.isViewerAnnotationDisabled
    ZoomVideoSDKShareHelper.createAnnotationHelper: ZoomVideoSDKShareHelper.destroyAnnotationHelper:
    ZoomVideoSDKShareHelper.setAnnotationVanishingToolTime:vanishingTime:
    ZoomVideoSDKShareHelper.getAnnotationVanishingToolDisplayTime
    ZoomVideoSDKShareHelper.getAnnotationVanishingToolVanishingTime
    """,
    // AnnotationHelper, ChatHelper, chat messages.
    """
    ZoomVideoSDKAnnotationHelper.canDoAnnotation
    ZoomVideoSDKAnnotationHelper.isSenderDisableAnnotation
    ZoomVideoSDKAnnotationHelper.startAnnotation ZoomVideoSDKAnnotationHelper.stopAnnotation
    ZoomVideoSDKAnnotationHelper.setToolColor: ZoomVideoSDKAnnotationHelper.getToolColor
    ZoomVideoSDKAnnotationHelper.setToolType: ZoomVideoSDKAnnotationHelper.getToolType
    ZoomVideoSDKAnnotationHelper.setToolWidth: ZoomVideoSDKAnnotationHelper.getToolWidth
    ZoomVideoSDKAnnotationHelper.undo ZoomVideoSDKAnnotationHelper.redo
    ZoomVideoSDKAnnotationHelper.clear:
    ZoomVideoSDKChatHelper.SendChatToUser:Content: ZoomVideoSDKChatHelper.SendChatToAll:
    ZoomVideoSDKChatHelper.canChatMessageBeDeleted: ZoomVideoSDKChatHelper.deleteChatMessage:
    ZoomVideoSDKChatHelper.IsChatDisabled ZoomVideoSDKChatHelper.IsPrivateChatDisabled
    ZoomVideoSDKChatHelper.changeChatPrivilege: ZoomVideoSDKChatHelper.getChatPrivilege
    ZoomVideoSDKChatMessage.messageID ZoomVideoSDKChatMessage.senderUser
    ZoomVideoSDKChatMessage.receiverUser ZoomVideoSDKChatMessage.content
    ZoomVideoSDKChatMessage.timeStamp ZoomVideoSDKChatMessage.isChatToAll
    ZoomVideoSDKChatMessage.isSelfSend
    """,
    // Enum cases.
    """
    ZoomVideoSDKSystemPermissionType_Camera ZoomVideoSDKSystemPermissionType_Microphone
    ZoomVideoSDKSessionLeaveReason_Unknown ZoomVideoSDKSessionLeaveReason_BySelf
    ZoomVideoSDKSessionLeaveReason_KickByHost ZoomVideoSDKSessionLeaveReason_EndByHost
    ZoomVideoSDKSessionLeaveReason_NetworkError
    ZoomVideoSDKReceiveSharingStatus_None ZoomVideoSDKReceiveSharingStatus_Start
    ZoomVideoSDKReceiveSharingStatus_Pause ZoomVideoSDKReceiveSharingStatus_Resume
    ZoomVideoSDKReceiveSharingStatus_Stop ZoomVideoSDKShareStatus.sharingStatus
    ZoomVideoSDKShareSetting_None ZoomVideoSDKShareSetting_LockedShare
    ZoomVideoSDKShareSetting_SingleShare ZoomVideoSDKShareSetting_MultiShare
    ZoomVideoSDKKShareSetting_LockedShare
    ZoomVideoSDKShareType_None ZoomVideoSDKShareType_Normal ZoomVideoSDKShareType_PureAudio
    ZoomVideoSDKShareType_Camera
    ZoomVideoSDKSubscribeFailReason_None ZoomVideoSDKSubscribeFailReason_HasSubscribeShare
    ZoomVideoSDKSubscribeFailReason_HasSubscribeExceededLimit
    ZoomVideoSDKSubscribeFailReason_HasSubscribe1080POr720P
    ZoomVideoSDKSubscribeFailReason_HasSubscribeOneShare
    ZoomVideoSDKSubscribeFailReason_TooFrequentCall
    ZoomVideoSDKAnnotationToolType_None ZoomVideoSDKAnnotationToolType_Pen
    ZoomVideoSDKAnnotationToolType_HighLighter ZoomVideoSDKAnnotationToolType_AutoLine
    ZoomVideoSDKAnnotationToolType_AutoRectangle ZoomVideoSDKAnnotationToolType_AutoEllipse
    ZoomVideoSDKAnnotationToolType_AutoArrow ZoomVideoSDKAnnotationToolType_AutoRectangleFill
    ZoomVideoSDKAnnotationToolType_AutoEllipseFill ZoomVideoSDKAnnotationToolType_SpotLight
    ZoomVideoSDKAnnotationToolType_Arrow ZoomVideoSDKAnnotationToolType_ERASER
    ZoomVideoSDKAnnotationToolType_Picker ZoomVideoSDKAnnotationToolType_AutoRectangleSemiFill
    ZoomVideoSDKAnnotationToolType_AutoEllipseSemiFill
    ZoomVideoSDKAnnotationToolType_AutoDoubleArrow ZoomVideoSDKAnnotationToolType_AutoDiamond
    ZoomVideoSDKAnnotationToolType_AutoStampArrow ZoomVideoSDKAnnotationToolType_AutoStampCheck
    ZoomVideoSDKAnnotationToolType_AutoStampX ZoomVideoSDKAnnotationToolType_AutoStampStar
    ZoomVideoSDKAnnotationToolType_AutoStampHeart ZoomVideoSDKAnnotationToolType_AutoStampQm
    ZoomVideoSDKAnnotationClearType_All ZoomVideoSDKAnnotationClearType_Others
    ZoomVideoSDKAnnotationClearType_My
    ZoomVideoSDKChatPrivilegeType_Unknown
    ZoomVideoSDKChatPrivilegeType_Everyone_Publicly_And_Privately
    ZoomVideoSDKChatPrivilegeType_No_One ZoomVideoSDKChatPrivilegeType_Everyone_Publicly
    ZoomVideoSDKChatMsgDeleteBy_NONE ZoomVideoSDKChatMsgDeleteBy_SELF
    ZoomVideoSDKChatMsgDeleteBy_HOST ZoomVideoSDKChatMsgDeleteBy_DLP
    ZoomVideoSDKNetworkStatus_None ZoomVideoSDKNetworkStatus_Bad ZoomVideoSDKNetworkStatus_Normal
    ZoomVideoSDKNetworkStatus_Good
    ZoomVideoSDKAudioType_None ZoomVideoSDKAudioType_VOIP ZoomVideoSDKAudioType_TELEPHONY
    ZoomVideoSDKAudioType_Unknown
    ZoomVideoSDKVideoResolution_90 ZoomVideoSDKVideoResolution_180 ZoomVideoSDKVideoResolution_360
    ZoomVideoSDKVideoResolution_720 ZoomVideoSDKVideoResolution_Auto
    ZoomVideoSDKVideoAspect_Original ZoomVideoSDKVideoAspect_Full_Filled
    ZoomVideoSDKVideoAspect_LetterBox ZoomVideoSDKVideoAspect_PanAndScan
    ZoomVideoSDKRecordingStatus_None ZoomVideoSDKRecordingStatus_Start
    ZoomVideoSDKRecordingStatus_Stop ZoomVideoSDKRecordingStatus_DiskFull
    ZoomVideoSDKRecordingStatus_Pause ZoomVideoSDKRecordingStatus_Connecting
    ZoomVideoSDKSessionType_Main ZoomVideoSDKSessionType_Sub
    """,
    // Error codes.
    """
    Errors_Success Errors_Wrong_Usage Errors_Internal_Error Errors_Uninitialize
    Errors_Memory_Error Errors_Load_Module_Error Errors_UnLoad_Module_Error
    Errors_Invalid_Parameter Errors_Call_Too_Frequently Errors_No_Impl
    Errors_Dont_Support_Feature Errors_Unknown Errors_Remove_Folder_Fail
    Errors_Auth_Base Errors_Auth_Error Errors_Auth_Empty_Key_or_Secret
    Errors_Auth_Wrong_Key_or_Secret Errors_Auth_DoesNot_Support_SDK Errors_Auth_Disable_SDK
    Errors_JoinSession_NoSessionName Errors_JoinSession_NoSessionToken
    Errors_JoinSession_NoUserName Errors_JoinSession_Invalid_SessionName
    Errors_JoinSession_Invalid_Password Errors_JoinSession_Invalid_SessionToken
    Errors_JoinSession_SessionName_TooLong Errors_JoinSession_Token_MismatchedSessionName
    Errors_JoinSession_Token_NoSessionName Errors_JoinSession_Token_RoleType_EmptyOrWrong
    Errors_JoinSession_Token_UserIdentity_TooLong
    Errors_Session_Base Errors_Session_Module_Not_Found Errors_Session_Service_Invalid
    Errors_Session_Join_Failed Errors_Session_No_Rights Errors_Session_Already_In_Progress
    Errors_Session_Dont_Support_SessionType Errors_Session_You_Have_No_Share
    Errors_Session_Reconnecting Errors_Session_Disconnecting Errors_Session_Not_Started
    Errors_Session_Need_Password Errors_Session_Password_Wrong Errors_Session_Remote_DB_Error
    Errors_Session_Invalid_Param Errors_Session_Client_Incompatible
    Errors_Session_Account_FreeMinutesExceeded Errors_Session_Account_FreeCreditExceeded
    Errors_Session_Audio_Error Errors_Session_Audio_No_Microphone Errors_Session_Audio_No_Speaker
    Errors_Session_Bluetooth_SCO_Connection_Failed
    Errors_Session_Video_Error Errors_Session_Video_Device_Error
    Errors_Session_Live_Stream_Error Errors_Session_Phone_Error
    Errors_Dont_Support_Multi_Stream_Video_User Errors_Fail_Assign_User_Privilege
    Errors_No_Recording_In_Process Errors_Recording_Is_Connecting
    Errors_Set_Virtual_Background_Fail
    Errors_Malloc_Failed Errors_Not_In_Session Errors_No_License Errors_Video_Module_Not_Ready
    Errors_Video_Module_Error Errors_Video_device_error Errors_No_Video_Data
    Errors_Share_Module_Not_Ready Errors_Share_Module_Error Errors_No_Share_Data
    Errors_Audio_Module_Not_Ready Errors_Audio_Module_Error Errors_No_Audio_Data
    Errors_Preprocess_Rawdata_Error Errors_Rawdata_No_Device_Running Errors_Rawdata_Init_Device
    Errors_Rawdata_Virtual_Device Errors_Rawdata_Cannot_Change_Virtual_Device_In_Preview
    Errors_Rawdata_Internal_Error Errors_Rawdata_Send_Too_Much_Data_In_Single_Time
    Errors_Rawdata_Send_Too_Frequently Errors_Rawdata_Virtual_Mic_Is_Terminate
    Errors_Rawdata_Invalid_Share_Preprocessing_Data_Object
    Errors_Rawdata_Share_Preprocessing_Is_Stopped
    Errors_Session_Share_Error Errors_Session_Share_Module_Not_Ready
    Errors_Session_Share_You_Are_Not_Sharing Errors_Session_Share_Type_Is_Not_Support
    Errors_Session_Share_Internal_Error Errors_Session_Share_Camera_Video_Not_Start
    Errors_Session_Share_Camera_Conflict_With_Video_Effects
    Errors_Session_Share_Conflict_With_Whiteboard
    Errors_Session_Filetransfer_UnknownError Errors_Session_Filetransfer_FileTypeBlocked
    Errors_Session_Filetransfer_FileSizelimited
    Errors_Spotlight_NotEnoughUsers Errors_Spotlight_ToMuchSpotlightedUsers
    Errors_Spotlight_UserCannotBeSpotlighted Errors_Spotlight_UserWithoutVideo
    Errors_Spotlight_UserNotSpotlighted
    """,
  ].flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) }
}
