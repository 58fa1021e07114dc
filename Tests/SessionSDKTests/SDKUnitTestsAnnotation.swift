import SessionCore
import SessionSDK
import SessionTransport
import Testing

@Suite("SDK annotation helpers")
struct SDKUnitTestsAnnotation {
  /// Grace (host) shares a view; Ada watches it through a subscribed view.
  struct SharedClassroom {
    let service = MiniService()
    let grace: SDKTestRig
    let ada: SDKTestRig
    let sharerView = NSObjectStandIn()

    init() throws {
      grace = SDKTestRig(transport: service)
      ada = SDKTestRig(transport: service)
      grace.join("Grace")
      ada.join("Ada")
      #expect(grace.sdk.getShareHelper().startShare(with: NSObjectStandIn()) == .success)
      let action = try #require(ada.sdk.getSession()?.getSessionHost()?.getShareActionList()?.first)
      #expect(
        action.getShareCanvas()?.subscribe(
          with: sharerView, aspectMode: .letterBox, andResolution: .auto) == .success)
      _ = grace.log.take()
      _ = ada.log.take()
    }
  }

  @Test func aStartedHelperCannotBeDestroyed() throws {
    let room = try SharedClassroom()
    let share: ShareHelper = room.ada.sdk.getShareHelper()
    let helper = try #require(share.createAnnotationHelper(room.sharerView))
    #expect(helper.shareOwner == 1)
    #expect(share.createAnnotationHelper(room.sharerView) === helper)
    #expect(helper.canDoAnnotation())
    #expect(helper.startAnnotation() == .success)
    #expect(helper.isStarted)
    #expect(room.service.participants.isEmpty == false)
    #expect(room.ada.sdk.store.state.shares[1]?.annotators == [2])
    #expect(helper.startAnnotation() == .wrongUsage)
    #expect(share.destroyAnnotationHelper(helper) == .wrongUsage)
    #expect(helper.stopAnnotation() == .success)
    #expect(share.destroy(helper) == .success)
    #expect(helper.isReleased)
    #expect(helper.startAnnotation() == .wrongUsage)
    #expect(share.destroyAnnotationHelper(helper) == .invalidParameter)
    #expect(share.destroyAnnotationHelper(nil) == .invalidParameter)
  }

  @Test func helpersNeedALiveShare() throws {
    let room = try SharedClassroom()
    let share: ShareHelper = room.ada.sdk.getShareHelper()
    #expect(share.createAnnotationHelper(nil) == nil)  // Ada is not sharing
    #expect(share.createAnnotationHelper(NSObjectStandIn()) == nil)  // shows no share
    let own = room.grace.sdk.getShareHelper().createAnnotationHelper(nil)
    #expect(own?.shareOwner == 1)
    let byUser = share.createAnnotationHelper(
      forShareOf: room.ada.sdk.getSession()?.getSessionHost())
    #expect(byUser?.shareOwner == 1)
  }

  @Test func aStoppedShareCleansUpTheHelper() throws {
    let room = try SharedClassroom()
    let delegate = RecordingDelegate(sdk: room.ada.sdk)
    room.ada.sdk.delegate = delegate
    let helper = try #require(room.ada.sdk.getShareHelper().createAnnotationHelper(room.sharerView))
    #expect(helper.startAnnotation() == .success)
    #expect(room.grace.sdk.getShareHelper().stopShare() == .success)
    #expect(
      room.ada.log.take() == [
        .onUserShareStatusChanged(1, .stopped, .view), .onAnnotationHelperCleanUp(shareOwner: 1),
      ])
    #expect(delegate.cleanedUpHelpers.count == 1 && delegate.cleanedUpHelpers[0] === helper)
    #expect(helper.isReleased && !helper.isStarted)
    #expect(helper.setToolType(.pen) == .wrongUsage)
    #expect(helper.clear(.mine) == .wrongUsage)
    #expect(!helper.canDoAnnotation())
  }

  @Test func leavingCleansUpEveryHelper() throws {
    let room = try SharedClassroom()
    let helper = try #require(room.ada.sdk.getShareHelper().createAnnotationHelper(room.sharerView))
    #expect(room.ada.sdk.leaveSession(false) == .success)
    #expect(
      room.ada.log.take() == [
        .onAnnotationHelperCleanUp(shareOwner: 1), .onSessionLeave(.bySelf), .onSessionLeaveLegacy,
      ])
    #expect(helper.isReleased)
  }

  @Test func viewersHearAnnotationPrivilegeChangesAndStop() throws {
    let room = try SharedClassroom()
    let delegate = RecordingDelegate(sdk: room.ada.sdk)
    room.ada.sdk.delegate = delegate
    let helper = try #require(room.ada.sdk.getShareHelper().createAnnotationHelper(room.sharerView))
    #expect(helper.startAnnotation() == .success)
    #expect(room.grace.sdk.getShareHelper().disableViewerAnnotation(true) == .success)
    #expect(room.grace.log.take().isEmpty)
    #expect(
      room.ada.log.take() == [
        .onAnnotationPrivilegeChangeWithUser(1, isEnabled: false),
        .onAnnotationPrivilegeChange(enable: false, shareOwner: 1),
      ])
    #expect(
      delegate.lines == [
        "annotationPrivilegeWithUser false Grace", "annotationPrivilege false Grace",
      ])
    #expect(!helper.isStarted && !helper.canDoAnnotation())
    #expect(room.ada.sdk.getShareHelper().isViewerAnnotationDisabled())
    #expect(helper.startAnnotation() == .sessionNoRights)
    #expect(room.ada.sdk.getShareHelper().destroyAnnotationHelper(helper) == .success)
  }

  @Test func toolsAreLocalAndOwnerOnlyToolsAreRefusedToViewers() throws {
    let room = try SharedClassroom()
    let viewer = try #require(room.ada.sdk.getShareHelper().createAnnotationHelper(room.sharerView))
    let owner = try #require(room.grace.sdk.getShareHelper().createAnnotationHelper(nil))
    #expect(viewer.getToolType() == .pen)
    #expect(viewer.setToolType(.picker) == .dontSupportFeature)
    #expect(viewer.setToolType(.spotLight) == .dontSupportFeature)
    #expect(owner.setToolType(.spotLight) == .success)
    #expect(room.grace.log.take() == [.onAnnotationToolTypeChanged(shareOwner: 1, .spotLight)])
    #expect(viewer.setToolType(.highLighter) == .success)
    #expect(viewer.setToolType(.highLighter) == .success)
    #expect(room.ada.log.take() == [.onAnnotationToolTypeChanged(shareOwner: 1, .highLighter)])
    #expect(viewer.setToolColor(.yellow) == .success)
    #expect(viewer.getToolColor() == .yellow)
    #expect(viewer.setToolWidth(0) == .invalidParameter)
    #expect(viewer.setToolWidth(5) == .success)
    #expect(viewer.getToolWidth() == 5)
    #expect(
      room.service.links.allSatisfy { $0.commands.allSatisfy { $0 == .startShare(kind: .view) } })
  }

  @Test func undoRedoAndClearWalkTheLocalStrokeStack() throws {
    let room = try SharedClassroom()
    let helper = try #require(room.ada.sdk.getShareHelper().createAnnotationHelper(room.sharerView))
    let stroke = AnnotationStroke(points: [
      AnnotationPoint(x: 0, y: 0), AnnotationPoint(x: 1, y: 1),
    ])
    #expect(helper.draw(stroke) == .wrongUsage)  // not started
    #expect(helper.startAnnotation() == .success)
    helper.setToolColor(.blue)
    #expect(helper.draw(stroke) == .success)
    #expect(helper.draw(stroke) == .success)
    #expect(helper.strokes.count == 2 && helper.strokes[0].color == .blue)
    #expect(helper.undo() == .success)
    #expect(helper.canRedo && helper.strokes.count == 1)
    #expect(helper.redo() == .success)
    #expect(helper.redo() == .wrongUsage)
    #expect(helper.clear(.others) == .sessionNoRights)  // only the owner clears others
    #expect(helper.clear(.mine) == .success)
    #expect(helper.strokes.isEmpty && !helper.canUndo && !helper.canRedo)
    #expect(helper.undo() == .wrongUsage)

    #expect(helper.draw(stroke) == .success)
    let owner = try #require(room.grace.sdk.getShareHelper().createAnnotationHelper(nil))
    #expect(owner.clear(.others) == .success)  // the owner clears the viewers' strokes
    #expect(helper.strokes.isEmpty)
    #expect(room.ada.sdk.store.state.shares[1]?.clearCount == 2)
  }
}
