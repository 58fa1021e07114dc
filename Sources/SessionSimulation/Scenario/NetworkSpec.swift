/// A network as a scenario file states it, per direction of a peer's link.
///
/// `both` applies to the two directions; `uplink` (peer → service) and `downlink` then
/// override it field by field.
///
/// > Important: A value; `Sendable`.
public struct NetworkSpec: Sendable, Hashable, Codable {
  /// Both directions.
  public var both: LinkSpec?
  /// Peer → service, over `both`.
  public var uplink: LinkSpec?
  /// Service → peer, over `both`.
  public var downlink: LinkSpec?

  /// Makes a network spec.
  ///
  /// - Parameters:
  ///   - both: The link of both directions; `nil` for an ideal one.
  ///   - uplink: Peer → service, over `both`; `nil` for `both` as it is.
  ///   - downlink: Service → peer, over `both`; `nil` for `both` as it is.
  public init(both: LinkSpec? = nil, uplink: LinkSpec? = nil, downlink: LinkSpec? = nil) {
    self.both = both
    self.uplink = uplink
    self.downlink = downlink
  }

  /// The same link both ways.
  ///
  /// - Parameter link: The link.
  /// - Returns: The spec.
  public static func symmetric(_ link: LinkSpec) -> NetworkSpec { NetworkSpec(both: link) }

  /// The link of one direction: `both`, with that direction's fields over it.
  ///
  /// - Parameter isUplink: Peer → service when true.
  /// - Returns: The merged link; empty (ideal) when nothing is stated.
  public func link(uplink isUplink: Bool) -> LinkSpec {
    let base = both ?? LinkSpec()
    guard let over = isUplink ? uplink : downlink else { return base }
    return base.overridden(by: over)
  }

  /// This spec with `other`'s stated fields over it, per direction.
  ///
  /// - Parameter other: The spec on top.
  /// - Returns: The merged spec.
  public func overridden(by other: NetworkSpec?) -> NetworkSpec {
    guard let other else { return self }
    return NetworkSpec(
      both: nil, uplink: link(uplink: true).overridden(by: other.link(uplink: true)),
      downlink: link(uplink: false).overridden(by: other.link(uplink: false)))
  }
}

/// One direction of a link: delay, jitter, loss, bandwidth. Every field is optional; what is
/// left out is ideal (no delay, no loss, no limit).
///
/// > Important: A value; `Sendable`.
public struct LinkSpec: Sendable, Hashable, Codable {
  /// The minimum one-way delay.
  public var delay: SimDuration?
  /// What is added to the minimum, drawn per message.
  public var distribution: DelayDistributionSpec?
  /// ± uniform jitter per message.
  public var jitter: SimDuration?
  /// The loss probability, 0...1 (on the reliable channel it shows as retransmission delay).
  public var loss: Double?
  /// The mean length of a loss burst; over 1, losses come in Gilbert–Elliott bursts.
  public var burstLength: Double?
  /// The capacity, `"2Mbps"`, `"500kbps"` or bits per second.
  public var bandwidth: Bitrate?
  /// The capacity queue's limit in bytes (default 64 KB); beyond it, tail drop.
  public var queueBytes: Int?
  /// Duplicated datagrams, 0...1 (the lossy channel only).
  public var duplicate: Double?
  /// Whether datagrams may overtake each other (the lossy channel only).
  public var reorder: Bool?

  /// Makes a link spec.
  ///
  /// - Parameters:
  ///   - delay: The minimum one-way delay.
  ///   - distribution: What is added to the minimum, drawn per message.
  ///   - jitter: The ± uniform jitter per message.
  ///   - loss: The loss probability, 0...1.
  ///   - burstLength: The mean length of a loss burst; over 1, losses come in bursts.
  ///   - bandwidth: The capacity.
  ///   - queueBytes: The capacity queue's limit in bytes; `nil` for 64 KB.
  ///   - duplicate: The share of datagrams duplicated, 0...1 (the lossy channel only).
  ///   - reorder: Whether datagrams may overtake each other (the lossy channel only).
  public init(
    delay: SimDuration? = nil, distribution: DelayDistributionSpec? = nil,
    jitter: SimDuration? = nil, loss: Double? = nil, burstLength: Double? = nil,
    bandwidth: Bitrate? = nil, queueBytes: Int? = nil, duplicate: Double? = nil,
    reorder: Bool? = nil
  ) {
    self.delay = delay
    self.distribution = distribution
    self.jitter = jitter
    self.loss = loss
    self.burstLength = burstLength
    self.bandwidth = bandwidth
    self.queueBytes = queueBytes
    self.duplicate = duplicate
    self.reorder = reorder
  }

  /// This link with `other`'s stated fields over it.
  ///
  /// - Parameter other: The link on top.
  /// - Returns: The merged link.
  public func overridden(by other: LinkSpec) -> LinkSpec {
    LinkSpec(
      delay: other.delay ?? delay, distribution: other.distribution ?? distribution,
      jitter: other.jitter ?? jitter, loss: other.loss ?? loss,
      burstLength: other.burstLength ?? burstLength, bandwidth: other.bandwidth ?? bandwidth,
      queueBytes: other.queueBytes ?? queueBytes, duplicate: other.duplicate ?? duplicate,
      reorder: other.reorder ?? reorder)
  }
}

