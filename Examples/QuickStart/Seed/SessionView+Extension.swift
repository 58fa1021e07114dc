// swift-format-ignore-file
// Seed 000's SessionView+Extension.swift: the view model, as the article publishes it. The only
// edits are the values of the TODO's session information (filled in, as the TODO asks) and the
// order of the pieces, which the article shows one at a time; the Zoom names resolve through the
// type aliases in ZoomNames.swift.

import Foundation
import SessionCore
import SessionSDK

extension SessionView {
    @MainActor
    class ViewModel: NSObject, ObservableObject, @preconcurrency ZoomVideoSDKDelegate {
        // Error popup
        @Published var errorTitle: String = "Error"
        var errorMessage: String = "Message"
        // Local user
        @Published var userInputJWT = ""
        @Published var shouldJoin = false
        @MainActor weak var localView: UIView?
        @Published var joinSessionFailed: Bool = false
        @Published var inJWTInput: Bool = true
        @Published var inSession: Bool = false
        @Published var leftSession: Bool = false
        @Published var videoOn: Bool = false
        @Published var audioOn: Bool = false
        // Remote users
        @Published var remoteUsers: [ZoomVideoSDKUser] = []
        // ...
        // Attaching the local user's video view
        @MainActor func attachLocalVideo(to view: UIView) {
            self.localView = view
        }
        // Updating the local user's video view
        @MainActor func updateLocalVideo(to view: UIView) {
            guard let myUserVideoCanvas = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf()?.getVideoCanvas(), let myVideoIsOn = myUserVideoCanvas.videoStatus()?.on else { return }
            if myVideoIsOn {
                myUserVideoCanvas.subscribe(with: localView, aspectMode: .panAndScan, andResolution: ._Auto)
            } else {
                myUserVideoCanvas.unSubscribe(with: localView)
            }
        }
        // Attaching the remote user's video view based on index
        @MainActor func attachRemoteUserVideo(index: Int, to view: UIView) {
            guard let index = remoteUsers.indices.first(where: { $0 == index }) else { return }
            if let currentUserVideoCanvas = self.remoteUsers[index].getVideoCanvas(), let videoStatus = currentUserVideoCanvas.videoStatus() {
                if videoStatus.on {
                    currentUserVideoCanvas.subscribe(with: view, aspectMode: .panAndScan, andResolution: ._Auto)
                } else {
                    currentUserVideoCanvas.unSubscribe(with: view)
                }
            }
        }
        // Updating the remote user's video view based on index
        @MainActor func updateRemoteVideo(to view: UIView, index: Int) {
            guard let index = remoteUsers.indices.first(where: { $0 == index }) else { return }
            if let currentUserVideoCanvas = self.remoteUsers[index].getVideoCanvas(), let videoStatus = currentUserVideoCanvas.videoStatus() {
                if videoStatus.on {
                    currentUserVideoCanvas.subscribe(with: view, aspectMode: .panAndScan, andResolution: ._Auto)
                } else {
                    currentUserVideoCanvas.unSubscribe(with: view)
                }
            }
        }

        // MARK: Session Information
        /*
         TODO: Enter the following variables needed to initialize the VSDK and to start/join a session
         You should sign your JWT with a backend service in a production use-case. For faster JWT generation, you can navigate checkout the JWTGenerator.swift under Script folder and its README for more details on how to consume it.
         Once you got the token, you can simple copy and paste it below.
         Ensure that the sessionName matches the session name used to generate the JWT Token.
         */
        let jwtToken = "" // Leave this as empty if you choose to copy and paste your generated JWT token directly in the sample app's alert box after clicking on "Join Session"
        let sessionName = "QuickStart" // Also known as tpc in JWT
        let userName = "Alice" // Display name
        let sessionPassword: String = "" // If needed

        func joinSession() async {
            ZoomVideoSDK.shareInstance()?.delegate = self
            let sessionContext = ZoomVideoSDKSessionContext()
            sessionContext.token = jwtToken.isEmpty ? userInputJWT : jwtToken
            sessionContext.sessionName = sessionName
            sessionContext.userName = userName
            let videoOption = ZoomVideoSDKVideoOptions()
            videoOption.localVideoOn = true
            sessionContext.videoOption = videoOption
            let audioOtion = ZoomVideoSDKAudioOptions()
            audioOtion.mute = true
            sessionContext.audioOption = audioOtion
            if !sessionPassword.isEmpty {
                sessionContext.sessionPassword = sessionPassword
            }
            // Join Session
            if let session = ZoomVideoSDK.shareInstance()?.joinSession(sessionContext) {
                print("Session object: \(session)")
            } else {
                print("Join session failed")
                DispatchQueue.main.async {
                    self.joinSessionFailed = true
                }
            }
        }

