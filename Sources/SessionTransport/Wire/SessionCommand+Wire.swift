import SessionCore

extension SessionCommand: WireEncodable, WireDecodable {
  /// Tag bytes, one per case: the case's position in the declaration, from 1.
  enum WireTag {
    static let leave: UInt8 = 1
    static let startVideo: UInt8 = 2
    static let stopVideo: UInt8 = 3
    static let startAudio: UInt8 = 4
    static let stopAudio: UInt8 = 5
    static let muteAudio: UInt8 = 6
    static let unmuteAudio: UInt8 = 7
    static let muteAllAudio: UInt8 = 8
    static let unmuteAllAudio: UInt8 = 9
    static let allowAudioUnmutedBySelf: UInt8 = 10
    static let startShare: UInt8 = 11
    static let pauseShare: UInt8 = 12
    static let resumeShare: UInt8 = 13
    static let stopShare: UInt8 = 14
    static let lockShare: UInt8 = 15
    static let enableMultiShare: UInt8 = 16
    static let disableViewerAnnotation: UInt8 = 17
    static let startAnnotation: UInt8 = 18
    static let stopAnnotation: UInt8 = 19
    static let clearAnnotation: UInt8 = 20
    static let makeHost: UInt8 = 21
    static let makeManager: UInt8 = 22
    static let revokeManager: UInt8 = 23
    static let removeUser: UInt8 = 24
    static let reclaimHost: UInt8 = 25
    static let changeName: UInt8 = 26
    static let sendChat: UInt8 = 27
    static let deleteChatMessage: UInt8 = 28
    static let changeChatPrivilege: UInt8 = 29
    static let reportTalking: UInt8 = 30
    static let reportNetworkQuality: UInt8 = 31
    static let sendCommand: UInt8 = 32
    static let spotlightVideo: UInt8 = 33
    static let unspotlightVideo: UInt8 = 34
    static let unspotlightAllVideos: UInt8 = 35
    static let subSession: UInt8 = 36
    static let recording: UInt8 = 37
    static let last: UInt8 = 37
  }

  func encode(to writer: inout WireWriter) {
    switch self {
    case .leave(let end):
      writer.byte(WireTag.leave)
      writer.bool(end)
    case .startVideo:
      writer.byte(WireTag.startVideo)
    case .stopVideo:
      writer.byte(WireTag.stopVideo)
    case .startAudio:
      writer.byte(WireTag.startAudio)
    case .stopAudio:
      writer.byte(WireTag.stopAudio)
    case .muteAudio(let user):
      writer.byte(WireTag.muteAudio)
      writer.user(user)
    case .unmuteAudio(let user):
      writer.byte(WireTag.unmuteAudio)
      writer.user(user)
    case .muteAllAudio(let allowUnmute):
      writer.byte(WireTag.muteAllAudio)
      writer.bool(allowUnmute)
    case .unmuteAllAudio:
      writer.byte(WireTag.unmuteAllAudio)
    case .allowAudioUnmutedBySelf(let allow):
      writer.byte(WireTag.allowAudioUnmutedBySelf)
      writer.bool(allow)
    case .startShare(let kind):
      writer.byte(WireTag.startShare)
      writer.byte(kind.rawValue)
    case .pauseShare:
      writer.byte(WireTag.pauseShare)
    case .resumeShare:
      writer.byte(WireTag.resumeShare)
    case .stopShare:
      writer.byte(WireTag.stopShare)
    case .lockShare(let lock):
      writer.byte(WireTag.lockShare)
      writer.bool(lock)
    case .enableMultiShare(let enable):
      writer.byte(WireTag.enableMultiShare)
      writer.bool(enable)
    case .disableViewerAnnotation(let disable):
      writer.byte(WireTag.disableViewerAnnotation)
      writer.bool(disable)
    case .startAnnotation(let shareOwner):
      writer.byte(WireTag.startAnnotation)
      writer.user(shareOwner)
    case .stopAnnotation(let shareOwner):
      writer.byte(WireTag.stopAnnotation)
      writer.user(shareOwner)
    case .clearAnnotation(let shareOwner, let type):
      writer.byte(WireTag.clearAnnotation)
      writer.user(shareOwner)
      writer.byte(type.rawValue)
    case .makeHost(let user):
      writer.byte(WireTag.makeHost)
      writer.user(user)
    case .makeManager(let user):
      writer.byte(WireTag.makeManager)
      writer.user(user)
    case .revokeManager(let user):
      writer.byte(WireTag.revokeManager)
      writer.user(user)
    case .removeUser(let user):
      writer.byte(WireTag.removeUser)
      writer.user(user)
    case .reclaimHost:
      writer.byte(WireTag.reclaimHost)
    case .changeName(let user, let name):
      writer.byte(WireTag.changeName)
      writer.user(user)
      writer.string(name)
    case .sendChat(let receiver, let content):
      writer.byte(WireTag.sendChat)
      writer.optional(receiver) { $0.user($1) }
      writer.string(content)
    case .sendCommand(let receiver, let content):
      writer.byte(WireTag.sendCommand)
      writer.optional(receiver) { $0.user($1) }
      writer.string(content)
    case .spotlightVideo(let user):
      writer.byte(WireTag.spotlightVideo)
      writer.user(user)
    case .unspotlightVideo(let user):
      writer.byte(WireTag.unspotlightVideo)
      writer.user(user)
    case .unspotlightAllVideos:
      writer.byte(WireTag.unspotlightAllVideos)
    case .subSession(let call):
      writer.byte(WireTag.subSession)
      call.encode(to: &writer)
    case .recording(let call):
      writer.byte(WireTag.recording)
      call.encode(to: &writer)
    case .deleteChatMessage(let messageID):
      writer.byte(WireTag.deleteChatMessage)
      writer.string(messageID)
    case .changeChatPrivilege(let privilege):
      writer.byte(WireTag.changeChatPrivilege)
      writer.byte(privilege.rawValue)
    case .reportTalking(let isTalking):
      writer.byte(WireTag.reportTalking)
      writer.bool(isTalking)
    case .reportNetworkQuality(let quality):
      writer.byte(WireTag.reportNetworkQuality)
      writer.byte(quality.rawValue)
    }
  }

