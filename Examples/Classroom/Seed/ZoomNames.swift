// The port of seed 002 to SessionSDK is these type aliases and nothing else: the seed's app
// code in this folder is the article's text as published (see each file's header for the
// lines added around it).

import SessionCore
import SessionSDK

typealias ZoomVideoSDK = VideoSDK
typealias ZoomVideoSDKDelegate = VideoSDKDelegate
typealias ZoomVideoSDKError = VideoSDKError
typealias ZoomVideoSDKInitParams = InitParams
typealias ZoomVideoSDKSessionContext = SessionContext
typealias ZoomVideoSDKUser = User
typealias ZoomVideoSDKUserHelper = UserHelper
typealias ZoomVideoSDKShareHelper = ShareHelper
typealias ZoomVideoSDKAnnotationHelper = AnnotationHelper
