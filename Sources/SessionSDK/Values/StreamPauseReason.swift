import SessionTransport

/// Why the service paused a stream the local user subscribes to: the stream allocator's
/// answer to a downlink that cannot carry every subscription (`Docs/SessionSDK.md`, "Media").
/// Not in the Zoom Video SDK, which shows such a stream only as a frozen or black canvas.
///
/// > Important: A value; `Sendable`.
public enum StreamPauseReason: String, Sendable, Codable, Hashable, CaseIterable {
  /// The local downlink cannot carry the stream's lowest layer beside the subscriptions of
  /// higher priority (active speakers, larger canvases, earlier joiners; a share is never
  /// paused).
  case bandwidth
}

extension StreamPauseReason {
  /// The reason the service's notice gave.
  init(_ reason: MediaPauseReason) {
    switch reason {
    case .bandwidth: self = .bandwidth
    }
  }
}