  init(from reader: inout WireReader) throws(WireError) {
    switch try reader.tag("command tag", last: WireTag.last) {
    case WireTag.leave:
      self = .leave(end: try reader.bool("leave end"))
    case WireTag.startVideo:
      self = .startVideo
    case WireTag.stopVideo:
      self = .stopVideo
    case WireTag.startAudio:
      self = .startAudio
    case WireTag.stopAudio:
      self = .stopAudio
    case WireTag.muteAudio:
      self = .muteAudio(user: try reader.user("muteAudio user"))
    case WireTag.unmuteAudio:
      self = .unmuteAudio(user: try reader.user("unmuteAudio user"))
    case WireTag.muteAllAudio:
      self = .muteAllAudio(allowUnmute: try reader.bool("muteAllAudio allowUnmute"))
    case WireTag.unmuteAllAudio:
      self = .unmuteAllAudio
    case WireTag.allowAudioUnmutedBySelf:
      self = .allowAudioUnmutedBySelf(try reader.bool("allowAudioUnmutedBySelf allow"))
    case WireTag.startShare:
      self = .startShare(kind: try reader.rawEnum(ShareKind.self, "startShare kind"))
    case WireTag.pauseShare:
      self = .pauseShare
    case WireTag.resumeShare:
      self = .resumeShare
    case WireTag.stopShare:
      self = .stopShare
    case WireTag.lockShare:
      self = .lockShare(try reader.bool("lockShare lock"))
    case WireTag.enableMultiShare:
      self = .enableMultiShare(try reader.bool("enableMultiShare enable"))
    case WireTag.disableViewerAnnotation:
      self = .disableViewerAnnotation(try reader.bool("disableViewerAnnotation disable"))
    case WireTag.startAnnotation:
      self = .startAnnotation(shareOwner: try reader.user("startAnnotation share owner"))
    case WireTag.stopAnnotation:
      self = .stopAnnotation(shareOwner: try reader.user("stopAnnotation share owner"))
    case WireTag.clearAnnotation:
      let shareOwner = try reader.user("clearAnnotation share owner")
      let type = try reader.rawEnum(AnnotationClearType.self, "clearAnnotation type")
      self = .clearAnnotation(shareOwner: shareOwner, type: type)
    case WireTag.makeHost:
      self = .makeHost(try reader.user("makeHost user"))
    case WireTag.makeManager:
      self = .makeManager(try reader.user("makeManager user"))
    case WireTag.revokeManager:
      self = .revokeManager(try reader.user("revokeManager user"))
    case WireTag.removeUser:
      self = .removeUser(try reader.user("removeUser user"))
    case WireTag.reclaimHost:
      self = .reclaimHost
    case WireTag.changeName:
      let user = try reader.user("changeName user")
      self = .changeName(user: user, name: try reader.string("changeName name"))
    case WireTag.sendChat:
      let receiver = try reader.optional("sendChat receiver") {
        (reader: inout WireReader) throws(WireError) in try reader.user("sendChat receiver")
      }
      self = .sendChat(receiver: receiver, content: try reader.string("sendChat content"))
    case WireTag.sendCommand:
      let receiver = try reader.optional("sendCommand receiver") {
        (reader: inout WireReader) throws(WireError) in try reader.user("sendCommand receiver")
      }
      self = .sendCommand(receiver: receiver, content: try reader.string("sendCommand content"))
    case WireTag.spotlightVideo:
      self = .spotlightVideo(try reader.user("spotlightVideo user"))
    case WireTag.unspotlightVideo:
      self = .unspotlightVideo(try reader.user("unspotlightVideo user"))
    case WireTag.unspotlightAllVideos:
      self = .unspotlightAllVideos
    case WireTag.subSession:
      self = .subSession(try SubSessionCommand(from: &reader))
    case WireTag.recording:
      self = .recording(try RecordingCommand(from: &reader))
    case WireTag.deleteChatMessage:
      self = .deleteChatMessage(messageID: try reader.string("deleteChatMessage message id"))
    case WireTag.changeChatPrivilege:
      self = .changeChatPrivilege(
        try reader.rawEnum(ChatPrivilege.self, "changeChatPrivilege privilege"))
    case WireTag.reportTalking:
      self = .reportTalking(try reader.bool("reportTalking isTalking"))
    case WireTag.reportNetworkQuality:
      self = .reportNetworkQuality(
        try reader.rawEnum(NetworkQuality.self, "reportNetworkQuality quality"))
    case let tag:
      throw reader.unknownTag("command tag", tag, at: reader.offset - 1)
    }
  }
}
