// TEMPORARY copy of helper A's type
//
// The shapes below are the shared media types of issue 14 exactly as the shared notes give them
// (helper A defines them in its branch); this copy lets the `sfu` branch build until A's branch
// is merged, and is deleted then. Only the public memberwise initialisers and the ordering of
// `StreamID` are filled in, since code in another module cannot make or sort the values
// without them.

import SessionCore

/// The kind of a synthetic media stream.
public enum MediaKind: UInt8, Sendable, Hashable, Codable {
  case video = 1
  case audio = 2
  case share = 3
}

/// One stream of one user: a kind and a simulcast layer (0 lowest; audio and share use 0).
public struct StreamID: Sendable, Hashable, Codable, Comparable {
  /// The user who publishes the stream.
  public var user: UserID  // from SessionCore
  /// What the stream carries.
  public var kind: MediaKind
  /// The simulcast layer, 0 lowest.
  public var layer: UInt8

  /// Creates a stream id.
  public init(user: UserID, kind: MediaKind, layer: UInt8 = 0) {
    self.user = user
    self.kind = kind
    self.layer = layer
  }

  /// Orders by user, then kind, then layer.
  public static func < (lhs: StreamID, rhs: StreamID) -> Bool {
    (lhs.user.rawValue, lhs.kind.rawValue, lhs.layer)
      < (rhs.user.rawValue, rhs.kind.rawValue, rhs.layer)
  }
}

/// What every synthetic packet carries.
public struct MediaPacket: Sendable, Hashable {
  /// The stream the packet belongs to.
  public var stream: StreamID
  /// Per stream, wrapping.
  public var sequence: UInt32  // per stream, wrapping
  /// Per stream; packets of one frame share it.
  public var frameID: UInt32  // per stream; packets of one frame share it
  /// Whether the packet belongs to a key frame.
  public var isKeyFrame: Bool
  /// µs on the sender's clock.
  public var sendTime: Int64  // µs on the sender's clock
  /// Synthetic payload length (the bytes are zeros on the wire).
  public var payloadBytes: UInt16  // synthetic payload length (the bytes are zeros on the wire)
  /// 0...127 for audio (0 = loudest, as RFC 6464), 127 otherwise.
  public var audioLevel: UInt8  // 0...127 for audio (0 = loudest, as RFC 6464), 127 otherwise
  /// Video/share frame width, 0 for audio.
  public var width: UInt16  // video/share frame width, 0 for audio
  /// Video/share frame height, 0 for audio.
  public var height: UInt16
  /// How many packets the frame has.
  public var framePackets: UInt16  // how many packets the frame has

  /// Creates a packet.
  public init(
    stream: StreamID, sequence: UInt32, frameID: UInt32, isKeyFrame: Bool, sendTime: Int64,
    payloadBytes: UInt16, audioLevel: UInt8, width: UInt16, height: UInt16, framePackets: UInt16
  ) {
    self.stream = stream
    self.sequence = sequence
    self.frameID = frameID
    self.isKeyFrame = isKeyFrame
    self.sendTime = sendTime
    self.payloadBytes = payloadBytes
    self.audioLevel = audioLevel
    self.width = width
    self.height = height
    self.framePackets = framePackets
  }
}
