// The port of seed 001 to SessionSDK is these type aliases and nothing else: the seed's app
// code in this folder is the article's text as published (see each file's header for the
// lines added around it).

import SessionCore
import SessionSDK

typealias ZoomVideoSDK = VideoSDK
typealias ZoomVideoSDKDelegate = VideoSDKDelegate
typealias ZoomVideoSDKError = VideoSDKError
typealias ZoomVideoSDKUser = User
typealias ZoomVideoSDKVideoHelper = VideoHelper
typealias ZoomVideoSDKShareHelper = ShareHelper
typealias ZoomVideoSDKShareSetting = ShareSetting
typealias ZoomVideoSDKShareAction = ShareAction
typealias ZoomVideoSDKAnnotationHelper = AnnotationHelper
