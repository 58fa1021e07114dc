import SessionCore
import SessionService
import SessionTransport

/// A ``SessionHost`` in front of the real service that times how long the service takes to
/// handle each join message: validation, token verification, admission, the state change, the
/// joiner's snapshot and queueing the outputs, but none of the deliveries (the in-process
/// network queues outputs and delivers them after `receive` returns).
final class AdmissionTimer: SessionHost {
  let service: SessionService
  /// The time each join message took the service, in join order.
  private(set) var joinDurations: [Duration] = []
  /// A copy of the session's state right after the 10th join, for sizing its snapshot.
  private(set) var tenthState: SessionState?
  private let clock = ContinuousClock()

  init(_ service: SessionService) {
    self.service = service
    joinDurations.reserveCapacity(1_024)
  }

  func attach(output: @escaping (HostOutput) -> Void) {
    service.attach(output: output)
  }

  func connectionOpened(_ connection: ConnectionID, now: Int64) {
    service.connectionOpened(connection, now: now)
  }

  func receive(_ message: ClientMessage, from connection: ConnectionID, now: Int64) {
    guard case .join = message else {
      service.receive(message, from: connection, now: now)
      return
    }
    let start = clock.now
    service.receive(message, from: connection, now: now)
    joinDurations.append(clock.now - start)
    if joinDurations.count == 10, case .join(let request) = message {
      tenthState = service.state(ofSession: request.sessionName)
    }
  }

  func connectionClosed(_ connection: ConnectionID, now: Int64) {
    service.connectionClosed(connection, now: now)
  }

  func tick(now: Int64) {
    service.tick(now: now)
  }
}
