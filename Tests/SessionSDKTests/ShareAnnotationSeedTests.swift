import Foundation
import SessionCore
import SessionSDK
import Testing

@testable import ShareAnnotationSeed

extension SharedInstanceTests {
  /// `Examples/ShareAnnotation`'s seed code (seed 001's `SessionViewController` as published,
  /// Zoom names through type aliases, UIKit and PDFKit through headless stand-ins) with several
  /// peers on the development service: a doctor (host) who shares and two viewers who
  /// annotate, each a copy of the seed's controller on an instance of its own.
  @Suite("Examples/ShareAnnotation: seed 001 as published, with several peers")
  struct ShareAnnotationSeedTests {
    static let sessionName = "Consultation"

    /// The shared instance and the seed's development service as before any test.
    @MainActor
    static func reset() {
      SharedInstanceTests.resetSharedInstance()
      DevelopmentService.reset(domain: ShareAnnotationPeer.domain)
    }

    /// The doctor (host) and two viewers, joined in that order through their copies of the
    /// seed.
    @MainActor
    static func consultation() -> (
      doctor: ShareAnnotationPeer, patient: ShareAnnotationPeer, nurse: ShareAnnotationPeer
    ) {
      let doctor = ShareAnnotationPeer(name: "Doctor")
      let patient = ShareAnnotationPeer(name: "Patient")
      let nurse = ShareAnnotationPeer(name: "Nurse")
      doctor.join(sessionName: sessionName, role: .host)
      patient.join(sessionName: sessionName, role: .participant)
      nurse.join(sessionName: sessionName, role: .participant)
      return (doctor, patient, nurse)
    }

    /// The service's view of the share of `owner`.
    @MainActor
    static func serviceShare(of owner: ShareAnnotationPeer) -> ActiveShare? {
      guard let id = owner.sdk.getSession()?.getMySelf()?.id else { return nil }
      return DevelopmentService.state(ofSession: sessionName, domain: ShareAnnotationPeer.domain)?
        .shares[id]
    }

    @MainActor
    static func id(of peer: ShareAnnotationPeer) -> UserID? {
      peer.sdk.getSession()?.getMySelf()?.id
    }

    /// A PDF file the document picker can hand over.
    static func samplePDF() throws -> URL {
      let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("health-report-\(UUID().uuidString).pdf")
      try Data("%PDF-1.4\n%%EOF\n".utf8).write(to: url)
      return url
    }

    /// Waits for an alert to show on `peer`'s screen and returns its message.
    @MainActor
    static func alertMessage(on peer: ShareAnnotationPeer) async -> String? {
      await SharedInstanceTests.settle { peer.alert != nil }
      return peer.alert?.message
    }

    @MainActor
    @Test func theHostsJoinLeavesShareSingleAndUnlockedSoEveryoneMayStartOne() async throws {
      Self.reset()
      defer { Self.reset() }
      let (doctor, patient, nurse) = Self.consultation()
      let everyone = [doctor, patient, nurse]
      for peer in everyone {
        let screen = peer.controller
        #expect(peer.sdk.isInSession(), "\(peer.name)")
        // The published onSessionJoin: loading label gone, bar shown, share offered.
        #expect(screen.loadingLabel.isHidden)
        #expect(!screen.tabBar.isHidden)
        #expect(screen.tabBar.delegate === screen)
        #expect(
          screen.tabBar.items?.compactMap(\.title)
            == ["Stop Video", "Mute", "Start Share", "Leave Session"])
        #expect(screen.actualLocalViewDuringShare != nil)
        // The published onUserVideoStatusChanged (a background Task) for the camera the join
        // turned on: both local tiles show the video, their placeholders hide.
        #expect(
          await SharedInstanceTests.settle {
            screen.localPlaceholder?.isHidden == true
              && screen.actualLocalViewDuringShare?.placeholder.isHidden == true
          }, "\(peer.name)")
        #expect(screen.toggleVideoBarItem.title == "Stop Video")
      }
      // The host's onSessionJoin turned multi-share off and unlocked share: nothing to change.
      for peer in everyone {
        let shareHelper: ShareHelper = peer.sdk.getShareHelper()
        #expect(!shareHelper.isMultiShareEnabled() && !shareHelper.isShareLocked())
      }
      #expect(doctor.sdk.getSession()?.getMySelf()?.isHost() == true)
      #expect(doctor.controller.remoteUserViews.count == 2)
      #expect(nurse.controller.remoteUserViews.count == 2)

