import SessionCore
import SessionTransport

/// The wire decoder's harness: the input as one payload, as a stream of frames, and as the
/// recipe of a structured frame.
///
/// 1. **One payload**, decoded as a client frame and as a server frame, through every entry
///    (raw buffer, array, the reusing and event-batch fast paths, a decoder with small
///    limits). A frame that decodes encodes back to the same bytes (the encoding is
///    canonical; a hello of another version is skipped, not echoed); every entry agrees on
///    the frame or the error; an error names an offset inside the payload; whatever decodes
///    under small limits decodes the same under the default ones.
/// 2. **A stream**: length-prefixed frames (at most 4 KiB each) split with `nextFrame`,
///    fragments joined as a client link joins them, each whole payload decoded with the
///    event storage reused from frame to frame; a message kept from an earlier frame still
///    equals a fresh decoding of its bytes.
/// 3. **A structured frame** drawn from the bytes (``FuzzValues``): encoded, framed, split
///    into fragments and joined again, and decoded back to the same value.
///
/// > Important: Stateless; each call works on the calling thread.
enum WireFuzz {
  static let decoder = WireDecoder()
  static let small = WireDecoder(maxFrameSize: 4_096, maxStringLength: 64, maxCollectionCount: 8)

  static func run(_ bytes: UnsafeRawBufferPointer) throws(FuzzFailure) {
    let array = [UInt8](bytes)
    try clientPayload(bytes, array)
    try serverPayload(bytes, array)
    try stream(bytes)
    try structured(array)
  }

  // MARK: One payload

  private static func clientPayload(
    _ bytes: UnsafeRawBufferPointer, _ array: [UInt8]
  ) throws(FuzzFailure) {
    let outcome = Result { () throws(WireError) in try decoder.decodeClientFrame(bytes) }
    let fromArray = Result { () throws(WireError) in try decoder.decodeClientFrame(array) }
    try require(outcome == fromArray, "client frame: buffer \(outcome), array \(fromArray)")
    switch outcome {
    case .success(let frame):
      if case .hello(let hello) = frame, hello.version != WireProtocol.version {
        // A hello of another version is read as far as its version; the rest is skipped.
      } else {
        let encoded = WireEncoder.payload(frame)
        try require(encoded == array, "client frame \(frame) re-encodes as \(hex(encoded))")
      }
    case .failure(let error):
      try check(error, count: array.count)
    }
    if case .success(let frame) = Result(catching: { () throws(WireError) in
      try small.decodeClientFrame(bytes)
    }) {
      try require(
        outcome == .success(frame), "client frame under small limits \(frame), else \(outcome)")
    }
  }

  private static func serverPayload(
    _ bytes: UnsafeRawBufferPointer, _ array: [UInt8]
  ) throws(FuzzFailure) {
    let outcome = Result { () throws(WireError) in try decoder.decodeServerFrame(bytes) }
    let fromArray = Result { () throws(WireError) in try decoder.decodeServerFrame(array) }
    try require(outcome == fromArray, "server frame: buffer \(outcome), array \(fromArray)")
    var storage: [SessionEvent] = []
    let reusing = Result { () throws(WireError) in
      try decoder.decodeServerFrame(bytes, reusing: &storage)
    }
    try require(outcome == reusing, "server frame: plain \(outcome), reusing \(reusing)")
    var batchStorage: [SessionEvent] = []
    let fast = Result { () throws(WireError) in
      try decoder.decodeEventBatch(bytes, reusing: &batchStorage)
    }
    switch (fast, outcome) {
    case (.success(nil), .success(.message(.events))):
      throw FuzzFailure("an event batch the fast path did not take: \(hex(array))")
    case (.success(let batch?), _):
      try require(
        outcome == .success(.message(.events(batch))), "fast path \(batch), plain \(outcome)")
    case (.failure(let error), _):
      try require(outcome == .failure(error), "fast path \(error), plain \(outcome)")
    case (.success(nil), _):
      break
    }
    switch outcome {
    case .success(let frame):
      let encoded = WireEncoder.payload(frame)
      try require(encoded == array, "server frame \(frame) re-encodes as \(hex(encoded))")
    case .failure(let error):
      try check(error, count: array.count)
    }
    if case .success(let frame) = Result(catching: { () throws(WireError) in
      try small.decodeServerFrame(bytes)
    }) {
      try require(
        outcome == .success(frame), "server frame under small limits \(frame), else \(outcome)")
    }
  }

