import SessionCore

extension SessionEvent: WireEncodable, WireDecodable {
  /// Tag bytes, one per case: the case's position in the declaration, from 1.
  enum WireTag {
    static let initialized: UInt8 = 1
    static let cleanedUp: UInt8 = 2
    static let joinRequested: UInt8 = 3
    static let sessionJoined: UInt8 = 4
    static let joinFailed: UInt8 = 5
    static let leaveRequested: UInt8 = 6
    static let sessionLeft: UInt8 = 7
    static let usersJoined: UInt8 = 8
    static let usersLeft: UInt8 = 9
    static let videoStatusChanged: UInt8 = 10
    static let audioStatusChanged: UInt8 = 11
    static let activeSpeakersChanged: UInt8 = 12
    static let hostAskedUnmute: UInt8 = 13
    static let shareStatusChanged: UInt8 = 14
    static let shareSettingChanged: UInt8 = 15
    static let hostChanged: UInt8 = 16
    static let managerChanged: UInt8 = 17
    static let nameChanged: UInt8 = 18
    static let annotationStarted: UInt8 = 19
    static let annotationStopped: UInt8 = 20
    static let annotationCleared: UInt8 = 21
    static let annotationPrivilegeChanged: UInt8 = 22
    static let chatMessageReceived: UInt8 = 23
    static let chatMessageDeleted: UInt8 = 24
    static let chatPrivilegeChanged: UInt8 = 25
    static let networkStatusChanged: UInt8 = 26
    static let errorOccurred: UInt8 = 27
    static let commandReceived: UInt8 = 28
    static let spotlightChanged: UInt8 = 29
    static let subSession: UInt8 = 30
    static let recording: UInt8 = 31
    static let last: UInt8 = 31
  }

  func encode(to writer: inout WireWriter) {
    switch self {
    case .initialized:
      writer.byte(WireTag.initialized)
    case .cleanedUp:
      writer.byte(WireTag.cleanedUp)
    case .joinRequested(let sessionName, let userName):
      writer.byte(WireTag.joinRequested)
      writer.string(sessionName)
      writer.string(userName)
    case .sessionJoined(let snapshot):
      writer.byte(WireTag.sessionJoined)
      snapshot.encode(to: &writer)
    case .joinFailed(let error):
      writer.byte(WireTag.joinFailed)
      error.write(to: &writer)
    case .leaveRequested:
      writer.byte(WireTag.leaveRequested)
    case .sessionLeft(let reason):
      writer.byte(WireTag.sessionLeft)
      writer.byte(reason.rawValue)
    case .usersJoined(let participants):
      writer.byte(WireTag.usersJoined)
      writer.array(participants) { $1.encode(to: &$0) }
    case .usersLeft(let users):
      writer.byte(WireTag.usersLeft)
      writer.array(users) { $0.user($1) }
    case .videoStatusChanged(let user, let isOn):
      writer.byte(WireTag.videoStatusChanged)
      writer.user(user)
      writer.bool(isOn)
    case .audioStatusChanged(let user, let type, let isMuted):
      writer.byte(WireTag.audioStatusChanged)
      writer.user(user)
      writer.byte(type.rawValue)
      writer.bool(isMuted)
    case .activeSpeakersChanged(let users):
      writer.byte(WireTag.activeSpeakersChanged)
      writer.array(users) { $0.user($1) }
    case .hostAskedUnmute(let by):
      writer.byte(WireTag.hostAskedUnmute)
      writer.user(by)
    case .shareStatusChanged(let user, let status, let kind):
      writer.byte(WireTag.shareStatusChanged)
      writer.user(user)
      writer.byte(status.rawValue)
      writer.byte(kind.rawValue)
    case .shareSettingChanged(let setting):
      writer.byte(WireTag.shareSettingChanged)
      writer.byte(setting.rawValue)
    case .hostChanged(let newHost):
      writer.byte(WireTag.hostChanged)
      writer.user(newHost)
    case .managerChanged(let user, let isManager):
      writer.byte(WireTag.managerChanged)
      writer.user(user)
      writer.bool(isManager)
    case .nameChanged(let user, let name):
      writer.byte(WireTag.nameChanged)
      writer.user(user)
      writer.string(name)
    case .annotationStarted(let user, let shareOwner):
      writer.byte(WireTag.annotationStarted)
      writer.user(user)
      writer.user(shareOwner)
    case .annotationStopped(let user, let shareOwner):
      writer.byte(WireTag.annotationStopped)
      writer.user(user)
      writer.user(shareOwner)
    case .annotationCleared(let user, let shareOwner, let type):
      writer.byte(WireTag.annotationCleared)
      writer.user(user)
      writer.user(shareOwner)
      writer.byte(type.rawValue)
    case .annotationPrivilegeChanged(let shareOwner, let isViewerAnnotationDisabled):
      writer.byte(WireTag.annotationPrivilegeChanged)
      writer.user(shareOwner)
      writer.bool(isViewerAnnotationDisabled)
    case .chatMessageReceived(let message):
      writer.byte(WireTag.chatMessageReceived)
      message.encode(to: &writer)
    case .chatMessageDeleted(let messageID, let deletedBy):
      writer.byte(WireTag.chatMessageDeleted)
      writer.string(messageID)
      writer.byte(deletedBy.rawValue)
    case .chatPrivilegeChanged(let privilege):
      writer.byte(WireTag.chatPrivilegeChanged)
      writer.byte(privilege.rawValue)
    case .networkStatusChanged(let user, let quality):
      writer.byte(WireTag.networkStatusChanged)
      writer.user(user)
      writer.byte(quality.rawValue)
    case .spotlightChanged(let users):
      writer.byte(WireTag.spotlightChanged)
      writer.array(users) { $0.user($1) }
    case .commandReceived(let sender, let content):
      writer.byte(WireTag.commandReceived)
      writer.user(sender)
      writer.string(content)
    case .subSession(let change):
      writer.byte(WireTag.subSession)
      change.encode(to: &writer)
    case .recording(let change):
      writer.byte(WireTag.recording)
      change.encode(to: &writer)
    case .errorOccurred(let error, let detail):
      writer.byte(WireTag.errorOccurred)
      error.write(to: &writer)
      writer.signed(detail)
    }
  }