      // A remote camera turning off reaches each remote tile's placeholder through the
      // published onUserVideoStatusChanged (the quickstart's video button is elided).
      let doctorID = try #require(doctor.sdk.getSession()?.getMySelf()?.getID())
      #expect(doctor.run { doctor.sdk.getVideoHelper().stopVideo() } == .Errors_Success)
      for viewer in [patient, nurse] {
        #expect(
          await SharedInstanceTests.settle {
            viewer.controller.remoteUserViews[doctorID]?.placeholder.isHidden == false
          }, "\(viewer.name)")
      }
      #expect(
        await SharedInstanceTests.settle {
          doctor.controller.toggleVideoBarItem.title == "Start Video"
            && doctor.controller.localPlaceholder?.isHidden == false
        })

      // The bar's Leave Session item: the published tabBar(_:didSelect:) leaves.
      let leave = try #require(patient.controller.tabBar.items?.last)
      patient.tap(leave)
      #expect(!patient.controller.tabBar.isUserInteractionEnabled)
      #expect(!patient.sdk.isInSession())
      #expect(doctor.controller.remoteUserViews.count == 1)
      for peer in [doctor, nurse] { _ = peer.run { peer.sdk.leaveSession(false) } }
    }

    @MainActor
    @Test func theDoctorSharesAViewAndTheViewersAndTheDoctorAnnotate() async throws {
      Self.reset()
      defer { Self.reset() }
      let (doctor, patient, nurse) = Self.consultation()
      let viewers = [patient, nurse]

      // The share button offers the two modes in an alert.
      doctor.tap(doctor.controller.toggleShareBarItem)
      #expect(doctor.alert?.title == "Screen share mode")
      #expect(
        doctor.alert?.actions.compactMap(\.title) == [
          "InAppScreenShare", "ShareWithView", "Cancel",
        ])
      #expect(doctor.controller.toggleShareBarItem.isEnabled)
      // ShareWithView: the bundled sample PDF is not in a test's main bundle, and the view is
      // shared anyway.
      #expect(doctor.tapAlertButton("ShareWithView"))
      #expect(doctor.alert == nil)
      #expect(doctor.controller.chosenShareType == .ShareWithView)
      #expect(doctor.controller.toggleShareBarItem.title == "Stop Share")
      #expect(doctor.sdk.getShareHelper().isSharingOut())
      #expect(Self.serviceShare(of: doctor)?.kind == .view)
      // The published onUserShareStatusChanged, on the sharer's screen and the viewers'.
      #expect(doctor.controller.sharerView.isHidden)
      #expect(!doctor.controller.shareBtnStackView.isHidden)
      #expect(!doctor.controller.localViewDuringShare.isHidden)
      for viewer in viewers {
        let screen = viewer.controller
        #expect(!screen.sharerView.isHidden, "\(viewer.name)")
        #expect(!screen.shareBtnStackView.isHidden)
        #expect(!screen.localViewDuringShare.isHidden)
        #expect(screen.toggleShareBarItem.title == "Share Locked")
        #expect(viewer.sdk.getShareHelper().isOtherSharing())
      }

      // A viewer's share button: single share, someone is sharing.
      patient.tap(patient.controller.toggleShareBarItem)
      #expect(await Self.alertMessage(on: patient) == "Others is sharing. Only 1 share allowed.")
      #expect(patient.tapAlertButton("OK"))
      #expect(!patient.sdk.getShareHelper().isSharingOut())

      // Each viewer's draw button: an annotation helper on the view showing the share, started
      // on the service. The seed marks annotation started only for a share type it chose, so a
      // viewer's screen keeps annotationStarted false (and its tools unset).
      let doctorID = try #require(Self.id(of: doctor))
      var annotators: Set<UserID> = []
      for viewer in viewers {
        viewer.run { viewer.controller.toggleDraw() }
        let helper = try #require(viewer.controller.annotationHelper, "\(viewer.name)")
        #expect(helper.shareOwner == doctorID)
        #expect(helper.isStarted)
        #expect(!viewer.controller.annotationStarted)
        annotators.insert(try #require(Self.id(of: viewer)))
        #expect(Self.serviceShare(of: doctor)?.annotators == annotators)
      }
      // A second tap cannot destroy the started helper, gets it back and fails to start it
      // again: the viewer keeps annotating.
      let patientHelper = patient.controller.annotationHelper
      patient.run { patient.controller.toggleDraw() }
      #expect(patient.controller.annotationHelper === patientHelper)
      #expect(patientHelper?.isStarted == true)
      #expect(Self.serviceShare(of: doctor)?.annotators == annotators)

      // The doctor's draw button needs a document in the shared PDF view first.
      doctor.run { doctor.controller.toggleDraw() }
      #expect(await Self.alertMessage(on: doctor) == "Select a PDF first.")
      #expect(doctor.tapAlertButton("OK"))
      // pickPDF presents the document picker; the picked PDF opens in the shared view.
      doctor.run { doctor.controller.pickPDF() }
      let picker = try #require(
        doctor.controller.presentedViewController as? UIDocumentPickerViewController)
      #expect(picker.contentTypes == [UTType.pdf])
      let sample = try Self.samplePDF()
      defer { try? FileManager.default.removeItem(at: sample) }
      #expect(doctor.pickDocument(sample))
      let document = try #require(doctor.controller.sharedPDFView.document)
      defer { document.documentURL.map { try? FileManager.default.removeItem(at: $0) } }
      #expect(document.documentURL != sample, "the published code reads a copy")
      #expect(!doctor.controller.sharedPDFView.isHidden)
      #expect(doctor.controller.sharedPDFView.autoScales)

      // Now the doctor annotates their own share, with the seed's pen, red, width 2.
      doctor.run { doctor.controller.toggleDraw() }
      #expect(doctor.controller.annotationStarted)
      let own = try #require(doctor.controller.annotationHelper)
      #expect(own.shareOwner == doctorID && own.isStarted)
      #expect(own.getToolType() == .pen)
      #expect(own.getToolColor() == .red)
      #expect(own.getToolWidth() == 2)
      #expect(doctor.controller.shareDrawBtn.image(for: .normal)?.systemName == "pencil.slash")
      annotators.insert(doctorID)
      #expect(Self.serviceShare(of: doctor)?.annotators == annotators)
      // …and the button again stops it.
      doctor.run { doctor.controller.toggleDraw() }
      #expect(!doctor.controller.annotationStarted)
      #expect(!own.isStarted)
      #expect(doctor.controller.shareDrawBtn.image(for: .normal)?.systemName == "pencil")
      annotators.remove(doctorID)
      #expect(Self.serviceShare(of: doctor)?.annotators == annotators)

      // The share button again stops the share: every annotation helper is released.
      doctor.tap(doctor.controller.toggleShareBarItem)
      #expect(doctor.controller.toggleShareBarItem.title == "Start Share")
      #expect(!doctor.sdk.getShareHelper().isSharingOut())
      #expect(Self.serviceShare(of: doctor) == nil)
      #expect(doctor.controller.sharedPDFView.isHidden)
      for viewer in viewers {
        let screen = viewer.controller
        #expect(screen.sharerView.isHidden, "\(viewer.name)")
        #expect(screen.shareBtnStackView.isHidden)
        #expect(screen.localViewDuringShare.isHidden)
        #expect(screen.annotationHelper?.isReleased == true)
        // The seed sets "Share Locked" when a remote share starts and nothing when it stops.
        #expect(screen.toggleShareBarItem.title == "Share Locked")
      }
      // The host's single-share setting (multi-share on, then off again) reaches the published
      // onShareSettingChanged: "Start Share" again.
      #expect(doctor.run { doctor.sdk.getShareHelper().enableMultiShare(true) } == .Errors_Success)
      #expect(doctor.run { doctor.sdk.getShareHelper().enableMultiShare(false) } == .Errors_Success)
      for viewer in viewers {
        #expect(viewer.controller.toggleShareBarItem.title == "Start Share", "\(viewer.name)")
      }
      for peer in [nurse, patient, doctor] { _ = peer.run { peer.sdk.leaveSession(false) } }
    }

    @MainActor
    @Test func aLockedShareRefusesViewersAndTheDoctorAnnotatesAnInAppShare() async throws {
      Self.reset()
      defer { Self.reset() }
      let (doctor, patient, nurse) = Self.consultation()

      // Locked to the host: the seed's guards let the patient choose, and the SDK refuses.
      #expect(doctor.run { doctor.sdk.getShareHelper().lockShare(true) } == .Errors_Success)
      #expect(patient.sdk.getShareHelper().isShareLocked())
      patient.tap(patient.controller.toggleShareBarItem)
      #expect(patient.tapAlertButton("InAppScreenShare"))
      #expect(patient.controller.chosenShareType == .InAppScreenShare)
      #expect(!patient.sdk.getShareHelper().isSharingOut())
      #expect(patient.controller.toggleShareBarItem.title == "Start Share")
      // Cancel closes the alert and changes nothing.
      nurse.tap(nurse.controller.toggleShareBarItem)
      #expect(nurse.tapAlertButton("Cancel"))
      #expect(nurse.alert == nil && nurse.controller.chosenShareType == nil)

      // The doctor shares the whole app (InAppScreenShare).
      doctor.tap(doctor.controller.toggleShareBarItem)
      #expect(doctor.tapAlertButton("InAppScreenShare"))
      #expect(doctor.controller.toggleShareBarItem.title == "Stop Share")
      #expect(Self.serviceShare(of: doctor)?.kind == .inAppScreen)
      for viewer in [patient, nurse] {
        #expect(!viewer.controller.sharerView.isHidden, "\(viewer.name)")
      }
      // They pick the PDF in the file explorer, then draw: for an in-app share the seed sets
      // the annotation view (the shared PDF view) before choosing the tools.
      doctor.run { doctor.controller.pickPDF() }
      let sample = try Self.samplePDF()
      defer { try? FileManager.default.removeItem(at: sample) }
      #expect(doctor.pickDocument(sample))
      defer {
        doctor.controller.sharedPDFView.document?.documentURL.map {
          try? FileManager.default.removeItem(at: $0)
        }
      }
      doctor.run { doctor.controller.toggleDraw() }
      #expect(doctor.controller.annotationStarted)
      #expect(doctor.controller.annotationHelper?.getToolWidth() == 2)
      #expect(doctor.controller.shareDrawBtn.image(for: .normal)?.systemName == "pencil.slash")
      // A viewer annotates too, even with share locked (annotation is not share).
      nurse.run { nurse.controller.toggleDraw() }
      let annotators = Set([Self.id(of: doctor), Self.id(of: nurse)].compactMap { $0 })
      #expect(Self.serviceShare(of: doctor)?.annotators == annotators)

      // The host ends the session for everyone: the helpers are released.
      #expect(doctor.run { doctor.sdk.leaveSession(true) } == .Errors_Success)
      for peer in [doctor, patient, nurse] {
        #expect(!peer.sdk.isInSession(), "\(peer.name)")
        #expect(peer.controller.annotationHelper?.isReleased != false)
      }
      #expect(DevelopmentService.liveSessionNames(domain: ShareAnnotationPeer.domain).isEmpty)
    }

    /// A join the service refuses reaches the published onError, which shows the error.
    @MainActor
    @Test func aRefusedJoinShowsTheSeedsErrorAlert() async throws {
      Self.reset()
      defer { Self.reset() }
      let intruder = ShareAnnotationPeer(name: "Intruder")
      intruder.run {
        let initParams = InitParams()
        initParams.domain = ShareAnnotationPeer.domain
        _ = ZoomVideoSDK.shareInstance()?.initialize(initParams)
        intruder.controller.viewDidLoadAndJoin(
          sessionName: Self.sessionName, userName: intruder.name, token: "not.a.token")
      }
      let message = try #require(await Self.alertMessage(on: intruder))
      #expect(message.hasPrefix("Error occured: "))
      #expect(!intruder.sdk.isInSession())
      #expect(intruder.tapAlertButton("OK"))
    }

    /// The two `@objc` methods Linux cannot compile are kept as published, and the copy
    /// compiled without Objective-C differs from them in the `@objc` line alone.
    @Test func theCopiesWithoutObjcAreThePublishedMethods() throws {
      let file = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(
          "Examples/ShareAnnotation/Seed/SessionViewControllerExtension.swift")
      let lines = try String(contentsOf: file, encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      var pairs: [(published: [String], linux: [String])] = []
      var index = 0
      while let start = lines[index...].firstIndex(of: "#if canImport(ObjectiveC) // (added)") {
        let middle = try #require(lines[start...].firstIndex(of: "#else // (added)"))
        let end = try #require(lines[middle...].firstIndex(of: "#endif // (added)"))
        pairs.append((Array(lines[(start + 1)..<middle]), Array(lines[(middle + 1)..<end])))
        index = end
      }
      #expect(pairs.count == 2)
      for (published, linux) in pairs {
        let head = try #require(published.first)
        #expect(head.hasPrefix("    @objc func "))
        #expect(
          linux.first
            == head.replacingOccurrences(of: "@objc func", with: "func")
            + " // (added) the line above without @objc")
        #expect(published.dropFirst() == linux.dropFirst())
      }
    }
  }
}