  /// An error names an offset inside the payload and says something.
  private static func check(_ error: WireError, count: Int) throws(FuzzFailure) {
    try require(
      error.offset >= 0 && error.offset <= count, "\(error) outside a payload of \(count) bytes")
    try require(!error.description.isEmpty && !error.detail.isEmpty, "an error without words")
  }

  // MARK: A stream of frames

  private static func stream(_ bytes: UnsafeRawBufferPointer) throws(FuzzFailure) {
    var start = 0
    var reassembly = WireReassembly(maxMessageSize: 1 << 16)
    var storage: [SessionEvent] = []
    var kept: [(payload: [UInt8], message: ServerMessage)] = []
    for _ in 0..<64 {
      let rest = UnsafeRawBufferPointer(rebasing: bytes[start...])
      let range: Range<Int>?
      do throws(WireError) {
        range = try small.nextFrame(in: rest)
      } catch {
        try require(error.code == .frameTooLarge, "nextFrame threw \(error)")
        return
      }
      guard let range else { return }
      try require(
        range.lowerBound == WireProtocol.frameHeaderSize && range.upperBound <= rest.count,
        "nextFrame gave \(range) in \(rest.count) bytes")
      let payload = UnsafeRawBufferPointer(rebasing: rest[range])
      start += range.upperBound
      if WireFragments.isFragment(payload) || reassembly.isAssembling {
        guard WireFragments.isFragment(payload) else {
          reassembly.reset()
          continue
        }
        let whole: [UInt8]?
        do throws(WireError) {
          whole = try reassembly.take(payload)
        } catch {
          try require(!reassembly.isAssembling, "a refused fragment left \(error) assembling")
          continue
        }
        if let whole {
          let large = WireDecoder(maxFrameSize: 1 << 16)
          _ = try? large.decodeServerFrame(whole[...])
          _ = try? large.decodeClientFrame(whole[...])
        }
        continue
      }
      _ = try? decoder.decodeClientFrame(payload)
      let frame = try? decoder.decodeServerFrame(payload, reusing: &storage)
      let fresh = try? decoder.decodeServerFrame(payload)
      try require(frame == fresh, "reused storage decoded \(String(describing: frame))")
      if case .message(let message)? = frame, kept.count < 8 {
        kept.append(([UInt8](payload), message))
      }
    }
    for (payload, message) in kept {
      let again = try? decoder.decodeServerFrame(payload)
      try require(
        again == .message(message),
        "a kept message changed: \(message) is now \(String(describing: again))")
    }
  }

  // MARK: Structured frames

  private static func structured(_ array: [UInt8]) throws(FuzzFailure) {
    var values = FuzzValues(FuzzInput(array))
    let client = values.clientFrame()
    let server = values.serverFrame()
    let fragmentSize = values.int(in: 3...64)

    let clientPayload = WireEncoder.payload(client)
    let clientBack = Result { () throws(WireError) in try decoder.decodeClientFrame(clientPayload) }
    try require(clientBack == .success(client), "client \(client) came back as \(clientBack)")

    var framed: [UInt8] = []
    do throws(WireError) {
      try WireEncoder.appendFrame(server, to: &framed)
    } catch {
      throw FuzzFailure("server frame \(server) not framed: \(error)")
    }
    let range = framed.withUnsafeBytes { buffer in try? decoder.nextFrame(in: buffer) }
    guard let range else {
      throw FuzzFailure("framed \(server) has no whole frame")
    }
    let serverBack = Result { () throws(WireError) in
      try decoder.decodeServerFrame(framed[range])
    }
    try require(serverBack == .success(server), "server \(server) came back as \(serverBack)")

    // Split into fragments and joined again.
    let payload = Array(framed[range])
    var reassembly = WireReassembly()
    var whole: [UInt8]?
    var failure: WireError?
    WireFragments.split(payload, maxFrameSize: fragmentSize) { fragment in
      guard failure == nil else { return }
      do throws(WireError) {
        if let joined = try reassembly.take(fragment) { whole = joined }
      } catch {
        failure = error
      }
    }
    if let failure { throw FuzzFailure("fragments of \(payload.count) bytes refused: \(failure)") }
    try require(
      whole == payload, "fragments joined to \(whole?.count ?? -1) of \(payload.count) bytes")
  }

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.prefix(64).map { String($0, radix: 16) }.joined(separator: " ")
      + (bytes.count > 64 ? " … (\(bytes.count) bytes)" : "")
  }
}