  init(from reader: inout WireReader) throws(WireError) {
    switch try reader.tag("event tag", last: WireTag.last) {
    case WireTag.initialized:
      self = .initialized
    case WireTag.cleanedUp:
      self = .cleanedUp
    case WireTag.joinRequested:
      let sessionName = try reader.string("joinRequested session name")
      self = .joinRequested(sessionName: sessionName, userName: try reader.string("user name"))
    case WireTag.sessionJoined:
      self = .sessionJoined(try SessionSnapshot(from: &reader))
    case WireTag.joinFailed:
      self = .joinFailed(error: try VideoSDKError.read("joinFailed error", from: &reader))
    case WireTag.leaveRequested:
      self = .leaveRequested
    case WireTag.sessionLeft:
      self = .sessionLeft(reason: try reader.rawEnum(LeaveReason.self, "sessionLeft reason"))
    case WireTag.usersJoined:
      self = .usersJoined(
        try reader.array("usersJoined", minimumElementSize: Participant.minimumWireSize) {
          (reader: inout WireReader) throws(WireError) in try Participant(from: &reader)
        })
    case WireTag.usersLeft:
      self = .usersLeft(
        try reader.array("usersLeft", minimumElementSize: 1) {
          (reader: inout WireReader) throws(WireError) in try reader.user("usersLeft user")
        })
    case WireTag.videoStatusChanged:
      let user = try reader.user("videoStatusChanged user")
      self = .videoStatusChanged(user: user, isOn: try reader.bool("videoStatusChanged isOn"))
    case WireTag.audioStatusChanged:
      let user = try reader.user("audioStatusChanged user")
      let type = try reader.rawEnum(AudioType.self, "audioStatusChanged type")
      let isMuted = try reader.bool("audioStatusChanged isMuted")
      self = .audioStatusChanged(user: user, type: type, isMuted: isMuted)
    case WireTag.activeSpeakersChanged:
      self = .activeSpeakersChanged(
        try reader.array("activeSpeakersChanged", minimumElementSize: 1) {
          (reader: inout WireReader) throws(WireError) in try reader.user("active speaker")
        })
    case WireTag.hostAskedUnmute:
      self = .hostAskedUnmute(by: try reader.user("hostAskedUnmute by"))
    case WireTag.shareStatusChanged:
      let user = try reader.user("shareStatusChanged user")
      let status = try reader.rawEnum(ShareStatus.self, "shareStatusChanged status")
      let kind = try reader.rawEnum(ShareKind.self, "shareStatusChanged kind")
      self = .shareStatusChanged(user: user, status: status, kind: kind)
    case WireTag.shareSettingChanged:
      self = .shareSettingChanged(try reader.rawEnum(ShareSetting.self, "share setting"))
    case WireTag.hostChanged:
      self = .hostChanged(newHost: try reader.user("hostChanged new host"))
    case WireTag.managerChanged:
      let user = try reader.user("managerChanged user")
      self = .managerChanged(user: user, isManager: try reader.bool("managerChanged isManager"))
    case WireTag.nameChanged:
      let user = try reader.user("nameChanged user")
      self = .nameChanged(user: user, name: try reader.string("nameChanged name"))
    case WireTag.annotationStarted:
      let user = try reader.user("annotationStarted user")
      self = .annotationStarted(user: user, shareOwner: try reader.user("share owner"))
    case WireTag.annotationStopped:
      let user = try reader.user("annotationStopped user")
      self = .annotationStopped(user: user, shareOwner: try reader.user("share owner"))
    case WireTag.annotationCleared:
      let user = try reader.user("annotationCleared user")
      let shareOwner = try reader.user("annotationCleared share owner")
      let type = try reader.rawEnum(AnnotationClearType.self, "annotationCleared type")
      self = .annotationCleared(user: user, shareOwner: shareOwner, type: type)
    case WireTag.annotationPrivilegeChanged:
      let shareOwner = try reader.user("annotationPrivilegeChanged share owner")
      let disabled = try reader.bool("annotationPrivilegeChanged isViewerAnnotationDisabled")
      self = .annotationPrivilegeChanged(
        shareOwner: shareOwner, isViewerAnnotationDisabled: disabled)
    case WireTag.chatMessageReceived:
      self = .chatMessageReceived(try ChatMessage(from: &reader))
    case WireTag.chatMessageDeleted:
      let messageID = try reader.string("chatMessageDeleted message id")
      let deletedBy = try reader.rawEnum(ChatDeleteBy.self, "chatMessageDeleted deleted by")
      self = .chatMessageDeleted(messageID: messageID, deletedBy: deletedBy)
    case WireTag.chatPrivilegeChanged:
      self = .chatPrivilegeChanged(try reader.rawEnum(ChatPrivilege.self, "chat privilege"))
    case WireTag.networkStatusChanged:
      let user = try reader.user("networkStatusChanged user")
      let quality = try reader.rawEnum(NetworkQuality.self, "networkStatusChanged quality")
      self = .networkStatusChanged(user: user, quality: quality)
    case WireTag.spotlightChanged:
      self = .spotlightChanged(
        try reader.array("spotlightChanged users", minimumElementSize: 1) {
          (reader: inout WireReader) throws(WireError) in try reader.user("spotlighted user")
        })
    case WireTag.commandReceived:
      let sender = try reader.user("commandReceived sender")
      self = .commandReceived(sender: sender, content: try reader.string("commandReceived content"))
    case WireTag.subSession:
      self = .subSession(try SubSessionEvent(from: &reader))
    case WireTag.recording:
      self = .recording(try RecordingEvent(from: &reader))
    case WireTag.errorOccurred:
      let error = try VideoSDKError.read("errorOccurred error", from: &reader)
      self = .errorOccurred(error: error, detail: try reader.signed("errorOccurred detail"))
    case let tag:
      throw reader.unknownTag("event tag", tag, at: reader.offset - 1)
    }
  }
}