extension LinkSpec {
  /// The fields of this link a mode cannot apply, each with why, in key order: what loading a
  /// scenario for that mode refuses (``ScenarioLoader/validate(_:for:)``). Deterministic mode
  /// applies every field; loopback mode's proxies cannot duplicate, reorder or make loss
  /// bursts.
  ///
  /// - Parameter mode: The mode.
  /// - Returns: Each field's key and the reason; empty when the mode can apply it all.
  package func unsupportedFields(in mode: SimulationMode) -> [(key: String, reason: String)] {
    guard mode == .loopback else { return [] }
    var fields: [(key: String, reason: String)] = []
    if let burst = burstLength, burst > 1 {
      fields.append(
        (
          "burstLength",
          "loopback mode cannot make loss bursts (its proxy draws each chunk's and datagram's "
            + "loss on its own); leave it out or run in deterministic mode"
        ))
    }
    if let duplicate, duplicate > 0 {
      fields.append(
        (
          "duplicate",
          "loopback mode cannot duplicate (TCP signalling never does, and its media proxy "
            + "forwards each datagram once); leave it out or run in deterministic mode"
        ))
    }
    if reorder == true {
      fields.append(
        (
          "reorder",
          "loopback mode cannot reorder (TCP keeps its byte order, and its media proxy keeps "
            + "datagrams in order); leave it out or run in deterministic mode"
        ))
    }
    return fields
  }
}

/// The random part of a delay, added to the minimum: `{"kind": "uniform", "max": "40ms"}`.
///
/// > Important: A value; `Sendable`.
public struct DelayDistributionSpec: Sendable, Hashable, Codable {
  /// The distributions a delay can be drawn from.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Nothing added.
    case constant
    /// Uniform up to `max` (a total delay, at least the minimum).
    case uniform
    /// Normal with `mean` and `standardDeviation`, never below 0.
    case normal
    /// Exponential with `mean`.
    case exponential
    /// Pareto with `scale` and `shape`: a heavy tail.
    case pareto
  }

  /// Which distribution.
  public var kind: Kind
  /// The largest total delay (uniform).
  public var max: SimDuration?
  /// The mean (normal, exponential).
  public var mean: SimDuration?
  /// The standard deviation (normal).
  public var standardDeviation: SimDuration?
  /// The scale (Pareto).
  public var scale: SimDuration?
  /// The shape (Pareto), over 0; smaller means a heavier tail.
  public var shape: Double?

  /// Makes a distribution spec.
  ///
  /// - Parameters:
  ///   - kind: Which distribution.
  ///   - max: The largest total delay (uniform).
  ///   - mean: The mean (normal, exponential).
  ///   - standardDeviation: The standard deviation (normal).
  ///   - scale: The scale (Pareto).
  ///   - shape: The shape (Pareto), over 0; smaller means a heavier tail.
  public init(
    kind: Kind, max: SimDuration? = nil, mean: SimDuration? = nil,
    standardDeviation: SimDuration? = nil, scale: SimDuration? = nil, shape: Double? = nil
  ) {
    self.kind = kind
    self.max = max
    self.mean = mean
    self.standardDeviation = standardDeviation
    self.scale = scale
    self.shape = shape
  }
}

/// A bit rate: `"2Mbps"`, `"500kbps"`, `"64000bps"` or a number of bits per second.
///
/// > Important: A value; `Sendable`.
public struct Bitrate: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Bits per second; over 0.
  public var bitsPerSecond: Double

  /// Makes a rate.
  ///
  /// - Parameter bitsPerSecond: Bits per second.
  public init(bitsPerSecond: Double) { self.bitsPerSecond = bitsPerSecond }

  /// Parses `"2Mbps"`, `"500kbps"`, `"1.5Gbps"`, `"64000bps"` or a bare number.
  ///
  /// - Parameter text: The text.
  /// - Returns: The rate, or `nil` when the text is not a positive, finite rate.
  public static func parse(_ text: String) -> Bitrate? {
    let trimmed = text.trimmingWhitespace.lowercased()
    let units: [(String, Double)] = [("gbps", 1e9), ("mbps", 1e6), ("kbps", 1e3), ("bps", 1)]
    var number = Substring(trimmed)
    var scale = 1.0
    for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
      number = trimmed.dropLast(suffix.count)
      scale = factor
      break
    }
    guard let value = Double(number), value.isFinite, value > 0 else { return nil }
    return Bitrate(bitsPerSecond: value * scale)
  }

  /// A short description, for logs and reports.
  public var description: String {
    if bitsPerSecond >= 1e6 { return "\(bitsPerSecond / 1e6)Mbps" }
    if bitsPerSecond >= 1e3 { return "\(bitsPerSecond / 1e3)kbps" }
    return "\(bitsPerSecond)bps"
  }

  /// Decodes the value from a scenario file.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: `DecodingError` when the file does not say a valid value.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if let number = try? container.decode(Double.self) {
      guard number.isFinite, number > 0 else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "a bandwidth must be a positive number of bits/s")
      }
      self.init(bitsPerSecond: number)
      return
    }
    let text = try container.decode(String.self)
    guard let parsed = Self.parse(text) else {
      throw DecodingError.dataCorruptedError(
        in: container, debugDescription: "'\(text)' is not a bandwidth (write 2Mbps or 500kbps)")
    }
    self = parsed
  }

  /// Encodes the value as a scenario file says it.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(description)
  }
}
