import Testing

@testable import SessionCore

@Suite("Share: status transitions, settings, who may start")
struct ShareTests {
  @Test(arguments: ShareKind.allCases)
  func shareStartedCreatesALiveShare(kind: ShareKind) {
    var state = SessionBuilder.classroom.build()
    expectApplies(.shareStatusChanged(user: 4, status: .started, kind: kind), to: &state) {
      $0.participants[4]?.shareStatus = .started
      $0.shares[4] = ActiveShare(owner: 4, status: .started, kind: kind, startOrder: 1)
    }
    #expect(state.shares[4]?.annotators.isEmpty == true)
    #expect(state.shares[4]?.isViewerAnnotationDisabled == false)
  }

  @Test func aSharePausesResumesAndStops() {
    var state = SessionBuilder.classroom(sharing: 4).build()
    expectApplies(.shareStatusChanged(user: 4, status: .paused, kind: .view), to: &state) {
      $0.participants[4]?.shareStatus = .paused
      $0.shares[4]?.status = .paused
    }
    expectApplies(.shareStatusChanged(user: 4, status: .resumed, kind: .view), to: &state) {
      $0.participants[4]?.shareStatus = .resumed
      $0.shares[4]?.status = .resumed
    }
    expectApplies(.shareStatusChanged(user: 4, status: .paused, kind: .view), to: &state) {
      $0.participants[4]?.shareStatus = .paused
      $0.shares[4]?.status = .paused
    }
    expectApplies(.shareStatusChanged(user: 4, status: .stopped, kind: .view), to: &state) {
      $0.participants[4]?.shareStatus = .stopped
      $0.shares[4] = nil
    }
    expectApplies(.shareStatusChanged(user: 4, status: .started, kind: .camera), to: &state) {
      $0.participants[4]?.shareStatus = .started
      $0.shares[4] = ActiveShare(owner: 4, kind: .camera, startOrder: 1)
    }
  }

  /// From each status, the statuses a change may go to; every other change is rejected as
  /// `invalidShareTransition` (in multi-share, so the setting never objects).
  static let transitions: [(ShareStatus, Set<ShareStatus>)] = [
    (.none, [.started]),
    (.started, [.paused, .stopped]),
    (.paused, [.resumed, .stopped]),
    (.resumed, [.paused, .stopped]),
    (.stopped, [.started]),
  ]

  @Test(arguments: transitions)
  func shareStatusFollowsItsStateMachine(from: ShareStatus, allowed: Set<ShareStatus>) {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .multi
    if from.isActive {
      builder.startShare(of: 4, status: from)
    } else {
      builder.participants[3].shareStatus = from
    }
    let state = builder.build()
    for next in ShareStatus.allCases {
      let event = SessionEvent.shareStatusChanged(user: 4, status: next, kind: .view)
      if allowed.contains(next) {
        var copy = state
        #expect(copy.apply(event) == nil, "\(from) -> \(next)")
        #expect(copy[user: 4].shareStatus == next)
        #expect((copy.shares[4] != nil) == next.isActive)
        expectSound(copy)
      } else {
        expectRejects(event, in: state, .invalidShareTransition)
      }
    }
  }

  @Test func shareStatusChangedForAnUnknownUserIsRejected() {
    let state = SessionBuilder.classroom.build()
    expectRejects(
      .shareStatusChanged(user: 9, status: .started, kind: .view), in: state, .unknownUser)
  }

  @Test func nobodyStartsASharingWhileSharingIsOff() {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .none
    let state = builder.build()
    for user: UserID in [1, 2, 4] {
      expectRejects(
        .shareStatusChanged(user: user, status: .started, kind: .view), in: state,
        .shareNotAllowed)
    }
  }

  @Test func lockedShareLetsOnlyTheHostAndManagersStart() {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .locked
    let state = builder.build()
    expectRejects(
      .shareStatusChanged(user: 4, status: .started, kind: .view), in: state, .shareNotAllowed)
    for user: UserID in [1, 2] {
      var copy = state
      #expect(copy.apply(.shareStatusChanged(user: user, status: .started, kind: .view)) == nil)
    }
  }

  @Test func singleShareRefusesASecondSharer() {
    let state = SessionBuilder.classroom(sharing: 4).build()
    for user: UserID in [1, 2, 5] {
      expectRejects(
        .shareStatusChanged(user: user, status: .started, kind: .view), in: state,
        .shareNotAllowed)
    }
  }

  @Test func lockedShareAlsoAllowsOnlyOneSharer() {
    var builder = SessionBuilder.classroom(sharing: 1)
    builder.shareSetting = .locked
    let state = builder.build()
    expectRejects(
      .shareStatusChanged(user: 2, status: .started, kind: .view), in: state, .shareNotAllowed)
  }

  @Test func multiShareLetsSeveralShareInStartOrder() {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .multi
    var state = builder.build()
    applyAll(
      [
        .shareStatusChanged(user: 4, status: .started, kind: .view),
        .shareStatusChanged(user: 1, status: .started, kind: .inAppScreen),
        .shareStatusChanged(user: 5, status: .started, kind: .external),
      ], to: &state)
    #expect(state.sharesInStartOrder.map(\.owner) == [4, 1, 5])
    #expect(state.sharesInStartOrder.map(\.startOrder) == [1, 2, 3])
  }

  @Test func aNewShareIsNumberedAfterTheLiveSharesOnly() {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .multi
    var state = builder.build()
    applyAll(
      [
        .shareStatusChanged(user: 4, status: .started, kind: .view),
        .shareStatusChanged(user: 5, status: .started, kind: .view),
        .shareStatusChanged(user: 5, status: .stopped, kind: .view),
        .shareStatusChanged(user: 1, status: .started, kind: .view),
      ], to: &state)
    #expect(state.shares[1]?.startOrder == 2)
  }

