/// What a media stream carries: camera video, microphone audio or a screen share.
///
/// The raw value is the byte a media datagram carries (`Docs/WireProtocol.md`, "Media
/// datagrams"); 0 and values above 3 are invalid on the wire.
///
/// > Important: A value; `Sendable`.
public enum MediaKind: UInt8, Sendable, Hashable, Codable {
  /// Camera video, sent in simulcast layers.
  case video = 1
  /// Microphone audio, one layer.
  case audio = 2
  /// A screen share, one layer.
  case share = 3
}
