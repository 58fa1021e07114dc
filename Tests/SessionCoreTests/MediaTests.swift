import Testing

@testable import SessionCore

@Suite("Media: video, audio, speakers, unmute requests")
struct MediaTests {
  @Test(arguments: [true, false])
  func videoStatusChangedTurnsTheCameraOnOrOff(isOn: Bool) {
    var builder = SessionBuilder.classroom
    builder.participants[3].isVideoOn = !isOn
    var state = builder.build()
    expectApplies(.videoStatusChanged(user: 4, isOn: isOn), to: &state) {
      $0.participants[4]?.isVideoOn = isOn
    }
  }

  @Test func videoStatusChangedForAnUnknownUserIsRejected() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.videoStatusChanged(user: 9, isOn: true), in: state, .unknownUser)
  }

  @Test func audioStatusChangedSetsTheTypeAndMute() {
    var state = SessionBuilder.classroom.build()
    expectApplies(.audioStatusChanged(user: 4, type: .telephony, isMuted: false), to: &state) {
      $0.participants[4]?.audio = AudioStatus(type: .telephony, isMuted: false, isTalking: false)
    }
  }

  @Test func unmutedAudioKeepsTalkingButMutedOrDisconnectedAudioStopsIt() {
    var state = SessionBuilder.classroom.build()
    applyAll(
      [
        .audioStatusChanged(user: 4, type: .voip, isMuted: false),
        .activeSpeakersChanged([4]),
      ], to: &state)
    expectApplies(.audioStatusChanged(user: 4, type: .telephony, isMuted: false), to: &state) {
      $0.participants[4]?.audio.type = .telephony
    }
    #expect(state[user: 4].audio.isTalking)
    expectApplies(.audioStatusChanged(user: 4, type: .telephony, isMuted: true), to: &state) {
      $0.participants[4]?.audio.isMuted = true
      $0.participants[4]?.audio.isTalking = false
    }
    applyAll([.audioStatusChanged(user: 4, type: .voip, isMuted: false)], to: &state)
    applyAll([.activeSpeakersChanged([4])], to: &state)
    expectApplies(.audioStatusChanged(user: 4, type: .none, isMuted: false), to: &state) {
      $0.participants[4]?.audio.type = AudioType.none
      $0.participants[4]?.audio.isTalking = false
    }
  }

  @Test func unmutingMyselfAnswersAnUnmuteRequest() {
    var state = SessionBuilder.classroom.build()
    applyAll([.hostAskedUnmute(by: 1)], to: &state)
    expectApplies(.audioStatusChanged(user: 3, type: .voip, isMuted: false), to: &state) {
      $0.participants[3]?.audio = AudioStatus(type: .voip, isMuted: false)
      $0.unmuteRequestedBy = nil
    }
  }

  @Test func stayingMutedOrSomeoneElseUnmutingKeepsTheUnmuteRequest() {
    var state = SessionBuilder.classroom.build()
    applyAll([.hostAskedUnmute(by: 1)], to: &state)
    expectApplies(.audioStatusChanged(user: 3, type: .voip, isMuted: true), to: &state) {
      $0.participants[3]?.audio = AudioStatus(type: .voip, isMuted: true)
    }
    expectApplies(.audioStatusChanged(user: 4, type: .voip, isMuted: false), to: &state) {
      $0.participants[4]?.audio = AudioStatus(type: .voip, isMuted: false)
    }
    #expect(state.unmuteRequestedBy == 1)
  }

  @Test func audioStatusChangedForAnUnknownUserIsRejected() {
    let state = SessionBuilder.classroom.build()
    expectRejects(
      .audioStatusChanged(user: 9, type: .voip, isMuted: false), in: state, .unknownUser)
  }

  @Test func activeSpeakersChangedMarksWhoIsTalking() {
    var state = SessionBuilder.classroom.build()
    expectApplies(.activeSpeakersChanged([5, 1]), to: &state) {
      $0.activeSpeakers = [5, 1]
      $0.participants[5]?.audio.isTalking = true
      $0.participants[1]?.audio.isTalking = true
    }
    expectApplies(.activeSpeakersChanged([1, 2]), to: &state) {
      $0.activeSpeakers = [1, 2]
      $0.participants[5]?.audio.isTalking = false
      $0.participants[2]?.audio.isTalking = true
    }
    expectApplies(.activeSpeakersChanged([]), to: &state) {
      $0.activeSpeakers = []
      $0.participants[1]?.audio.isTalking = false
      $0.participants[2]?.audio.isTalking = false
    }
  }

  @Test func activeSpeakersNamingAnUnknownUserAreRejected() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.activeSpeakersChanged([1, 9]), in: state, .unknownUser)
  }

  @Test func activeSpeakersListingAUserTwiceAreRejected() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.activeSpeakersChanged([1, 4, 1]), in: state, .duplicateUser)
  }

  @Test(arguments: [UserID(1), 2])
  func theHostOrAManagerMayAskMeToUnmute(asker: UserID) {
    var state = SessionBuilder.classroom.build()
    expectApplies(.hostAskedUnmute(by: asker), to: &state) { $0.unmuteRequestedBy = asker }
  }

  @Test func aParticipantCannotAskMeToUnmute() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.hostAskedUnmute(by: 4), in: state, .invalidTarget)
  }

  @Test func anUnknownUserCannotAskMeToUnmute() {
    let state = SessionBuilder.classroom.build()
    expectRejects(.hostAskedUnmute(by: 9), in: state, .unknownUser)
  }
}
