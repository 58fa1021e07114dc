import SessionCore

/// A view that receives the frames of the canvas it is subscribed to: subscribe it with
/// ``VideoCanvas/subscribe(with:aspectMode:andResolution:)`` and it gets every frame that
/// arrives whole.
///
/// Any object can be a canvas's view, as in the SDK; only views that conform get frames. The
/// engine decodes nothing: a frame is its description (``VideoFrame``).
///
/// > Important: Called on the isolation domain of the ``VideoSDK`` whose canvas it is
/// > subscribed to, after the frame's last packet arrived. A call into the SDK from
/// > ``onFrameReceived(_:)`` (an unsubscribe, say) takes effect at once; the frame still reaches
/// > the other views it was due to.
public protocol VideoSink: AnyObject {
  /// A frame of the subscribed video or share arrived whole.
  ///
  /// - Parameter frame: What the frame was and when it was sent and received.
  func onFrameReceived(_ frame: VideoFrame)
}

/// One frame a ``VideoSink`` receives: which stream it belongs to, its size and layer, its place
/// in the stream, and its times.
///
/// > Important: A value; `Sendable`.
public struct VideoFrame: Sendable, Hashable, Codable {
  /// Camera video or a share.
  public enum Kind: UInt8, Sendable, Hashable, Codable, CaseIterable {
    /// Camera video.
    case video = 1
    /// A screen share.
    case share = 3
  }

  /// Whose video or share.
  public var user: UserID
  /// Camera or share.
  public var kind: Kind
  /// The frame width in pixels.
  public var width: Int
  /// The frame height in pixels.
  public var height: Int
  /// The simulcast layer, 0 the lowest (0 for a share).
  public var layer: Int
  /// The frame's number in its layer's stream (wrapping).
  public var frameID: UInt32
  /// The sequence number of the frame's first packet.
  public var firstSequence: UInt32
  /// Whether the frame is a key frame.
  public var isKeyFrame: Bool
  /// When the sender sent it, in microseconds on the media clock.
  public var sendTime: Int64
  /// When its last packet arrived, in microseconds on the media clock (the send time for the
  /// local preview).
  public var receiveTime: Int64

  /// Creates a frame description.
  ///
  /// - Parameters:
  ///   - user: Whose stream.
  ///   - kind: Camera or share.
  ///   - width: Pixels.
  ///   - height: Pixels.
  ///   - layer: The simulcast layer.
  ///   - frameID: The frame's number.
  ///   - firstSequence: Its first packet's sequence number.
  ///   - isKeyFrame: Whether it is a key frame.
  ///   - sendTime: When it was sent, µs.
  ///   - receiveTime: When it arrived, µs.
  public init(
    user: UserID, kind: Kind, width: Int, height: Int, layer: Int, frameID: UInt32,
    firstSequence: UInt32, isKeyFrame: Bool, sendTime: Int64, receiveTime: Int64
  ) {
    self.user = user
    self.kind = kind
    self.width = width
    self.height = height
    self.layer = layer
    self.frameID = frameID
    self.firstSequence = firstSequence
    self.isKeyFrame = isKeyFrame
    self.sendTime = sendTime
    self.receiveTime = receiveTime
  }

  /// The frame's one-way delay, receive time minus send time, in microseconds.
  public var delay: Int64 { receiveTime &- sendTime }
}
