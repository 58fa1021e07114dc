/// Identifies one media endpoint (a peer's datagram address) to a ``MediaHost``.
///
/// The transport gives each address it hears from a number of its own; the host learns which
/// member an endpoint belongs to from a ``MediaDatagram/bind(_:)`` datagram. A value.
public struct MediaEndpointID: Hashable, Sendable, Codable, CustomStringConvertible {
  /// The number.
  public var rawValue: UInt64

  /// Creates an id.
  ///
  /// - Parameter rawValue: The number.
  public init(_ rawValue: UInt64) { self.rawValue = rawValue }

  /// A textual form for logs, for example `m7`.
  public var description: String { "m\(rawValue)" }
}

/// What a media host asks its transport to do: send datagrams, best effort.
public enum MediaHostOutput: Sendable, Hashable {
  /// Send the datagram to one endpoint.
  case send([UInt8], to: MediaEndpointID)
  /// Send the same datagram to each endpoint, in order (a forwarded packet's subscribers).
  case forward([UInt8], to: [MediaEndpointID])
  /// Send the datagram to each endpoint, in order, each copy with that endpoint's sequence
  /// number in place of the datagram's (`sequences[i]` for `endpoints[i]`; see
  /// ``MediaPacket/replacingSequence(in:with:)``): audio, which the service numbers per
  /// listener so that what speaker selection left out is not read as loss.
  case forwardNumbered([UInt8], to: [MediaEndpointID], sequences: [UInt32])
  /// The endpoint now belongs to a member (it passed the return-path check): a transport
  /// that keeps a bounded table of endpoints must not evict it for newcomers.
  case endpointBound(MediaEndpointID)
  /// The endpoint belongs to no member any more: a transport may evict it again.
  case endpointReleased(MediaEndpointID)
}

/// The service's end of the media plane, sans-IO: datagrams in, datagrams out, time injected.
///
/// A transport feeds every datagram it receives into ``receiveDatagram(_:from:now:)``; the
/// host answers through the closure given to ``attachMedia(output:)``. Bad datagrams
/// (malformed, unbound, spoofed) are dropped and counted by the host; none of them stops it.
///
/// > Important: Confined to the same isolation domain as the ``SessionHost`` it belongs to. It
/// > may call `output` from inside ``receiveDatagram(_:from:now:)``, and its session host's
/// > output too (a datagram can cause a signalling notice: `SessionService` answers an
/// > accepted bind with `ServerMessage.media(.bound)` on the member's connection).
public protocol MediaHost: AnyObject {
  /// Where the host sends its datagrams; called once before any datagram arrives.
  ///
  /// - Parameter output: Takes each datagram to send; the host may call it from inside
  ///   ``receiveDatagram(_:from:now:)``.
  func attachMedia(output: @escaping (MediaHostOutput) -> Void)
  /// A datagram arrived from `endpoint` at `now` (microseconds on the host's clock).
  ///
  /// - Parameters:
  ///   - bytes: The datagram as it arrived; it may be malformed or spoofed.
  ///   - endpoint: The transport's id for the address it came from.
  ///   - now: The arrival time, in microseconds on the host's clock.
  func receiveDatagram(_ bytes: [UInt8], from endpoint: MediaEndpointID, now: Int64)
}

/// A media host that reads datagrams in memory the transport lends for one call (its receive
/// buffer) and forwards packets from that memory, so that a forwarded packet is never copied
/// on its way through: the transport's own path, not part of the public contract.
///
/// > Important: Confined as ``MediaHost`` is.
package protocol LendingMediaHost: MediaHost {
  /// Where forwards of lent datagrams go, instead of a ``MediaHostOutput/forward(_:to:)`` or
  /// ``MediaHostOutput/forwardNumbered(_:to:sequences:)`` with a copy: the bytes (valid for
  /// the call only), the endpoints, and for audio each copy's sequence number (empty: send
  /// the bytes unchanged). Everything else still goes to the output of
  /// ``MediaHost/attachMedia(output:)``.
  func attachLentForwards(
    _ forward: @escaping (UnsafeRawBufferPointer, [MediaEndpointID], [UInt32]) -> Void)
  /// A datagram arrived, in memory lent for the call, as for
  /// ``MediaHost/receiveDatagram(_:from:now:)``.
  func receiveDatagram(_ buffer: UnsafeRawBufferPointer, from endpoint: MediaEndpointID, now: Int64)
}
