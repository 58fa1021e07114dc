import Foundation

/// What a run's media did, per peer and in all: the table in the manner of LiveKit's load
/// test (tracks received against expected, bitrate, loss, freezes), plus the one-way media
/// delay it lacks.
///
/// Figures cover the whole run for each peer's current instance; "expected" tracks are the
/// peer's subscriptions whose publisher was sending at the end, "received" those of them that
/// delivered a frame (or, for audio, a packet) in the last two seconds.
///
/// > Important: A value; `Sendable`.
public struct MediaSummary: Sendable, Hashable, Codable {
  /// One peer's row.
  public struct Row: Sendable, Hashable, Codable {
    /// The peer.
    public var peer: String
    /// Tracks arriving at the end.
    public var tracksReceived: Int
    /// Tracks that should be arriving at the end.
    public var tracksExpected: Int
    /// Media received, kilobits per second over the run.
    public var receiveKbps: Double
    /// Media sent, kilobits per second over the run.
    public var sendKbps: Double
    /// Video and share packets lost of those expected, in percent, over the run (audio
    /// reaches a peer only while its talker is among the loudest: its gaps are no loss).
    public var lossPercent: Double
    /// Freezes counted on the peer's video and share canvases (a paused track's silence is
    /// none).
    public var freezes: Int
    /// Tracks the service's stream allocator holds paused at the end (not counted in
    /// ``tracksExpected``).
    public var pausedTracks: Int
    /// The time the peer's tracks spent paused in all, seconds (a track paused 2 s and another
    /// 3 s: 5).
    public var pausedSeconds: Double
    /// The median one-way delay of the packets received, in milliseconds.
    public var delayP50Ms: Double?
    /// The 99th percentile of it.
    public var delayP99Ms: Double?

    /// Creates a row.
    ///
    /// - Parameters:
    ///   - peer: The peer.
    ///   - tracksReceived: Tracks arriving at the end.
    ///   - tracksExpected: Tracks that should.
    ///   - receiveKbps: Received kbit/s.
    ///   - sendKbps: Sent kbit/s.
    ///   - lossPercent: Loss in percent.
    ///   - freezes: Freezes.
    ///   - pausedTracks: Tracks paused at the end.
    ///   - pausedSeconds: Time paused in all, seconds.
    ///   - delayP50Ms: Median one-way delay.
    ///   - delayP99Ms: Its 99th percentile.
    public init(
      peer: String, tracksReceived: Int, tracksExpected: Int, receiveKbps: Double,
      sendKbps: Double, lossPercent: Double, freezes: Int, pausedTracks: Int = 0,
      pausedSeconds: Double = 0, delayP50Ms: Double?, delayP99Ms: Double?
    ) {
      self.peer = peer
      self.tracksReceived = tracksReceived
      self.tracksExpected = tracksExpected
      self.receiveKbps = receiveKbps
      self.sendKbps = sendKbps
      self.lossPercent = lossPercent
      self.freezes = freezes
      self.pausedTracks = pausedTracks
      self.pausedSeconds = pausedSeconds
      self.delayP50Ms = delayP50Ms
      self.delayP99Ms = delayP99Ms
    }
  }

  /// A row per peer, in the scenario's order.
  public var rows: [Row]
  /// The median one-way delay over every packet every peer received, in milliseconds.
  public var delayP50Ms: Double?
  /// The 99th percentile of it.
  public var delayP99Ms: Double?
  /// Packets the service forwarded.
  public var forwardedPackets: UInt64
  /// Datagrams the service dropped (malformed, unbound, spoofed, not sending…).
  public var droppedDatagrams: UInt64
  /// The same, by reason (only reasons that occurred).
  public var droppedByReason: [String: UInt64] = [:]

  /// Creates a summary.
  ///
  /// - Parameters:
  ///   - rows: The rows.
  ///   - delayP50Ms: The overall median delay.
  ///   - delayP99Ms: The overall 99th percentile.
  ///   - forwardedPackets: The service's forwarded packets.
  ///   - droppedDatagrams: The service's dropped datagrams.
  public init(
    rows: [Row], delayP50Ms: Double?, delayP99Ms: Double?, forwardedPackets: UInt64,
    droppedDatagrams: UInt64
  ) {
    self.rows = rows
    self.delayP50Ms = delayP50Ms
    self.delayP99Ms = delayP99Ms
    self.forwardedPackets = forwardedPackets
    self.droppedDatagrams = droppedDatagrams
  }

  /// Tracks received and expected, summed over the peers.
  public var tracks: (received: Int, expected: Int) {
    rows.reduce((0, 0)) { ($0.0 + $1.tracksReceived, $0.1 + $1.tracksExpected) }
  }

  /// The table, one line per peer (at most `limit` rows, the worst first when cut), then the
  /// totals.
  ///
  /// - Parameter limit: The most peer rows to print.
  /// - Returns: The lines.
  public func tableLines(limit: Int = 40) -> [String] {
    func number(_ value: Double?, _ digits: Int = 1) -> String {
      value.map { String(format: "%.\(digits)f", $0) } ?? "-"
    }
    func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
      let gap = String(repeating: " ", count: max(0, width - text.count))
      return left ? text + gap : gap + text
    }
    let nameWidth = max(4, min(24, rows.map(\.peer.count).max() ?? 4))
    var lines = [
      pad("peer", nameWidth, left: true) + "  tracks   recv kbps  send kbps  loss %  freezes"
        + "  paused  p50 ms  p99 ms"
    ]
    var shown = rows
    if rows.count > limit {
      shown = Array(
        rows.sorted {
          ($0.tracksExpected - $0.tracksReceived, $0.lossPercent)
            > ($1.tracksExpected - $1.tracksReceived, $1.lossPercent)
        }.prefix(limit))
    }
    for row in shown {
      lines.append(
        pad(String(row.peer.prefix(nameWidth)), nameWidth, left: true) + "  "
          + pad("\(row.tracksReceived)/\(row.tracksExpected)", 6) + "  "
          + pad(number(row.receiveKbps), 10) + "  " + pad(number(row.sendKbps), 9) + "  "
          + pad(number(row.lossPercent, 2), 6) + "  " + pad("\(row.freezes)", 7) + "  "
          + pad(row.pausedSeconds == 0 ? "-" : number(row.pausedSeconds) + " s", 6) + "  "
          + pad(number(row.delayP50Ms), 6) + "  " + pad(number(row.delayP99Ms), 6))
    }
    if rows.count > limit { lines.append("… \(rows.count - limit) more peers") }
    let (received, expected) = tracks
    lines.append(
      "total: \(received)/\(expected) tracks, one-way delay p50 \(number(delayP50Ms)) ms, "
        + "p99 \(number(delayP99Ms)) ms; service forwarded \(forwardedPackets) packets, "
        + "dropped \(droppedDatagrams) datagrams"
        + (droppedByReason.isEmpty
          ? ""
          : " ("
            + droppedByReason.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
            .joined(separator: ", ") + ")"))
    return lines
  }

  /// The `q` quantile (0–1) of `samples`, nearest rank; `nil` when there are none.
  ///
  /// - Parameters:
  ///   - samples: The values; sorted in place.
  ///   - q: The quantile.
  /// - Returns: The value.
  static func quantile(_ samples: inout [Double], _ q: Double) -> Double? {
    guard !samples.isEmpty else { return nil }
    samples.sort()
    let rank = Int((q * Double(samples.count)).rounded(.up)) - 1
    return samples[min(samples.count - 1, max(0, rank))]
  }
}
