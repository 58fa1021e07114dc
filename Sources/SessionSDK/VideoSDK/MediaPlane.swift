import SessionTransport

/// An engine's media plane as one value: the current session's media, the link its datagrams
/// travel on and their tags, and what the sessions that ended left behind.
///
/// > Important: A value held by one ``SDKEngine``, in its isolation domain.
struct MediaPlane {
  /// The current session's media, while there is one.
  var session: MediaSession?
  /// The current media link, with `session`.
  var link: (any MediaLink)?
  /// The tags of the media datagrams, under the key of the credential the service sent.
  var authenticator: MediaAuthenticator?
  /// The media link's number: a new link (or none) moves it on, so events of an older one are
  /// dropped by their number alone.
  var generation: UInt64 = 0
  /// What the media session last asked for, reused.
  var output = MediaOutput()
  /// The media diagnostics of the sessions that ended.
  var retiredDiagnostics = MediaDiagnostics()
  /// The figures of the last session that ended.
  var retiredFigures = MediaFigures()
}
