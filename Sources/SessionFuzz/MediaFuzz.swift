import SessionCore
import SessionTransport

/// The media datagram decoder's harness: the input as a datagram body, as a sealed datagram,
/// and as a body to seal.
///
/// - **A body**, decoded by ``SessionTransport/MediaDatagram/decode(_:)-(UnsafeRawBufferPointer)``:
///   a datagram that decodes keeps every rule of its type and encodes back to the same bytes
///   (a packet: the same header and length, since its payload is not read); the packet and
///   report decoders agree with it; the array entry agrees with the buffer entry; a refusal
///   names its reason in words. A packet's sequence rewritten in place (as the service numbers
///   audio per listener) still decodes, with only the sequence changed.
/// - **A sealed datagram**: its body (without the trailer) decodes or is refused the same way;
///   checking its tag under a fixed key never traps.
/// - **A body to seal**: sealed under a key, the tag checks for the receiver of that
///   direction, and not for the other direction or after any one byte is changed.
///
/// > Important: Stateless; each call works on the calling thread.
enum MediaFuzz {
  static let key: [UInt8] = (0..<UInt8(16)).map { $0 &* 17 &+ 3 }

  static func run(_ bytes: UnsafeRawBufferPointer) throws(FuzzFailure) {
    let array = [UInt8](bytes)
    try decode(bytes, array)
    if let body = MediaDatagram.body(ofSealed: bytes) {
      try decode(body, [UInt8](body))
    } else {
      try require(bytes.count < MediaDatagram.trailerSize, "no body in \(bytes.count) bytes")
    }
    try seal(array)
  }

  private static func decode(
    _ buffer: UnsafeRawBufferPointer, _ array: [UInt8]
  ) throws(FuzzFailure) {
    let outcome = Result { () throws(MediaDecodingError) in try MediaDatagram.decode(buffer) }
    let fromArray = Result { () throws(MediaDecodingError) in try MediaDatagram.decode(array) }
    try require(outcome == fromArray, "datagram: buffer \(outcome), array \(fromArray)")
    let packet = Result { () throws(MediaDecodingError) in try MediaPacket.decode(buffer) }
    let report = Result { () throws(MediaDecodingError) in try ReceiverReport.decode(buffer) }
    let datagram: MediaDatagram
    switch outcome {
    case .failure(let error):
      try require(!error.description.isEmpty, "a refusal without words")
      try require(
        error.reason != .wrongType || array.count >= 2, "\(error) of \(array.count) bytes")
      if case .success(let packet) = packet {
        throw FuzzFailure("the packet decoder took \(packet), the datagram decoder \(error)")
      }
      if case .success(let report) = report {
        throw FuzzFailure("the report decoder took \(report), the datagram decoder \(error)")
      }
      return
    case .success(let decoded):
      datagram = decoded
    }
    let encoded = datagram.encode()
    try require(encoded.count == array.count, "\(datagram) encodes to \(encoded.count) bytes")
    switch datagram {
    case .packet(let decoded):
      try require(
        decoded.ruleBroken == nil, "\(decoded) breaks \(String(describing: decoded.ruleBroken))")
      try require(
        encoded[..<MediaPacket.headerSize] == array[..<MediaPacket.headerSize],
        "\(decoded)'s header encodes differently")
      try require(packet == .success(decoded), "packet decoder \(packet), datagram \(decoded)")
      try renumber(array, decoded)
    case .report(let decoded):
      try require(decoded.stream.hasValidLayer, "\(decoded) has a bad layer")
      try require(encoded == array, "\(decoded) encodes differently")
      try require(report == .success(decoded), "report decoder \(report), datagram \(decoded)")
    case .bind, .ping, .pong, .check, .checkReply, .feedback:
      try require(encoded == array, "\(datagram) encodes differently")
    }
    if case .success = packet, datagram.kind != .packet {
      throw FuzzFailure("the packet decoder took a \(datagram.kind)")
    }
    if case .success = report, datagram.kind != .report {
      throw FuzzFailure("the report decoder took a \(datagram.kind)")
    }
  }

  /// A packet renumbered in place decodes to the same packet with the new sequence.
  private static func renumber(_ array: [UInt8], _ packet: MediaPacket) throws(FuzzFailure) {
    var copy = array
    let sequence = ~packet.sequence
    copy.withUnsafeMutableBytes { MediaPacket.replacingSequence(in: $0, with: sequence) }
    var expected = packet
    expected.sequence = sequence
    let again = Result { () throws(MediaDecodingError) in try MediaPacket.decode(copy) }
    try require(again == .success(expected), "renumbered \(packet) decodes as \(again)")
  }

  private static func seal(_ array: [UInt8]) throws(FuzzFailure) {
    let sender = MediaAuthenticator(key: key, sending: .toService)
    let receiver = MediaAuthenticator(key: key, sending: .toMember)
    _ = receiver.isAuthentic(array)
    var sealed = sender.sealed(array)
    try require(sealed.count == array.count + MediaDatagram.trailerSize, "a trailer's size")
    try require(receiver.isAuthentic(sealed), "a sealed datagram is not authentic")
    try require(!sender.isAuthentic(sealed), "a datagram is authentic in both directions")
    let body = sealed.withUnsafeBytes { MediaDatagram.body(ofSealed: $0).map { [UInt8]($0) } }
    try require(body == array, "the body of a sealed datagram is not what was sealed")
    // Any one byte changed, the tag fails (the position is drawn from the input).
    var input = FuzzInput(array)
    let position = input.index(sealed.count)
    sealed[position] ^= 1 << UInt8(input.int(in: 0...7))
    try require(!receiver.isAuthentic(sealed), "a damaged datagram (byte \(position)) passes")
  }
}
