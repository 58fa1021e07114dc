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
    /// The shared instance and the seed's development service as before any test.
    @MainActor
    static func reset() {
      SharedInstanceTests.resetSharedInstance()
      DevelopmentService.reset(domain: QuickStartScene.domain)
    }

    @MainActor
    @Test func theSeedsAppRunsAsWrittenWithSeveralPeers() async throws {
      Self.reset()
      defer { Self.reset() }
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

    /// Thirty-one copies of the seed's app, unchanged, in one process: each copy's code runs
    /// in a scope that makes its own instance the shared one, so every
    /// `ZoomVideoSDK.shareInstance()` it makes (in its calls, in its callbacks, in the tasks
    /// those start) reaches that instance; the process's shared instance is never touched.
    @MainActor
    @Test func thirtyOneCopiesOfTheSeedsAppEachRunOnTheirOwnInstance() async throws {
      Self.reset()
      defer { Self.reset() }
      var copies: [(sdk: VideoSDK, app: SessionView.ViewModel)] = []
      for index in 0..<31 {
        let sdk = VideoSDK()
        let app = SessionView.ViewModel()
        await VideoSDK.withSharedInstance(sdk) {
          StartView().setupSDK()
          app.userInputJWT = DevelopmentService.token(
            sessionName: app.sessionName, role: index == 0 ? .host : .participant)
          await app.joinSession()
        }
        copies.append((sdk, app))
      }
      #expect(!VideoSDK.shared.isInitialized)
      #expect(VideoSDK.shareInstance() === VideoSDK.shared, "outside every scope")
      for copy in copies {
        #expect(copy.sdk.isInitialized && copy.app.inSession)
        #expect(await SharedInstanceTests.settle { copy.app.videoOn })
      }
      // Each copy's onUserJoin asked shareInstance() who "myself" is: its remote tiles are the
      // thirty others, never itself.
      for copy in copies {
        let me = try #require(copy.sdk.getSession()?.getMySelf()?.getID())
        #expect(copy.app.remoteUsers.count == 30)
        #expect(!copy.app.remoteUsers.contains { $0.getID() == me })
      }
      // A button in one copy (the toggle hops through a Task) turns that copy's camera off,
      // and only that one.
      let fifth = copies[5]
      VideoSDK.withSharedInstance(fifth.sdk) { fifth.app.toggleVideo() }
      #expect(await SharedInstanceTests.settle { !fifth.app.videoOn })
      let on = copies.map { $0.sdk.getSession()?.getMySelf()?.getVideoCanvas()?.videoStatus()?.on }
      #expect(on.enumerated().allSatisfy { $0.element == ($0.offset != 5) })
      for copy in copies.reversed() {
        VideoSDK.withSharedInstance(copy.sdk) { _ = copy.sdk.leaveSession(false) }
      }
    }
  }
}
