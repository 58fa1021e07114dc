import InProcessTransport
import SessionCore
import SessionSDK
import SessionService
import SessionTestSupport
import SessionTransport
import Testing

@Suite("Test support: SDKTestStore")
struct TestSupportSDKTestStoreTests {

  @Test func aJoinAndAToggleAreDescribedExactlyOnBothSides() throws {
    let testbed = SessionTestbed()
    let grace = SDKTestStore(testbed.join("Grace", role: .host), in: testbed)
    let graceID = try #require(grace.state.myselfID)
    let ada = SDKTestStore(testbed.makeSDK(), in: testbed)

    let context = testbed.context("Ada")
    context.videoOption.localVideoOn = true
    context.audioOption.mute = true
    let session = ada.perform(
      { $0.joinSession(context) },
      assert: { expected in
        guard let service = testbed.serviceState() else { return }
        expected = SessionStateFields(service)
        expected.phase = .inSession
        expected.myselfID = 2
        expected.isServiceView = false
      })
    #expect(session != nil)
    ada.receive([
      .onSessionJoin, .onUserJoin([graceID, 2]), .onUserVideoStatusChanged([2]),
      .onUserAudioStatusChanged([2]), .onCmdChannelConnectResult(true),
    ])
    let adaParticipant = try #require(ada.state.myself)
    #expect(adaParticipant.isVideoOn)
    #expect(adaParticipant.audio == AudioStatus(type: .voip, isMuted: true))
    grace.receive([
      .onUserJoin([2]), .onUserVideoStatusChanged([2]), .onUserAudioStatusChanged([2]),
    ]) { $0.participants[2] = adaParticipant }

    ada.perform(
      { $0.getVideoHelper().stopVideo() }, returns: .success,
      assert: {
        $0.myself?.isVideoOn = false
      })
    ada.receive(.onUserVideoStatusChanged([2]))
    grace.receive(.onUserVideoStatusChanged([2])) { $0.participants[2]?.isVideoOn = false }

    // A refused call changes nothing and fires nothing.
    ada.perform({ $0.getUserHelper().makeHost(session?.getMySelf()) }, returns: false)
    ada.finish()
    grace.finish()
    testbed.assertConverged()
  }

  @Test func anUndescribedChangeAfterACallFailsWithADiff() throws {
    let testbed = SessionTestbed()
    let grace = SDKTestStore(testbed.join("Grace", role: .host), in: testbed)
    withKnownIssue {
      grace.perform({ $0.getShareHelper().lockShare(true) }, returns: .success)
    } matching: {
      $0.mentions(
        "State after the call differs", "shareSetting: expected single, got locked")
    }
    grace.receive(.onShareSettingChanged(.locked))
    withKnownIssue {
      grace.perform(
        { $0.getShareHelper().lockShare(false) }, returns: .wrongUsage,
        assert: {
          $0.shareSetting = .single
        })
    } matching: {
      $0.mentions("The call returned success, expected wrongUsage")
    }
    grace.skipReceived()
    grace.finish()
  }

  @Test func callbacksAndChangesLeftOverFailAtFinishAndWhenTheStoreEnds() throws {
    let testbed = SessionTestbed()
    let graceSDK = testbed.join("Grace", role: .host)
    withKnownIssue {
      let grace = SDKTestStore(graceSDK, in: testbed)
      testbed.join("Ada")
      grace.finish()
    } matching: {
      $0.mentions("2 callback(s) were fired but not received", "onUserJoin([#2])")
        || $0.mentions(
          "The replica changed without being described", "participants[#2]: expected nothing, got")
    }
    withKnownIssue {
      let grace = SDKTestStore(graceSDK, in: testbed)
      #expect(grace.sdk.getChatHelper().changeChatPrivilege(.noOne) == .success)
    } matching: {
      $0.mentions("onChatPrivilegeChanged(ChatPrivilege.noOne)")
        || $0.mentions("chatPrivilege: expected everyonePubliclyAndPrivately, got noOne")
    }
  }

  @Test func performingWithCallbacksWaitingFails() throws {
    let testbed = SessionTestbed()
    let grace = SDKTestStore(testbed.join("Grace", role: .host), in: testbed)
    grace.perform(
      { $0.getVideoHelper().startVideo() }, returns: .success,
      assert: {
        $0.myself?.isVideoOn = true
      })
    withKnownIssue {
      grace.perform(
        { $0.getVideoHelper().stopVideo() }, returns: .success,
        assert: {
          $0.myself?.isVideoOn = false
        })
    } matching: {
      $0.mentions(
        "1 callback(s) must be received before performing a call",
        "onUserVideoStatusChanged([#1])")
    }
    // The waiting callback was dropped with the failure; the stop's own one waits now.
    grace.receive(.onUserVideoStatusChanged([1]))
    grace.perform(
      { $0.getVideoHelper().startVideo() }, returns: .success,
      assert: {
        $0.myself?.isVideoOn = true
      })
    withKnownIssue {
      grace.receive(.onUserVideoStatusChanged([1])) { $0.myself?.isVideoOn = false }
    } matching: {
      $0.mentions("already described", "participants[#1].isVideoOn")
    }
    grace.finish()
  }

  @Test func changesNoCallbackAnnouncesAreDescribedWithAssert() throws {
    let testbed = SessionTestbed()
    let graceSDK = testbed.join("Grace", role: .host)
    let ada = SDKTestStore(testbed.join("Ada"), in: testbed)
    #expect(graceSDK.getShareHelper().startShare(with: NSObjectStandIn()) == .success)
    ada.receive(.onUserShareStatusChanged(1, .started, .view)) {
      $0.participants[1]?.shareStatus = .started
      $0.shares[1] = ActiveShare(owner: 1, startOrder: 1)
    }
    let helper = try #require(
      graceSDK.getShareHelper().createAnnotationHelper(nil))
    #expect(helper.startAnnotation() == .success)
    ada.assert { $0.shares[1]?.annotators = [1] }
    withKnownIssue {
      ada.assert { $0.shares[1]?.clearCount = 1 }
    } matching: {
      $0.mentions("shares[#1].clearCount: expected 1, got 0")
    }
    ada.finish()
    testbed.assertConverged()
  }

  @Test func aManualNetworkSettlesInsideTheStore() throws {
    let testbed = SessionTestbed(delivery: .manual)
    let grace = testbed.join("Grace", role: .host)
    let ada = SDKTestStore(testbed.join("Ada"), in: testbed)
    let adaID = try #require(ada.state.myselfID)
    ada.perform(
      { $0.getAudioHelper().muteAudio($0.getSession()?.getMySelf()) }, returns: .success,
      assert: {
        $0.myself?.audio.isMuted = true
      })
    ada.receive(.onUserAudioStatusChanged([adaID]))
    #expect(grace.store.state.participants[adaID]?.audio.isMuted == true)
    ada.finish()
    testbed.assertConverged()
  }

  @Test func withExhaustivityOffReceiveSkipsAndLeftoversPass() throws {
    let testbed = SessionTestbed()
    let grace = SDKTestStore(testbed.join("Grace", role: .host), in: testbed)
    grace.exhaustivity = .off
    let ada = testbed.join("Ada")
    let bob = testbed.join("Bob")
    #expect(bob.getVideoHelper().startVideo() == .success)
    #expect(ada.getVideoHelper().startVideo() == .success)
    grace.receive(.onUserVideoStatusChanged([2])) { $0.participants[2]?.isVideoOn = true }
    grace.perform({ $0.getShareHelper().lockShare(true) }, returns: .success)
    grace.finish()
  }
}
