import SessionTransport

/// One simulcast layer of a video source: a resolution and the bitrate it is encoded at.
///
/// > Important: A value; `Sendable`.
package struct SimulcastLayer: Sendable, Hashable {
  /// The frame width in pixels.
  package var width: Int
  /// The frame height in pixels.
  package var height: Int
  /// The layer's average bitrate in bits per second.
  package var bitrate: Int

  /// Creates a layer.
  ///
  /// - Parameters:
  ///   - width: Pixels.
  ///   - height: Pixels.
  ///   - bitrate: Bits per second.
  package init(width: Int, height: Int, bitrate: Int) {
    self.width = width
    self.height = height
    self.bitrate = bitrate
  }

  /// 180p: 320×180 at 150 kbps.
  package static let p180 = SimulcastLayer(width: 320, height: 180, bitrate: 150_000)
  /// 360p: 640×360 at 500 kbps.
  package static let p360 = SimulcastLayer(width: 640, height: 360, bitrate: 500_000)
  /// 720p: 1280×720 at 1.5 Mbps.
  package static let p720 = SimulcastLayer(width: 1_280, height: 720, bitrate: 1_500_000)
  /// The default ladder, lowest first: 180p, 360p, 720p.
  package static let defaults = [p180, p360, p720]

  /// The layers of `ladder` a camera of the given resolution can send: those no larger than
  /// it. A camera smaller than every layer sends one layer at its own resolution, with the
  /// lowest layer's bitrate scaled by the pixel count (at least 1 kbps).
  ///
  /// - Parameters:
  ///   - ladder: The candidate layers, lowest first.
  ///   - width: The camera's width.
  ///   - height: The camera's height.
  /// - Returns: The layers, lowest first; empty only when `ladder` is.
  package static func layers(
    of ladder: [SimulcastLayer], forWidth width: Int, height: Int
  ) -> [SimulcastLayer] {
    let fitting = ladder.filter { $0.width <= width && $0.height <= height }
    if !fitting.isEmpty { return fitting }
    guard let lowest = ladder.first else { return [] }
    let scale = Double(width * height) / Double(lowest.width * lowest.height)
    let bitrate = max(MediaSourceLimits.bitrates.lowerBound, Int(Double(lowest.bitrate) * scale))
    return [SimulcastLayer(width: width, height: height, bitrate: bitrate)]
  }

  /// Checks a ladder: one to `StreamID.maxLayers` layers, each within the limits, strictly
  /// ascending in height.
  static func validate(_ layers: [SimulcastLayer]) throws(MediaSourceError) {
    guard (1...Int(StreamID.maxLayers)).contains(layers.count) else {
      throw .invalidLayers(count: layers.count)
    }
    for layer in layers {
      guard MediaSourceLimits.dimensions.contains(layer.width),
        MediaSourceLimits.dimensions.contains(layer.height)
      else { throw .invalidResolution(width: layer.width, height: layer.height) }
      guard MediaSourceLimits.bitrates.contains(layer.bitrate) else {
        throw .invalidBitrate(layer.bitrate)
      }
    }
    for (lower, higher) in zip(layers, layers.dropFirst()) where lower.height >= higher.height {
      throw .invalidLayers(count: layers.count)
    }
  }
}
