import SessionCore
import SessionService
import SessionTransport
import Testing

@Suite struct AnnotationTests {
  /// Host Hal, manager Mia, participants Pat (sharing) and Quinn.
  private func sharing() throws -> (
    ServiceHarness, hal: ConnectionID, mia: ConnectionID,
    pat: ConnectionID, quinn: ConnectionID
  ) {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let mia = try harness.join("Mia", role: .host)
    let pat = try harness.join("Pat")
    let quinn = try harness.join("Quinn")
    harness.command(.startShare(kind: .view), on: pat)
    return (harness, hal, mia, pat, quinn)
  }

  @Test func startStopAndClear() throws {
    let (harness, hal, _, pat, quinn) = try sharing()
    let owner = harness.user(pat)
    let viewer = harness.user(quinn)
    let mark = harness.mark
    harness.expectAccepted(.startAnnotation(shareOwner: owner), on: quinn)
    harness.expectAccepted(.startAnnotation(shareOwner: owner), on: pat)
    harness.expectAccepted(.clearAnnotation(shareOwner: owner, type: .mine), on: quinn)
    harness.expectAccepted(.stopAnnotation(shareOwner: owner), on: quinn)
    #expect(
      harness.events(to: hal, since: mark) == [
        .annotationStarted(user: viewer, shareOwner: owner),
        .annotationStarted(user: owner, shareOwner: owner),
        .annotationCleared(user: viewer, shareOwner: owner, type: .mine),
        .annotationStopped(user: viewer, shareOwner: owner),
      ])
    #expect(harness.served()?.shares[owner]?.annotators == [owner])
    #expect(harness.served()?.shares[owner]?.clearCount == 1)
    harness.assertConverged()
  }

  @Test func annotationCommandsNeedTheirPreconditions() throws {
    let (harness, _, _, pat, quinn) = try sharing()
    let owner = harness.user(pat)
    harness.expectRefused(.stopAnnotation(shareOwner: owner), on: quinn, .wrongUsage)
    harness.command(.startAnnotation(shareOwner: owner), on: quinn)
    harness.expectRefused(.startAnnotation(shareOwner: owner), on: quinn, .wrongUsage)
    // No share by that user.
    let nobody = harness.user(quinn)
    harness.expectRefused(.startAnnotation(shareOwner: nobody), on: pat, .sessionShareError)
    harness.expectRefused(.stopAnnotation(shareOwner: nobody), on: pat, .sessionShareError)
    harness.expectRefused(
      .clearAnnotation(shareOwner: nobody, type: .mine), on: pat, .sessionShareError)
    harness.expectRefused(.startAnnotation(shareOwner: 9_999), on: pat, .sessionShareError)
  }

  @Test func viewerIsRefusedWhenTheOwnerDisabledViewerAnnotation() throws {
    let (harness, hal, _, pat, quinn) = try sharing()
    let owner = harness.user(pat)
    harness.command(.startAnnotation(shareOwner: owner), on: quinn)
    harness.command(.disableViewerAnnotation(true), on: pat)
    // Disabling ends the viewers' annotation.
    #expect(harness.served()?.shares[owner]?.annotators == [])
    harness.expectRefused(.startAnnotation(shareOwner: owner), on: quinn, .sessionNoRights)
    harness.expectRefused(.startAnnotation(shareOwner: owner), on: hal, .sessionNoRights)
    harness.expectAccepted(.startAnnotation(shareOwner: owner), on: pat)
    harness.command(.disableViewerAnnotation(false), on: pat)
    harness.expectAccepted(.startAnnotation(shareOwner: owner), on: quinn)
    harness.assertConverged()
  }

  @Test func clearAllByHostManagerOrOwner() throws {
    let (harness, hal, mia, pat, quinn) = try sharing()
    let owner = harness.user(pat)
    for clearer in [hal, mia, pat] {
      harness.expectAccepted(.clearAnnotation(shareOwner: owner, type: .all), on: clearer)
    }
    harness.expectRefused(
      .clearAnnotation(shareOwner: owner, type: .all), on: quinn, .sessionNoRights)
    #expect(harness.served()?.shares[owner]?.clearCount == 3)
    harness.assertConverged()
  }

  @Test func clearOthersOnlyByOwner() throws {
    let (harness, hal, mia, pat, quinn) = try sharing()
    let owner = harness.user(pat)
    harness.expectAccepted(.clearAnnotation(shareOwner: owner, type: .others), on: pat)
    for other in [hal, mia, quinn] {
      harness.expectRefused(
        .clearAnnotation(shareOwner: owner, type: .others), on: other, .sessionNoRights)
    }
    harness.assertConverged()
  }

  @Test func clearMineByAnyone() throws {
    let (harness, hal, mia, pat, quinn) = try sharing()
    let owner = harness.user(pat)
    for clearer in [hal, mia, pat, quinn] {
      harness.expectAccepted(.clearAnnotation(shareOwner: owner, type: .mine), on: clearer)
    }
    harness.assertConverged()
  }

  @Test func stoppingTheShareEndsItsAnnotations() throws {
    let (harness, hal, _, pat, quinn) = try sharing()
    let owner = harness.user(pat)
    harness.command(.startAnnotation(shareOwner: owner), on: quinn)
    harness.command(.startAnnotation(shareOwner: owner), on: hal)
    harness.expectAccepted(.stopShare, on: pat)
    #expect(harness.replica(quinn)?.shares.isEmpty == true)
    harness.expectRefused(.stopAnnotation(shareOwner: owner), on: quinn, .sessionShareError)
    // A new share starts without annotators.
    harness.command(.startShare(kind: .view), on: pat)
    #expect(harness.served()?.shares[owner]?.annotators == [])
    harness.assertConverged()
  }

  @Test func annotatorLeavingStopsTheirAnnotation() throws {
    let (harness, _, _, pat, quinn) = try sharing()
    let owner = harness.user(pat)
    harness.command(.startAnnotation(shareOwner: owner), on: quinn)
    harness.command(.leave(end: false), on: quinn)
    #expect(harness.served()?.shares[owner]?.annotators == [])
    harness.assertConverged()
  }
}