  @Test func equalStatesNumberTheNextShareAlike() throws {
    // One replica saw shares come and go (the latest one stopped); the other joined later
    // from a snapshot and never saw the stopped share.
    var builder = SessionBuilder.classroom
    builder.shareSetting = .multi
    var seen = builder.build()
    applyAll(
      [
        .shareStatusChanged(user: 4, status: .started, kind: .view),
        .shareStatusChanged(user: 5, status: .started, kind: .view),
        .shareStatusChanged(user: 5, status: .stopped, kind: .view),
      ], to: &seen)
    var late = try SessionState(
      snapshot: SessionSnapshot(
        sessionName: "Algebra101", sessionID: "session-1", myself: 3,
        participants: Array(seen.participants.values), shareSetting: .multi,
        shares: Array(seen.shares.values)))
    #expect(late == seen)
    let start = SessionEvent.shareStatusChanged(user: 2, status: .started, kind: .view)
    applyAll([start], to: &seen)
    applyAll([start], to: &late)
    #expect(late == seen)
  }

  @Test func aSharerLeavingEndsTheirShare() {
    var state = SessionBuilder.classroom(sharing: 4).build()
    expectApplies(.usersLeft([4]), to: &state) {
      $0.participants[4] = nil
      $0.shares = [:]
    }
    #expect(state.shareStartBlocker == nil)
  }

  // MARK: Share setting

  @Test(arguments: ShareSetting.allCases)
  func shareSettingChangedSetsTheSetting(setting: ShareSetting) {
    var state = SessionBuilder.classroom.build()
    expectApplies(.shareSettingChanged(setting), to: &state) { $0.shareSetting = setting }
    #expect(state.isShareLocked == (setting == .locked))
    #expect(state.isMultiShareEnabled == (setting == .multi))
  }

  @Test func leavingMultiShareNeedsAllButOneShareStopped() {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .multi
    builder.startShare(of: 1)
    builder.startShare(of: 4)
    var state = builder.build()
    expectRejects(.shareSettingChanged(.single), in: state, .shareNotAllowed)
    expectRejects(.shareSettingChanged(.locked), in: state, .shareNotAllowed)
    expectRejects(.shareSettingChanged(.none), in: state, .shareNotAllowed)
    applyAll([.shareStatusChanged(user: 4, status: .stopped, kind: .view)], to: &state)
    expectApplies(.shareSettingChanged(.single), to: &state) { $0.shareSetting = .single }
  }

  @Test func turningSharingOffNeedsEveryShareStopped() {
    var state = SessionBuilder.classroom(sharing: 4).build()
    expectRejects(.shareSettingChanged(.none), in: state, .shareNotAllowed)
    // Locking does not stop a participant's share already live.
    expectApplies(.shareSettingChanged(.locked), to: &state) { $0.shareSetting = .locked }
    applyAll([.shareStatusChanged(user: 4, status: .stopped, kind: .view)], to: &state)
    expectApplies(.shareSettingChanged(.none), to: &state) { $0.shareSetting = .none }
  }

  // MARK: Derived

  @Test func shareStartBlockerSaysWhyICannotShare() {
    #expect(SessionState().shareStartBlocker == .notInSession)
    #expect(Phase.joining.state.shareStartBlocker == .notInSession)
    #expect(Phase.leaving.state.shareStartBlocker == .notInSession)
    #expect(Phase.left.state.shareStartBlocker == .notInSession)

    #expect(SessionBuilder.classroom.build().shareStartBlocker == nil)
    #expect(SessionBuilder.classroom(sharing: 3).build().shareStartBlocker == .alreadySharing)
    #expect(
      SessionBuilder.classroom(sharing: 4).build().shareStartBlocker == .someoneElseSharing(4))

    var off = SessionBuilder.classroom
    off.shareSetting = .none
    #expect(off.build().shareStartBlocker == .sharingDisabled)

    var locked = SessionBuilder.classroom
    locked.shareSetting = .locked
    #expect(locked.build().shareStartBlocker == .locked)
    locked.myself = 2
    #expect(locked.build().shareStartBlocker == nil)
    locked.startShare(of: 1)
    #expect(locked.build().shareStartBlocker == .someoneElseSharing(1))

    var multi = SessionBuilder.classroom(sharing: 4)
    multi.shareSetting = .multi
    #expect(multi.build().shareStartBlocker == nil)
    multi.startShare(of: 3)
    #expect(multi.build().shareStartBlocker == .alreadySharing)
  }

  @Test func sharingFlagsDescribeMeAndOthers() {
    let nobody = SessionBuilder.classroom.build()
    #expect(!nobody.isSharingOut && !nobody.isOtherSharing)
    let me = SessionBuilder.classroom(sharing: 3).build()
    #expect(me.isSharingOut && !me.isOtherSharing)
    let other = SessionBuilder.classroom(sharing: 4).build()
    #expect(!other.isSharingOut && other.isOtherSharing)
    var both = SessionBuilder.classroom(sharing: 3)
    both.shareSetting = .multi
    both.startShare(of: 4)
    let state = both.build()
    #expect(state.isSharingOut && state.isOtherSharing)
    #expect(!SessionState().isSharingOut)
  }

  @Test func shareStatusIsActiveOnlyWhileLive() {
    #expect(ShareStatus.allCases.filter(\.isActive) == [.started, .paused, .resumed])
  }
}
