import SessionCore
import SessionTransport

/// What the router asks its owner to do after a packet: the only way it acts.
public enum RouterOutput: Sendable, Hashable {
  /// Send `packet` to `subscriber`'s media channel: unchanged for video and share; audio
  /// carries the sequence number the router gave it for that subscriber (numbered per
  /// listener, so that what speaker selection left out reads as no loss).
  case forward(to: UserID, packet: MediaPacket)
  /// Ask the stream's publisher for a key frame of that layer: a subscriber waits for one to
  /// switch to it.
  case requestKeyFrame(StreamID)
}
