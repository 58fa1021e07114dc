// The port of seed 000 to SessionSDK is these type aliases and nothing else: every file of
// the seed's app code in this folder is the seed's text as published.

import SessionSDK

typealias ZoomVideoSDK = VideoSDK
typealias ZoomVideoSDKDelegate = VideoSDKDelegate
typealias ZoomVideoSDKInitParams = InitParams
typealias ZoomVideoSDKSessionContext = SessionContext
typealias ZoomVideoSDKVideoOptions = VideoOptions
typealias ZoomVideoSDKAudioOptions = AudioOptions
typealias ZoomVideoSDKUser = User
typealias ZoomVideoSDKUserHelper = UserHelper
typealias ZoomVideoSDKVideoHelper = VideoHelper
