import Testing

extension Issue {
  /// Whether the issue's comments mention every fragment: for `withKnownIssue(…) matching:`.
  func mentions(_ fragments: String...) -> Bool {
    let text = comments.map(\.rawValue).joined(separator: "\n")
    return fragments.allSatisfy { text.contains($0) }
  }
}
