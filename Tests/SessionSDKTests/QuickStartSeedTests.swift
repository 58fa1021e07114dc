import SessionCore
import SessionSDK
import SessionService
import Testing

@testable import QuickStartSeed

extension SharedInstanceTests {
  /// `Examples/QuickStart`'s seed code (seed 000 as published, Zoom names through type aliases
  /// alone) on the shared instance and the development service, with three more peers.
  @Suite("Examples/QuickStart: seed 000 as written, with several peers")
  struct QuickStartSeedTests {
    @MainActor
    @Test func theSeedsAppRunsAsWrittenWithSeveralPeers() async throws {
      SharedInstanceTests.resetSharedInstance()
      DevelopmentService.reset(domain: QuickStartScene.domain)
      defer {
        SharedInstanceTests.resetSharedInstance()
        DevelopmentService.reset(domain: QuickStartScene.domain)
      }
      let scene = QuickStartScene()
      let alice = scene.alice

      // The seed's setupSDK and joinSession, unchanged: no transport configured.
      scene.start.setupSDK()
      #expect(VideoSDK.shared.isInitialized)
      alice.userInputJWT = DevelopmentService.token(sessionName: alice.sessionName, role: .host)
      await alice.joinSession()
      #expect(alice.inSession)
      #expect(!alice.joinSessionFailed)
      // The camera the seed's context turns on is reported after the join.
      #expect(await SharedInstanceTests.settle { alice.videoOn })
      #expect(!alice.audioOn, "audioOption.mute = true")

      // The seed's local tile subscribes the canvas while the camera is on.
      let view = UIView()
      alice.attachLocalVideo(to: view)
      alice.updateLocalVideo(to: view)
      #expect(VideoSDK.shared.videoSubscriptionCount == 1)

      for (name, video) in [("Bob", true), ("Carol", false), ("Dan", true)] {
        scene.join(name, videoOn: video)
      }
      #expect(alice.remoteUsers.compactMap { $0.getName() } == ["Bob", "Carol", "Dan"])
      let bob = try #require(scene.others["Bob"])
      #expect(bob.getSession()?.getOrderedUsers().compactMap { $0.getName() }.first == "Alice")
      #expect(
        alice.remoteUsers.map { $0.getVideoCanvas()?.videoStatus()?.on } == [true, false, true])

      // The seed's toggles hop through Task { await MainActor.run { … } }.
      alice.toggleVideo()
      #expect(await SharedInstanceTests.settle { !alice.videoOn })
      #expect(bob.getSession()?.getSessionHost()?.getVideoCanvas()?.videoStatus()?.on == false)
      alice.toggleAudio()
      #expect(await SharedInstanceTests.settle { alice.audioOn })
      #expect(bob.getSession()?.getSessionHost()?.audioStatus()?.isMuted == false)

      // A peer's change reaches the seed's remote tiles through onUserVideoStatusChanged.
      #expect(bob.getVideoHelper().stopVideo() == .Errors_Success)
      #expect(alice.remoteUsers.first?.getVideoCanvas()?.videoStatus()?.on == false)

      // A peer leaves: onUserLeave drops its tile.
      #expect(scene.others["Carol"]?.leaveSession(false) == .Errors_Success)
      #expect(alice.remoteUsers.compactMap { $0.getName() } == ["Bob", "Dan"])

      // The host's leaveSession(true) ends the session for everyone.
      alice.leaveSession()
      #expect(alice.leftSession)
      #expect(bob.store.state.phase == .left(.endByHost))
      #expect(scene.others["Dan"]?.store.state.phase == .left(.endByHost))
      #expect(DevelopmentService.liveSessionNames(domain: QuickStartScene.domain).isEmpty)
    }
  }
}
