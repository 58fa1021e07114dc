import Foundation

/// One peer, or a counted group of them, and how they join.
///
/// A group's `name` holds `{i}`, replaced by 1, 2, … `count` (`"student-{i}"`); a single peer's
/// name is used as it is. The name is also the peer's user name in the session, so every
/// peer's name must be unique.
///
/// > Important: A value; `Sendable`.
public struct PeerSpec: Sendable, Hashable, Codable {
  /// The token's role: `host` is `role_type` 1 (host, or manager when a host is there), and
  /// `participant` is 0.
  public enum Role: String, Sendable, Hashable, Codable, CaseIterable {
    /// `role_type` 1.
    case host
    /// `role_type` 0.
    case participant
  }

  /// The name, or the group's pattern with `{i}`.
  public var name: String
  /// How many peers the entry stands for (default 1).
  public var count: Int
  /// The token's role (default participant).
  public var role: Role
  /// When the peers join: at one time or spread evenly over a range (the first at `from`, the
  /// last at `to`); `nil` means never on their own (an action joins them).
  public var join: SimDurationRange?
  /// Whether the camera is on at join (`videoOption.localVideoOn`).
  public var video: Bool
  /// Whether audio connects at join (`audioOption.connect`, default true).
  public var audio: Bool
  /// Whether the microphone starts muted (`audioOption.mute`, default true).
  public var muted: Bool
  /// The token the peers join with (default a valid one).
  public var token: TokenSpec
  /// The password they offer, if any.
  public var password: String?
  /// The peers' link, over the scenario's network.
  public var network: NetworkSpec?
  /// How far the peers' clocks run ahead (negative: behind) of the network's.
  public var clockSkewMilliseconds: Int64?
  /// The peer's synthetic media, if the run has a media plane (see ``PeerMediaSpec``).
  public var media: PeerMediaSpec?

  /// Makes a peer spec.
  ///
  /// - Parameters:
  ///   - name: The name, or a group's pattern with `{i}`.
  ///   - count: How many peers the entry stands for; 1 by default.
  ///   - role: The token's role; participant by default.
  ///   - join: When the peers join: at one time or spread evenly over a range; `nil` means
  ///     only when an action joins them. At the start by default.
  ///   - video: Whether the camera is on at join; `false` by default.
  ///   - audio: Whether audio connects at join; `true` by default.
  ///   - muted: Whether the microphone starts muted; `true` by default.
  ///   - token: The token the peers join with; a valid one by default.
  ///   - password: The password they offer; `nil` (the default) for none.
  ///   - network: The peers' link, over the scenario's network; `nil` for the scenario's.
  ///   - clockSkewMilliseconds: How far the peers' clocks run ahead of the network's, in
  ///     milliseconds (negative: behind); `nil` for none.
  ///   - media: The peers' synthetic media; `nil` for none.
  public init(
    name: String, count: Int = 1, role: Role = .participant,
    join: SimDurationRange? = .exactly(.zero),
    video: Bool = false, audio: Bool = true, muted: Bool = true, token: TokenSpec = .valid,
    password: String? = nil, network: NetworkSpec? = nil, clockSkewMilliseconds: Int64? = nil,
    media: PeerMediaSpec? = nil
  ) {
    self.name = name
    self.count = count
    self.role = role
    self.join = join
    self.video = video
    self.audio = audio
    self.muted = muted
    self.token = token
    self.password = password
    self.network = network
    self.clockSkewMilliseconds = clockSkewMilliseconds
    self.media = media
  }

  private enum CodingKeys: String, CodingKey {
    case name, count, role, join, video, audio, muted, token, password, network, media
    case clockSkewMilliseconds = "clockSkewMs"
  }

  /// Decodes a peer entry; what is left out takes the defaults above.
  ///
  /// - Parameter decoder: The decoder, at a peer entry of a scenario file.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    name = try container.decode(String.self, forKey: .name)
    count = try container.decodeIfPresent(Int.self, forKey: .count) ?? 1
    role = try container.decodeIfPresent(Role.self, forKey: .role) ?? .participant
    // `"join": null` means never by itself; a missing key means at the start.
    if container.contains(.join), try container.decodeNil(forKey: .join) {
      join = nil
    } else {
      join = try container.decodeIfPresent(SimDurationRange.self, forKey: .join) ?? .exactly(.zero)
    }
    video = try container.decodeIfPresent(Bool.self, forKey: .video) ?? false
    audio = try container.decodeIfPresent(Bool.self, forKey: .audio) ?? true
    muted = try container.decodeIfPresent(Bool.self, forKey: .muted) ?? true
    token = try container.decodeIfPresent(TokenSpec.self, forKey: .token) ?? .valid
    password = try container.decodeIfPresent(String.self, forKey: .password)
    network = try container.decodeIfPresent(NetworkSpec.self, forKey: .network)
    clockSkewMilliseconds = try container.decodeIfPresent(
      Int64.self, forKey: .clockSkewMilliseconds)
    media = try container.decodeIfPresent(PeerMediaSpec.self, forKey: .media)
  }

  /// Encodes the value as a scenario file says it.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(count, forKey: .count)
    try container.encode(role, forKey: .role)
    // `null` joins never by itself; a missing key would mean "at 0".
    if let join {
      try container.encode(join, forKey: .join)
    } else {
      try container.encodeNil(forKey: .join)
    }
    try container.encode(video, forKey: .video)
    try container.encode(audio, forKey: .audio)
    try container.encode(muted, forKey: .muted)
    try container.encode(token, forKey: .token)
    try container.encodeIfPresent(password, forKey: .password)
    try container.encodeIfPresent(network, forKey: .network)
    try container.encodeIfPresent(clockSkewMilliseconds, forKey: .clockSkewMilliseconds)
    try container.encodeIfPresent(media, forKey: .media)
  }

  /// The names this entry stands for, in order.
  public var names: [String] {
    guard count != 1 || name.contains("{i}") else { return [name] }
    return (1...max(1, count)).map { name.replacingPlaceholder(with: $0) }
  }

  /// The join time of the `index`-th (0-based) of `names`, spread evenly over ``join``.
  ///
  /// - Parameter index: The peer's place in the entry.
  /// - Returns: Milliseconds after the start, or `nil` when the entry never joins by itself.
  public func joinTime(of index: Int) -> Int64? {
    guard let join else { return nil }
    let span = join.to.milliseconds - join.from.milliseconds
    guard count > 1, span > 0 else { return join.from.milliseconds }
    return join.from.milliseconds + span * Int64(index) / Int64(count - 1)
  }
}

/// The token a peer joins with: a valid one, or one of the ways a token goes wrong.
public enum TokenSpec: String, Sendable, Hashable, Codable, CaseIterable {
  /// Signed with the service's secret, for the scenario's session, valid now.
  case valid
  /// Expired an hour ago.
  case expired
  /// Valid only from an hour from now.
  case notYetValid
  /// Signed with another secret.
  case badSignature
  /// For another session.
  case wrongSession
  /// Not a JWT at all.
  case malformed

  /// Whether the service admits a peer with this token.
  public var isAccepted: Bool { self == .valid }
}

extension String {
  /// The text with every `{i}` replaced by `index`.
  func replacingPlaceholder(with index: Int) -> String {
    var result = ""
    var rest = Substring(self)
    while let range = rest.range(of: "{i}") {
      result += rest[..<range.lowerBound]
      result += String(index)
      rest = rest[range.upperBound...]
    }
    return result + rest
  }
}
