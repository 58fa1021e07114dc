import LoopbackTransport
import SessionCore
import SessionSDK
import SessionService
import Testing

/// The seed apps' flows, with every member a real SDK instance over a loopback link to a real
/// service: after each step, every replica's shared facts equal the service's.
@Suite("Seed flows over loopback")
struct SeedFlowTests {
  /// Seed 000: two users join, toggle video and audio, and leave with `leaveSession(true)`.
  @Test func quickStartTwoUsersToggleVideoAndAudioThenLeave() throws {
    let harness = try LoopbackHarness()
    let ada = try harness.join("Ada", role: .host, videoOn: true, muted: true)
    let alan = try harness.join("Alan", muted: true)
    let (adaID, alanID) = (try #require(try ada.myID()), try #require(try alan.myID()))
    #expect(ada.waitFor(.onUserJoin([alanID])))
    try harness.waitForConvergence([ada, alan])

    // Each toggles video (Ada off, Alan on) and unmutes, as the seed's buttons do.
    for (peer, id) in [(ada, adaID), (alan, alanID)] {
      try peer.run { sdk in
        if sdk.store.state.myself?.isVideoOn == true {
          sdk.getVideoHelper().stopVideo()
        } else {
          sdk.getVideoHelper().startVideo()
        }
      }
      #expect(ada.waitFor(.onUserVideoStatusChanged([id])))
      try peer.run { sdk in
        let me = sdk.getSession()?.getMySelf()
        _ = sdk.getAudioHelper().unmuteAudio(me)
      }
      #expect(alan.waitFor(.onUserAudioStatusChanged([id])))
      try harness.waitForConvergence([ada, alan])
    }
    // Ada toggles both back: camera on, muted; Alan sees each change before comparing.
    try ada.run { _ = $0.getVideoHelper().startVideo() }
    try ada.run { _ = $0.getAudioHelper().muteAudio($0.getSession()?.getMySelf()) }
    #expect(alan.waitFor(.onUserVideoStatusChanged([adaID]), count: 2))
    #expect(alan.waitFor(.onUserAudioStatusChanged([adaID]), count: 2))
    try harness.waitForConvergence([ada, alan])
    let facts = try #require(try harness.serviceFacts())
    #expect(facts.participants[adaID]?.isVideoOn == true)
    #expect(facts.participants[alanID]?.isVideoOn == true)
    #expect(facts.participants[adaID]?.audio.isMuted == true)
    #expect(facts.participants[alanID]?.audio.isMuted == false)

    // Alan (not the host) leaves with `leaveSession(true)`: he only leaves.
    #expect(try alan.run { $0.leaveSession(true) } == .success)
    #expect(alan.waitFor(.onSessionLeave(.bySelf)))
    #expect(ada.waitFor(.onUserLeave([alanID])))
    try harness.waitForConvergence([ada])
    // The host ends the session.
    #expect(try ada.run { $0.leaveSession(true) } == .success)
    #expect(ada.waitFor(.onSessionLeave(.bySelf)))
    #expect(waitUntil { (try? harness.onService { $0.liveSessionNames }) == [] })
    harness.shutdown()
  }

  /// Seed 001: the host shares, a participant annotates, the host turns viewer annotation off
  /// and on, clears, and stops sharing.
  @Test func shareWithAnnotation() throws {
    let harness = try LoopbackHarness()
    let grace = try harness.join("Grace", role: .host)
    let ada = try harness.join("Ada")
    let alan = try harness.join("Alan")
    let everyone = [grace, ada, alan]
    let graceID = try #require(try grace.myID())
    let adaID = try #require(try ada.myID())

    let view = ViewStandIn()
    #expect(try grace.run { $0.getShareHelper().startShare(with: view) } == .success)
    #expect(ada.waitFor(.onUserShareStatusChanged(graceID, .started, .view)))
    try harness.waitForConvergence(everyone)

    // Ada annotates Grace's share.
    #expect(
      try ada.run { sdk -> VideoSDKError? in
        let helper = sdk.getShareHelper().createAnnotationHelper(
          forShareOf: sdk.getSession()?.user(withID: graceID))
        return helper?.startAnnotation()
      } == .success)
    #expect(
      try waitUntil {
        try harness.serviceFacts()?.shares[graceID]?.annotators.contains(adaID) == true
      })
    try harness.waitForConvergence(everyone)

    // Grace turns viewer annotation off: the viewers hear of it, Ada's helper is cleaned up.
    #expect(try grace.run { $0.getShareHelper().disableViewerAnnotation(true) } == .success)
    #expect(ada.waitFor(.onAnnotationPrivilegeChangeWithUser(graceID, isEnabled: false)))
    #expect(alan.waitFor(.onAnnotationPrivilegeChangeWithUser(graceID, isEnabled: false)))
    try harness.waitForConvergence(everyone)
    #expect(try harness.serviceFacts()?.shares[graceID]?.isViewerAnnotationDisabled == true)

