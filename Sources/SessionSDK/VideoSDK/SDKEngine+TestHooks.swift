@_spi(Package) import SessionCore
import SessionTransport
import Synchronization

/// Hooks the facade exposes to test support as SPI.
extension SDKEngine {
  /// The link in use, if any.
  var currentLinkForTesting: (any SessionLink)? { link }

  /// Holds back the news that the link closed, as if the instance had not noticed yet.
  func suspendLinkForTesting() { lifecycle.holdLinkClosures() }

  /// Delivers a held-back link closure, which starts a resume.
  func resumeLinkForTesting() {
    guard let reason = lifecycle.releaseLinkClosures() else { return }
    submit(.linkClosed(reason, generation: linkGeneration))
  }

  /// Points later links at another service, as after a service restart.
  func replaceTransportForTesting(_ transport: any SessionLinkFactory) {
    configuration?.transport = transport
  }
}
