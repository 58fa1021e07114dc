import SessionSDK

extension SessionView.ViewModel {
  /// What seed 000's `SessionView.body` would put on screen, as one line of text.
  ///
  /// It reads only the view model, as the SwiftUI view does: the local tile (video or a
  /// placeholder), the toolbar's microphone button, and one tile per remote user, whose
  /// video state comes from `getVideoCanvas()?.videoStatus()?.on`, live from the replica.
  var screen: String {
    if leftSession { return "Session ended (view dismissed)" }
    if joinSessionFailed { return "Alert \"\(errorTitle)\": \(errorMessage)" }
    guard inSession else { return "Loading session..." }
    let remotes = remoteUsers.map { user in
      let on = user.getVideoCanvas()?.videoStatus()?.on ?? false
      return "\(user.getName() ?? "") (video \(on ? "on" : "off"))"
    }
    return [
      "In session",
      videoOn ? "Video on" : "Video off",
      audioOn ? "Mic on" : "Mic muted",
      "Remote: " + (remotes.isEmpty ? "nobody" : remotes.joined(separator: ", ")),
    ].joined(separator: " · ")
  }
}