    // On again; Ada annotates again; Grace clears everything and stops sharing.
    #expect(try grace.run { $0.getShareHelper().disableViewerAnnotation(false) } == .success)
    #expect(ada.waitFor(.onAnnotationPrivilegeChangeWithUser(graceID, isEnabled: true)))
    try ada.run { sdk in
      let helper = sdk.getShareHelper().createAnnotationHelper(
        forShareOf: sdk.getSession()?.user(withID: graceID))
      _ = helper?.startAnnotation()
    }
    try grace.run { sdk in
      let helper = sdk.getShareHelper().createAnnotationHelper(nil)
      _ = helper?.clear(.all)
    }
    try harness.waitForConvergence(everyone)
    #expect(try grace.run { $0.getShareHelper().stopShare() } == .success)
    #expect(alan.waitFor(.onUserShareStatusChanged(graceID, .stopped, .view)))
    try harness.waitForConvergence(everyone)
    #expect(try harness.serviceFacts()?.shares.isEmpty == true)
    harness.shutdown()
  }

  /// Seed 002: a teacher and 20 students; roles, roster order, share lock, annotation; the
  /// teacher leaves (the manager becomes host), rejoins and reclaims host.
  @Test func classroomWithTwentyStudents() throws {
    let harness = try LoopbackHarness()
    let teacher = try harness.join("Teacher", role: .host)
    var students: [Peer] = []
    for index in 1...20 { students.append(try harness.join("Student \(index)")) }
    var everyone = [teacher] + students
    try harness.waitForConvergence(everyone)
    let teacherID = try #require(try teacher.myID())
    let monitorID = try #require(try students[0].myID())

    // Roles: the teacher makes the first student a manager.
    #expect(
      try teacher.run { $0.getUserHelper().makeManager($0.getSession()?.user(withID: monitorID)) })
    #expect(students[5].waitFor(.onUserManagerChanged(monitorID)))
    try harness.waitForConvergence(everyone)
    // Roster order: host, managers, then everyone else by join order.
    let order = try students[7].run { sdk in
      sdk.getSession()?.getOrderedUsers().map { $0.getName() ?? "" } ?? []
    }
    #expect(order == ["Teacher", "Student 1"] + (2...20).map { "Student \($0)" })

    // The share lock: only host and managers may share.
    #expect(try teacher.run { $0.getShareHelper().lockShare(true) } == .success)
    #expect(students[3].waitFor(.onShareSettingChanged(.locked)))
    let view = ViewStandIn()
    #expect(
      try students[3].run { $0.getShareHelper().startShare(with: view) } == .sessionNoRights)
    #expect(try students[0].run { $0.getShareHelper().startShare(with: view) } == .success)
    #expect(teacher.waitFor(.onUserShareStatusChanged(monitorID, .started, .view)))
    // A student annotates the manager's share.
    let annotator = try #require(try students[4].myID())
    try students[4].run { sdk in
      let helper = sdk.getShareHelper().createAnnotationHelper(
        forShareOf: sdk.getSession()?.user(withID: monitorID))
      _ = helper?.startAnnotation()
    }
    #expect(
      try waitUntil {
        try harness.serviceFacts()?.shares[monitorID]?.annotators.contains(annotator) == true
      })
    try harness.waitForConvergence(everyone)

    // The teacher leaves without ending: the manager becomes host for everyone.
    #expect(try teacher.run { $0.leaveSession(false) } == .success)
    #expect(teacher.waitFor(.onSessionLeave(.bySelf)))
    for student in students { #expect(student.waitFor(.onUserHostChanged(monitorID))) }
    try harness.waitForConvergence(students)

    // The teacher rejoins (a role_type 1 joiner becomes a manager) and reclaims host.
    try teacher.join(
      session: "Room", token: harness.token(role: .host), videoOn: false, muted: false)
    #expect(teacher.waitFor(.onSessionJoin, count: 2))
    let rejoinedID = try #require(try teacher.myID())
    #expect(rejoinedID != teacherID)
    everyone = [teacher] + students
    try harness.waitForConvergence(everyone)
    #expect(try harness.serviceFacts()?.participants[rejoinedID]?.role == .manager)
    #expect(try teacher.run { $0.getUserHelper().reclaimHost() })
    for student in students { #expect(student.waitFor(.onUserHostChanged(rejoinedID))) }
    try harness.waitForConvergence(everyone)
    let facts = try #require(try harness.serviceFacts())
    #expect(facts.hostID == rejoinedID)
    #expect(facts.participants.count == 21)
    harness.shutdown()
  }
}

/// A view for share and canvas calls that want one.
final class ViewStandIn: Sendable {}
