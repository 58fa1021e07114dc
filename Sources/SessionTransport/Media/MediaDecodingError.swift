/// Why a media datagram was refused.
///
/// Decoding never traps on hostile input: every datagram either decodes to a packet or report
/// that passes every rule of `Docs/WireProtocol.md` ("Media datagrams"), or ends here. A relay
/// drops a refused datagram and counts it by ``reason``.
///
/// > Important: A value; `Sendable`.
public enum MediaDecodingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The datagram is shorter than its fixed header (or empty).
  case truncated(count: Int, needed: Int)
  /// The datagram is longer than the largest datagram of its type.
  case tooLong(count: Int, maximum: Int)
  /// The version byte is not ``MediaDatagram/version``.
  case wrongVersion(UInt8)
  /// The type byte names no media datagram, or not the one being decoded.
  case wrongType(UInt8)
  /// The kind byte names no ``MediaKind``.
  case badKind(UInt8)
  /// The layer is not allowed for the kind (video below ``StreamID/maxLayers``, others 0).
  case badLayer(kind: MediaKind, layer: UInt8)
  /// The flags byte sets a reserved bit.
  case badFlags(UInt8)
  /// The audio level is over 127.
  case badAudioLevel(UInt8)
  /// The packet says its frame has no packets.
  case badFramePackets(UInt16)
  /// The payload length in the header is not the number of bytes after the header.
  case lengthMismatch(declared: Int, actual: Int)

  /// The kinds of refusal, for counters: one per case, without the values.
  public enum Reason: String, Sendable, Hashable, CaseIterable {
    /// ``MediaDecodingError/truncated(count:needed:)``.
    case truncated
    /// ``MediaDecodingError/tooLong(count:maximum:)``.
    case tooLong
    /// ``MediaDecodingError/wrongVersion(_:)``.
    case wrongVersion
    /// ``MediaDecodingError/wrongType(_:)``.
    case wrongType
    /// ``MediaDecodingError/badKind(_:)``.
    case badKind
    /// ``MediaDecodingError/badLayer(kind:layer:)``.
    case badLayer
    /// ``MediaDecodingError/badFlags(_:)``.
    case badFlags
    /// ``MediaDecodingError/badAudioLevel(_:)``.
    case badAudioLevel
    /// ``MediaDecodingError/badFramePackets(_:)``.
    case badFramePackets
    /// ``MediaDecodingError/lengthMismatch(declared:actual:)``.
    case lengthMismatch
  }

  /// The kind of refusal, without its values.
  public var reason: Reason {
    switch self {
    case .truncated: .truncated
    case .tooLong: .tooLong
    case .wrongVersion: .wrongVersion
    case .wrongType: .wrongType
    case .badKind: .badKind
    case .badLayer: .badLayer
    case .badFlags: .badFlags
    case .badAudioLevel: .badAudioLevel
    case .badFramePackets: .badFramePackets
    case .lengthMismatch: .lengthMismatch
    }
  }

  /// A sentence for logs, for example `"media datagram of 12 bytes; the header needs 34"`.
  public var description: String {
    switch self {
    case .truncated(let count, let needed):
      "media datagram of \(count) bytes; the header needs \(needed)"
    case .tooLong(let count, let maximum):
      "media datagram of \(count) bytes; at most \(maximum) allowed"
    case .wrongVersion(let version):
      "media datagram version \(version); this build speaks \(MediaDatagram.version)"
    case .wrongType(let type):
      "media datagram type \(type) is not expected here"
    case .badKind(let kind):
      "media kind \(kind) names no kind (1 video, 2 audio, 3 share)"
    case .badLayer(let kind, let layer):
      "layer \(layer) is not allowed for \(kind)"
    case .badFlags(let flags):
      "flags 0x\(String(flags, radix: 16)) set a reserved bit"
    case .badAudioLevel(let level):
      "audio level \(level) is over 127"
    case .badFramePackets(let count):
      "a frame of \(count) packets"
    case .lengthMismatch(let declared, let actual):
      "payload length \(declared) in the header, \(actual) bytes after it"
    }
  }
}
