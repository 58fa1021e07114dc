import Foundation
import SessionCore
import SessionTransport

/// What ``VideoSDK/initialize(_:)`` needs: `ZoomVideoSDKInitParams`, plus how this instance
/// reaches a session service and which clock it reads.
///
/// A class, like the SDK's, so that seed code that fills in a `let` ports unchanged:
///
/// ```swift
/// let initParams = InitParams()
/// initParams.domain = "zoom.us"
/// initParams.transport = network
/// sdk.initialize(initParams)
/// ```
///
/// `initialize` copies what it needs; changing the object afterwards has no effect.
///
/// > Important: Not `Sendable`. Build it in the isolation domain of the ``VideoSDK`` it
/// > configures.
public final class InitParams {
  /// The web domain (`zoom.us` in the SDK). Required: empty is `Errors_Invalid_Parameter`.
  public var domain: String
  /// Whether the instance keeps its recent log lines in ``VideoSDK/recentLogs``.
  public var enableLog: Bool
  /// How this instance reaches a session service: each join asks it for a fresh link.
  /// `nil` (the default) reaches the in-process ``DevelopmentService`` of ``domain``, so that
  /// setup code written for the SDK runs as it is.
  public var transport: (any SessionLinkFactory)?
  /// The clock, in milliseconds: stamped on the store's applied events and used for rate
  /// limits (`startInAppScreenShare`). By default the wall clock (``wallClock()``), as an app
  /// expects; simulations and tests inject a virtual clock so that runs are deterministic.
  public var clock: () -> Int64
  /// Client-side limits (session name length, password, user name truncation, chat size,
  /// video subscriptions).
  public var limits: SessionLimits
  /// How many times in a row the instance tries to resume its membership on a fresh link when
  /// the link fails in a session, before it reports `onSessionLeave(NetworkError)`. 0 turns
  /// reconnecting off. Default 3.
  public var reconnectAttempts: Int = 3
  /// The media plane: each joined session asks it for a fresh `MediaLink`
  /// that carries the synthetic media. `nil` (the default): no media plane; the statistics
  /// read zero and canvases' views get no frames (`Docs/SessionSDK.md`, "Media").
  public var media: (any MediaLinkFactory)?
  /// The most the camera sends: its simulcast layers are those of 180p, 360p and 720p that fit
  /// (720p sends all three, 180p only 180p; 90p one 160×90 layer). ``VideoResolution/auto`` is
  /// 720p. Default 720p.
  public var videoSendResolution: VideoResolution = .resolution720
  /// The camera's frames per second, 1 to 60 (anything else makes ``VideoSDK/initialize(_:)``
  /// refuse with `Errors_Invalid_Parameter`). Default 30.
  public var videoFrameRate: Int = 30
  /// The seed of the synthetic sources (frame-size variation, the talking model); each
  /// stream mixes its own id in, so instances with the same seed still differ. Default 0.
  public var mediaSeed: UInt64 = 0

  /// Creates parameters.
  ///
  /// - Parameters:
  ///   - domain: The web domain; required.
  ///   - enableLog: Whether to keep recent log lines.
  ///   - transport: How the instance reaches a service; `nil` for the development service.
  ///   - limits: Client-side limits.
  ///   - clock: Milliseconds; by default the wall clock (``wallClock()``).
  public init(
    domain: String = "",
    enableLog: Bool = false,
    transport: (any SessionLinkFactory)? = nil,
    limits: SessionLimits = SessionLimits(),
    clock: @escaping () -> Int64 = InitParams.wallClock
  ) {
    self.domain = domain
    self.enableLog = enableLog
    self.transport = transport
    self.limits = limits
    self.clock = clock
  }

  /// Milliseconds since 1970 on the system's wall clock: the default ``clock``.
  ///
  /// - Returns: The current time, in whole milliseconds.
  public static func wallClock() -> Int64 {
    Int64((Date().timeIntervalSince1970 * 1_000).rounded(.down))
  }
}
