/// Counters of a ``LoopbackServer``'s media plane: its UDP socket, its endpoints and what its
/// media host asked it to send.
///
/// A value; `Sendable`. Read from ``LoopbackServerStatistics/media``.
public struct LoopbackMediaStatistics: Sendable, Hashable {
  /// Datagrams received and handed to the media host (malformed ones included: the host
  /// decides).
  public var datagramsReceived: Int
  /// Datagrams the kernel took, of those the host asked to send (a forward to N endpoints
  /// counts N).
  public var datagramsSent: Int
  /// Datagrams dropped because the kernel's send buffer was full.
  public var sendsDropped: Int
  /// Datagrams the kernel refused for another reason.
  public var sendErrors: Int
  /// Datagrams the host addressed to an endpoint the server no longer (or never) had.
  public var sendsToUnknownEndpoints: Int
  /// Endpoints (source ports) in the table now.
  public var endpoints: Int
  /// Endpoints made since the start, one per source port first heard (again after an
  /// eviction).
  public var endpointsMade: Int
  /// Endpoints evicted to make room for new sources: the table was at
  /// ``LoopbackServerConfiguration/maxMediaEndpoints``.
  public var endpointsEvicted: Int
  /// Datagrams from new sources dropped unheard because every endpoint in the full table was
  /// bound to a member.
  public var sourcesRefused: Int

  /// Creates statistics; every count defaults to 0.
  ///
  /// - Parameters:
  ///   - datagramsReceived: Datagrams handed to the host.
  ///   - datagramsSent: Datagrams sent.
  ///   - sendsDropped: Sends dropped for a full kernel buffer.
  ///   - sendErrors: Sends refused otherwise.
  ///   - sendsToUnknownEndpoints: Sends to endpoints not in the table.
  ///   - endpoints: Endpoints now.
  ///   - endpointsMade: Endpoints made.
  ///   - endpointsEvicted: Endpoints evicted.
  ///   - sourcesRefused: New sources refused for a table full of bound endpoints.
  public init(
    datagramsReceived: Int = 0, datagramsSent: Int = 0, sendsDropped: Int = 0,
    sendErrors: Int = 0, sendsToUnknownEndpoints: Int = 0, endpoints: Int = 0,
    endpointsMade: Int = 0, endpointsEvicted: Int = 0, sourcesRefused: Int = 0
  ) {
    self.datagramsReceived = datagramsReceived
    self.datagramsSent = datagramsSent
    self.sendsDropped = sendsDropped
    self.sendErrors = sendErrors
    self.sendsToUnknownEndpoints = sendsToUnknownEndpoints
    self.endpoints = endpoints
    self.endpointsMade = endpointsMade
    self.endpointsEvicted = endpointsEvicted
    self.sourcesRefused = sourcesRefused
  }
}
