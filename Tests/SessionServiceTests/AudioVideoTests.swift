import SessionCore
import SessionService
import SessionTransport
import Testing

@Suite struct AudioVideoTests {
  /// Host Hal, manager Mia, participants Pat and Quinn, all with VoIP audio unmuted.
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

  // MARK: Video

  @Test func startAndStopVideo() throws {
    let (harness, hal, _, pat, _) = try classroom()
    let mark = harness.mark
    harness.expectAccepted(.startVideo, on: pat)
    #expect(
      harness.events(to: hal, since: mark) == [
        .videoStatusChanged(user: harness.user(pat), isOn: true)
      ])
    #expect(harness.replica(hal)?.participants[harness.user(pat)]?.isVideoOn == true)
    harness.expectAccepted(.stopVideo, on: pat)
    #expect(harness.participant(pat)?.isVideoOn == false)
    harness.assertConverged()
  }

  @Test func startingVideoThatIsOnChangesNothing() throws {
    let (harness, hal, _, pat, _) = try classroom()
    harness.command(.startVideo, on: pat)
    let sequence = harness.service.lastSequence(ofSession: "Room")
    let mark = harness.mark
    harness.expectAccepted(.startVideo, on: pat)
    harness.expectAccepted(.stopAudio, on: hal)
    harness.expectAccepted(.stopAudio, on: hal)
    #expect(harness.events(to: pat, since: mark).count == 1)
    #expect(harness.service.lastSequence(ofSession: "Room") == (sequence ?? 0) + 1)
  }

  // MARK: Audio, self

  @Test func startAndStopAudio() throws {
    let harness = ServiceHarness()
    let ann = try harness.join("Ann", connectAudio: false)
    let bob = try harness.join("Bob")
    let mark = harness.mark
    harness.expectAccepted(.startAudio, on: ann)
    #expect(
      harness.events(to: bob, since: mark) == [
        .audioStatusChanged(user: harness.user(ann), type: .voip, isMuted: false)
      ])
    harness.expectAccepted(.stopAudio, on: ann)
    #expect(harness.participant(ann)?.audio == .disconnected)
    harness.assertConverged()
  }

  @Test func anyoneMutesAndUnmutesThemself() throws {
    let (harness, _, _, pat, quinn) = try classroom()
    let patID = harness.user(pat)
    let mark = harness.mark
    harness.expectAccepted(.muteAudio(user: patID), on: pat)
    harness.expectAccepted(.unmuteAudio(user: patID), on: pat)
    #expect(
      harness.events(to: quinn, since: mark) == [
        .audioStatusChanged(user: patID, type: .voip, isMuted: true),
        .audioStatusChanged(user: patID, type: .voip, isMuted: false),
      ])
    harness.assertConverged()
  }

  // MARK: Audio, others

  @Test func moderatorsMuteOthers() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    harness.expectAccepted(.muteAudio(user: harness.user(pat)), on: hal)
    harness.expectAccepted(.muteAudio(user: harness.user(quinn)), on: mia)
    #expect(harness.participant(pat)?.audio.isMuted == true)
    #expect(harness.participant(quinn)?.audio.isMuted == true)
    harness.assertConverged()
  }

  @Test func participantMayNotMuteOthers() throws {
    let (harness, hal, _, pat, quinn) = try classroom()
    harness.expectRefused(.muteAudio(user: harness.user(quinn)), on: pat, .sessionNoRights)
    harness.expectRefused(.muteAudio(user: harness.user(hal)), on: pat, .sessionNoRights)
    harness.expectRefused(.unmuteAudio(user: harness.user(quinn)), on: pat, .sessionNoRights)
  }

  @Test func muteOrUnmuteOfAbsentUserIsInvalid() throws {
    let (harness, hal, _, _, _) = try classroom()
    harness.expectRefused(.muteAudio(user: 9_999), on: hal, .invalidParameter)
    harness.expectRefused(.unmuteAudio(user: 9_999), on: hal, .invalidParameter)
  }

  @Test func unmutingAnotherOnlyAsksTheTarget() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    harness.command(.muteAudio(user: harness.user(pat)), on: hal)
    let mark = harness.mark
    harness.expectAccepted(.unmuteAudio(user: harness.user(pat)), on: mia)
    #expect(
      harness.records(since: mark) == [
        .init(connection: pat, output: .send(.notice(.hostAskedUnmute(by: harness.user(mia)))))
      ])
    #expect(harness.participant(pat)?.audio.isMuted == true)
    #expect(harness.replica(pat)?.unmuteRequestedBy == harness.user(mia))
    #expect(harness.events(to: quinn, since: mark).isEmpty)
    harness.assertConverged()
  }

  @Test func muteAllSparesTheCaller() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    let mark = harness.mark
    harness.expectAccepted(.muteAllAudio(allowUnmute: true), on: mia)
    #expect(
      harness.events(to: hal, since: mark)
        == [hal, pat, quinn].map {
          .audioStatusChanged(user: harness.user($0), type: .voip, isMuted: true)
        })
    #expect(harness.participant(mia)?.audio.isMuted == false)
    // Self-unmute is still allowed.
    harness.expectAccepted(.unmuteAudio(user: harness.user(pat)), on: pat)
    #expect(harness.participant(pat)?.audio.isMuted == false)
    harness.assertConverged()
  }

  @Test func muteAllWithoutUnmuteForbidsParticipantsToUnmute() throws {
    let (harness, hal, mia, pat, _) = try classroom()
    harness.expectAccepted(.muteAllAudio(allowUnmute: false), on: hal)
    harness.expectRefused(.unmuteAudio(user: harness.user(pat)), on: pat, .sessionNoRights)
    harness.expectAccepted(.unmuteAudio(user: harness.user(mia)), on: mia)
    #expect(harness.participant(mia)?.audio.isMuted == false)
    harness.assertConverged()
  }

  @Test func participantMayNotUseModeratorAudioCommands() throws {
    let (harness, _, _, pat, _) = try classroom()
    harness.expectRefused(.muteAllAudio(allowUnmute: true), on: pat, .sessionNoRights)
    harness.expectRefused(.unmuteAllAudio, on: pat, .sessionNoRights)
    harness.expectRefused(.allowAudioUnmutedBySelf(false), on: pat, .sessionNoRights)
  }

  @Test func forbiddingSelfUnmuteRefusesParticipantsButNotModerators() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    let mark = harness.mark
    harness.expectAccepted(.allowAudioUnmutedBySelf(false), on: mia)
    #expect(harness.records(since: mark).isEmpty)
    harness.command(.muteAudio(user: harness.user(pat)), on: pat)
    harness.command(.muteAudio(user: harness.user(hal)), on: hal)
    harness.expectRefused(.unmuteAudio(user: harness.user(pat)), on: pat, .sessionNoRights)
    harness.expectAccepted(.unmuteAudio(user: harness.user(hal)), on: hal)
    #expect(harness.participant(hal)?.audio.isMuted == false)
    // Muting stays allowed.
    harness.expectAccepted(.muteAudio(user: harness.user(quinn)), on: quinn)
    // Allowed again.
    harness.expectAccepted(.allowAudioUnmutedBySelf(true), on: hal)
    harness.expectAccepted(.unmuteAudio(user: harness.user(pat)), on: pat)
    harness.assertConverged()
  }

  @Test func participantConnectingAudioWhileSelfUnmuteIsForbiddenStartsMuted() throws {
    let harness = ServiceHarness()
    let hal = try harness.join("Hal", role: .host)
    let pat = try harness.join("Pat", connectAudio: false)
    harness.command(.allowAudioUnmutedBySelf(false), on: hal)
    harness.expectAccepted(.startAudio, on: pat)
    #expect(harness.participant(pat)?.audio == AudioStatus(type: .voip, isMuted: true))
    let quinn = try harness.join("Quinn")
    #expect(harness.participant(quinn)?.audio.isMuted == true)
    harness.assertConverged()
  }

  @Test func unmuteAllAsksEveryMutedUserButTheCaller() throws {
    let (harness, hal, mia, pat, quinn) = try classroom()
    let dee = try harness.join("Dee", connectAudio: false)
    harness.command(.muteAllAudio(allowUnmute: true), on: hal)
    harness.command(.muteAudio(user: harness.user(hal)), on: hal)
    harness.command(.unmuteAudio(user: harness.user(quinn)), on: quinn)
    let mark = harness.mark
    harness.expectAccepted(.unmuteAllAudio, on: hal)
    let ask = ServiceHarness.Output.send(.notice(.hostAskedUnmute(by: harness.user(hal))))
    #expect(
      harness.records(since: mark) == [
        .init(connection: mia, output: ask), .init(connection: pat, output: ask),
      ])
    #expect(harness.notices(to: dee, since: mark).isEmpty)
    harness.assertConverged()
  }

  @Test func talkingReportsMaintainActiveSpeakers() throws {
    let (harness, hal, _, pat, quinn) = try classroom()
    harness.expectAccepted(.reportTalking(true), on: pat)
    harness.expectAccepted(.reportTalking(true), on: quinn)
    #expect(harness.served()?.activeSpeakers == [harness.user(pat), harness.user(quinn)])
    harness.expectAccepted(.reportTalking(false), on: pat)
    #expect(harness.replica(hal)?.activeSpeakers == [harness.user(quinn)])
    harness.assertConverged()
  }

  @Test func mutedUserStopsBeingAnActiveSpeaker() throws {
    let (harness, hal, _, pat, _) = try classroom()
    harness.command(.reportTalking(true), on: pat)
    harness.expectAccepted(.muteAudio(user: harness.user(pat)), on: hal)
    #expect(harness.served()?.activeSpeakers == [])
    #expect(harness.participant(pat)?.audio.isTalking == false)
    // A muted user's talking is not heard.
    harness.expectAccepted(.reportTalking(true), on: pat)
    #expect(harness.served()?.activeSpeakers == [])
    harness.assertConverged()
  }

  @Test func networkQualityReportsReachEveryone() throws {
    let (harness, hal, _, pat, _) = try classroom()
    let mark = harness.mark
    harness.expectAccepted(.reportNetworkQuality(.bad), on: pat)
    harness.expectAccepted(.reportNetworkQuality(.bad), on: pat)
    #expect(
      harness.events(to: hal, since: mark) == [
        .networkStatusChanged(user: harness.user(pat), quality: .bad)
      ])
    harness.assertConverged()
  }
}