        func onSessionJoin() {
            // Session joined successfully.
            print("Session joined")
            inSession = true
        }

        // Local user - toggle video on/off
        func toggleVideo() {
            if let usersVideoCanvas = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf()?.getVideoCanvas(),
                // Get ZoomVideoSDKVideoHelper to control video
                let videoHelper = ZoomVideoSDK.shareInstance()?.getVideoHelper() {
                if let myVideoIsOn = usersVideoCanvas.videoStatus()?.on,
                    myVideoIsOn == true {
                    Task(priority: .background) {
                        await MainActor.run {
                            let error = videoHelper.stopVideo()
                            print("Stop error: \(error.rawValue)")
                        }
                    }
                } else {
                    Task(priority: .background) {
                        await MainActor.run {
                            let error = videoHelper.startVideo()
                            print("Start error: \(error.rawValue)")
                        }
                    }
                }
            }
        }

        // Local user - toggle audio mic unmute/mute
        func toggleAudio() {
            let myUser = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf()
            // Get the user's audio status
            if let audioStatus = myUser?.audioStatus(),
                // Get ZoomVideoSDKAudioHelper to control audio
                let audioHelper = ZoomVideoSDK.shareInstance()?.getAudioHelper() {
                // Check if the user's audio type is none - Not connected yet
                if audioStatus.audioType == .none {
                    Task(priority: .background) {
                        await MainActor.run {
                            audioHelper.startAudio()
                            audioOn = true
                        }
                    }
                } else {
                    // Audio is connected - Toggle audio based on mute status
                    if audioStatus.isMuted {
                        Task(priority: .background) {
                            await MainActor.run {
                                let error = audioHelper.unmuteAudio(myUser)
                                print("Unmute error: \(error.rawValue)")
                                audioOn = true
                            }
                        }
                    } else {
                        Task(priority: .background) {
                            await MainActor.run {
                                let error = audioHelper.muteAudio(myUser)
                                print("Mute error: \(error.rawValue)")
                                audioOn = false
                            }
                        }
                    }
                }
            }
        }

        func onUserJoin(_ helper: ZoomVideoSDKUserHelper?, users: [ZoomVideoSDKUser]?) {
            // Get remote user
            if let userArray = users, let myself = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf() {
                for user in userArray {
                    if (user.getID() != myself.getID()) {
                        remoteUsers.append(user)
                    }
                }
            }
        }

        func onUserVideoStatusChanged(_ helper: ZoomVideoSDKVideoHelper?, user: [ZoomVideoSDKUser]?) {
            if let userArray = user, let myself = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf() {
                for user in userArray {
                    // Get local user
                    if (user.getID() == myself.getID()) {
                        if let myUserVideoCanvas = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf()?.getVideoCanvas(), let myVideoIsOn = myUserVideoCanvas.videoStatus()?.on {
                            if myVideoIsOn {
                                Task(priority: .background) {
                                    await MainActor.run {
                                        self.videoOn = true
                                    }
                                }
                            } else {
                                Task(priority: .background) {
                                    await MainActor.run {
                                        videoOn = false
                                    }
                                }
                            }
                        }
                    }
                    // Get remote user
                    if (user.getID() != myself.getID()), let remoteUserIndex = remoteUsers.firstIndex(where: { currentUser in
                        currentUser.getID() == user.getID()
                    }) {
                        remoteUsers[remoteUserIndex] = user
                    }
                }
            }
        }

        func onUserLeave(_ helper: ZoomVideoSDKUserHelper?, users: [ZoomVideoSDKUser]?) {
            // Get remote user
            if let userArray = users, let myself = ZoomVideoSDK.shareInstance()?.getSession()?.getMySelf() {
                for user in userArray {
                    if (user.getID() != myself.getID()) {
                        remoteUsers.removeAll { remoteUser in
                            remoteUser.getID() == user.getID()
                        }
                    }
                }
            }
        }

        func leaveSession() {
            ZoomVideoSDK.shareInstance()?.leaveSession(true)
        }

        func onSessionLeave() {
            leftSession = true
        }
    }
}
