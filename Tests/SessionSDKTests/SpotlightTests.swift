import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport
import Testing

/// Spotlight (`spotLightVideo`, `unSpotLightVideo`, `unSpotlightAllVideos`,
/// `getSpotlightedVideoUserList`, `onSpotlightVideoChanged`) over the in-process network with
/// the real service: who may, whom, how many, and what every member hears.
@MainActor
struct SpotlightTests {
  let testbed = SessionTestbed(sessionName: "Spotlight")

  final class Log {
    var spotlights: [[UserID]] = []
  }

  /// Joins `name` (camera on unless told otherwise) and logs the spotlight callbacks it hears.
  func member(_ name: String, role: TokenRole = .participant, videoOn: Bool = true)
    -> (VideoSDK, Log)
  {
    let log = Log()
    let sdk = testbed.makeSDK()
    sdk.callbackObserver = { callback in
      if case .onSpotlightVideoChanged(let ids) = callback { log.spotlights.append(ids) }
    }
    let context = testbed.context(name, role: role)
    context.videoOption.localVideoOn = videoOn
    sdk.joinSession(context)
    testbed.run()
    return (sdk, log)
  }

  func user(_ sdk: VideoSDK, seenBy viewer: VideoSDK) -> User? {
    guard let id = sdk.store.state.myselfID else { return nil }
    return viewer.getSession()?.user(withID: id)
  }

  @Test func theHostSpotlightsAndEveryoneHearsTheListInOrder() throws {
    let (teacher, teacherLog) = member("Teacher", role: .host)
    let (ada, adaLog) = member("Ada")
    let (bob, bobLog) = member("Bob")
    let video = teacher.getVideoHelper()!
    let adaUser = try #require(user(ada, seenBy: teacher))
    let bobUser = try #require(user(bob, seenBy: teacher))
    #expect(video.spotLightVideo(bobUser) == .success)
    #expect(video.spotLightVideo(adaUser) == .success)
    let order = [try #require(bob.store.state.myselfID), try #require(ada.store.state.myselfID)]
    for log in [teacherLog, adaLog, bobLog] {
      #expect(log.spotlights == [[order[0]], order])
    }
    #expect(video.getSpotlightedVideoUserList()?.map(\.id) == order)
    #expect(ada.getVideoHelper().getSpotlightedVideoUserList()?.map(\.id) == order)
    #expect(bobUser.isVideoSpotLighted() && adaUser.isVideoSpotLighted())
    #expect(teacher.getSession()?.getMySelf()?.isVideoSpotLighted() == false)
    // Again: accepted, nothing changes, nobody hears anything.
    #expect(video.spotLightVideo(bobUser) == .success)
    #expect(adaLog.spotlights.count == 2)
    #expect(video.unSpotLightVideo(bobUser) == .success)
    #expect(adaLog.spotlights.last == [order[1]])
    #expect(video.unSpotlightAllVideos() == .success)
    #expect(adaLog.spotlights.last == [])
    #expect(video.unSpotlightAllVideos() == .success, "with nobody spotlighted: nothing to do")
    #expect(adaLog.spotlights.count == 4)
    testbed.assertConverged()
  }

  @Test func eachRefusalHasTheSDKsCodeAndChangesNothing() throws {
    let (alone, _) = member("Teacher", role: .host)
    let me = try #require(alone.getSession()?.getMySelf())
    #expect(alone.getVideoHelper().spotLightVideo(me) == .spotlightNotEnoughUsers)
    let (ada, adaLog) = member("Ada")
    let (dark, _) = member("Dark", videoOn: false)
    let video = alone.getVideoHelper()!
    let adaUser = try #require(user(ada, seenBy: alone))
    #expect(video.spotLightVideo(nil) == .invalidParameter)
    #expect(
      video.spotLightVideo(user(dark, seenBy: alone)) == .spotlightUserWithoutVideo)
    #expect(video.unSpotLightVideo(adaUser) == .spotlightUserNotSpotlighted)
    // Not the host: no rights, whatever the target.
    let teacherSeenByAda = try #require(user(alone, seenBy: ada))
    #expect(ada.getVideoHelper().spotLightVideo(teacherSeenByAda) == .sessionNoRights)
    #expect(ada.getVideoHelper().unSpotLightVideo(teacherSeenByAda) == .sessionNoRights)
    #expect(ada.getVideoHelper().unSpotlightAllVideos() == .sessionNoRights)
    // Someone who left cannot be spotlighted.
    let (gone, _) = member("Gone")
    let goneUser = try #require(user(gone, seenBy: alone))
    #expect(gone.leaveSession(false) == .success)
    testbed.run()
    #expect(video.spotLightVideo(goneUser) == .spotlightUserCannotBeSpotlighted)
    #expect(adaLog.spotlights.isEmpty)
    #expect(video.getSpotlightedVideoUserList()?.isEmpty == true)
    testbed.assertConverged()
  }

  @Test func nineAtMost() throws {
    let (teacher, _) = member("Teacher", role: .host)
    var students: [VideoSDK] = []
    for index in 1...10 { students.append(member("Student \(index)").0) }
    let video = teacher.getVideoHelper()!
    for student in students.prefix(9) {
      #expect(video.spotLightVideo(user(student, seenBy: teacher)) == .success)
    }
    let tenth = try #require(user(students[9], seenBy: teacher))
    #expect(video.spotLightVideo(tenth) == .spotlightToMuchSpotlightedUsers)
    #expect(video.getSpotlightedVideoUserList()?.count == 9)
    testbed.assertConverged()
  }

  /// A spotlighted member who leaves drops out of the list: everyone hears the leave, then
  /// the list that is left.
  @Test func aSpotlightedMemberWhoLeavesDropsOutOfTheList() throws {
    let (teacher, teacherLog) = member("Teacher", role: .host)
    let (ada, _) = member("Ada")
    let (bob, bobLog) = member("Bob")
    #expect(
      teacher.getVideoHelper().spotLightVideo(user(ada, seenBy: teacher)) == .success)
    #expect(
      teacher.getVideoHelper().spotLightVideo(user(bob, seenBy: teacher)) == .success)
    let bobID = try #require(bob.store.state.myselfID)
    #expect(ada.leaveSession(false) == .success)
    testbed.run()
    #expect(teacherLog.spotlights.last == [bobID])
    #expect(bobLog.spotlights.last == [bobID])
    #expect(teacher.store.state.spotlighted == [bobID])
    testbed.assertConverged()
  }

  /// A member who joins later gets the list in its snapshot.
  @Test func aLateJoinerSeesTheSpotlightInItsSnapshot() throws {
    let (teacher, _) = member("Teacher", role: .host)
    let (ada, _) = member("Ada")
    #expect(
      teacher.getVideoHelper().spotLightVideo(user(ada, seenBy: teacher)) == .success)
    let (late, _) = member("Late")
    #expect(
      late.getVideoHelper().getSpotlightedVideoUserList()?.map(\.id) == [
        try #require(ada.store.state.myselfID)
      ])
    testbed.assertConverged()
  }
}
