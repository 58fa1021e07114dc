import SessionCore
import SessionService
import SessionTransport
import Testing

@Suite struct ShareTests {
  /// Host Hal, manager Mia, participants Pat and Quinn.
  private func classroom() throws -> (
    ServiceHarness, hal: ConnectionID, mia: ConnectionID,
    pat: ConnectionID, quinn: ConnectionID
  ) {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let mia = try harness.join("Mia", role: .host)
    let pat = try harness.join("Pat")
    let quinn = try harness.join("Quinn")
    return (harness, hal, mia, pat, quinn)
  }

  @Test func defaultSettingIsSingleShare() throws {
    let (harness, _, _, pat, _) = try classroom()
    #expect(harness.served()?.shareSetting == .single)
    #expect(harness.replica(pat)?.shareSetting == .single)
  }

  @Test(arguments: ShareKind.allCases)
  func anyoneMayStartAShare(_ kind: ShareKind) throws {
    let (harness, hal, _, pat, _) = try classroom()
    if kind == .camera { harness.command(.startVideo, on: pat) }
    let mark = harness.mark
    harness.expectAccepted(.startShare(kind: kind), on: pat)
    #expect(
      harness.events(to: hal, since: mark) == [
        .shareStatusChanged(user: harness.user(pat), status: .started, kind: kind)
      ])
    #expect(harness.served()?.shares[harness.user(pat)]?.kind == kind)
    harness.assertConverged()
  }

  @Test func secondSharerIsRefusedInSingleShare() throws {
    let (harness, hal, _, pat, quinn) = try classroom()
    harness.command(.startShare(kind: .view), on: pat)
    harness.expectRefused(.startShare(kind: .view), on: quinn, .sessionShareError)
    // Sharing twice is refused too.
    harness.expectRefused(.startShare(kind: .inAppScreen), on: pat, .sessionShareError)
    harness.command(.startShare(kind: .view), on: hal)
    // A moderator's share is not taken over by another moderator.
    let moe = try harness.join("Moe", role: .host)
    harness.expectRefused(.startShare(kind: .view), on: moe, .sessionShareError)
    harness.assertConverged()
  }

  @Test(arguments: [true, false])
  func moderatorTakesOverAParticipantsShare(_ byHost: Bool) throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    harness.command(.startShare(kind: .inAppScreen), on: pat)
    let taker = byHost ? hal : mia
    let mark = harness.mark
    harness.expectAccepted(.startShare(kind: .view), on: taker)
    #expect(
      harness.events(to: quinn, since: mark) == [
        .shareStatusChanged(user: harness.user(pat), status: .stopped, kind: .inAppScreen),
        .shareStatusChanged(user: harness.user(taker), status: .started, kind: .view),
      ])
    #expect(harness.participant(pat)?.shareStatus == .stopped)
    #expect(harness.served()?.shares.keys.sorted() == [harness.user(taker)])
    harness.assertConverged()
  }

  @Test func lockedShareAdmitsOnlyModerators() throws {
    let (harness, hal, mia, pat, _) = try classroom()
    let mark = harness.mark
    harness.expectAccepted(.lockShare(true), on: hal)
    #expect(harness.events(to: pat, since: mark) == [.shareSettingChanged(.locked)])
    harness.expectRefused(.startShare(kind: .view), on: pat, .sessionNoRights)
    harness.expectAccepted(.startShare(kind: .view), on: mia)
    harness.expectRefused(.startShare(kind: .view), on: hal, .sessionShareError)
    harness.expectAccepted(.lockShare(false), on: mia)
    #expect(harness.served()?.shareSetting == .single)
    harness.assertConverged()
  }

  @Test func participantMayNotLockOrEnableMultiShare() throws {
    let (harness, _, _, pat, _) = try classroom()
    harness.expectRefused(.lockShare(true), on: pat, .sessionNoRights)
    harness.expectRefused(.lockShare(false), on: pat, .sessionNoRights)
    harness.expectRefused(.enableMultiShare(true), on: pat, .sessionNoRights)
    harness.expectRefused(.enableMultiShare(false), on: pat, .sessionNoRights)
  }

  @Test func multiShareLetsSeveralShareAtOnce() throws {
    let (harness, _, mia, pat, quinn) = try classroom()
    harness.expectAccepted(.enableMultiShare(true), on: mia)
    #expect(harness.replica(pat)?.isMultiShareEnabled == true)
    harness.expectAccepted(.startShare(kind: .view), on: pat)
    harness.expectAccepted(.startShare(kind: .view), on: quinn)
    #expect(harness.served()?.shares.count == 2)
    harness.expectRefused(.startShare(kind: .view), on: pat, .sessionShareError)
    harness.assertConverged()
  }

  @Test func disablingMultiShareKeepsOnlyTheHostsShare() throws {
    let (harness, hal, _, pat, quinn) = try classroom()
    harness.command(.enableMultiShare(true), on: hal)
    harness.command(.startShare(kind: .view), on: pat)
    harness.command(.startShare(kind: .view), on: hal)
    harness.command(.startVideo, on: quinn)
    harness.command(.startShare(kind: .camera), on: quinn)
    #expect(harness.served()?.shares.count == 3)
    let mark = harness.mark
    harness.expectAccepted(.enableMultiShare(false), on: hal)
    #expect(
      harness.events(to: pat, since: mark) == [
        .shareStatusChanged(user: harness.user(pat), status: .stopped, kind: .view),
        .shareStatusChanged(user: harness.user(quinn), status: .stopped, kind: .camera),
        .shareSettingChanged(.single),
      ])
    #expect(harness.served()?.shares.keys.sorted() == [harness.user(hal)])
    harness.assertConverged()
  }

  @Test func disablingMultiShareWithoutHostShareKeepsTheOldest() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    harness.command(.enableMultiShare(true), on: mia)
    harness.command(.startShare(kind: .view), on: quinn)
    harness.command(.startShare(kind: .view), on: pat)
    harness.command(.startShare(kind: .view), on: mia)
    harness.command(.stopShare, on: quinn)
    harness.command(.startShare(kind: .inAppScreen), on: quinn)
    let mark = harness.mark
    harness.expectAccepted(.enableMultiShare(false), on: mia)
    #expect(
      harness.events(to: hal, since: mark) == [
        .shareStatusChanged(user: harness.user(mia), status: .stopped, kind: .view),
        .shareStatusChanged(user: harness.user(quinn), status: .stopped, kind: .inAppScreen),
        .shareSettingChanged(.single),
      ])
    #expect(harness.served()?.shares.keys.sorted() == [harness.user(pat)])
    harness.assertConverged()
  }

  @Test func pauseResumeStop() throws {
    let (harness, hal, _, pat, _) = try classroom()
    harness.command(.startShare(kind: .view), on: pat)
    let mark = harness.mark
    harness.expectAccepted(.pauseShare, on: pat)
    harness.expectRefused(.pauseShare, on: pat, .wrongUsage)
    harness.expectAccepted(.resumeShare, on: pat)
    harness.expectRefused(.resumeShare, on: pat, .wrongUsage)
    harness.expectAccepted(.pauseShare, on: pat)
    harness.expectAccepted(.stopShare, on: pat)
    let user = harness.user(pat)
    #expect(
      harness.events(to: hal, since: mark) == [
        .shareStatusChanged(user: user, status: .paused, kind: .view),
        .shareStatusChanged(user: user, status: .resumed, kind: .view),
        .shareStatusChanged(user: user, status: .paused, kind: .view),
        .shareStatusChanged(user: user, status: .stopped, kind: .view),
      ])
    harness.assertConverged()
  }

  @Test func shareCommandsWithoutAShareAreRefused() throws {
    let (harness, hal, _, pat, _) = try classroom()
    harness.command(.startShare(kind: .view), on: hal)
    for command in [
      SessionCommand.pauseShare, .resumeShare, .stopShare, .disableViewerAnnotation(true),
    ] {
      harness.expectRefused(command, on: pat, .sessionShareYouAreNotSharing)
    }
  }

  @Test func cameraShareNeedsVideoOn() throws {
    let (harness, _, _, pat, _) = try classroom()
    harness.expectRefused(.startShare(kind: .camera), on: pat, .sessionShareCameraVideoNotStart)
    harness.command(.startVideo, on: pat)
    harness.expectAccepted(.startShare(kind: .camera), on: pat)
    harness.assertConverged()
  }

  @Test func onlyTheOwnerDisablesViewerAnnotation() throws {
    let (harness, hal, _, pat, quinn) = try classroom()
    harness.command(.startShare(kind: .view), on: pat)
    harness.expectRefused(.disableViewerAnnotation(true), on: hal, .sessionShareYouAreNotSharing)
    let mark = harness.mark
    harness.expectAccepted(.disableViewerAnnotation(true), on: pat)
    harness.expectAccepted(.disableViewerAnnotation(true), on: pat)
    #expect(
      harness.events(to: quinn, since: mark) == [
        .annotationPrivilegeChanged(shareOwner: harness.user(pat), isViewerAnnotationDisabled: true)
      ])
    #expect(
      harness.replica(quinn)?.annotationBlocker(on: harness.user(pat)) == .viewerAnnotationDisabled)
    harness.assertConverged()
  }

  @Test func sharerLeavingEndsTheShare() throws {
    let (harness, hal, _, pat, quinn) = try classroom()
    harness.command(.startShare(kind: .view), on: pat)
    harness.command(.leave(end: false), on: pat)
    #expect(harness.served()?.shares.isEmpty == true)
    harness.expectAccepted(.startShare(kind: .view), on: quinn)
    #expect(harness.replica(hal)?.sharesInStartOrder.map(\.owner) == [harness.user(quinn)])
    harness.assertConverged()
  }

  @Test func lockingMultiShareKeepsOneShare() throws {
    let (harness, hal, _, pat, quinn) = try classroom()
    harness.command(.enableMultiShare(true), on: hal)
    harness.command(.startShare(kind: .view), on: pat)
    harness.command(.startShare(kind: .view), on: quinn)
    harness.expectAccepted(.lockShare(true), on: hal)
    #expect(harness.served()?.shareSetting == .locked)
    #expect(harness.served()?.shares.keys.sorted() == [harness.user(pat)])
    harness.assertConverged()
  }
}
