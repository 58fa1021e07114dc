import Testing

@testable import SessionCore

@Suite("Annotation: start, stop, clear, viewer privilege")
struct AnnotationTests {
  /// The classroom with the teacher (1) sharing; Ada (3) is myself.
  static func teacherSharing(annotators: Set<UserID> = [], viewersDisabled: Bool = false)
    -> SessionState
  {
    var builder = SessionBuilder.classroom
    builder.startShare(
      of: 1, annotators: annotators, isViewerAnnotationDisabled: viewersDisabled)
    return builder.build()
  }

  @Test(arguments: [UserID(1), 2, 3, 4])
  func anyoneMayStartAnnotatingOnALiveShare(user: UserID) {
    var state = Self.teacherSharing()
    expectApplies(.annotationStarted(user: user, shareOwner: 1), to: &state) {
      $0.shares[1]?.annotators = [user]
    }
  }

  @Test func annotatingOnAPausedShareIsAllowed() {
    var state = Self.teacherSharing()
    applyAll([.shareStatusChanged(user: 1, status: .paused, kind: .view)], to: &state)
    expectApplies(.annotationStarted(user: 4, shareOwner: 1), to: &state) {
      $0.shares[1]?.annotators = [4]
    }
  }

  @Test func nobodyAnnotatesWhereNobodyShares() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.annotationStarted(user: 3, shareOwner: 1), in: state, .annotationNotAllowed)
  }

  @Test func viewersCannotAnnotateOnceTheOwnerDisabledItButTheOwnerCan() {
    var state = Self.teacherSharing(viewersDisabled: true)
    expectRejects(.annotationStarted(user: 3, shareOwner: 1), in: state, .annotationNotAllowed)
    expectRejects(.annotationStarted(user: 2, shareOwner: 1), in: state, .annotationNotAllowed)
    expectApplies(.annotationStarted(user: 1, shareOwner: 1), to: &state) {
      $0.shares[1]?.annotators = [1]
    }
  }

  @Test func startingTwiceChangesNothing() {
    let state = Self.teacherSharing(annotators: [4])
    expectRejects(.annotationStarted(user: 4, shareOwner: 1), in: state, .noChange)
  }

  @Test func aUserAnnotatesOnOneShareAtATime() {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .multi
    builder.startShare(of: 1, annotators: [4])
    builder.startShare(of: 2)
    var state = builder.build()
    expectRejects(.annotationStarted(user: 4, shareOwner: 2), in: state, .annotationNotAllowed)
    #expect(state.authorize(.startAnnotation(shareOwner: 2), by: 4) == .wrongUsage)
    #expect(state.annotatedShare(of: 4) == 1)
    expectApplies(.annotationStarted(user: 3, shareOwner: 2), to: &state) {
      $0.shares[2]?.annotators = [3]
    }
    applyAll([.annotationStopped(user: 4, shareOwner: 1)], to: &state)
    #expect(state.authorize(.startAnnotation(shareOwner: 2), by: 4) == .success)
    expectApplies(.annotationStarted(user: 4, shareOwner: 2), to: &state) {
      $0.shares[2]?.annotators = [3, 4]
    }
  }

  @Test func aSnapshotWithAUserAnnotatingTwoSharesIsInvalid() {
    var builder = SessionBuilder.classroom
    builder.shareSetting = .multi
    builder.startShare(of: 1, annotators: [4])
    builder.startShare(of: 2, annotators: [4])
    do {
      _ = try SessionState(snapshot: builder.snapshot)
      Issue.record("a snapshot with a user annotating on two shares applied")
    } catch {
      #expect(error.code == .invalidSnapshot)
    }
  }

  @Test func clearCountWrapsInsteadOfTrapping() {
    var builder = SessionBuilder.classroom
    builder.startShare(of: 1)
    builder.shares[0].clearCount = .max
    var state = builder.build()
    applyAll([.annotationCleared(user: 1, shareOwner: 1, type: .all)], to: &state)
    #expect(state.shares[1]?.clearCount == .min)
  }

  @Test func anUnknownUserCannotAnnotate() {
    let state = Self.teacherSharing()
    expectRejects(.annotationStarted(user: 9, shareOwner: 1), in: state, .unknownUser)
  }

  @Test func annotationStoppedRemovesTheAnnotator() {
    var state = Self.teacherSharing(annotators: [1, 4])
    expectApplies(.annotationStopped(user: 4, shareOwner: 1), to: &state) {
      $0.shares[1]?.annotators = [1]
    }
  }

  @Test func stoppingWithoutAnnotatingIsRefused() {
    let state = Self.teacherSharing(annotators: [1])
    expectRejects(.annotationStopped(user: 4, shareOwner: 1), in: state, .annotationNotAllowed)
    expectRejects(
      .annotationStopped(user: 4, shareOwner: 5), in: state, .annotationNotAllowed)
  }

  @Test func theShareStoppingEndsEveryAnnotation() {
    var state = Self.teacherSharing(annotators: [1, 3, 4])
    expectApplies(.shareStatusChanged(user: 1, status: .stopped, kind: .view), to: &state) {
      $0.participants[1]?.shareStatus = .stopped
      $0.shares = [:]
    }
  }

  @Test func anAnnotatorLeavingStopsTheirAnnotation() {
    var state = Self.teacherSharing(annotators: [1, 4])
    expectApplies(.usersLeft([4]), to: &state) {
      $0.participants[4] = nil
      $0.shares[1]?.annotators = [1]
    }
  }

  /// Who may clear which annotations on the teacher's share (1 host and owner, 2 manager,
  /// 4 participant).
  static let clearRights: [(AnnotationClearType, UserID, Bool)] = [
    (.all, 1, true), (.all, 2, true), (.all, 4, false),
    (.others, 1, true), (.others, 2, false), (.others, 4, false),
    (.mine, 1, true), (.mine, 2, true), (.mine, 4, true),
  ]

  @Test(arguments: clearRights)
  func clearingFollowsTheRights(type: AnnotationClearType, user: UserID, allowed: Bool) {
    var state = Self.teacherSharing(annotators: [1, 2, 4])
    let event = SessionEvent.annotationCleared(user: user, shareOwner: 1, type: type)
    if allowed {
      expectApplies(event, to: &state) { $0.shares[1]?.clearCount = 1 }
    } else {
      expectRejects(event, in: state, .annotationNotAllowed)
    }
    #expect(state.canClearAnnotations(type, on: 1, by: user) == allowed)
  }

  @Test func aParticipantWhoOwnsTheShareMayClearAll() {
    var builder = SessionBuilder.classroom
    builder.startShare(of: 4)
    var state = builder.build()
    expectApplies(.annotationCleared(user: 4, shareOwner: 4, type: .all), to: &state) {
      $0.shares[4]?.clearCount = 1
    }
    #expect(state.canClearAnnotations(.all, on: 4, by: 4))
    #expect(!state.canClearAnnotations(.all, on: 4, by: 5))
  }

  @Test func clearingWhereNobodySharesOrByAnUnknownUserIsRefused() {
    let state = Self.teacherSharing()
    expectRejects(
      .annotationCleared(user: 1, shareOwner: 4, type: .mine), in: state, .annotationNotAllowed)
    expectRejects(
      .annotationCleared(user: 9, shareOwner: 1, type: .mine), in: state, .unknownUser)
    #expect(!state.canClearAnnotations(.mine, on: 4, by: 1))
    #expect(!state.canClearAnnotations(.mine, on: 1, by: 9))
    #expect(!SessionState().canClearAnnotations(.mine, on: 1))
  }

  @Test func clearCountsEveryClear() {
    var state = Self.teacherSharing()
    applyAll(
      [
        .annotationCleared(user: 1, shareOwner: 1, type: .all),
        .annotationCleared(user: 3, shareOwner: 1, type: .mine),
        .annotationCleared(user: 1, shareOwner: 1, type: .others),
      ], to: &state)
    #expect(state.shares[1]?.clearCount == 3)
  }

  @Test func canClearAnnotationsAsksAboutMeByDefault() {
    let state = Self.teacherSharing()
    #expect(state.canClearAnnotations(.mine, on: 1))
    #expect(!state.canClearAnnotations(.all, on: 1))
    #expect(!state.canClearAnnotations(.others, on: 1))
    let asHost = SessionBuilder.classroom(myself: 1, sharing: 1).build()
    #expect(asHost.canClearAnnotations(.all, on: 1))
    #expect(asHost.canClearAnnotations(.others, on: 1))
  }

  @Test func disablingViewerAnnotationStopsEveryViewer() {
    var state = Self.teacherSharing(annotators: [1, 3, 4])
    expectApplies(
      .annotationPrivilegeChanged(shareOwner: 1, isViewerAnnotationDisabled: true), to: &state
    ) {
      $0.shares[1]?.isViewerAnnotationDisabled = true
      $0.shares[1]?.annotators = [1]
    }
    expectApplies(
      .annotationPrivilegeChanged(shareOwner: 1, isViewerAnnotationDisabled: false), to: &state
    ) {
      $0.shares[1]?.isViewerAnnotationDisabled = false
    }
  }

  @Test func annotationPrivilegeNeedsALiveShare() {
    let state = SessionBuilder.classroom.build()
    expectRejects(
      .annotationPrivilegeChanged(shareOwner: 1, isViewerAnnotationDisabled: true), in: state,
      .annotationNotAllowed)
  }

  @Test func annotationBlockerSaysWhyAUserCannotAnnotate() {
    #expect(SessionState().annotationBlocker(on: 1) == .notInSession)
    #expect(Phase.left.state.annotationBlocker(on: 1) == .notInSession)
    let state = Self.teacherSharing()
    #expect(state.annotationBlocker(on: 1) == nil)
    #expect(state.annotationBlocker(on: 1, by: 9) == .notInSession)
    #expect(state.annotationBlocker(on: 4) == .noShare)
    let disabled = Self.teacherSharing(viewersDisabled: true)
    #expect(disabled.annotationBlocker(on: 1) == .viewerAnnotationDisabled)
    #expect(disabled.annotationBlocker(on: 1, by: 2) == .viewerAnnotationDisabled)
    #expect(disabled.annotationBlocker(on: 1, by: 1) == nil)
  }

  @Test func annotationBlockerStillAnswersWhileLeaving() {
    var state = Self.teacherSharing()
    applyAll([.leaveRequested], to: &state)
    #expect(state.annotationBlocker(on: 1) == nil)
  }
}
